"""The clipboard: pyperclip when the system has one, a clear error (CLI) or OSC 52 (TUI) when not."""

from __future__ import annotations

import os
from pathlib import Path

import pyperclip
import pytest

from reader_tui.core.clipboard import NO_CLIPBOARD, ClipboardUnavailable, copy_to_system_clipboard
from reader_tui.tui.clipboard import SYSTEM, TERMINAL, TMUX, copy_text


class FakeApp:
    def __init__(self) -> None:
        self.copied: list[str] = []

    def copy_to_clipboard(self, text: str) -> None:
        self.copied.append(text)


def no_clipboard(text: str) -> None:
    raise pyperclip.PyperclipException("Pyperclip could not find a copy/paste mechanism")


def test_copies_through_pyperclip(monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    copy_to_system_clipboard("@misc{k}")
    assert copied == ["@misc{k}"]


@pytest.mark.parametrize("error", [pyperclip.PyperclipException("none"), FileNotFoundError(2, "xclip")])
def test_no_clipboard_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def fail(text: str) -> None:
        raise error

    monkeypatch.setattr(pyperclip, "copy", fail)
    with pytest.raises(ClipboardUnavailable) as info:
        copy_to_system_clipboard("x")
    assert str(info.value) == NO_CLIPBOARD
    assert "xclip" in str(info.value) and "-o FILE" in str(info.value)


def test_tui_prefers_the_system_clipboard(monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    app = FakeApp()
    assert copy_text(app, "text") == SYSTEM == "system clipboard"  # type: ignore[arg-type]
    assert copied == ["text"] and app.copied == []


def test_tui_falls_back_to_osc52(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pyperclip, "copy", no_clipboard)
    monkeypatch.delenv("TMUX", raising=False)
    app = FakeApp()
    assert copy_text(app, "text") == TERMINAL == "terminal clipboard (OSC 52)"  # type: ignore[arg-type]
    assert app.copied == ["text"]


def fake_tmux(folder: Path, script: str) -> Path:
    """A `tmux` on PATH that runs `script` (sh) with its arguments; what it was given is
    kept in folder/buffer."""
    tmux = folder / "bin" / "tmux"
    tmux.parent.mkdir()
    tmux.write_text(f"#!/bin/sh\n{script}\n")
    tmux.chmod(0o755)
    return folder / "buffer"


@pytest.mark.parametrize("tmux_version", ["3.2 and later", "older, without -w", "failing"])
def test_tui_inside_tmux_copies_to_its_paste_buffer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tmux_version: str
) -> None:
    """Inside tmux, whose default `set-clipboard external` drops a program's OSC 52, the
    text goes to tmux's paste buffer and the message says so: it said "terminal clipboard
    (OSC 52)" of text that reached no clipboard (found by hand in tmux)."""
    buffer = tmp_path / "buffer"
    script = {
        "3.2 and later": f'[ "$1 $2 $3" = "load-buffer -w -" ] && cat > "{buffer}"',
        "older, without -w": f'[ "$2" = "-w" ] && exit 1; [ "$1 $2" = "load-buffer -" ] && cat > "{buffer}"',
        "failing": "exit 1",
    }[tmux_version]
    fake_tmux(tmp_path, script)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    monkeypatch.setattr(pyperclip, "copy", no_clipboard)
    app = FakeApp()
    how = copy_text(app, "\\cite{k} é 🎉")  # type: ignore[arg-type]
    if tmux_version == "failing":
        assert how == TERMINAL and app.copied == ["\\cite{k} é 🎉"]
        return
    assert how == TMUX == "tmux paste buffer (prefix ] pastes it)"
    assert buffer.read_text(encoding="utf-8") == "\\cite{k} é 🎉" and app.copied == []
