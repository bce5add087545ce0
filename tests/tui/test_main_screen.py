"""The main screen driven by its keys (issue 3's key table): each test asserts on the
store and on what the screen shows."""

from __future__ import annotations

from pathlib import Path

from textual.css.query import NoMatches
from textual.widgets import Input

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.widgets import side_pane
from reader_tui.tui.widgets.library_watcher import LibraryWatcher
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.side_pane import SidePane
from tui_support import HOSTILE_ESCAPES, HOSTILE_MARKUP, PAPERS, screen_text, settle, wait_until

SIZE = (120, 40)
IDS = [p.id for p in PAPERS]


def paper_list(app) -> PaperList:
    return app.screen.query_one(PaperList)


def rows(app) -> list[str]:
    papers = paper_list(app)
    return [papers.render_line(y).text for y in range(len(papers.ids))]


async def test_first_screen_shows_list_detail_and_counts(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert paper_list(app).has_focus
        text = screen_text(app)
        assert "Attention Is Not All You Need for O(n) Transformers" in text
        assert "Ada Lovelace, Alan Turing" in text  # detail pane of the first paper
        assert "6 papers · 0 read · 0 reading" in text


async def test_moving_and_status_keys_change_the_store(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "j", "r")
        assert paper_list(app).current_id == IDS[2]
        assert library.annotation(IDS[2]).status is Status.READ
        await pilot.press("r")
        assert library.annotation(IDS[2]).status is Status.UNREAD
        await pilot.press("k", "2", "down", "3", "G", "5", "g", "4")
        assert library.annotation(IDS[1]).status is Status.TO_READ
        assert library.annotation(IDS[2]).status is Status.READING
        assert library.annotation(IDS[-1]).status is Status.SKIPPED
        assert library.annotation(IDS[0]).status is Status.READ
        await pilot.press("1")
        assert library.annotation(IDS[0]).status is Status.UNREAD
        await settle(app, pilot)
        assert rows(app)[2].startswith(" " + Status.READING.mark + " ")
        assert "6 papers · 0 read · 1 reading" in screen_text(app)
        assert "reading" in screen_text(app)
    library.flush()
    reopened = Library.open(library.files.folder)
    assert reopened.annotation(IDS[2]).status is Status.READING


async def test_marks_make_actions_bulk(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "j", "space")  # space marks and moves down
        papers = paper_list(app)
        assert papers.marked == {IDS[0], IDS[2]}
        assert rows(app)[0].startswith("▌") and rows(app)[2].startswith("▌")
        await pilot.press("2")
        assert [library.annotation(pid).status for pid in IDS[:3]] == [Status.TO_READ, Status.UNREAD, Status.TO_READ]
        await settle(app, pilot)
        assert "2 marked" in screen_text(app)
        await pilot.press("escape")  # on the list, escape clears the marks
        assert not papers.marked
        await pilot.press("r")
        assert library.annotation(papers.current_id).status is Status.READ


async def test_undo_and_redo_move_to_the_paper_and_say_what_changed(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "j", "3", "G")  # the cursor ends far from both changes
        await pilot.press("u")
        assert library.annotation(IDS[1]).status is Status.UNREAD
        assert paper_list(app).current_id == IDS[1]
        await settle(app, pilot)
        assert 'undid status reading → unread: "Graph Neural Networks for Molecules"' in screen_text(app)
        await pilot.press("u")
        assert library.annotation(IDS[0]).status is Status.UNREAD
        assert paper_list(app).current_id == IDS[0]
        await pilot.press("G", "ctrl+r")
        assert library.annotation(IDS[0]).status is Status.READ
        assert paper_list(app).current_id == IDS[0]
        await settle(app, pilot)
        assert rows(app)[0].startswith(" " + Status.READ.mark)
        assert "redid status unread → read: " in screen_text(app)


async def test_typed_notes_are_saved_on_quit(library: Library, tmp_path: Path) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "a")
        notes = app.screen.query_one(NotesEditor)
        assert notes.has_focus
        await pilot.press(*"great idea", "enter", "r", "q")  # keys type into the notes
        assert library.annotation(IDS[1]).status is Status.UNREAD
        await pilot.press("q")  # still typing: q is a letter here
        assert notes.text == "great idea\nrqq"
        await pilot.press("escape")
        assert paper_list(app).has_focus
        await pilot.press("a", "end", "x")
        await pilot.press("escape", "q")  # quit at once, before the autosave timer
    assert app.return_code == 0
    reopened = Library.open(library.files.folder)
    assert reopened.annotation(IDS[1]).notes == "great idea\nrqqx"


