"""Triage mode: decisions land in the store, back and undo work, the position survives a
restart, and it walks only the papers of the main screen's filter."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.triage_screen import POSITION_SETTING
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import PAPERS, make_library, open_triage, screen_text, settle

SIZE = (120, 40)
IDS = [p.id for p in PAPERS]



async def test_decisions_land_in_the_store_and_back_works(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        triage = await open_triage(app, pilot)
        assert triage.current_id == IDS[0]
        text = screen_text(app)
        assert "1 of 6 untriaged · 6 left" in text and "in the library" in text
        assert "Attention Is Not All You Need" in text and "linear" in text  # title and abstract
        await pilot.press("w", "s", "r", "i")
        assert [library.annotation(pid).status for pid in IDS[:4]] == [
            Status.TO_READ, Status.SKIPPED, Status.READ, Status.READING,
        ]
        assert triage.current_id == IDS[4]
        assert "5 of 6 untriaged" in screen_text(app) and "4 decided" in screen_text(app)
        await pilot.press("b")  # back to the last decided paper; a new decision replaces it
        assert triage.current_id == IDS[3]
        await pilot.press("2")
        assert library.annotation(IDS[3]).status is Status.TO_READ
        assert triage.current_id == IDS[4]
        await pilot.press("l")  # next: leave it undecided
        assert triage.current_id == IDS[5]
        assert library.annotation(IDS[4]).status is Status.UNREAD
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(PaperList).current_id == IDS[5]  # the last paper shown


async def test_undo_takes_back_a_decision_and_shows_it_again(library: Library) -> None:
    app = create_app(library)
    said: list[str] = []
    app.notify = lambda message, **kwargs: said.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        triage = await open_triage(app, pilot)
        await pilot.press("r", "w")
        assert library.annotation(IDS[1]).status is Status.TO_READ
        await pilot.press("u")
        # in words, as on the main screen: what changed, then which paper
        assert said[-1].startswith('Undid status to-read → unread: "') and PAPERS[1].title[:20] in said[-1]
        assert library.annotation(IDS[1]).status is Status.UNREAD
        assert triage.current_id == IDS[1]
        assert "1 decided" in screen_text(app)
        await pilot.press("u")
        assert library.annotation(IDS[0]).status is Status.UNREAD
        assert triage.current_id == IDS[0]
        await pilot.press("ctrl+r")
        assert library.annotation(IDS[0]).status is Status.READ


async def test_all_decided_then_escape(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        triage = await open_triage(app, pilot)
        await pilot.press(*"ssssss")
        assert triage.current_id is None
        assert "All triaged" in screen_text(app)
        await pilot.press("q")
        assert isinstance(app.screen, MainScreen)
        assert all(library.annotation(pid).status is Status.SKIPPED for pid in IDS)


async def test_resumes_after_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    library = make_library(folder)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await open_triage(app, pilot)
        await pilot.press("w", "l", "escape", "q")
    library.close()

    reopened = Library.open(folder, background_writes=True)
    try:
        assert reopened.annotation(IDS[0]).status is Status.TO_READ
        assert reopened.settings[POSITION_SETTING] == {"all": IDS[1]}
        app = create_app(reopened)
        async with app.run_test(size=SIZE) as pilot:
            triage = await open_triage(app, pilot)
            # IDS[0] is decided; IDS[1] was passed over with "next": resume after it
            assert triage.current_id == IDS[2]
            assert "2 of 5 untriaged" in screen_text(app)
    finally:
        reopened.close()


async def test_respects_the_filter_and_notes(library: Library) -> None:
    library.set_tags("p-graphs", ["llm"])
    library.set_tags("p-rl", ["LLM"])
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        screen.browser.list_filter = ListFilter.of(tag="llm")
        screen.browser.refilter()
        triage = await open_triage(app, pilot)
        assert triage.queue == ["p-graphs", "p-rl"]
        assert "1 of 2 untriaged" in screen_text(app) and "in this list: filter: tag:llm" in screen_text(app)
        await pilot.press("n", *"molecules!", "escape")
        assert library.annotation("p-graphs").notes == "molecules!"
        await pilot.press("r", "r")
        assert triage.current_id is None
        assert library.annotation("p-attention").status is Status.UNREAD
        assert library.settings[POSITION_SETTING] == {"tag:llm": "p-rl"}
