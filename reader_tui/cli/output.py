"""What every command prints the same way: errors as one line on stderr, JSON, exit codes."""

from __future__ import annotations

import sys

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class UserError(Exception):
    """A mistake the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def undecodable_offset(text: str) -> int | None:
    """The byte offset of the first byte that is not UTF-8 in `text` as it came from the OS
    (argv and file names carry such bytes as lone surrogates), or None when it is all text."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as error:
        return len(text[: error.start].encode("utf-8", "surrogateescape"))


def read_stdin_text() -> str:
    """Standard input as text, exactly (no newline translation), or UserError (exit 2)
    saying where it is not UTF-8."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(f"standard input: not valid UTF-8 at byte {error.start}", EXIT_USAGE) from None


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else ""


def print_json(data: object) -> None:
    from ..core.text.display import safe_json

    sys.stdout.write(safe_json(data) + "\n")


def print_error(message: str) -> None:
    from ..core.text.display import sanitize

    print(f"reader-tui: {sanitize(message)}", file=sys.stderr)
