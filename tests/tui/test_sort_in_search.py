"""Issue 34, item 4: a sort chosen during a words search orders its matches (best match
first stays the default), and after escape the list is in the sort the status line names."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.model import Paper
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.status_bar import StatusBar
from tui_support import make_library, settle, wait_until

TITLES = {
    "p-zebra": "Zebra graphs",
    "p-apple": "Apple orchards, soil, rainfall and a long study that touches graphs once",
    "p-mango": "Mango graphs on graphs of graphs",
    "p-other": "Beta unrelated vision work",
    "p-kiwi": "Kiwi vision",
}


def _ids(app) -> list[str]:
    return list(app.screen.query_one(PaperList).ids)


def _status(app) -> str:
    return app.screen.query_one(StatusBar)._describe


async def test_a_sort_chosen_during_a_search_orders_its_matches_and_escape_keeps_it(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib", [Paper(id=pid, title=title, year=2026, added=f"2025-11-01T00:00:{i:02d}+00:00")
                                              for i, (pid, title) in enumerate(TITLES.items())])
    app = create_app(library)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        browser = app.screen.browser
        assert await wait_until(pilot, lambda: browser.index is not None and browser.index.abstracts_indexed)
        await pilot.press("slash", *"graphs", "enter")
        await settle(app, pilot)
        best_first = _ids(app)
        assert set(best_first) == {"p-zebra", "p-apple", "p-mango"}
        assert best_first != ["p-apple", "p-mango", "p-zebra"]  # ranked, not by title
        await pilot.press("s", "t")
        await settle(app, pilot)
        assert _ids(app) == ["p-apple", "p-mango", "p-zebra"]  # the sort chosen orders the matches
        assert "sort: title, within the search" in _status(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert _ids(app) == sorted(TITLES, key=TITLES.get)  # the whole list, in the sort named
        assert "sort: title" in _status(app)
        await pilot.press("slash", *"graphs", "enter")  # a new search: best match first again
        await settle(app, pilot)
        assert _ids(app) == best_first
        assert "best match first" in _status(app)
    library.close()
