"""The edit dialog's error lines show text as data: an id from a user's file can hold
markup or terminal escapes, and an error naming it must show it as it is."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from reader_tui.tui.dialogs.edit_dialog import show_error


class _ErrorLine(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(id="error")


async def test_an_error_naming_a_hostile_id_shows_it_as_typed() -> None:
    app = _ErrorLine()
    async with app.run_test() as pilot:
        line = app.query_one("#error", Static)
        show_error(line, "already used by paper [b]x[/b]\x1b]0;title\x07")
        await pilot.pause()
        shown = str(line.render())
        assert shown == "already used by paper [b]x[/b]␛]0;title␇"
        assert line.has_class("-shown")
