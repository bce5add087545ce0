"""Issue 34, item 8: the first screen says that the bundled papers are a sample and how to
bring in a whole conference; the search hint names the reviews' fields once there are
reviews; field names complete as they are typed (tab)."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.paths import default_seed_path
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.search_bar import SearchBar
from tui_support import screen_text, settle


async def test_the_sample_list_says_what_it_is_and_how_to_bring_in_a_conference(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=default_seed_path(), background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert f"{len(library.papers)} sample abstracts of ICLR 2026" in text
        assert "reader-tui fetch ICLR.cc/2026/Conference" in text
    library.close()


async def test_a_library_of_ones_own_papers_has_no_sample_line(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        assert "sample abstracts" not in screen_text(app)


async def test_field_names_complete_with_tab_and_the_hint_names_review_fields(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        bar = app.screen.query_one(SearchBar)
        assert "area:" not in bar.placeholder  # no reviews: no review fields named
        await pilot.press("d", "i", "f", "f", "space", "a", "r")
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        assert bar.value == "diff area:" and bar.has_focus
        await pilot.press("escape")
        await settle(app, pilot)
        library.review_store.path.parent.mkdir(parents=True, exist_ok=True)
        library.review_store.path.write_text("", encoding="utf-8")  # reviews imported (the file is what says so)
        await pilot.press("slash")
        assert "area:" in bar.placeholder and "rating:" in bar.placeholder
