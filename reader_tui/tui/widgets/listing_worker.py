"""An invisible widget that computes what the paper list shows, off the UI thread.

It owns the search index the list is searched with (handed to it once built, kept up
to date with the Library's change events: status, tags and notes are searchable) and
the thread worker that turns a filter, an order and a search into a `Listing`
(`core.library.listing.compute_listing`). Every key of a search asks for a listing at
once (no pause waited for); one is computed at a time: a request made meanwhile waits,
the newest replacing any older one waiting, and starts as the running one ends. So a
search answers a key as soon as it can, and a slow search (100,000 papers) is never
shared with searches the user has already typed past: a thread cannot be stopped, and
two in the GIL would each take twice as long. Each request gets a token; a result whose
token is not the last one given is dropped, so a list shown meanwhile (a "more like
this" list, a snapshot brought back by escape) is never replaced by a late one. The
result goes up to the browser as `ListingWorker.Listed`, on the UI thread.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from textual import work
from textual.message import Message
from textual.widget import Widget

from reader_tui.core.library.library import Library
from reader_tui.core.library.listing import Listing, compute_listing
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.messages import ListingReady


class ListingWorker(Widget):
    """Listings computed in a thread worker; the search index they search with."""

    DEFAULT_CSS = "ListingWorker { display: none; }"

    class Listed(Message):
        """The listing asked for last is ready."""

        def __init__(self, listing: Listing) -> None:
            super().__init__()
            self.listing = listing

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.index: Any = None
        """The search index once built (None: titles are matched without it)."""
        self._token = 0
        self._computing = False
        self._request_waiting: tuple[Any, ...] | None = None
        """The newest request made while one was computed (None: none)."""
        self._prepared: Any = None
        """The index `prepare` made ready for queries (None: none yet)."""

    @property
    def busy(self) -> bool:
        """A listing is being computed, or waits to be."""
        return self._computing or self._request_waiting is not None

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)

    def compute(
        self,
        list_filter: ListFilter,
        sort: SortKey | None,
        search: str,
        marked: Collection[str],
        scores: Mapping[str, float] | None,
        sort_matches: bool = False,
    ) -> None:
        """Compute the list for these, now or as the listing being computed ends (a result
        still on its way is dropped)."""
        self._token += 1
        request = (self._token, list_filter, sort, search, frozenset(marked), scores, sort_matches)
        if self._computing:
            self._request_waiting = request
        else:
            self._start(request)

    def prepare(self) -> None:
        """The search bar opened: make what the index's first query needs (numpy, 0.1 s
        and 14 MB; its table of keywords, 0.6 s at 100,000 papers) while the first key is
        being typed, not after it. A start that never searches never makes them."""
        if self.index is not None and self._prepared is not self.index:
            self._prepared = self.index
            self._prepare(self.index)

    @work(thread=True, group="prepare", exclusive=True)
    def _prepare(self, index: Any) -> None:
        index.prepare_for_queries()

    def drop(self) -> None:
        """The list shows something else now: a result still on its way is not wanted."""
        self._token += 1
        self._request_waiting = None

    def _start(self, request: tuple[Any, ...]) -> None:
        token, list_filter, sort, search, marked, scores, sort_matches = request
        self._computing = True
        self._compute(token, list_filter, sort, search, self.index, marked, scores, sort_matches)

    @work(thread=True, group="search")
    def _compute(self, token: int, list_filter, sort, search, index, marked, scores, sort_matches) -> None:
        listing = compute_listing(
            self.library, list_filter=list_filter, sort=sort, search=search, index=index, marked=marked,
            scores=scores, sort_matches=sort_matches,
        )
        self.post_message(ListingReady(listing, token))

    def on_listing_ready(self, message: ListingReady) -> None:
        message.stop()
        self._computing = False
        if self._request_waiting is not None:
            request, self._request_waiting = self._request_waiting, None
            self._start(request)
        if message.token == self._token:  # else a newer filter or search is on its way
            self.post_message(self.Listed(message.listing))

    def reindex(self, paper_id: str) -> None:
        """A paper's title or authors were edited: make them searchable at once."""
        if self.index is not None and paper_id in self.library.papers:
            self.index.add([self.library.view(paper_id)])

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        if self.index is not None and ids is not None:
            # status, tags and notes are searchable (status:read, tag:x, notes words)
            for pid in ids:
                if pid in self.library.papers:
                    self.index.update(self.library.view(pid))
