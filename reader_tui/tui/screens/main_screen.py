"""The main screen: the paper list, the current paper's detail and notes, a status line.

The screen owns what the list shows (filter, sort, search) and turns key presses into
Library calls; the widgets only draw. The Library tells the screen what changed (from
any thread, as a message), so a change made here, by undo or by another process is
drawn the same way.
"""

from __future__ import annotations

import time
import webbrowser
from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.sorting import SORT_FIELDS, SortKey
from reader_tui.tui.dialogs.filter_dialog import FilterChoice
from reader_tui.tui.listing import Listing, compute_listing
from reader_tui.tui.messages import DiskRead, IndexReady, LibraryChanged, ListingReady
from reader_tui.tui.screens.main_actions import MainActions
from reader_tui.tui.screens.main_extras import EXTRA_BINDINGS, MainExtras, RelatedReady
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.related_list import RelatedList
from reader_tui.tui.widgets.saved_searches import SavedSearchList
from reader_tui.tui.widgets.search_bar import SearchBar
from reader_tui.tui.widgets.status_bar import StatusBar
from reader_tui.tui.write_errors import write_error_line

SEARCH_DELAY = 0.05
DETAIL_DELAY = 0.04
RELOAD_EVERY = 1.5
SAVED_CHECK_EVERY = 0.2
STATUS_KEYS = {"1": Status.UNREAD, "2": Status.TO_READ, "3": Status.READING, "4": Status.READ, "5": Status.SKIPPED}


