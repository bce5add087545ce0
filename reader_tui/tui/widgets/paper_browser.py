"""The paper browser: the paper list and what it shows (filter, sort, search).

It owns the list's state: the filter, the sort, the search text, the list as it was
before a search (escape restores it), the "more like this" lists laid over it, the
jump list (`navigation.History`: back and forward through the places the list has
been), the search index (kept up to date from the Library's change events) and the
worker that computes a listing. It posts
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
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.listing import Listing, compute_listing, ranks
from reader_tui.tui.messages import ListingReady
from reader_tui.tui.navigation import History, MoreLike, Place
from reader_tui.tui.widgets.paper_list import PaperList

SEARCH_DELAY = 0.05

#: What a list looked like (ids, current paper, scroll, matched words), to show it again at once.
Snapshot = tuple[list[str], "str | None", float, Mapping[str, frozenset[str]]]


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
        self.list_filter = ListFilter()
        self.sort_key: SortKey | None = None
        self.search_text = ""
        self.index: Any = None
        """The search index once built (None: titles are matched without it)."""
        self.matched: Mapping[str, frozenset[str]] = {}
        """The words each shown paper matched in the search (for highlighting)."""
        self.every_word: int | None = None
        """Of the search's hits, how many have every word (None: all do, or no search)."""
        self.for_you: Any = None
        """The screen's `ForYouModel` (the "for you" sort's scores and readiness)."""
        self.history = History()
        self._token = 0
        self._keep: str | None = None
        self._keep_row: int | None = None  # the cursor's row instead, when `_keep` is None
        # "more like this" lists, each over the list it replaced (None: to be recomputed)
        self._more: list[tuple[MoreLike, Snapshot | None]] = []
        # the list before `/` and the "more like this" lists it showed, for escape
        self._before_search: tuple[Snapshot, list[tuple[MoreLike, Snapshot | None]]] | None = None
        self._place_before_search: Place | None = None
        self._search_timer: Timer | None = None
        self._search_opening = False  # "/" went by: printable keys are search text

    def compose(self) -> ComposeResult:
        yield PaperList(self.library, list(self.library.papers), id="papers")

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)
        self._check_scores()

    def _check_scores(self) -> None:
        # The score column only once reviews were imported: a library without them looks
        # as it always did. A file's existence, not a look at every paper's scores
        # (that would build 20,000 Papers at start).
        self.paper_list.show_scores = self.library.review_store.exists

    # -- what the list shows ----------------------------------------------------------------

    @property
    def searching(self) -> bool:
        """A search replaced the list; escape restores it."""
        return bool(self.search_text) or self._before_search is not None

    @property
    def more_like(self) -> MoreLike | None:
        """The "more like this" list shown (None: none)."""
        return self._more[-1][0] if self._more else None

    def refilter(self, keep: str | None = None, *, first: bool = False) -> None:
        """Recompute the list (filter, sort, search) off the UI thread; the cursor stays on
        `keep` (default: the current paper), or goes to the top with `first`."""
        if self._more:
            # a "more like this" list stays; what lies under it is recomputed on escape
            self._more = [(more, None) for more, _ in self._more]
            return
        self._token += 1
        papers = self.paper_list
        scores = self.for_you.scores() if self.for_you is not None and self.sorted_for_you else None
        self._compute(
            self._token, self.list_filter, self.sort_key, self.search_text, self.index, frozenset(papers.marked), scores
        )
        self._keep = None if first else keep if keep is not None else papers.current_id
        self._keep_row = None

    @work(thread=True, exclusive=True, group="search")
    def _compute(self, token: int, list_filter, sort_key, search, index, marked, scores=None) -> None:
        listing = compute_listing(
            self.library, list_filter=list_filter, sort=sort_key, search=search, index=index, marked=marked,
            scores=scores,
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
        self.every_word = listing.every_word
        papers = self.paper_list
        papers.empty_text = "No papers match" if self.search_text or not self.list_filter.is_empty else "No papers"
        keep = self._keep
        if self._keep_row is not None and listing.ids:
            keep = listing.ids[min(self._keep_row, len(listing.ids) - 1)]
        papers.set_ids(listing.ids, keep=keep, matched=listing.matched)
        self.post_message(self.ListingChanged())

    def describe(self) -> str:
        """The filter, sort and search in effect, e.g. "filter: tag:llm · sort: title"."""
        parts = []
        if not self.list_filter.is_empty:
            parts.append(f"filter: {self.list_filter.describe()}")
        if self.sort_key is not None and not ranks(self.search_text):  # words search: best match first
            learning = ""
            if self.sorted_for_you and (self.for_you is None or self.for_you.scores() is None):
                learning = " (failed)" if self.for_you is not None and self.for_you.failed else " (learning…)"
            parts.append(f"sort: {self.sort_key.label}{learning}")
        if self.search_text.strip():
            parts.append(f"search: {self.search_text.strip()}")
        if self._more:
            parts.append(self._more[-1][0].note)
        return " · ".join(parts)

    def query_text(self) -> str:
        """The current filter and search as one query ("status:to-read tag:llm attention")."""
        return ListFilter(
            self.list_filter.statuses, self.list_filter.tags, self.list_filter.any_tag,
            self.list_filter.marked_only, self.search_text.strip(),
        ).as_query()

    # -- places and the jump list -----------------------------------------------------------

    def place(self) -> Place:
        """Where the list is now."""
        return Place(self.list_filter, self.search_text.strip(), self.more_like, self.paper_list.current_id)

    def jumping(self) -> None:
        """The list is about to show another place (or the cursor to jump): remember this one."""
        self.history.left(self.place())

    def go_back(self) -> bool:
        """Show the place before this one (`ctrl+o`); False when there is none."""
        place = self.history.back(self.place())
        if place is not None:
            self.go_to(place)
        return place is not None

    def go_forward(self) -> bool:
        """Show the place gone back from (`ctrl+i`); False when there is none."""
        place = self.history.forward(self.place())
        if place is not None:
            self.go_to(place)
        return place is not None

    def go_to(self, place: Place) -> None:
        """Show `place`: its filter, search and "more like this" list, its paper under the cursor."""
        self._stop_search_timer()
        self._search_opening = False
        self.list_filter = place.list_filter
        self.search_text = place.search
        self._before_search = self._place_before_search = None
        if place.more_like is not None:
            self._more = [(place.more_like, None)]
            self._show_more(place.more_like, place.paper_id)
        else:
            self._more = []
            self.refilter(keep=place.paper_id, first=place.paper_id is None)

    def show_more_like(self, more: MoreLike) -> None:
        """Show the papers like `more.source` until escape brings back the list before."""
        self.jumping()
        self._more.append((more, self._snapshot()))
        self._show_more(more, more.source)

    def _show_more(self, more: MoreLike, keep: str | None) -> None:
        self._token += 1  # a search still on its way must not replace this list
        self.matched = {}
        self.paper_list.set_ids([p for p in more.ids if p in self.library.papers], keep=keep)
        self.post_message(self.ListingChanged("escape goes back"))

    def leave_more_like(self) -> bool:
        """Escape from "more like this": the list before it, the cursor on the paper
        it was opened from. False when no such list is shown."""
        if not self._more:
            return False
        self.jumping()
        more, below = self._more.pop()
        if below is None and self._more:
            self._show_more(self._more[-1][0], more.source)
        elif below is None:
            self.refilter(keep=more.source)
        else:
            self._show_snapshot(below)
            self.post_message(self.ListingChanged("escape goes back" if self._more else ""))
        return True

    def _snapshot(self) -> Snapshot:
        papers = self.paper_list
        return (list(papers.ids), papers.current_id, papers.scroll_y, self.matched)

    def _show_snapshot(self, snapshot: Snapshot) -> None:
        ids, current, scroll_y, matched = snapshot
        self._token += 1  # drop results still on their way
        self.matched = matched
        self.paper_list.set_ids(ids, keep=current, matched=matched, scroll_y=round(scroll_y))

    def set_filter(self, list_filter: ListFilter) -> None:
        """Show the papers `list_filter` lets through (over a search, not a "more like this" list)."""
        if list_filter == self.list_filter and not self._more:
            return
        self.jumping()
        self.list_filter = list_filter
        self._more = []
        if self._before_search is not None:
            # the list kept for escape was filtered the old way: escape recomputes it
            self._before_search = None
        self.refilter()

    def clear_filter(self) -> bool:
        """Escape's last step: drop the filter. False when there was none."""
        if self.list_filter.is_empty:
            return False
        self.set_filter(ListFilter())
        return True

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
        """Drop the filter, search and "more like this" (a jump to a paper they hide),
        keeping the cursor on `keep`."""
        self._stop_search_timer()
        self.list_filter = ListFilter()
        self.search_text = ""
        self._before_search = self._place_before_search = None
        self._more = []
        self.refilter(keep=keep)

    # -- search ---------------------------------------------------------------------------

    def begin_search(self) -> None:
        """The search bar opens: remember the list to restore on escape, and the place
        to go back to (`ctrl+o`) once the search is entered."""
        self._place_before_search = self.place()  # a search over a search: back to the first
        if self._before_search is None:
            self._before_search = (self._snapshot(), self._more)
            self._more = []  # the search is over the whole (filtered) list

    def _stop_search_timer(self) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
            self._search_timer = None

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
        before = self._place_before_search
        if before is not None and before.search != self.search_text.strip():
            self.history.left(before)
        self.paper_list.move_to(0)
        self.paper_list.focus()
        return True

    def cancel_search(self) -> None:
        """Escape: the list, cursor and scroll position as they were before the search
        (`ctrl+o` brings the search back)."""
        self._search_opening = False
        self._stop_search_timer()
        if self.search_text.strip():
            self.jumping()
        self.search_text = ""
        self._restore_list(keep_snapshot=False)
        self.paper_list.focus()

    def _restore_list(self, *, keep_snapshot: bool) -> None:
        note = ""
        if self._before_search is not None:
            snapshot, more = self._before_search
            self._show_snapshot(snapshot)
            if keep_snapshot:
                self._more = []
            else:
                self._more, self._before_search, self._place_before_search = more, None, None
                note = "escape goes back" if more else ""
        else:  # the search came back through the jump list: no list was kept under it
            self.matched = {}
            self.refilter()
        self.post_message(self.ListingChanged(note))

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
            self._check_scores()  # another process may have imported reviews
            self.refilter()  # another process imported papers: they join the list
            return
        if self.index is not None:
            # status, tags and notes are searchable (status:read, tag:x, notes words)
            for pid in ids:
                if pid in self.library.papers:
                    self.index.update(self.library.view(pid))
        if self.sort_key is not None and not self.search_text.strip() and not self._more:
            # the label says "sort: status": a changed status moves its paper (the
            # cursor goes with it), as does a change under "last changed" or an edited
            # title. The filter is not applied again: a paper just marked read stays in
            # a "to-read" list until the list is filtered anew.
            self._resort(ids)

    def _resort(self, changed: frozenset[str]) -> None:
        from reader_tui.core.search.sorting import order_key, reposition

        papers = self.paper_list
        if self.sort_key is None or not changed.intersection(papers.ids) or self.sorted_for_you:
            return  # "for you" re-sorts once the model has learned from the change
        order = order_key(self.sort_key)
        view = self.library.view
        ids = reposition(papers.ids, changed, lambda pid: order(view(pid)))
        if ids != papers.ids:
            papers.set_ids(ids, keep=papers.current_id, matched=self.matched)

    # -- the filter and sort dialogs ---------------------------------------------------------

    def choose_filter(self) -> None:
        """Ask for a filter (`f`) and show what it lets through."""
        from reader_tui.tui.dialogs.filter_dialog import FilterDialog

        def apply(choice: ListFilter | None) -> None:
            if choice is not None:
                self.set_filter(choice)

        self.app.push_screen(FilterDialog(self.library.all_tags(), self.list_filter), apply)

    def choose_sort(self) -> None:
        """Ask for a sort order (`s`), remember it and show the list in it."""
        from reader_tui.tui.dialogs.sort_dialog import SortDialog

        def apply(key: SortKey | None) -> None:
            if key is None:
                return
            self.sort_key = key
            self.library.set_setting("sort", {"field": key.field, "reverse": key.reverse})
            if self.sorted_for_you and self.for_you is not None:
                self.for_you.want()  # the list follows once the model is trained
            self.refilter()

        for_you = None
        if self.for_you is not None:
            for_you = (self.for_you.can_learn(), self.for_you.readiness()[1])
        self.app.push_screen(SortDialog(self.sort_key or SortKey(), scores=self.paper_list.show_scores, for_you=for_you), apply)

    @property
    def sorted_for_you(self) -> bool:
        """The list is in "for you" order (a model of the user's decisions)."""
        return self.sort_key is not None and self.sort_key.field == "for-you"

    def for_you_trained(self) -> None:
        """A new "for you" model: the list in its order, the cursor on the same paper, or,
        when that paper was just decided (it goes among the decided ones, at the end), on
        the same row: the paper the model now ranks there, the next one to decide."""
        if not self.sorted_for_you or self.search_text.strip() or self._more:
            return
        papers = self.paper_list
        current = papers.current_id
        view = self.library.view(current) if current in self.library.papers else None
        self.refilter()
        if view is not None and (view.status is not Status.UNREAD or view.tags):
            self._keep, self._keep_row = None, papers.cursor

    def restore_place(self) -> None:
        """Show the list as it was left last time: in the sort order saved, the cursor on
        the paper it was on (`remember_place`)."""
        from reader_tui.core.search.sorting import MODEL_FIELDS, SCORE_FIELDS, SORT_FIELDS

        saved = self.library.settings.get("cursor")
        paper = saved.get("paper") if isinstance(saved, dict) else None
        paper = paper if isinstance(paper, str) and paper in self.library.papers else None
        sort = self.library.settings.get("sort")
        restorable = {**SORT_FIELDS, **SCORE_FIELDS, **(MODEL_FIELDS if self.for_you is not None else {})}
        if isinstance(sort, dict) and sort.get("field") in restorable:
            self.sort_key = SortKey(sort["field"], bool(sort.get("reverse")))
            if self.sorted_for_you:
                self.for_you.want()  # trained once the search index is in
            self.refilter(keep=paper, first=paper is None)
        elif paper is not None:
            papers = self.paper_list
            papers.set_ids(papers.ids, keep=paper)

    def remember_place(self) -> None:
        """Keep the paper under the cursor in the library's settings, to reopen there."""
        pid = self.paper_list.current_id
        saved = self.library.settings.get("cursor")
        if pid is None or saved == {"paper": pid} or self.library.read_only or self.library.writes_failing:
            return
        self.library.set_setting("cursor", {"paper": pid})
