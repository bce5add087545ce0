"""Issue 34, item 6: the status line's messages are whole and current. A message that
does not fit ends with "…" at a word, never cut against the saving state; the whole of it
is under the mouse; a message about the marked papers goes when the marks change."""

from __future__ import annotations

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.status_bar import StatusBar, shorten
from tui_support import screen_text, settle

LONG = "filter cleared (ctrl+o brings it back to the list it showed before escape)"


def status_line(app) -> str:
    return screen_text(app).splitlines()[-2]


def test_shorten_cuts_at_a_word_and_says_so() -> None:
    assert shorten("undid status read → unread: A Title", 20) == "undid status read →…"
    assert shorten("undid status", 40) == "undid status"
    assert shorten("search: unbalanced quote", 12) == "search…"
    assert shorten("abcdefghij", 5) == "abcd…"  # one word longer than the room
    assert shorten("x y", 1) == ""


async def test_a_message_too_long_for_the_line_ends_at_a_word_and_is_whole_in_the_tooltip(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(StatusBar)
        bar.set_saving("not saved: the disk is full", error=True)
        app.screen.say(LONG)
        await settle(app, pilot)
        line = status_line(app)
        assert "not saved" in line
        shown = line[line.index("filter") : line.index("not saved")].rstrip()
        assert shown.endswith("…"), line
        assert LONG.startswith(shown[:-1]) and LONG[len(shown) - 1] == " ", line  # cut at a word
        assert LONG in str(bar.tooltip)


async def test_a_message_about_the_marks_goes_when_the_marks_change(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "4")  # the first two papers marked, then read
        await settle(app, pilot)
        assert "read: 2 marked papers" in status_line(app)
        await pilot.press("up", "space")  # one mark taken off: "2 marked papers" is not true
        await settle(app, pilot)
        assert "1 marked" in status_line(app)
        assert "2 marked papers" not in status_line(app)
        assert app.screen.query_one(StatusBar)._message == ""


async def test_a_search_too_long_for_the_line_ends_at_a_word_not_after_its_name(library: Library) -> None:
    """With no message, the description of the list is what gives way: "search: …" was
    cut off after "search:" as if the search were empty."""
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(StatusBar)
        bar.set_saving("saved")
        describe = "search: attention mechanisms for long context language models"
        bar.set_view(describe, 0)
        await settle(app, pilot)
        line = status_line(app)
        assert "saved" in line and "search:" in line, line
        shown = line[line.index("search:") : line.index("saved")].rstrip()
        assert shown.endswith("…") and len(shown) > len("search: …"), line
        assert describe in str(bar.tooltip)
