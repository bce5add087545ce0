"""The system clipboard for the CLI, through pyperclip.

A server reached over SSH usually has no clipboard program (xclip, xsel, wl-copy):
that is reported as `ClipboardUnavailable` with a way out, never a traceback. The TUI has
a further fallback, the terminal's own clipboard (OSC 52), in `reader_tui.tui.clipboard`.
"""

from __future__ import annotations

NO_CLIPBOARD = "no clipboard available: install xclip, xsel or wl-clipboard, or use -o FILE"


class ClipboardUnavailable(RuntimeError):
    """No system clipboard can take the text. `str()` says what to do instead."""

    def __init__(self, message: str = NO_CLIPBOARD) -> None:
        super().__init__(message)


def copy_to_system_clipboard(text: str) -> None:
    """Put `text` on the system clipboard. Raises ClipboardUnavailable when there is none."""
    try:
        import pyperclip
    except ImportError:  # pragma: no cover - pyperclip is a dependency
        raise ClipboardUnavailable() from None
    try:
        pyperclip.copy(text)
    except (pyperclip.PyperclipException, OSError):
        # OSError: a clipboard program that is found but fails to start or write.
        raise ClipboardUnavailable() from None
