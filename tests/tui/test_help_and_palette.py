"""Issue 14: help (`?`) and the command palette show the app's own actions, grouped, with
the glyph legend and the search syntax in help; none of Textual's inherited bindings
(Scroll Left/Right, Page Left, Maximize, Screenshot, "Up - key: up,k"); `^p Commands`
once in the footer, `? Help` always visible in it."""

from __future__ import annotations

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.commands import ReaderCommands
from reader_tui.tui.keys import legend_line
from reader_tui.tui.screens.help_screen import HelpScreen
from tui_support import screen_text, settle, wait_until

INHERITED = ("Scroll Left", "Scroll Right", "Page Left", "Page Right", "Copy selected text", "Maximize",
             "Screenshot", "Focus Next")


def _help_text(app) -> str:
    return str(app.screen.query_one("#help-table").render())


async def test_help_lists_the_apps_keys_grouped_with_legend_and_search_syntax(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(100, 50)) as pilot:
        await settle(app, pilot)
        for focus in ("list", "detail"):
            if focus == "detail":
                await pilot.press("enter")  # the detail pane: its own scroll keys, no inherited ones
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = _help_text(app)
            for inherited in INHERITED:
                assert inherited not in text, (focus, inherited)
            for heading in ("The current paper (or the marked ones)", "Anywhere", "Marks at the start of a row",
                            "Search syntax"):
                assert heading in text
            assert "○ " in text and "to-read" in text and "✗ " in text and "has notes" in text
            assert "tag:llm" in text and "status:to-read" in text and '"exact phrase"' in text
            assert ("Scroll down" in text) == (focus == "detail")
            await pilot.press("escape")


async def test_palette_lists_actions_not_cursor_moves_nor_system_commands(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        commands = list(ReaderCommands(app.screen)._commands())
        names = [text for text, _, _ in commands]
        for move in ("Up", "Down", "First", "Last", "Page up", "Page down"):
            assert move not in names
        assert not any(name in INHERITED for name in names)
        helps = dict((text, help_text) for text, help_text, _ in commands)
        assert helps["Search"] == "The list · key /"
        assert helps["Tags"].startswith("The current paper")
        assert helps["Quit"] == "Anywhere · key q"
        # Textual's system commands (Maximize, Screenshot, Keys) are not this app's
        assert all(provider is ReaderCommands for provider in app.COMMANDS)


async def test_footer_shows_the_palette_once_and_help_at_80_columns(library: Library) -> None:
    app = create_app(library)
    for size in ((80, 24), (140, 45)):
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            footer = screen_text(app).splitlines()[-1]
            assert footer.count("^p Commands") == 1, footer
            assert "? Help" in footer, footer
        app = create_app(library)


async def test_status_line_explains_the_glyphs(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert legend_line() in app.screen.query_one("#status").tooltip


async def test_help_and_stats_scroll_with_the_apps_scroll_keys(library: Library) -> None:
    """`j`, `k`, `g`, `G`, `space`, `ctrl+d` and `ctrl+u` scroll help and the statistics, as
    they scroll the detail pane: only the arrows, home / end and page keys did (found by
    hand at 80x24, where neither fits the screen; 80x18 here, for the small test library)."""
    from reader_tui.tui.screens.stats_screen import StatsScreen

    app = create_app(library)
    async with app.run_test(size=(80, 18)) as pilot:

        async def press(*keys: str) -> float:
            await pilot.press(*keys)
            await pilot.wait_for_scheduled_animations()
            return scroll.scroll_y

        await settle(app, pilot)
        for opener, screen_type, scroll_id in (("question_mark", HelpScreen, "#help-scroll"),
                                               ("S", StatsScreen, "#stats-scroll")):
            await pilot.press(opener)
            assert isinstance(app.screen, screen_type)
            scroll = app.screen.query_one(scroll_id)
            assert await wait_until(pilot, lambda: scroll.max_scroll_y > scroll.scrollable_content_region.height // 2), "a screen that does not fit"
            assert await press("j", "j") == 2, opener
            assert await press("k") == 1, opener
            assert await press("G") == scroll.max_scroll_y, opener
            assert await press("g") == 0, opener
            assert await press("ctrl+d") == scroll.scrollable_content_region.height // 2, opener
            assert await press("ctrl+u") == 0, opener
            assert await press("space") > 0, opener
            await pilot.press("escape")


async def test_scroll_keys_between_two_refreshes_each_scroll(library: Library) -> None:
    """Textual's line scroll counted from where the view was going, but moved it only after
    the next refresh: two `j` handled before a refresh (a held key at a busy moment)
    scrolled one line (and two ctrl+d in help half a page). Here the keys are handled in
    one go, with no refresh between."""
    app = create_app(library)
    async with app.run_test(size=(80, 18)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        scroll = app.screen.query_one("#help-scroll")
        assert await wait_until(pilot, lambda: scroll.max_scroll_y > 4)
        scroll.action_scroll_down()
        scroll.action_scroll_down()
        scroll.action_scroll_down()
        scroll.action_scroll_up()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        assert scroll.scroll_y == 2
        scroll.scroll_to(y=0, animate=False, immediate=True)
        scroll.action_half_page(1)
        scroll.action_half_page(1)  # ctrl+d twice, no refresh between: a whole page
        await pilot.pause()
        assert scroll.scroll_y == min(scroll.max_scroll_y, 2 * (scroll.scrollable_content_region.height // 2))
