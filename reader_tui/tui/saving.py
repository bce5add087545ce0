"""The saving indicator of the main screen: "editing…", "saving…", "not saved", "saved".

Owned by the main screen (composition, not a mixin): it follows the Library's writes and
the notes editor until all are on disk, and reports a failing write once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.status_bar import StatusBar
from reader_tui.tui.write_errors import write_error_line

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from reader_tui.core.library.library import Library

SAVED_CHECK_EVERY = 0.2


class SavingIndicator:
    """Shows where the changes are in the status bar of `screen`."""

    def __init__(self, screen: Screen, library: Library) -> None:
        self.screen = screen
        self.library = library
        self._timer: Timer | None = None
        self._write_error: Exception | None = None  # the Library's writes fail (reported)
        self._notes_error: Exception | None = None  # the Library refused the notes
        self._notes_handed: set[str] = set()  # papers whose notes are on their way to disk

    def notes_saved(self, paper_id: str) -> None:
        """The notes of `paper_id` were handed to the Library."""
        self._notes_handed.add(paper_id)
        self._notes_error = None
        self.watch()

    def notes_refused(self, error: Exception) -> None:
        """The Library refused the notes (reported once)."""
        if self._notes_error is None:
            self.screen.notify(write_error_line(error, self.library), severity="error", markup=False)
        self._notes_error = error
        self.watch()

    def watch(self) -> None:
        """Follow the writes to disk until all are there: "saved" only then."""
        if not self.check() and self._timer is None:
            self._timer = self.screen.set_interval(SAVED_CHECK_EVERY, self.check, name="saving-indicator")

    def check(self) -> bool:
        """Show where the changes are: "editing…", "saving…", "not saved" (a write failed:
        reported once, retried by the Library) or "saved" (every write returned without
        error). True when there is nothing left to follow."""
        notes = self.screen.query_one(NotesEditor)
        status_bar = self.screen.query_one(StatusBar)
        try:
            self.library.flush(timeout=0)
            error = None
        except Exception as failure:  # any write error: the change is not on disk
            error = failure
        pending = self.library.pending_writes
        if error is not None and (self._write_error is None or str(error) != str(self._write_error)):
            self.screen.notify(write_error_line(error, self.library), severity="error", markup=False)
        elif error is None and self._write_error is not None and not pending:
            self.screen.notify("The changes that could not be saved are on disk now", markup=False)
        self._write_error = error
        if not notes.dirty:
            self._notes_error = None
        if not pending:
            self._notes_handed.clear()
        failing = error is not None or self._notes_error is not None
        notes.set_unsaved(failing and (notes.dirty or notes.paper_id in self._notes_handed))
        if failing:
            count = pending + notes.dirty
            status_bar.set_saving(f"not saved ({count} write{'s' if count != 1 else ''} waiting)", error=True)
        elif notes.dirty:
            status_bar.set_saving("editing…")
        elif pending:
            status_bar.set_saving("saving…")
        else:
            status_bar.set_saving("saved")
        settled = not pending and not notes.dirty and not failing
        if settled and self._timer is not None:
            self._timer.stop()
            self._timer = None
        return settled
