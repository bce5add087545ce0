"""The clipboard: pyperclip when the system has one, a clear error (CLI) or OSC 52 (TUI) when not."""

from __future__ import annotations

import pyperclip
import pytest

from reader_tui.core.clipboard import NO_CLIPBOARD, ClipboardUnavailable, copy_to_system_clipboard
from reader_tui.tui.clipboard import SYSTEM, TERMINAL, copy_text


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
    app = FakeApp()
    assert copy_text(app, "text") == TERMINAL == "terminal clipboard (OSC 52)"  # type: ignore[arg-type]
    assert app.copied == ["text"]
