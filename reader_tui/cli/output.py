"""What every command prints the same way: errors as one line on stderr, JSON, exit codes."""

from __future__ import annotations

import sys

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class UserError(Exception):
    """A mistake the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def describe_os_error(error: OSError) -> str:
    """One line for an error of the operating system: the file it concerns and what failed."""
    reason = error.strerror or first_line(error) or type(error).__name__
    names = [str(n) for n in (error.filename, error.filename2) if n is not None]
    return f"{' -> '.join(names)}: {reason}" if names else reason


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else ""


def print_json(data: object) -> None:
    from ..core.text.display import safe_json

    sys.stdout.write(safe_json(data) + "\n")


def print_error(message: str) -> None:
    from ..core.text.display import sanitize

    print(f"reader-tui: {sanitize(message)}", file=sys.stderr)
