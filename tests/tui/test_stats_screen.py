"""The stats screen shows the library's numbers, and the current filter's beside them."""

from __future__ import annotations

from textual.widgets import Digits, ProgressBar, Sparkline

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.stats_screen import StatsScreen, bar
from tui_support import screen_text, settle

SIZE = (130, 60)


def _annotate(library: Library) -> None:
    library.set_status(["p-graphs", "p-rl"], Status.READ)
    library.set_status(["p-attention"], Status.TO_READ)
    library.set_status(["p-diffusion"], Status.SKIPPED)
    library.set_tags("p-graphs", ["gnn", "chemistry"])
    library.set_tags("p-attention", ["gnn"])
    library.set_tags("p-rl", ["rl"])


async def test_numbers_match_the_library(library: Library) -> None:
    _annotate(library)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("S")
        await settle(app, pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        numbers = stats.numbers[0]
        assert numbers.papers == 6
        assert numbers.status == {"unread": 2, "to-read": 1, "reading": 0, "read": 2, "skipped": 1}
        assert list(numbers.tags.items()) == [("gnn", 2), ("chemistry", 1), ("rl", 1)]
        assert numbers.per_day[-1][1] == 2  # both read today
        assert stats.query_one("#all-read", Digits).value == "2"
        assert stats.query_one("#all-triaged", ProgressBar).progress == 4
        assert list(stats.query_one("#all-spark", Sparkline).data)[-1] == 2
        text = screen_text(app)
        assert "of 6 papers" in text
        assert "gnn" in text and "chemistry" in text
        assert f"read     {bar(2, 6).ljust(24)}      2" in text
        assert "2 read in 28 days" in text
        assert "This list" not in text  # no filter: one column
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_a_filter_gets_its_own_column(library: Library) -> None:
    _annotate(library)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.screen.browser.list_filter = ListFilter.of(tag="gnn")
        app.screen.browser.refilter()
        await settle(app, pilot)
        await pilot.press("S")
        await settle(app, pilot)
        stats = app.screen
        library_numbers, filtered = stats.numbers
        assert library_numbers.papers == 6
        assert filtered.papers == 2
        assert filtered.status["read"] == 1 and filtered.status["to-read"] == 1
        assert stats.query_one("#filter-read", Digits).value == "1"
        assert "This list: filter: tag:gnn" in screen_text(app)
        await pilot.press("q")
        assert isinstance(app.screen, MainScreen)
