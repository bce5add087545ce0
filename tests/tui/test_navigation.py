"""Issue 14, the list as a person who uses vim, less and mutt expects it: marks that act
out of sight say so, escape steps back in one order (marks, "more like this", search,
filter), a jump list (ctrl+o / ctrl+i), undo moving to the paper, the cursor kept on
screen after a resize and remembered on restart, n / N, half pages and `/` in the
detail pane."""

from __future__ import annotations

from pathlib import Path

import pytest

from clusters import TOPIC, cluster_library
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.filter_dialog import FilterDialog
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.search_bar import SearchBar
from tui_support import PAPERS, enter_text, make_library, screen_text, settle, settle_workers

SIZE = (120, 40)
IDS = [p.id for p in PAPERS]


def papers_of(app) -> PaperList:
    return app.screen.query_one(PaperList)


def status_line(app) -> str:
    return screen_text(app).splitlines()[-2]


async def search(app, pilot, text: str) -> None:
    await pilot.press("slash")
    await enter_text(pilot, "#search", text)
    await settle(app, pilot)


@pytest.fixture
def clusters(tmp_path: Path):
    library = cluster_library(tmp_path / "clusters")
    yield library
    library.close()


# -- hidden marks and escape's order ---------------------------------------------------------


async def test_a_bulk_status_on_marks_out_of_sight_says_so(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space")  # the first two papers
        await search(app, pilot, "diffusion")  # neither is a result
        papers = papers_of(app)
        assert papers.ids == ["p-diffusion"] and papers.marked == {IDS[0], IDS[1]}
        await pilot.press("4")
        assert library.annotation(IDS[0]).status is Status.READ
        assert library.annotation("p-diffusion").status is Status.UNREAD
        await settle(app, pilot)
        told = [n.message for n in app._notifications]
        assert "read: 2 marked papers, 0 of them visible; escape clears marks" in told
        assert app.screen.status_bar._message == "read: 2 marked, 0 visible"
        app.clear_notifications()  # under the notification, the status line says it too
        await settle(app, pilot)
        assert "2 marked (2 out of sight)" in status_line(app)


async def test_escape_clears_marks_then_the_search_then_the_filter(library: Library) -> None:
    library.set_status([IDS[1], IDS[4], IDS[5]], Status.READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        app.screen.browser.set_filter(ListFilter.of(status=Status.READ))
        await settle(app, pilot)
        assert papers.ids == [IDS[1], IDS[4], IDS[5]]
        await search(app, pilot, "diffusion")
        await pilot.press("space")
        assert papers.marked == {"p-diffusion"}
        await pilot.press("escape")  # 1: the marks
        await settle(app, pilot)
        assert not papers.marked and papers.ids == ["p-diffusion"]
        assert "1 mark cleared" in status_line(app)
        await pilot.press("escape")  # 2: the search
        await settle(app, pilot)
        assert papers.ids == [IDS[1], IDS[4], IDS[5]] and not app.screen.query_one(SearchBar).display
        await pilot.press("escape")  # 3: the filter
        await settle(app, pilot)
        assert papers.ids == IDS and app.screen.browser.list_filter.is_empty
        assert "filter cleared" in status_line(app)


async def test_f_then_enter_filters_and_escape_clears_it_several_statuses_at_once(library: Library) -> None:
    library.set_status([IDS[1]], Status.READ)
    library.set_status([IDS[2]], Status.TO_READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        assert isinstance(app.screen, FilterDialog)
        await pilot.press("down", "space", "down", "down", "space", "enter")  # to-read and read
        await settle(app, pilot)
        papers = papers_of(app)
        assert papers.ids == [IDS[1], IDS[2]]
        assert "filter: status:to-read,read" in status_line(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.ids == IDS


# -- the jump list -----------------------------------------------------------------------------


async def test_escape_from_more_like_this_returns_to_the_search(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "denoising")
        papers = papers_of(app)
        results = list(papers.ids)
        assert results and {TOPIC[pid] for pid in results} == {"diffusion"}
        papers.move_to(1)
        source = papers.current_id
        await pilot.press("M")
        await settle(app, pilot)
        assert papers.ids != results and papers.ids[0] == source
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.ids == results and papers.current_id == source
        assert app.screen.browser.search_text == "denoising"
        assert "search: denoising" in status_line(app)
        # the jump list: back into "more like this", forward to the search again
        await pilot.press("ctrl+o")
        await settle(app, pilot)
        assert app.screen.browser.more_like is not None and papers.ids[0] == source
        await pilot.press("ctrl+i")
        await settle(app, pilot)
        assert papers.ids == results and app.screen.browser.more_like is None
        # and back past the search to the whole list, the bar closing with it
        await pilot.press("ctrl+o", "ctrl+o")
        await settle(app, pilot)
        assert len(papers.ids) == len(TOPIC) and not app.screen.query_one(SearchBar).display


async def test_a_jump_to_a_related_paper_has_a_way_back(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        papers.move_to(papers.ids.index("rl-0"))
        await settle(app, pilot)
        await pilot.press("right_square_bracket", "enter")
        assert papers.current_id != "rl-0"
        await pilot.press("ctrl+o")
        await settle(app, pilot)
        assert papers.current_id == "rl-0"
        await pilot.press("ctrl+i")
        await settle(app, pilot)
        assert papers.current_id != "rl-0"


async def test_escaping_a_search_can_be_gone_back_on(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "graph")
        await search(app, pilot, "diffusion")
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers_of(app).ids == IDS
        await pilot.press("ctrl+o")
        await settle(app, pilot)
        bar = app.screen.query_one(SearchBar)
        assert papers_of(app).ids == ["p-diffusion"] and bar.display and bar.value == "diffusion"
        await pilot.press("ctrl+o")  # the search before it
        await settle(app, pilot)
        assert papers_of(app).ids == ["p-graphs"] and bar.value == "graph"


# -- the cursor: undo, resize, restart ---------------------------------------------------------


def many_papers(n: int = 200) -> list[Paper]:
    return [Paper(id=f"id{i:03}", title=f"Paper {i:03}", added=f"2025-11-01T00:{i // 60:02}:{i % 60:02}+00:00")
            for i in range(n)]


async def test_undo_of_a_paper_the_search_hides_shows_it(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "4")
        await search(app, pilot, "diffusion")
        await pilot.press("u")
        await settle(app, pilot)
        assert library.annotation(IDS[1]).status is Status.UNREAD
        assert papers_of(app).current_id == IDS[1]
        assert 'undid status read → unread: "Graph Neural Networks for Molecules"' in status_line(app)


async def test_after_a_resize_the_cursor_row_is_on_screen(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib", many_papers())
    app = create_app(library)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        papers.move_to(40)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        top, height = round(papers.scroll_y), papers.scrollable_content_region.height
        assert top <= papers.cursor < top + height
        assert "Paper 040" in screen_text(app)
    library.close()


async def test_the_cursor_is_where_the_user_left_it_after_a_restart(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib", many_papers())
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers_of(app).move_to(150)
        await pilot.pause()
        await app.action_quit()
    library.close()
    reopened = Library.open(tmp_path / "lib", background_writes=True)
    app = create_app(reopened)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        assert papers.current_id == "id150"
        top = round(papers.scroll_y)
        assert top <= papers.cursor < top + papers.scrollable_content_region.height
        assert "Paper 150" in screen_text(app)
    reopened.close()


# -- sorted by status --------------------------------------------------------------------------


async def test_a_status_change_moves_the_paper_when_sorted_by_status(library: Library) -> None:
    library.set_setting("sort", {"field": "status", "reverse": False})
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        assert app.screen.browser.sort_key == SortKey("status")
        first = papers.current_id
        await pilot.press("5")  # skipped: the last group
        await settle(app, pilot)
        assert papers.ids[-1] == first and papers.current_id == first


# -- keys: n / N, half pages, / in the detail pane -----------------------------------------------


async def test_n_and_shift_n_go_through_the_results_round_the_end(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "diffusion")
        papers = papers_of(app)
        count = len(papers.ids)
        assert count > 2 and papers.cursor == 0
        await pilot.press("n", "n")
        assert papers.cursor == 2
        await pilot.press("N", "N", "N")
        assert papers.cursor == count - 1
        await settle(app, pilot)
        assert "continuing at the bottom" in status_line(app)


async def test_n_without_a_search_says_how_to_search(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        assert papers_of(app).cursor == 0 and "no search: / searches" in status_line(app)


async def test_ctrl_d_and_ctrl_u_move_half_a_page(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib", many_papers())
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = papers_of(app)
        half = papers.scrollable_content_region.height // 2
        await pilot.press("ctrl+d")
        assert papers.cursor == half and round(papers.scroll_y) == half
        await pilot.press("ctrl+d", "ctrl+u")
        assert papers.cursor == half
    library.close()


async def test_slash_in_the_detail_pane_finds_in_the_paper(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")  # into the detail pane
        detail = app.screen.query_one(PaperDetail)
        assert detail.has_focus
        await pilot.press("slash", *"softmax")
        await settle_workers(pilot)
        assert detail.find_text == "softmax"
        assert papers_of(app).ids == IDS  # the list was not searched
        await pilot.press("enter")
        assert detail.has_focus and not app.screen.query_one(SearchBar).display
        assert any("softmax" in detail.render_line(y).text for y in range(detail.scrollable_content_region.height))
        await pilot.press("n")  # one line holds it: n stays there
        assert any("softmax" in detail.render_line(y).text for y in range(detail.scrollable_content_region.height))
        await pilot.press("escape")  # escape in the pane ends the find first ...
        assert detail.find_text == "" and detail.has_focus
        await pilot.press("escape")  # ... then goes back to the list
        assert papers_of(app).has_focus
        await pilot.press("enter", "slash", *"linear", "escape")  # escape in the bar ends it too
        assert detail.find_text == "" and detail.has_focus


async def test_a_filter_set_during_a_search_holds_once_the_search_ends(library: Library) -> None:
    library.set_status([IDS[1], IDS[4]], Status.READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "graph")
        app.screen.browser.set_filter(ListFilter.of(status=Status.READ))
        await settle(app, pilot)
        await pilot.press("escape")  # the search ends: the filtered list, not the one before `/`
        await settle(app, pilot)
        assert papers_of(app).ids == [IDS[1], IDS[4]]


async def test_a_restart_brings_back_the_filter_search_sort_scroll_and_cursor(tmp_path: Path) -> None:
    """Issue 34, item 3: the view as it was left, not only its cursor and sort."""
    papers_in = [Paper(id=f"id{i:03}", title=f"Paper {i:03} {'graphs' if i % 2 else 'vision'}",
                       added=f"2025-11-01T{i // 3600:02}:{i // 60 % 60:02}:{i % 60:02}+00:00") for i in range(600)]
    library = make_library(tmp_path / "lib", papers_in)
    library.set_status([f"id{i:03}" for i in range(0, 600, 3)], Status.READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        browser = app.screen.browser
        browser.set_filter(ListFilter.of(status=Status.READ))
        browser.set_order(SortKey("title", reverse=True))
        await settle(app, pilot)
        await pilot.press("slash", *"graphs")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        papers = papers_of(app)
        papers.move_to(80)
        await pilot.pause()
        shown, current, top = list(papers.ids), papers.current_id, round(papers.scroll_y)
        assert top > 0
        await app.action_quit()
    library.close()
    reopened = Library.open(tmp_path / "lib", background_writes=True)
    app = create_app(reopened)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        browser = app.screen.browser
        papers = papers_of(app)
        assert browser.list_filter == ListFilter.of(status=Status.READ)
        assert browser.search_text == "graphs"
        assert browser.sort_key == SortKey("title", reverse=True)
        assert app.screen.query_one(SearchBar).value == "graphs"
        assert list(papers.ids) == shown
        assert papers.current_id == current
        assert round(papers.scroll_y) == top
        assert "filter: status:read" in status_line(app) and "search: graphs" in status_line(app)
        await pilot.press("escape")  # the search goes as it would have before the restart
        await settle(app, pilot)
        assert browser.search_text == "" and len(papers.ids) == 200
    reopened.close()
