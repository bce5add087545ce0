"""The main screen: the paper browser, the side pane (the current paper's detail, related
papers and notes), the saved searches and a status line.

Each widget owns its state (the browser its filter, sort and search; the side pane the
paper it shows and when; the related list its index; the saved searches their counts;
the invisible LibraryWatcher the index worker and the disk poll); the screen composes
them, turns key presses into Library calls and passes what one widget says on to
another (attributes down, messages up). Library changes arrive once, through the app's
`library_changed_signal`, and each widget handles its own part.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input

from reader_tui.core.library.library import Library
from reader_tui.core.library.saved_searches import SavedSearch, get_search
from reader_tui.core.model import Status
from reader_tui.core.process_tuning import resume_after_start
from reader_tui.tui.listing import counts
from reader_tui.tui.messages import IndexReady, RelatedReady
from reader_tui.tui.saving import SavingIndicator
from reader_tui.tui.screens import main_dialogs, main_moves, main_papers, main_search
from reader_tui.tui.screens.start_styles import breakpoint_classes, skip_first_refresh
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.for_you_model import ForYouModel
from reader_tui.tui.widgets.library_sync import LibrarySync
from reader_tui.tui.widgets.library_watcher import LibraryWatcher
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_browser import PaperBrowser
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.related_list import RelatedList
from reader_tui.tui.widgets.saved_searches import SavedSearchList
from reader_tui.tui.widgets.search_bar import SearchBar
from reader_tui.tui.widgets.search_typing import SearchTyping
from reader_tui.tui.widgets.side_pane import SidePane
from reader_tui.tui.widgets.status_bar import StatusBar

STATUS_KEYS = {"1": Status.UNREAD, "2": Status.TO_READ, "3": Status.READING, "4": Status.READ, "5": Status.SKIPPED}


class MainScreen(Screen):
    """List on the left, detail and notes on the right (stacked on narrow terminals)."""

    AUTO_FOCUS = "PaperList"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    BINDINGS = [
        Binding("r", "toggle_read", "Read", id="paper.toggle_read"),
        *(
            Binding(key, f"set_status('{status.value}')", f"Status {status.value}", show=False, id=f"paper.status_{key}")
            for key, status in STATUS_KEYS.items()
        ),
        Binding("t", "edit_tags", "Tags", id="paper.tags"),
        Binding("a", "edit_notes", "Notes", id="paper.notes"),
        Binding("R", "reviews", "Reviews", id="paper.reviews"),
        Binding("n", "next_match(1)", "Next match", show=False, id="list.next_match"),
        Binding("N", "next_match(-1)", "Previous match", show=False, id="list.previous_match"),
        Binding("slash", "search", "Search", id="list.search"),
        Binding("f", "filter", "Filter", id="list.filter"),
        Binding("s", "sort", "Sort", id="list.sort"),
        Binding("x", "export", "Export", id="list.export"),
        Binding("y", "copy_bibtex", "BibTeX", id="paper.copy_bibtex"),
        Binding("e", "edit_paper", "Edit", show=False, id="paper.edit"),
        Binding("o", "open_url", "Open forum / url", show=False, id="paper.open_url"),
        Binding("p", "open_pdf", "Open PDF", show=False, id="paper.open_pdf"),
        Binding("u", "undo", "Undo", id="app.undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, id="app.redo"),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="focus.next"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="focus.previous"),
        Binding("escape", "back", "Back", show=False, id="focus.list"),
        Binding("ctrl+o,alt+left", "jump_back", "Jump back", show=False, id="list.jump_back"),
        Binding("ctrl+i,alt+right", "jump_forward", "Jump forward", show=False, id="list.jump_forward"),
        Binding("T", "triage", "Triage", id="list.triage"),
        Binding("S", "stats", "Stats", id="app.stats"),
        Binding("right_square_bracket", "related(1)", "Next related paper", show=False, id="paper.related_next"),
        Binding("left_square_bracket", "related(-1)", "Previous related paper", show=False, id="paper.related_previous"),
        Binding("M", "more_like_this", "More like this", show=False, id="list.more_like_this"),
        Binding("b", "toggle_saved_searches", "Saved searches", show=False, id="list.saved_searches"),
        Binding("ctrl+s", "sync", "Sync now (git)", show=False, id="app.sync"),
    ]

    def __init__(self, library: Library) -> None:
        # Made with the breakpoint classes the first Resize would give it: styled once.
        super().__init__(classes=breakpoint_classes(MainScreen, self.app, self.app.size))
        self.library = library
        self.saving = SavingIndicator(self, library)
        self._for_you_shown = False  # the detail pane says why (the list is sorted "for you")

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        search = SearchBar(id="search")
        search.display = False
        yield search
        with Horizontal(id="panes"):
            yield SavedSearchList(self.library, id="saved-searches")
            browser = PaperBrowser(self.library, id="browser")  # not queried: gone as the app quits
            yield browser
            yield SidePane(
                self.library, lambda paper_id: browser.matched.get(paper_id, ()),
                lambda paper_id: browser.order.why(paper_id), id="side",
            )
        yield StatusBar(id="status")
        yield LibraryWatcher(self.library)
        yield ForYouModel(self.library)
        yield LibrarySync(self.library)
        yield KeyFooter()

    @property
    def browser(self) -> PaperBrowser:
        return self.query_one(PaperBrowser)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def side(self) -> SidePane:
        return self.query_one(SidePane)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def for_you(self) -> ForYouModel:
        return self.query_one(ForYouModel)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        skip_first_refresh(self, event)

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)
        self.browser.order.model = self.for_you
        self.for_you.trained_signal.subscribe(self, self._for_you_trained)
        self._update_counts()
        self._describe()
        self.browser.restore_place()
        self.call_after_refresh(resume_after_start)  # the list is on screen: collect again
        self.call_after_refresh(self.library.start_background_work)  # the start's backup, the catalog read ahead

    # -- what the list shows ----------------------------------------------------------------

    def on_paper_browser_listing_changed(self, message: PaperBrowser.ListingChanged) -> None:
        self.status_bar.listed(message.note)
        browser = self.browser
        self.status_bar.set_every_word(browser.every_word if browser.search_text.strip() else None)
        self._update_counts()
        self._describe()
        self.query_one(LibraryWatcher).report_damaged()  # a filter or sort met every record
        if self.browser.order.by_model != self._for_you_shown:
            self._for_you_shown = self.browser.order.by_model
            self.side.show(self.side.detail.paper_id)  # with or without its "for you" line

    def on_paper_browser_search_failed(self, message: PaperBrowser.SearchFailed) -> None:
        self.status_bar.set_message(f"search: {message.error}", error=True)

    def _describe(self) -> None:
        papers = self.paper_list
        hidden = len(papers.marked - set(papers.ids)) if papers.marked else 0
        self.status_bar.set_view(self.browser.describe(), len(papers.marked), hidden)

    def _update_counts(self) -> None:
        self.status_bar.set_counts(*counts(self.library, self.paper_list.ids))

    # -- the search bar (above every pane: the screen passes it to the browser) -----------------

    def action_search(self) -> None:
        main_search.open_bar(self)

    def action_next_match(self, step: int) -> None:
        """`n` / `N`: the next or previous match, as in less and vim."""
        main_moves.next_match(self, step)

    def on_search_typing_typed_ahead(self, message: SearchTyping.TypedAhead) -> None:
        main_search.typed_ahead(self, message.text)

    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        main_search.changed(self, event.value)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        main_search.submitted(self)

    @on(SearchBar.Cancelled)
    def _search_cancelled(self) -> None:
        main_search.cancelled(self)

    # -- the indexes (from the LibraryWatcher) and the Library's changes ------------------------

    def on_index_ready(self, message: IndexReady) -> None:
        # From the LibraryWatcher: each index to its owner.
        self.browser.set_index(message.index)
        self.for_you.set_index(message.index)
        self.query_one(SavedSearchList).index = message.index

    def on_related_ready(self, message: RelatedReady) -> None:
        self.side.set_related_index(message.index, message.seconds)

    def _for_you_trained(self, model: object) -> None:
        self.browser.for_you_trained()
        self._describe()
        self.side.show(self.side.detail.paper_id)  # the "for you" line from the new model

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        # The browser redraws its rows and tells its index; the saved searches recount;
        # the watcher re-indexes after another process's import.
        current = self.paper_list.current_id
        if ids is None or current in ids:
            self.side.reload(current)
        if ids is None:  # an import (of reviews, say) may have brought keys into use
            self.refresh_bindings()
        self._update_counts()
        self.saving.watch()

    # -- current paper ------------------------------------------------------------------------

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.side.follow(message.paper_id)
        main_dialogs.reviews_ahead(self, message.paper_id)

    def show_current_now(self) -> None:
        """Bring the side pane up to date with the cursor without waiting."""
        self.side.show_now(self.paper_list.current_id)

    def on_paper_list_selected(self, message: PaperList.Selected) -> None:
        self.side.detail.focus()

    def on_paper_list_marks_changed(self, message: PaperList.MarksChanged) -> None:
        self._describe()

    def on_notes_editor_edited(self, message: NotesEditor.Edited) -> None:
        self.saving.watch()

    def on_notes_editor_saved(self, message: NotesEditor.Saved) -> None:
        self.saving.notes_saved(message.paper_id)

    def on_notes_editor_save_failed(self, message: NotesEditor.SaveFailed) -> None:
        self.saving.notes_refused(message.error)

    def remember_place(self) -> None:
        """Keep the paper under the cursor with the library (the app quits)."""
        self.browser.remember_place()

    def save_pending(self) -> None:
        """Hand unsaved notes to the Library (the app then flushes it to disk)."""
        self.side.notes.save_now()

    # -- actions on the current or marked papers ---------------------------------------------------

    def say(self, message: str) -> None:
        """Put `message` in the status line, there still once a list on its way arrives."""
        self.status_bar.say(message)

    def action_toggle_read(self) -> None:
        main_papers.toggle_read(self)

    def action_set_status(self, value: str) -> None:
        main_papers.set_status(self, Status(value))

    def action_edit_notes(self) -> None:
        main_papers.edit_notes(self)

    def action_back(self) -> None:
        """Escape, one step at a time (the order docs/keys.md gives)."""
        main_moves.step_back(self)

    # -- the jump list, undo -------------------------------------------------------------------

    def action_jump_back(self) -> None:
        main_moves.jump(self, self.browser.go(back=True), "no earlier place (ctrl+o goes back after a search, filter, M or jump)")

    def action_jump_forward(self) -> None:
        main_moves.jump(self, self.browser.go(back=False), "no later place")

    def action_undo(self) -> None:
        main_moves.undo(self, redo=False)

    def action_redo(self) -> None:
        main_moves.undo(self, redo=True)

    def action_open_url(self) -> None:
        from reader_tui.tui.open_url import open_url

        open_url(self, self.library, self.paper_list.current_id)

    def action_open_pdf(self) -> None:
        from reader_tui.tui.open_url import open_pdf

        open_pdf(self, self.library, self.paper_list.current_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A library without reviews gives the footer's room to the keys it can use (at 80
        # columns R would push out / and f); R comes with the first import of reviews.
        if action == "reviews":
            return self.paper_list.show_scores  # the browser's one look at the reviews store
        return True

    def action_reviews(self) -> None:
        main_dialogs.reviews(self)

    def action_filter(self) -> None:
        main_dialogs.choose_filter(self)

    def action_sort(self) -> None:
        main_dialogs.choose_sort(self)

    def action_more_like_tag(self) -> None:
        """Rank the list by a model of one tag's papers (the palette's "More like tag…")."""
        main_dialogs.more_like_tag(self)

    def action_edit_tags(self) -> None:
        main_dialogs.edit_tags(self)

    def action_edit_paper(self) -> None:
        main_dialogs.edit_paper(self)

    def action_export(self) -> None:
        main_dialogs.export(self)

    def action_copy_bibtex(self) -> None:
        main_papers.copy_bibtex(self)

    def action_copy_cites(self) -> None:
        """Copy `\\cite{key1,key2}` for the marked papers (or the current one)."""
        main_papers.copy_cites(self)

    def action_import_file(self) -> None:
        """Ask for a file and import it (the dialog runs the import and reports)."""
        main_dialogs.import_file(self)

    def action_help(self) -> None:
        main_dialogs.help_screen(self)

    # -- triage, stats, related papers ---------------------------------------------------------

    def action_triage(self) -> None:
        main_dialogs.triage(self)

    def action_stats(self) -> None:
        main_dialogs.stats(self)

    def action_related(self, step: int) -> None:
        main_moves.related(self, step)

    def on_related_list_chosen(self, message: RelatedList.Chosen) -> None:
        main_moves.jump_to(self, message.paper_id)

    def action_more_like_this(self) -> None:
        main_moves.more_like_this(self)

    # -- sync through git ----------------------------------------------------------------------

    def action_sync(self) -> None:
        """Sync now: what `reader-tui sync` does, in a thread; one line says how it went."""
        if self.library.read_only:
            self.say("sync: the library is read-only here, nothing can be merged into it")
        else:
            self.save_pending()  # the notes being typed go into the commit too
            self.say("syncing…" if self.query_one(LibrarySync).sync_now() else "a sync is running")

    def on_library_sync_finished(self, message: LibrarySync.Finished) -> None:
        self.status_bar.answer(message.line, error=message.severity == "error")
        self.notify(message.line, severity=message.severity, markup=False, timeout=8)
        for note in message.notes:
            self.notify(note, severity="warning", markup=False, timeout=10)
        # the merged files: read them now rather than at the next poll
        self.query_one(LibraryWatcher).poll_disk()

    def on_library_sync_started(self, message: LibrarySync.Started) -> None:
        self.say(message.line)  # a sync on start or before quitting

    def on_library_sync_state_read(self, message: LibrarySync.StateRead) -> None:
        self.side.detail.set_group(message.state.group)
        self.paper_list.group = message.state.group  # the list's group column
        self.status_bar.set_synced(message.state.last_synced, message.state.unsent, message.state.waiting)

    # -- saved searches ------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[tuple[str, str, Any]]:
        """Commands for the palette that are not key bindings: saved searches."""
        yield "Save this search…", "name the current filter and search", self.action_save_search
        yield from self.query_one(SavedSearchList).palette_commands(self.run_saved_search)

    def action_save_search(self) -> None:
        self.query_one(SavedSearchList).save_search(self.browser.query_text())

    def run_saved_search(self, search: SavedSearch) -> None:
        main_search.run_saved(self, search)

    def action_toggle_saved_searches(self) -> None:
        main_search.toggle_saved_list(self)

    def on_saved_search_list_chosen(self, message: SavedSearchList.Chosen) -> None:
        found = get_search(self.library, message.search.name)  # as saved now: the list's may be older
        if found is not None:
            main_search.run_saved(self, found)
