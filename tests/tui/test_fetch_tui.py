"""The palette's "Fetch a venue from OpenReview…": the dialog shows the fetch's pages and
papers, may be closed while it runs (the list stays usable), and the import lands."""

from __future__ import annotations

from textual.widgets import Static

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.fetch_dialog import FetchDialog
from reader_tui.tui.screens.main_screen import MainScreen
from tests.openreview_server import VENUE, FakeOpenReview, make_venue
from tui_support import settle

SIZE = (120, 40)


async def test_the_palette_offers_the_fetch(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p", *"Fetch a venue")
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FetchDialog)


async def test_fetch_runs_in_the_background_and_imports(library: Library) -> None:
    before = len(library)
    with FakeOpenReview(make_venue(25)) as server:
        server.max_limit = 10
        server.delay = 0.1
        app = create_app(library)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            app.push_screen(FetchDialog(library, api=server.url, pause=0))
            await pilot.pause()
            app.screen.query_one("#fetch-venue").value = VENUE
            await pilot.click("#fetch-go")
            await pilot.pause()
            await pilot.press("escape")  # closed: the fetch goes on
            await pilot.pause()
            assert isinstance(app.screen, MainScreen)
            await app.workers.wait_for_complete()
            await settle(app, pilot)
            assert len(library) == before + 25
            assert len(server.notes_requests()) == 3


async def test_the_dialog_shows_pages_and_papers(library: Library) -> None:
    with FakeOpenReview(make_venue(25)) as server:
        server.max_limit = 10
        app = create_app(library)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            dialog = FetchDialog(library, api=server.url, pause=0)
            app.push_screen(dialog)
            await pilot.pause()
            dialog.query_one("#fetch-venue").value = VENUE
            await pilot.click("#fetch-go")
            await app.workers.wait_for_complete()
            await settle(app, pilot)
            text = str(dialog.query_one("#fetch-progress", Static).content)
            assert "25 new" in text and VENUE in text
