"""The paper browser: the paper list and what it shows (filter, sort, search).

It owns the list's state: the filter, the sort, the search text, the list as it was
before a search (escape restores it), the search index (kept up to date from the
Library's change events) and the worker that computes a listing. It posts
`ListingChanged` when the list shows something new; the screen puts that in the status
bar. The search bar sits above every pane, so it belongs to the screen: the screen hands
the browser what is typed there and the browser hands back keys typed at the list
while the bar opens (`SearchTyped`), so a fast "/attention" loses no letter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual import events, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.dialogs.filter_dialog import FilterChoice
from reader_tui.tui.listing import Listing, compute_listing
from reader_tui.tui.messages import ListingReady
from reader_tui.tui.widgets.paper_list import PaperList

SEARCH_DELAY = 0.05


class PaperBrowser(Vertical):
    """The paper list with its filter, sort and search (attributes down, messages up)."""

    class ListingChanged(Message):
        """The list shows other papers, or the filter, sort or search changed (`note`:
        what to say about it, "" for nothing)."""

        def __init__(self, note: str = "") -> None:
            super().__init__()
            self.note = note

    class SearchFailed(Message):
        """The search text is not a valid query (`error` says why)."""

        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    class SearchTyped(Message):
        """Keys meant for the search bar reached the list before the bar had focus."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.list_filter = FilterChoice()
        self.sort_key: SortKey | None = None
        self.search_text = ""
        self.index: Any = None
        """The search index once built (None: titles are matched without it)."""
        self.matched: Mapping[str, frozenset[str]] = {}
        """The words each shown paper matched in the search (for highlighting)."""
        self._token = 0
        self._keep: str | None = None
        self._before_search: tuple[list[str], str | None, float] | None = None
        self._search_timer: Timer | None = None
        self._search_opening = False  # "/" went by: printable keys are search text

    def compose(self) -> ComposeResult:
        yield PaperList(self.library, list(self.library.papers), id="papers")

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)

    # -- what the list shows ----------------------------------------------------------------

    @property
    def searching(self) -> bool:
        """A search (or "more like this") replaced the list; escape restores it."""
        return bool(self.search_text) or self._before_search is not None

    def refilter(self, keep: str | None = None, *, first: bool = False) -> None:
        """Recompute the list (filter, sort, search) off the UI thread; the cursor stays on
        `keep` (default: the current paper), or goes to the top with `first`."""
        self._token += 1
        papers = self.paper_list
        self._compute(self._token, self.list_filter, self.sort_key, self.search_text, self.index, frozenset(papers.marked))
        self._keep = None if first else keep if keep is not None else papers.current_id

    @work(thread=True, exclusive=True, group="search")
    def _compute(self, token: int, list_filter, sort_key, search, index, marked) -> None:
        listing = compute_listing(
            self.library, list_filter=list_filter, sort=sort_key, search=search, index=index, marked=marked
        )
        self.post_message(ListingReady(listing, token))

    def on_listing_ready(self, message: ListingReady) -> None:
        message.stop()
        if message.token != self._token:
            return  # a newer filter or search is on its way
        listing: Listing = message.listing
        if listing.error:
            self.post_message(self.SearchFailed(listing.error))
            return
        self.matched = listing.matched
        papers = self.paper_list
        papers.empty_text = "No papers match" if self.search_text or not self.list_filter.is_empty else "No papers"
        papers.set_ids(listing.ids, keep=self._keep, matched=listing.matched)
        self.post_message(self.ListingChanged())

    def describe(self) -> str:
        """The filter, sort and search in effect, e.g. "filter: tag:llm · sort: title"."""
        parts = []
        if not self.list_filter.is_empty:
            parts.append(f"filter: {self.list_filter.describe()}")
        if self.sort_key is not None:
            parts.append(f"sort: {self.sort_key.label}")
        if self.search_text.strip():
            parts.append(f"search: {self.search_text.strip()}")
        return " · ".join(parts)

    def query_text(self) -> str:
        """The current filter and search as one query ("status:to-read tag:llm attention")."""
        parts = []
        if self.list_filter.status is not None:
            parts.append(f"status:{self.list_filter.status.value}")
        if self.list_filter.tag is not None:
            tag = self.list_filter.tag
            parts.append(f'tag:"{tag}"' if " " in tag else f"tag:{tag}")
        if self.search_text.strip():
            parts.append(self.search_text.strip())
        return " ".join(parts)

    def show_only(self, ids: list[str], keep: str, note: str = "") -> None:
        """Show `ids` (e.g. "more like this") until escape restores the list."""
        self._remember_list()
        self._token += 1  # a search still on its way must not replace this list
        self.matched = {}
        self.paper_list.set_ids([p for p in ids if p in self.library.papers], keep=keep)
        self.post_message(self.ListingChanged(note))

    def counts(self) -> tuple[int, int, int, int]:
        """Papers shown, of them read and being read, and papers in the library."""
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
        return len(ids), read, reading, len(self.library.papers)

    def show_everything(self, keep: str) -> None:
        """Drop the filter (a jump to a paper it hides), keeping the cursor on `keep`."""
        self.list_filter = FilterChoice()
        self.refilter(keep=keep)

    # -- search ---------------------------------------------------------------------------

    def begin_search(self) -> None:
        """The search bar opens: remember the list to restore on escape."""
        self._remember_list()

    def _remember_list(self) -> None:
        if self._before_search is None:
            papers = self.paper_list
            self._before_search = (list(papers.ids), papers.current_id, papers.scroll_y)

    def search_for(self, text: str) -> None:
        """The search bar now holds `text`: search once typing pauses."""
        if text == self.search_text:
            return
        self.search_text = text
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self._run_search, name="search-debounce")

    def _run_search(self) -> None:
        self._search_timer = None
        if not self.search_text.strip() and self._before_search is not None:
            self._restore_list(keep_snapshot=True)
            return
        self.refilter(first=True)  # the best hit first

    def submit_search(self) -> bool:
        """Enter in the search bar: search now. False when there is nothing to search."""
        self._search_opening = False
        if self._search_timer is not None:
            self._search_timer.stop()
            self._run_search()
        if not self.search_text.strip():
            return False
        self.paper_list.move_to(0)
        self.paper_list.focus()
        return True

    def cancel_search(self) -> None:
        """Escape: the list, cursor and scroll position as they were before the search."""
        self._search_opening = False
        if self._search_timer is not None:
            self._search_timer.stop()
            self._search_timer = None
        self.search_text = ""
        self._restore_list(keep_snapshot=False)
        self.paper_list.focus()

    def _restore_list(self, *, keep_snapshot: bool) -> None:
        self._token += 1  # drop results still on their way
        self.matched = {}
        if self._before_search is not None:
            ids, current, scroll_y = self._before_search
            self.paper_list.set_ids(ids, keep=current, scroll_y=round(scroll_y))
            self._before_search = self._before_search if keep_snapshot else None
        self.post_message(self.ListingChanged())

    def on_key(self, event: events.Key) -> None:
        # Keys bubble up from the list. A fast "/attention" is queued at the list before
        # the search bar can take focus: the letters after "/" are search text, not keys
        # for the list's bindings, until the list loses focus to the bar.
        if event.key == "slash" and not self._search_opening:
            self._search_opening = True
        elif self._search_opening and event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            self.post_message(self.SearchTyped(event.character))
        elif self._search_opening:
            self._search_opening = False

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._search_opening = False  # the search bar (or any other pane) has the keys now

    # -- the search index and library changes ---------------------------------------------

    def set_index(self, index: Any) -> None:
        """Search with `index` from now on (a running search is run again with it)."""
        self.index = index
        if self.search_text.strip():
            self.refilter()

    def reindex(self, paper_id: str) -> None:
        """A paper's title or authors were edited: make them searchable at once."""
        if self.index is not None and paper_id in self.library.papers:
            self.index.add([self.library.view(paper_id)])

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        self.paper_list.refresh_papers(ids)
        if ids is None:
            self.refilter()  # another process imported papers: they join the list
        elif self.index is not None:
            # status, tags and notes are searchable (status:read, tag:x, notes words)
            for pid in ids:
                if pid in self.library.papers:
                    self.index.update(self.library.view(pid))

    # -- the filter and sort dialogs ---------------------------------------------------------

    def choose_filter(self) -> None:
        """Ask for a filter (`f`) and show what it lets through."""
        from reader_tui.tui.dialogs.filter_dialog import FilterDialog

        def apply(choice: FilterChoice | None) -> None:
            if choice is None:
                return
            self.list_filter = choice
            self.refilter()

        self.app.push_screen(FilterDialog(self.library.all_tags(), self.list_filter), apply)

    def choose_sort(self) -> None:
        """Ask for a sort order (`s`), remember it and show the list in it."""
        from reader_tui.tui.dialogs.sort_dialog import SortDialog

        def apply(key: SortKey | None) -> None:
            if key is None:
                return
            self.sort_key = key
            self.library.set_setting("sort", {"field": key.field, "reverse": key.reverse})
            self.refilter()

        self.app.push_screen(SortDialog(self.sort_key or SortKey()), apply)

    def restore_sort(self) -> None:
        """Show the list in the sort order saved last time, if any."""
        from reader_tui.core.search.sorting import SORT_FIELDS

        saved = self.library.settings.get("sort")
        if isinstance(saved, dict) and saved.get("field") in SORT_FIELDS:
            self.sort_key = SortKey(saved["field"], bool(saved.get("reverse")))
            self.refilter(first=True)
