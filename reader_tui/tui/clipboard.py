"""Copying from the TUI: the system clipboard where there is one, else the terminal's.

Posting's approach: pyperclip first (it works with every terminal on a desktop), then
OSC 52 through Textual's `App.copy_to_clipboard`, which reaches the user's own clipboard
even over SSH when the terminal supports it (most do; macOS Terminal does not).
"""

from __future__ import annotations

from textual.app import App

from ..core.clipboard import ClipboardUnavailable, copy_to_system_clipboard

SYSTEM = "system clipboard"
TERMINAL = "terminal clipboard (OSC 52)"


def copy_text(app: App, text: str) -> str:
    """Copy `text`; returns how it was copied (`SYSTEM` or `TERMINAL`) for a notification."""
    try:
        copy_to_system_clipboard(text)
    except ClipboardUnavailable:
        app.copy_to_clipboard(text)
        return TERMINAL
    return SYSTEM
