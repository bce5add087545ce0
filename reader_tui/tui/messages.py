"""Messages that workers and the Library's listener post.

Workers never touch widgets: they post one of these and a handler on the app's thread
changes what is shown. `LibraryChanged` goes to the app, which fans it out once through
`ReaderApp.library_changed_signal`.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from reader_tui.core.library.listing import Listing


class LibraryChanged(Message):
    """Papers changed in the Library (`ids`, or None: anything may have)."""

    def __init__(self, ids: frozenset[str] | None) -> None:
        super().__init__()
        self.ids = ids


class DiskRead(Message):
    """The reload worker read what another process wrote (`found`, a store.DiskRead):
    the screen has the Library take it in on the UI thread."""

    def __init__(self, found: Any) -> None:
        super().__init__()
        self.found = found


class ListingReady(Message):
    """A filter, sort or search finished; `token` tells stale results from fresh ones."""

    def __init__(self, listing: Listing, token: int) -> None:
        super().__init__()
        self.listing = listing
        self.token = token


class IndexReady(Message):
    """The search index was built in the background."""

    def __init__(self, index: Any) -> None:
        super().__init__()
        self.index = index


class RelatedReady(Message):
    """The related-papers index was built (or loaded from its cache) in `seconds`."""

    def __init__(self, index: Any, seconds: float) -> None:
        super().__init__()
        self.index = index
        self.seconds = seconds
