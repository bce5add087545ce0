"""Saved searches: save from the palette's name prompt, run from the palette and the side
list (with live counts), delete from the palette."""

from __future__ import annotations

from reader_tui.core.library.library import Library
from reader_tui.core.library.saved_searches import list_searches, save_search
from reader_tui.core.model import Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.name_prompt import NamePrompt
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.saved_searches import SavedSearchList
from tui_support import enter_text, settle, wait_until

SIZE = (120, 40)


def _command(app, text: str):
    for name, _help, command in app.screen.palette_commands():
        if name == text:
            return command
    raise AssertionError(f"no palette command {text!r}")


async def test_round_trip(library: Library) -> None:
    library.set_tags("p-graphs", ["llm"])
    library.set_tags("p-rl", ["llm"])
    library.set_status(["p-rl"], Status.TO_READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        screen.browser.list_filter = ListFilter.of(status=Status.TO_READ, tag="llm")
        screen.browser.refilter()
        await settle(app, pilot)
        _command(app, "Save this search…")()
        await pilot.pause()
        assert isinstance(app.screen, NamePrompt)
        await enter_text(pilot, "#name-input", "to-read llm")  # what it is named, not how it is typed
        await settle(app, pilot)
        assert [(s.name, s.query) for s in list_searches(library)] == [("to-read llm", "status:to-read tag:llm")]

        screen.browser.list_filter = ListFilter()  # back to everything, then run it from the palette
        screen.browser.refilter()
        await settle(app, pilot)
        papers = screen.query_one(PaperList)
        assert len(papers.ids) == 6
        _command(app, "Search: to-read llm")()
        await settle(app, pilot)
        assert papers.ids == ["p-rl"]
        await pilot.press("escape")
        await settle(app, pilot)
        assert len(papers.ids) == 6

        _command(app, "Delete saved search: to-read llm")()
        await settle(app, pilot)
        assert list_searches(library) == []


async def test_side_list_counts_live_and_runs(library: Library) -> None:
    save_search(library, "graphs", "graph")
    save_search(library, "to-read", "status:to-read")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        side = app.screen.query_one(SavedSearchList)
        assert not side.display
        await pilot.press("b")
        await settle(app, pilot)
        assert side.shown and side.display and side.has_focus
        assert side.counts == {"graphs": 1, "to-read": 0}
        assert "graphs  1" in side.text
        library.set_status(["p-rl", "p-graphs"], Status.TO_READ)  # the counts follow
        # the recount runs once the changes pause (COUNT_DELAY)
        assert await wait_until(pilot, lambda: side.counts["to-read"] == 2)
        await settle(app, pilot)
        assert side.counts["to-read"] == 2
        await pilot.press("down", "enter")  # run "to-read"
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        assert set(papers.ids) == {"p-rl", "p-graphs"} and papers.has_focus
        await pilot.press("escape", "b")
        assert not side.display and not side.shown
        assert isinstance(app.screen, MainScreen)


async def test_nothing_to_save_says_so(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        _command(app, "Save this search…")()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert list_searches(library) == []


async def test_side_list_hidden_on_narrow_terminals(library: Library) -> None:
    save_search(library, "graphs", "graph")
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        side = app.screen.query_one(SavedSearchList)
        assert side.shown and not side.display
        assert app.screen.query_one(PaperList).has_focus


HOSTILE_NAME = "\\{x} 50% $a$ \x1b[2J"


async def test_side_list_shows_names_as_typed(library: Library) -> None:
    # A saved search's name is the user's own text: not LaTeX (`\{` stays, `$a$` is no
    # math, `%` starts no comment), and its ESC is drawn as a symbol, never sent.
    save_search(library, HOSTILE_NAME, "graph")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        side = app.screen.query_one(SavedSearchList)
        assert side.text == "\\{x} 50% $a$ \u241b[2J  1"


async def test_palette_shows_names_and_queries_as_typed(library: Library) -> None:
    # The palette reads plain strings as Textual markup (and silently drops controls):
    # a name like "[b]x[/b]" would lose its brackets, a "[link=...]" would become a link.
    from textual.command import CommandList

    name = "[b]bold[/b] " + HOSTILE_NAME
    save_search(library, name, "graph [i]x[/i]")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for typed in ("", "Search"):  # the list before typing (discovery), then matches
            await pilot.press("ctrl+p", *typed)
            await settle(app, pilot)

            def prompts() -> list[str]:
                return [option.prompt.plain for option in app.screen.query_one(CommandList).options]

            want = "Search: [b]bold[/b] \\{x} 50% $a$ \u241b[2J\ngraph [i]x[/i]"
            # the palette gathers hits on a timer of its own: wait for them, bounded
            await wait_until(pilot, lambda: want in prompts())
            assert want in prompts(), [p for p in prompts() if "graph" in p]
            await pilot.press("escape")
            await settle(app, pilot)

