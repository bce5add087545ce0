"""An invisible widget that keeps the main screen's Library current from the background:
it loads (or has a child process build) the search and related-papers indexes after
the first frame and again when another process changed the catalog, and polls the disk
for what other processes wrote. It says each damaged catalog record once, as it is met
(`report_damaged`: the list draws such a record as a placeholder row).

Its workers compute and post; nothing here changes a widget. `IndexReady` and
`RelatedReady` bubble up to the screen, which hands each index to its owner; what the
disk poll read is applied to the Library on the UI thread, and the app's signal tells
every widget what changed.
"""

from __future__ import annotations

import time

from textual import work
from textual.widget import Widget

from reader_tui.core.library.library import Library
from reader_tui.core.process_tuning import freeze_long_lived, gc_paused
from reader_tui.tui.messages import DiskRead, IndexReady, RelatedReady

RELOAD_EVERY = 1.5
"""Seconds between two looks at the store's files for other processes' writes."""


class LibraryWatcher(Widget):
    """Builds the indexes and notices other processes' writes (nothing to show)."""

    DEFAULT_CSS = "LibraryWatcher { display: none; }"

    def __init__(self, library: Library, **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = library
        self._damaged_shown: tuple[list[str] | None, int] = (None, 0)  # the catalog's problems, how many said

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)
        # After the first frame: loading the indexes holds the GIL for a while.
        self.call_after_refresh(self.build_indexes)
        self.set_interval(RELOAD_EVERY, self.poll_disk, name="reload-poll")

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        if ids is None:
            self.build_indexes()  # another process imported papers: index them
        self.report_damaged()

    def report_damaged(self) -> None:
        """Say once each damaged catalog record met so far (drawn as placeholder rows)."""
        problems = self.library.papers.problems
        listed, count = self._damaged_shown
        start = count if listed is problems else 0  # a reloaded catalog starts over
        for line in problems[start:]:
            self.app.notify(line, title="Damaged catalog record", severity="error", markup=False, timeout=30)
        self._damaged_shown = (problems, len(problems))

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def build_indexes(self) -> None:
        """Provide both indexes (a child process builds both for a large library)."""
        from textual.worker import get_current_worker

        from reader_tui.core.library.indexing import provide_indexes

        worker = get_current_worker()
        started = time.perf_counter()
        # Loading the indexes makes millions of objects; a full collection over them
        # (0.1 s at 20,000 papers, each holding the GIL) would stall the UI's first keys.
        # The collector waits until the indexes are in; the handlers below freeze them.
        with gc_paused():
            provide_indexes(
                self.library,
                on_search=lambda index: self.post_message(IndexReady(index)),
                on_related=lambda index: self.post_message(RelatedReady(index, time.perf_counter() - started)),
                cancelled=lambda: worker.is_cancelled,
            )

    def on_index_ready(self, message: IndexReady) -> None:
        freeze_long_lived()  # the index lives as long as the app: out of the collector's sight
        self.report_damaged()  # building the index met every record

    def on_related_ready(self, message: RelatedReady) -> None:
        freeze_long_lived()

    @work(thread=True, exclusive=True, group="reload", exit_on_error=False)
    def poll_disk(self) -> None:
        """Read what other processes wrote (reads and parses only: the Library is changed
        on the UI thread, so a change the user makes meanwhile is not replaced by the
        older file)."""
        found = self.library.read_disk()
        if found is not None:
            self.post_message(DiskRead(found))

    def on_disk_read(self, message: DiskRead) -> None:
        message.stop()
        self.library.apply_disk(message.found)  # the app's signal says what changed