async def test_notes_autosave_when_moving_to_another_paper(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", *"first")
        await pilot.press("escape", "j")
        assert library.annotation(IDS[0]).notes == "first"
        await settle(app, pilot)  # the pane follows once the cursor rests
        assert app.screen.query_one(NotesEditor).text == ""
        await pilot.press("k")
        await settle(app, pilot)
        assert app.screen.query_one(NotesEditor).text == "first"
        await pilot.press("u")  # undo takes the note back and the pane follows
        await settle(app, pilot)
        assert library.annotation(IDS[0]).notes == ""
        assert app.screen.query_one(NotesEditor).text == ""


async def test_search_filters_and_escape_restores(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j")
        before = list(paper_list(app).ids)
        await pilot.press("slash")
        assert app.screen.query_one("#search", Input).has_focus
        await pilot.press(*"graph")
        await settle(app, pilot)
        assert paper_list(app).ids[0] == "p-graphs"
        assert len(paper_list(app).ids) < len(before)
        assert "search: graph" in screen_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert paper_list(app).ids == before
        assert paper_list(app).current_id == IDS[3]
        assert paper_list(app).has_focus
        assert not app.screen.query_one("#search", Input).display


async def test_search_enter_keeps_results_and_focuses_list(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"diffusion", "enter")
        await settle(app, pilot)
        assert paper_list(app).ids == ["p-diffusion"]
        assert paper_list(app).has_focus
        await pilot.press("r")
        assert library.annotation("p-diffusion").status is Status.READ
        await pilot.press("escape")  # escape on the list ends the search
        await settle(app, pilot)
        assert len(paper_list(app).ids) == len(IDS)


async def test_bad_query_is_a_gentle_message(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        # set whole, not typed: typing runs the in-between queries ("statu" is a fine
        # search that changes the list), and the bad query's handling is what is tested
        app.screen.query_one("#search", Input).value = "status:nonsense"
        await settle(app, pilot)
        text = screen_text(app)
        assert "search:" in text
        assert len(paper_list(app).ids) == len(IDS)  # the list stays as it was


async def test_hostile_titles_render_literally(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        lines = rows(app)
        assert HOSTILE_MARKUP in lines[2]
        assert "\x1b" not in "".join(lines)
        assert "Escape ␛[31mred␛[0m bell␇ title" in lines[3]
        await pilot.press("j", "j")
        await settle(app, pilot)
        text = screen_text(app)
        assert HOSTILE_MARKUP in text  # the detail pane shows it as typed too
        assert "[bold]markup[/bold]" in text
        await pilot.press("j")
        await settle(app, pilot)
        assert "\x1b" not in screen_text(app)
        assert HOSTILE_ESCAPES not in screen_text(app)


async def test_tags_modal_adds_to_marked_papers(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space", "t")
        await pilot.pause()
        await pilot.press(*"llm", "enter", "escape")
        await settle(app, pilot)
        assert library.annotation(IDS[0]).tags == ("llm",)
        assert library.annotation(IDS[1]).tags == ("llm",)
        assert "llm" in rows(app)[0]


async def test_filter_and_sort_dialogs_reorder_the_list(library: Library) -> None:
    from reader_tui.core.search.filters import ListFilter
    from reader_tui.core.search.sorting import SortKey, title_key
    from reader_tui.tui.dialogs.filter_dialog import FilterDialog
    from reader_tui.tui.dialogs.sort_dialog import SortDialog

    library.set_status([IDS[1], IDS[4]], Status.READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        assert isinstance(app.screen, FilterDialog)
        app.screen.dismiss(ListFilter.of(status=Status.READ))
        await settle(app, pilot)
        assert paper_list(app).ids == [IDS[1], IDS[4]]
        assert "2 papers of 6 · 2 read" in screen_text(app)
        assert "filter: status:read" in screen_text(app)
        await pilot.press("f")
        app.screen.dismiss(ListFilter())
        await pilot.press("s")
        assert isinstance(app.screen, SortDialog)
        app.screen.dismiss(SortKey("title"))
        await settle(app, pilot)
        views = library.views(paper_list(app).ids)
        assert len(views) == 6 and views == sorted(views, key=title_key)
        assert "sort: title" in screen_text(app)
    assert library.settings["sort"] == {"field": "title", "reverse": False}


async def test_other_process_changes_appear(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        other = Library.open(library.files.folder)
        other.set_status([IDS[0]], Status.READ)
        other.set_tags(IDS[0], ["from-cli"])
        app.screen.query_one(LibraryWatcher).poll_disk()
        await settle(app, pilot)
        assert library.annotation(IDS[0]).status is Status.READ
        assert "from-cli" in rows(app)[0]
        assert "1 read" in screen_text(app)


async def test_layout_at_80x24(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.screen.has_class("-narrow")
        for widget in (paper_list(app), app.screen.query_one(PaperDetail)):
            assert widget.region.width >= 40 and widget.region.height >= 3, widget
        assert app.screen.query_one(NotesEditor).region.height == 1  # empty: one line until focused
        text = screen_text(app)
        assert "6 papers" in text and "Attention Is Not All" in text
        await pilot.press("j", "a", *"ok", "escape")
        assert paper_list(app).has_focus


async def test_theme_is_remembered(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "nord"
        await settle(app, pilot)
    assert library.settings["theme"] == "nord"
    again = create_app(library)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_command_palette_lists_every_action(library: Library) -> None:
    from reader_tui.tui.commands import ReaderCommands

    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        provider = ReaderCommands(app.screen)
        names = [text for text, _, _ in provider._commands()]
        for wanted in ("Read", "Tags", "Notes", "Search", "Filter", "Sort", "Export", "BibTeX", "Undo", "Redo", "Mark", "Help", "Quit"):
            assert wanted in names, wanted
        assert any(name.startswith("Theme: ") for name in names)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "CommandPalette"


async def test_enter_tab_help_and_copy(library: Library, monkeypatch) -> None:
    import reader_tui.tui.clipboard as clipboard
    from reader_tui.tui.screens.help_screen import HelpScreen

    copied: list[str] = []
    monkeypatch.setattr(clipboard, "copy_text", lambda app, text: copied.append(text) or "test clipboard")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert app.screen.query_one(PaperDetail).has_focus
        await pilot.press("tab")
        assert app.screen.query_one(NotesEditor).has_focus
        await pilot.press("shift+tab", "shift+tab")
        assert paper_list(app).has_focus
        await pilot.press("y")
        assert len(copied) == 1 and "lovelace2026attention" in copied[0]
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await settle(app, pilot)
        text = screen_text(app)
        for key_help in ("Read", "Tags", "Search", "Undo", "Status read"):  # the rest scrolls
            assert key_help in text, key_help
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_the_seed_list(seed_library: Library) -> None:
    app = create_app(seed_library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        count = len(seed_library)
        assert count >= 10
        assert f"{count:,} papers · 0 read · 0 reading" in screen_text(app)
        await pilot.press("G", "r")
        assert seed_library.annotation(paper_list(app).ids[-1]).status is Status.READ


async def test_notes_typed_right_after_moving_reach_the_paper_under_the_cursor(library: Library, monkeypatch) -> None:
    # the pane waits far longer than the test takes: it is surely behind when the keys come
    monkeypatch.setattr(side_pane, "DETAIL_DELAY", 30.0)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j")
        assert app.screen.query_one(SidePane).behind  # the panes have not caught up yet
        await pilot.press("a", *"via a")
        await pilot.press("escape", "j", "tab", "tab", *"via tab")
        await pilot.press("escape")
        await app.action_quit()
    assert library.annotation("p-graphs").notes == "via a"
    assert library.annotation("p-markup").notes == "via tab"
    assert library.annotation("p-attention").notes == ""


async def test_editing_a_title_makes_it_searchable_and_marks_the_index_caches_stale(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#edit-url", Input).value = "https://example.org/moved"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not app.indexes_stale  # a url is not in the indexes
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#edit-title", Input).value = "Quokkas Considered Harmful"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert library.view(IDS[0]).title == "Quokkas Considered Harmful"
        assert app.indexes_stale  # run_app has the caches rebuilt as the app exits
        assert [hit.id for hit in app.screen.browser.index.search("quokkas")] == [IDS[0]]


async def test_the_detail_timer_firing_as_the_screen_empties_raises_nothing(library: Library, monkeypatch) -> None:
    """Quitting removes the screen's children while the detail pane's timer may still fire
    (seen under load: NoMatches for the browser, an error line on quit): the side pane
    reaches the browser it was made with, not a query of what is left."""
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        side = app.screen.query_one(SidePane)

        def gone(screen):
            raise NoMatches("the browser has been removed")

        monkeypatch.setattr(MainScreen, "browser", property(gone))
        side.show(IDS[1])
        assert side.detail.paper_id == IDS[1]


async def test_a_resize_to_the_same_size_lays_nothing_out_and_a_real_one_does(library: Library, monkeypatch) -> None:
    from textual import events
    from textual.geometry import Size
    from textual.screen import Screen

    laid_out: list[str] = []
    real = Screen._refresh_layout

    def counting(self, *args, **kwargs):
        laid_out.append(type(self).__name__)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        laid_out.clear()
        # a terminal reports its size again (as one does at start): nothing changed
        app.post_message(events.Resize(Size(*SIZE), Size(*SIZE)))
        await settle(app, pilot)
        await pilot.pause(0.05)  # Textual hands a kept resize to the screens when idle
        assert "MainScreen" not in laid_out
        await pilot.resize_terminal(90, 30)
        await settle(app, pilot)
        assert "MainScreen" in laid_out
        assert app.screen.has_class("-narrow") and app.screen.size == Size(90, 30)


async def test_the_main_screen_is_styled_once_at_start_and_again_on_resize(library: Library, monkeypatch) -> None:
    """The first resume and the first Resize would each restyle the whole screen (some
    15 ms each of the start): the screen is made with its breakpoint classes and skips
    the first resume's refresh. A later resize across a breakpoint still restyles."""
    from textual.app import App

    restyled: list[object] = []
    update_styles = App.update_styles

    def spy(self, node=None, animate=True):
        restyled.append(node)
        return update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", spy)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.has_class("-wide") and screen.has_class("-tall")
        assert screen not in restyled
        await pilot.resize_terminal(80, 30)
        await wait_until(pilot, lambda: screen.has_class("-narrow"))
        assert screen.has_class("-short") and not screen.has_class("-wide")
        assert screen in restyled


async def test_the_collector_paused_for_the_start_resumes_once_the_list_is_shown(library: Library, monkeypatch) -> None:
    import gc

    from reader_tui.core import process_tuning

    frozen: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append("freeze"))  # not this test process's garbage
    process_tuning.pause_for_start()
    try:
        app = create_app(library)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert "Attention Is Not All You Need" in screen_text(app)
            assert gc.isenabled() and "freeze" in frozen  # (the index loads freeze too)
    finally:
        gc.enable()


async def test_the_reviews_read_ahead_timer_firing_as_the_app_quits_is_harmless(library: Library) -> None:
    """The read-ahead at start runs from a 2 s timer, which can fire while the app quits
    and has no screen left: it must not raise (an unexpected-error exit)."""
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
    assert not app.screen_stack
    app._prepare_reviews()  # what the timer calls: nothing to do, and no error


async def test_the_reviews_read_ahead_on_a_screen_being_taken_down_is_harmless(library: Library, monkeypatch) -> None:
    """The start's read-ahead timer can also fire while the main screen is still on the
    stack but its widgets are already gone (the app quitting): nothing to make ready."""
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
    assert not screen.query("PaperList")  # taken down with the app
    monkeypatch.setattr(type(app), "screen_stack", property(lambda _app: [screen]))  # still on the stack
    app._prepare_reviews()  # what the timer calls: no paper list, nothing to do, no error
