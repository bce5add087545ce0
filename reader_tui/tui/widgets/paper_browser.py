"""The paper browser: the paper list and what it shows (filter, sort, search).

It owns the list's state: the filter, the order (`list_order.ListOrder`: the sort and
the "for you" model), the search text, what escape goes back to (`navigation.Underneath`:
the list as it was before a search, the "more like this" lists laid over it), the jump
list (`navigation.History`: back and forth through the places the list has been), the
invisible `ListingWorker` (the search index and the thread worker that computes a
listing; the browser applies what it sends up) and `SearchTyping`. It posts
`ListingChanged` when the list shows something new; the screen puts that in the status
bar. The search bar sits above every pane, so it belongs to the screen: the screen hands
the browser what is typed there and the browser hands back keys typed at the list
while the bar opens (`SearchTyping.TypedAhead`), so a fast "/attention" loses no letter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from reader_tui.core.library.library import Library
from reader_tui.core.library.listing import ranks
from reader_tui.core.model import Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.list_order import ListOrder
from reader_tui.tui.listing import resorted
from reader_tui.tui.navigation import (
    History,
    MoreLike,
    Place,
    Snapshot,
    Underneath,
    keep_cursor,
    keep_view,
    saved_cursor,
    saved_view,
)
from reader_tui.tui.widgets.listing_worker import ListingWorker
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.search_typing import SearchTyping


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

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.list_filter = ListFilter()
        self.order = ListOrder(library)
        self.search_text = ""
        self.matched: Mapping[str, frozenset[str]] = {}
        """The words each shown paper matched in the search (for highlighting)."""
        self.every_word: int | None = None
        """Of the search's hits, how many have every word (None: all do, or no search)."""
        self.history = History()
        self.underneath = Underneath()
        self._keep: str | None = None
        self._keep_row: int | None = None  # the cursor's row instead, when `_keep` is None
        self._sorted_in_search = False
        """A sort was chosen while the search was open: it orders the matches (else best
        match first), and escape shows the list in it, not the list kept from before."""
        self._start: tuple[str | None, int | None] | None = None
        """The paper and scroll position the app was left at, until a listing shows them."""
        self._changed_since_model: set[str] = set()
        self._group: Any = None
        """A reading group's marks as last read (None: not read yet; the index's own)."""
        """Papers changed since the last "for you" model: the ones just decided."""

    def compose(self) -> ComposeResult:
        yield PaperList(self.library, list(self.library.papers), id="papers")
        yield ListingWorker(self.library)
        yield SearchTyping()

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def worker(self) -> ListingWorker:
        return self.query_one(ListingWorker)

    @property
    def typing(self) -> SearchTyping:
        return self.query_one(SearchTyping)

    @property
    def index(self) -> Any:
        """The search index once built (None: titles are matched without it)."""
        return self.worker.index

    @property
    def sort_key(self) -> SortKey | None:
        """The sort in effect (None: the catalog's order)."""
        return self.order.key

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
        return bool(self.search_text) or self.underneath.before_search is not None

    @property
    def more_like(self) -> MoreLike | None:
        """The "more like this" list shown (None: none)."""
        return self.underneath.more_like

    def refilter(self, keep: str | None = None, *, first: bool = False) -> None:
        """Recompute the list (filter, sort, search) off the UI thread; the cursor stays on
        `keep` (default: the current paper), or goes to the top with `first`."""
        if self.underneath.covered_list_changed():
            return  # a "more like this" list stays; what lies under it is recomputed on escape
        papers = self.paper_list
        if first:
            self._start = None  # a new search: its best hit first, not the place left last time
        self.worker.compute(
            self.list_filter, self.order.key, self.search_text, papers.marked, self.order.scores(),
            sort_matches=self._sorted_in_search,
        )
        self._keep = None if first else keep if keep is not None else papers.current_id
        self._keep_row = None

    def on_listing_worker_listed(self, message: ListingWorker.Listed) -> None:
        message.stop()
        listing = message.listing
        if listing.error:
            self.post_message(self.SearchFailed(listing.error))
            return
        self.matched = listing.matched
        self.every_word = listing.every_word
        papers = self.paper_list
        if listing.partial and not listing.ids:
            papers.empty_text = listing.partial.capitalize()  # not "No papers match": not known yet
        else:
            papers.empty_text = "No papers match" if self.search_text or not self.list_filter.is_empty else "No papers"
        keep = self._keep
        if self._keep_row is not None and listing.ids:
            keep = listing.ids[min(self._keep_row, len(listing.ids) - 1)]
        scroll = None
        if self._start is not None:  # the place the app was left at, once it can be shown
            keep, scroll = self._start
            if listing.ids or not listing.partial:  # (not the empty list of a search waiting for its index)
                self._start = None
        papers.set_ids(listing.ids, keep=keep, matched=listing.matched, scroll_y=scroll)
        self.post_message(self.ListingChanged(listing.partial))

    def describe(self) -> str:
        """The filter, sort and search in effect, e.g. "filter: tag:llm · sort: title"."""
        parts = []
        if not self.list_filter.is_empty:
            parts.append(f"filter: {self.list_filter.describe()}")
        if not ranks(self.search_text):
            parts.append(self.order.label())
        elif self.order.by_model:  # "for you" orders the matches of a words search too
            parts.append(self.order.label(within_search=True))
        elif self.order.key is not None and self._sorted_in_search:  # chosen during the search
            parts.append(self.order.label(within_search=True))
        elif self.order.key is not None:  # a words search: best match first, unless sorted in it
            parts.append("best match first")
        if self.search_text.strip():
            parts.append(f"search: {self.search_text.strip()}")
        if self.underneath.more:
            parts.append(self.underneath.more[-1][0].note)
        return " · ".join(part for part in parts if part)

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

    def go(self, *, back: bool) -> bool:
        """Show the place before this one (`ctrl+o`), or the one gone back from (`ctrl+i`);
        False when there is none."""
        place = (self.history.back if back else self.history.forward)(self.place())
        if place is not None:
            self.go_to(place)
        return place is not None

    def go_to(self, place: Place) -> None:
        """Show `place`: its filter, search and "more like this" list, its paper under the cursor."""
        self.typing.keys_at_bar()
        self.list_filter = place.list_filter
        self.search_text = place.search
        self._sorted_in_search = False
        self.underneath.clear(place.more_like)
        if place.more_like is not None:
            self._show_more(place.more_like, place.paper_id)
        else:
            self.refilter(keep=place.paper_id, first=place.paper_id is None)

    def show_more_like(self, more: MoreLike) -> None:
        """Show the papers like `more.source` until escape brings back the list before."""
        self.jumping()
        self.underneath.more.append((more, self._snapshot()))
        self._show_more(more, more.source)

    def _show_more(self, more: MoreLike, keep: str | None) -> None:
        self.worker.drop()  # a search still on its way must not replace this list
        self.matched = {}
        self.paper_list.set_ids([p for p in more.ids if p in self.library.papers], keep=keep)
        self.post_message(self.ListingChanged("escape goes back"))

    def leave_more_like(self) -> bool:
        """Escape from "more like this": the list before it, the cursor on the paper
        it was opened from. False when no such list is shown."""
        if not self.underneath.more:
            return False
        self.jumping()
        more, below = self.underneath.more.pop()
        if below is None and self.underneath.more:
            self._show_more(self.underneath.more[-1][0], more.source)
        elif below is None:
            self.refilter(keep=more.source)
        else:
            self._show_snapshot(below)
            self.post_message(self.ListingChanged("escape goes back" if self.underneath.more else ""))
        return True

    def _snapshot(self) -> Snapshot:
        papers = self.paper_list
        return (list(papers.ids), papers.current_id, papers.scroll_y, self.matched)

    def _show_snapshot(self, snapshot: Snapshot) -> None:
        ids, current, scroll_y, matched = snapshot
        self.worker.drop()  # results still on their way must not replace this list
        self.matched = matched
        self.paper_list.set_ids(ids, keep=current, matched=matched, scroll_y=round(scroll_y))

    def set_filter(self, list_filter: ListFilter) -> None:
        """Show the papers `list_filter` lets through (over a search, not a "more like this" list)."""
        if list_filter == self.list_filter and not self.underneath.more:
            return
        self.jumping()
        self.list_filter = list_filter
        self.underneath.more = []
        # the list kept for escape was filtered the old way: escape recomputes it
        self.underneath.before_search = None
        self.refilter()

    def clear_filter(self) -> bool:
        """Escape's last step: drop the filter. False when there was none."""
        if self.list_filter.is_empty:
            return False
        self.set_filter(ListFilter())
        return True

    def show_everything(self, keep: str) -> None:
        """Drop the filter, search and "more like this" (a jump to a paper they hide),
        keeping the cursor on `keep`."""
        self.list_filter = ListFilter()
        self.search_text = ""
        self._sorted_in_search = False
        self.underneath.clear()
        self.refilter(keep=keep)

    # -- search ---------------------------------------------------------------------------

    def begin_search(self) -> None:
        """The search bar opens: remember the list to restore on escape, and the place
        to go back to (`ctrl+o`) once the search is entered."""
        if not self.searching:
            self._sorted_in_search = False  # a new search: best match first
        self.underneath.open_search(self._snapshot(), self.place())
        self.worker.prepare()

    def search_for(self, text: str) -> None:
        """The search bar now holds `text`: search it."""
        if text == self.search_text:
            return
        self.search_text = text
        self._run_search()

    def _run_search(self) -> None:
        if not self.search_text.strip() and self.underneath.before_search is not None:
            self._restore_list(keep_snapshot=True)
            return
        self.refilter(first=True)  # the best hit first

    def submit_search(self) -> bool:
        """Enter in the search bar: search now. False when there is nothing to search."""
        self.typing.keys_at_bar()
        if not self.search_text.strip():
            return False
        before = self.underneath.place_before_search
        if before is not None and before.search != self.search_text.strip():
            self.history.left(before)
        self.paper_list.move_to(0)
        self.paper_list.focus()
        return True

    def cancel_search(self) -> None:
        """Escape: the list, cursor and scroll position as they were before the search
        (`ctrl+o` brings the search back)."""
        self.typing.keys_at_bar()
        if self.search_text.strip():
            self.jumping()
        self.search_text = ""
        self._restore_list(keep_snapshot=False)
        self.paper_list.focus()

    def _restore_list(self, *, keep_snapshot: bool) -> None:
        note = ""
        snapshot = self.underneath.close_search(keep_open=keep_snapshot)
        resorted_meanwhile = self._sorted_in_search
        if not keep_snapshot:
            self._sorted_in_search = False
        if snapshot is not None and resorted_meanwhile:
            # the list kept from before the search is in the sort it had then: it is
            # computed again in the sort the status line names, the cursor where it was
            self.matched = {}
            self.refilter(keep=snapshot[1])
        elif snapshot is not None:
            self._show_snapshot(snapshot)
            note = "escape goes back" if self.underneath.more and not keep_snapshot else ""
        else:  # the search came back through the jump list: no list was kept under it
            self.matched = {}
            self.refilter()
        self.post_message(self.ListingChanged(note))

    def on_key(self, event: events.Key) -> None:
        # Keys bubble up from the list: after "/", letters are search text until the bar has focus
        text = self.typing.keys_ahead(event)
        if text is not None:
            event.stop()
            event.prevent_default()
            self.post_message(SearchTyping.TypedAhead(text))

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.typing.keys_at_bar()

    # -- the search index and library changes ---------------------------------------------

    def set_index(self, index: Any) -> None:
        """Search with `index` from now on (a running search is run again with it)."""
        if self._group is not None:
            index.group = self._group  # read since the index was loaded (a sync)
        self.worker.index = index
        if self.search_text.strip():
            self.refilter()

    def set_group(self, group: Any) -> None:
        """A reading group's marks as just read (a sync, another process): what `by:`,
        `group:` and `is:group-*` search from now on (a running search is run again)."""
        from reader_tui.core.library.sync.group import GroupMarks

        self._group = group if group is not None else GroupMarks({})
        index = self.worker.index
        if index is not None and index.group is not self._group:
            index.group = self._group
            if self.search_text.strip() or self.list_filter.search.strip():
                self.refilter()

    def reindex(self, paper_id: str) -> None:
        """A paper's title or authors were edited: make them searchable at once."""
        self.worker.reindex(paper_id)

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        self.paper_list.refresh_papers(ids)
        if ids:
            self._changed_since_model.update(ids)
        if ids is None:
            self._check_scores()  # another process may have imported reviews
            self.refilter()  # another process imported papers: they join the list
            return
        # (the worker tells the search index: status, tags and notes are searchable)
        if self.sort_key is not None and not self.search_text.strip() and not self.underneath.more:
            # the label says "sort: status": a changed status moves its paper (the
            # cursor goes with it), as does a change under "last changed" or an edited
            # title. The filter is not applied again: a paper just marked read stays in
            # a "to-read" list until the list is filtered anew.
            papers = self.paper_list
            ids = resorted(self.library, papers.ids, ids, self.sort_key)
            if ids is not None:
                papers.set_ids(ids, keep=papers.current_id, matched=self.matched)

    # -- the order and the place kept for the next start ----------------------------------------

    def set_order(self, key: SortKey) -> None:
        """Show the list in `key`'s order from now on (remembered for the next start)."""
        self.order.choose(key)
        if self.searching:
            self._sorted_in_search = True
        self.refilter()

    def for_you_trained(self) -> None:
        """A new "for you" model: the list in its order, the cursor on the same paper, or,
        when that paper was just decided (it goes among the decided ones, at the end), on
        the same row: the paper the model now ranks there, the next one to decide.

        Only a paper decided since the last model: the first model after the sort was
        chosen (or the app started in it) found the cursor on a paper decided long ago
        and moved it to another paper, thousands of rows away from the one it was on."""
        just_changed, self._changed_since_model = self._changed_since_model, set()
        if not self.order.by_model or self.underneath.more:
            return
        if self.order.newer_model:
            return  # the list holds still while the user works; `=` re-ranks (`rerank`)
        papers = self.paper_list
        current = papers.current_id
        view = self.library.view(current) if current in just_changed and current in self.library.papers else None
        self.refilter()
        if view is not None and (view.status is not Status.UNREAD or view.tags):
            self._keep, self._keep_row = None, papers.cursor

    def rerank(self) -> bool:
        """`=`: the list in the newest "for you" model's order, the cursor on its paper.
        False when the list is in no model's order or no newer model is waiting."""
        if not self.order.newer_model:
            return False
        self.order.rerank()
        self.refilter()
        return True

    def restore_place(self) -> None:
        """Show the list as it was left last time: its filter, search and sort, scrolled as
        it was, the cursor on the paper it was on (`remember_place`)."""
        paper = saved_cursor(self.library)
        view = saved_view(self.library)
        restored = self.order.restore()
        if view is not None and (not view.list_filter.is_empty or view.search.strip()):
            self.list_filter = view.list_filter
            self.search_text = view.search.strip()
            restored = True
        if restored:
            self.refilter(keep=paper, first=paper is None)
            self._start = (paper, view.scroll if view is not None else None)
        elif paper is not None:
            papers = self.paper_list
            papers.set_ids(papers.ids, keep=paper, scroll_y=view.scroll if view is not None else None)

    def remember_place(self) -> None:
        """Keep the paper under the cursor, the filter, the search and the scroll position
        in the library's settings, to reopen there."""
        papers = self.paper_list
        keep_cursor(self.library, papers.current_id)
        keep_view(self.library, self.list_filter, self.search_text.strip(), round(papers.scroll_y))
