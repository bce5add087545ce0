"""A toggle's state shows in its characters, not only in its colour (issue 34, item 11)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import RadioSet

from reader_tui.tui.widgets.marked_toggles import MarkedCheckbox, MarkedRadioButton
from tui_support import screen_text


class _Toggles(App[None]):
    def compose(self) -> ComposeResult:
        with RadioSet():
            yield MarkedRadioButton("first", value=True, id="first")
            yield MarkedRadioButton("second", id="second")
        yield MarkedCheckbox("ticked", value=True, id="ticked")
        yield MarkedCheckbox("blank", id="blank")


def _row(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if label in line)


async def test_on_and_off_differ_in_their_characters() -> None:
    app = _Toggles()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "●" in _row(text, "first") and "○" in _row(text, "second")
        assert "X" in _row(text, "ticked") and "X" not in _row(text, "blank")
        app.query_one("#second", MarkedRadioButton).value = True  # the set turns "first" off
        app.query_one("#ticked", MarkedCheckbox).value = False
        await pilot.pause()
        text = screen_text(app)
        assert "○" in _row(text, "first") and "●" in _row(text, "second")
        assert "X" not in _row(text, "ticked")
