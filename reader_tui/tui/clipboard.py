"""Copying from the TUI: the system clipboard where there is one, else the terminal's.

Posting's approach: pyperclip first (it works with every terminal on a desktop), then
OSC 52 through Textual's `App.copy_to_clipboard`, which reaches the user's own clipboard
even over SSH when the terminal supports it (most do; macOS Terminal does not).

Inside tmux, OSC 52 from a program is dropped unless tmux's `set-clipboard` is `on` (its
default, `external`, drops it), so "copied to the terminal clipboard" was said of text
that went nowhere. There the text goes into tmux's paste buffer (`tmux load-buffer`),
which `prefix ]` pastes, and with `-w` tmux also hands it to the terminal's clipboard
where its settings allow.
"""

from __future__ import annotations

import os
import subprocess

from textual.app import App

from ..core.clipboard import ClipboardUnavailable, copy_to_system_clipboard

SYSTEM = "system clipboard"
TERMINAL = "terminal clipboard (OSC 52)"
TMUX = "tmux paste buffer (prefix ] pastes it)"


def copy_to_tmux(text: str) -> bool:
    """Put `text` in tmux's paste buffer when running inside tmux; True if it is there."""
    if not os.environ.get("TMUX"):
        return False
    data = text.encode("utf-8", "surrogateescape")
    # -w (tmux 3.2+) also sets the terminal's clipboard; an older tmux refuses the flag.
    for command in (["tmux", "load-buffer", "-w", "-"], ["tmux", "load-buffer", "-"]):
        try:
            subprocess.run(command, input=data, capture_output=True, timeout=2, check=True)
        except (OSError, subprocess.SubprocessError):
            continue
        return True
    return False


def copy_text(app: App, text: str) -> str:
    """Copy `text`; returns how it was copied (`SYSTEM`, `TMUX` or `TERMINAL`) for a notification."""
    try:
        copy_to_system_clipboard(text)
    except ClipboardUnavailable:
        if copy_to_tmux(text):
            return TMUX
        app.copy_to_clipboard(text)
        return TERMINAL
    return SYSTEM