class MainScreen(MainActions, MainExtras, Screen):
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
        Binding("n", "edit_notes", "Notes", id="paper.notes"),
        Binding("slash", "search", "Search", id="list.search"),
        Binding("f", "filter", "Filter", id="list.filter"),
        Binding("s", "sort", "Sort", id="list.sort"),
        Binding("x", "export", "Export", id="list.export"),
        Binding("y", "copy_bibtex", "BibTeX", id="paper.copy_bibtex"),
        Binding("e", "edit_paper", "Edit", show=False, id="paper.edit"),
        Binding("o", "open_url", "Open url", show=False, id="paper.open_url"),
        Binding("u", "undo", "Undo", id="app.undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, id="app.redo"),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="focus.next"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="focus.previous"),
        Binding("escape", "back", "Back to list", show=False, id="focus.list"),
        *EXTRA_BINDINGS,
    ]

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.list_filter = FilterChoice()
        self._damaged_shown: tuple[list[str] | None, int] = (None, 0)  # the catalog's problems, how many said
        self.sort_key: SortKey | None = None
        self.search_text = ""
        self.index = None
        self._token = 0
        self._keep: str | None = None
        self._before_search: tuple[list[str], str | None, float] | None = None
        self._search_timer: Timer | None = None
        self._saving_timer: Timer | None = None
        self._write_error: Exception | None = None  # the Library's writes fail (reported)
        self._notes_error: Exception | None = None  # the Library refused the notes
        self._notes_handed: set[str] = set()  # papers whose notes are on their way to disk
        self._detail_timer: Timer | None = None
        self._matched = {}

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        search = SearchBar(id="search")
        search.display = False
        yield search
        with Horizontal(id="panes"):
            yield SavedSearchList(id="saved-searches")
            yield PaperList(self.library, list(self.library.papers), id="papers")
            with Vertical(id="side"):
                yield PaperDetail(id="detail")
                yield RelatedList(id="related")
                yield NotesEditor(self.library, id="notes")
        yield StatusBar(id="status")
        yield Footer()

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    def on_mount(self) -> None:
        self.library.subscribe(self._library_changed)
        self._update_counts()
        self._describe()
        # After the first frame: building the index holds the GIL for a while.
        self.call_after_refresh(self._build_index)
        saved = self.library.settings.get("sort")
        if isinstance(saved, dict) and saved.get("field") in SORT_FIELDS:
            self.sort_key = SortKey(saved["field"], bool(saved.get("reverse")))
            self.refilter(first=True)
        self.set_interval(RELOAD_EVERY, self._poll_disk, name="reload-poll")

    # -- what the list shows ----------------------------------------------------------------

    def refilter(self, keep: str | None = None, *, first: bool = False) -> None:
        """Recompute the list (filter, sort, search) off the UI thread; the cursor stays on
        `keep` (default: the current paper), or goes to the top with `first`."""
        self._token += 1
        self._compute(
            self._token,
            self.list_filter,
            self.sort_key,
            self.search_text,
            self.index,
            frozenset(self.paper_list.marked),
        )
        self._keep = None if first else keep if keep is not None else self.paper_list.current_id

    @work(thread=True, exclusive=True, group="search")
    def _compute(self, token: int, list_filter, sort_key, search, index, marked) -> None:
        listing = compute_listing(
            self.library, list_filter=list_filter, sort=sort_key, search=search, index=index, marked=marked
        )
        self.post_message(ListingReady(listing, token))

    def on_listing_ready(self, message: ListingReady) -> None:
        if message.token != self._token:
            return  # a newer filter or search is on its way
        listing: Listing = message.listing
        if listing.error:
            self.status_bar.set_message(f"search: {listing.error}", error=True)
            return
        self._matched = listing.matched
        self.paper_list.empty_text = "No papers match" if self.search_text or not self.list_filter.is_empty else "No papers"
        self.paper_list.set_ids(listing.ids, keep=self._keep, matched=listing.matched)
        self.status_bar.set_message("")
        self._update_counts()
        self._describe()
        self._report_damaged()  # a filter or sort met every record

    def _describe(self) -> None:
        self.status_bar.set_view(self.status_bar_description(), len(self.paper_list.marked))

    def status_bar_description(self) -> str:
        """The filter, sort and search in effect, e.g. "filter: tag:llm · sort: title"."""
        parts = []
        if not self.list_filter.is_empty:
            parts.append(f"filter: {self.list_filter.describe()}")
        if self.sort_key is not None:
            parts.append(f"sort: {self.sort_key.label}")
        if self.search_text.strip():
            parts.append(f"search: {self.search_text.strip()}")
        return " · ".join(parts)

    def _update_counts(self) -> None:
        annotations = self.library.annotations
        read = reading = 0
        ids = self.paper_list.ids
        if len(annotations) < len(ids):  # few annotated papers: count those instead of the rows
            shown = set(ids) if len(ids) != len(self.library.papers) else None
            for pid, ann in annotations.items():
                if shown is None or pid in shown:
                    read += ann.status is Status.READ
                    reading += ann.status is Status.READING
        else:
            for pid in ids:
                ann = annotations.get(pid)
                if ann is not None:
                    read += ann.status is Status.READ
                    reading += ann.status is Status.READING
        self.status_bar.set_counts(len(ids), read, reading, len(self.library.papers))

    # -- search ---------------------------------------------------------------------------

    def action_search(self) -> None:
        bar = self.query_one(SearchBar)
        if self._before_search is None:
            papers = self.paper_list
            self._before_search = (list(papers.ids), papers.current_id, papers.scroll_y)
        bar.display = True
        bar.focus()

    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        if event.value == self.search_text:
            return
        self.search_text = event.value
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self._run_search, name="search-debounce")

    def _run_search(self) -> None:
        self._search_timer = None
        if not self.search_text.strip() and self._before_search is not None:
            self._restore_list()
            return
        self.refilter(first=True)  # the best hit first

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
            self._run_search()
        if not self.search_text.strip():
            self.cancel_search()
            return
        self.paper_list.move_to(0)
        self.paper_list.focus()

    @on(SearchBar.Cancelled)
    def cancel_search(self) -> None:
        """Escape: the list, cursor and scroll position as they were before `/`."""
        if self._search_timer is not None:
            self._search_timer.stop()
            self._search_timer = None
        bar = self.query_one(SearchBar)
        self.search_text = ""
        with bar.prevent(Input.Changed):
            bar.value = ""
        bar.display = False
        self._restore_list()
        self.paper_list.focus()

    def _restore_list(self) -> None:
        self._token += 1  # drop results still on their way
        self._matched = {}
        if self._before_search is not None:
            ids, current, scroll_y = self._before_search
            self.paper_list.set_ids(ids, keep=current, scroll_y=round(scroll_y))
            self._before_search = None if not self.query_one(SearchBar).display else self._before_search
        self.status_bar.set_message("")
        self._update_counts()
        self._describe()

    # -- the index and other processes ---------------------------------------------------------

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def _build_index(self) -> None:
        from textual.worker import get_current_worker

        from reader_tui.core.library.indexing import provide_indexes

        worker = get_current_worker()
        started = time.perf_counter()
        provide_indexes(
            self.library,
            on_search=lambda index: self.post_message(IndexReady(index)),
            on_related=lambda index: self.post_message(RelatedReady(index, time.perf_counter() - started)),
            cancelled=lambda: worker.is_cancelled,
        )

    def on_index_ready(self, message: IndexReady) -> None:
        self.index = message.index
        self._report_damaged()  # building the index met every record
        if self.search_text.strip():
            self.refilter()

    @work(thread=True, exclusive=True, group="reload", exit_on_error=False)
    def _poll_disk(self) -> None:
        # Reads and parses only: the Library is changed on the UI thread, by the handler
        # below, so a change the user makes meanwhile is not replaced by the older file.
        found = self.library.read_disk()
        if found is not None:
            self.post_message(DiskRead(found))

    def on_disk_read(self, message: DiskRead) -> None:
        self.library.apply_disk(message.found)  # the listener reports what changed

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        # Called on whichever thread made or noticed the change: hand it to the UI thread.
        self.post_message(LibraryChanged(ids))

    def _report_damaged(self) -> None:
        """Say once each damaged catalog record met so far (drawn as placeholder rows)."""
        problems = self.library.papers.problems
        listed, count = self._damaged_shown
        start = count if listed is problems else 0  # a reloaded catalog starts over
        for line in problems[start:]:
            self.notify(line, title="Damaged catalog record", severity="error", markup=False, timeout=30)
        self._damaged_shown = (problems, len(problems))

    def on_library_changed(self, message: LibraryChanged) -> None:
        ids = message.ids
        papers = self.paper_list
        papers.refresh_papers(ids)
        if ids is None:
            self.refilter()  # another process imported papers: they join the list
            self._build_index()
        elif self.index is not None:
            for pid in ids:
                if pid in self.library.papers:
                    self.index.update(self.library.view(pid))
        current = papers.current_id
        if ids is None or current in ids:
            self._show_current(current)
            self.query_one(NotesEditor).reload()
        self._update_counts()
        self._watch_saving()
        self._report_damaged()

    # -- current paper ------------------------------------------------------------------------

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        # The detail and notes panes wait until the cursor rests, so holding j costs one
        # list row per key, not a re-wrapped abstract, reloaded notes and a repaint of
        # half the screen. Focusing the notes catches up first (on_descendant_focus), so
        # typing always reaches the paper under the cursor.
        if self.query_one(PaperDetail).paper_id is None:
            self._show_current(message.paper_id)
        elif self._detail_timer is not None:
            self._detail_timer.reset()
        else:
            self._detail_timer = self.set_timer(DETAIL_DELAY, self.show_current_now, name="detail-debounce")

    def show_current_now(self) -> None:
        """Bring the detail pane up to date with the cursor without waiting."""
        if self._detail_timer is not None:
            self._detail_timer.stop()
            self._detail_timer = None
        self._show_current(self.paper_list.current_id)

    def on_descendant_focus(self, event) -> None:
        if isinstance(event.widget, NotesEditor) and self._detail_timer is not None:
            self.show_current_now()

    def _show_current(self, paper_id: str | None) -> None:
        self.query_one(NotesEditor).load(paper_id)
        view = self.library.view(paper_id) if paper_id in self.library.papers else None
        self.query_one(PaperDetail).show(view, self._matched.get(paper_id, ()) if paper_id else ())
        self.show_related(view.id if view is not None else None)

    def on_paper_list_selected(self, message: PaperList.Selected) -> None:
        self.query_one(PaperDetail).focus()

    def on_paper_list_marks_changed(self, message: PaperList.MarksChanged) -> None:
        self._describe()

    def on_notes_editor_edited(self, message: NotesEditor.Edited) -> None:
        self._watch_saving()

    def on_notes_editor_saved(self, message: NotesEditor.Saved) -> None:
        self._notes_handed.add(message.paper_id)
        self._notes_error = None
        self._watch_saving()

    def on_notes_editor_save_failed(self, message: NotesEditor.SaveFailed) -> None:
        if self._notes_error is None:
            self.notify(write_error_line(message.error, self.library), severity="error", markup=False)
        self._notes_error = message.error
        self._watch_saving()

    def _watch_saving(self) -> None:
        """Follow the writes to disk until all are there: "saved" only then."""
        if not self._check_saved() and self._saving_timer is None:
            self._saving_timer = self.set_interval(SAVED_CHECK_EVERY, self._check_saved, name="saving-indicator")

    def _check_saved(self) -> bool:
        """Show where the changes are: "editing…", "saving…", "not saved" (a write failed:
        reported once, retried by the Library) or "saved" (every write returned without
        error). True when there is nothing left to follow."""
        notes = self.query_one(NotesEditor)
        try:
            self.library.flush(timeout=0)
            error = None
        except Exception as failure:  # any write error: the change is not on disk
            error = failure
        pending = self.library.pending_writes
        if error is not None and (self._write_error is None or str(error) != str(self._write_error)):
            self.notify(write_error_line(error, self.library), severity="error", markup=False)
        elif error is None and self._write_error is not None and not pending:
            self.notify("The changes that could not be saved are on disk now", markup=False)
        self._write_error = error
        if not notes.dirty:
            self._notes_error = None
        if not pending:
            self._notes_handed.clear()
        failing = error is not None or self._notes_error is not None
        notes.set_unsaved(failing and (notes.dirty or notes.paper_id in self._notes_handed))
        if failing:
            count = pending + notes.dirty
            self.status_bar.set_saving(f"not saved ({count} write{'s' if count != 1 else ''} waiting)", error=True)
        elif notes.dirty:
            self.status_bar.set_saving("editing…")
        elif pending:
            self.status_bar.set_saving("saving…")
        else:
            self.status_bar.set_saving("saved")
        settled = not pending and not notes.dirty and not failing
        if settled and self._saving_timer is not None:
            self._saving_timer.stop()
            self._saving_timer = None
        return settled

    def save_pending(self) -> None:
        """Hand unsaved notes to the Library (the app then flushes it to disk)."""
        self.query_one(NotesEditor).save_now()

    # -- simple actions -------------------------------------------------------------------

    def targets(self) -> list[str]:
        """The marked papers in list order, or else the current one."""
        papers = self.paper_list
        if papers.marked:
            shown = [pid for pid in papers.ids if pid in papers.marked]
            return shown + sorted(papers.marked - set(shown))
        return [papers.current_id] if papers.current_id else []

    def action_toggle_read(self) -> None:
        if ids := self.targets():
            self.library.toggle_read(ids)

    def action_set_status(self, value: str) -> None:
        if ids := self.targets():
            self.library.set_status(ids, Status(value))

    def action_edit_notes(self) -> None:
        self.show_current_now()
        notes = self.query_one(NotesEditor)
        if notes.paper_id is not None:
            notes.focus()

    def action_back(self) -> None:
        if self.search_text or self._before_search is not None:
            self.cancel_search()
        elif self.paper_list.has_focus:
            self.paper_list.clear_marks()
        else:
            self.paper_list.focus()

    def action_undo(self) -> None:
        self.save_pending()
        change = self.library.undo()
        self.status_bar.set_message(f"undid {change.field} change" if change else "nothing to undo")

    def action_redo(self) -> None:
        change = self.library.redo()
        self.status_bar.set_message(f"redid {change.field} change" if change else "nothing to redo")

    def action_open_url(self) -> None:
        pid = self.paper_list.current_id
        url = self.library.view(pid).url if pid else ""
        if not url:
            self.notify("This paper has no url", severity="warning", markup=False)
            return
        # webbrowser.open may wait on a browser starting up: never on the UI thread.
        self.run_worker(partial(webbrowser.open, url), thread=True, group="browser", exit_on_error=False)
        self.notify(f"Opening {url}", markup=False)
