"""The saved auto-exports in the TUI (`reader-tui export -o FILE --save`): each file is
rewritten DELAY seconds after the last change of the library (made here, by undo, by
another process or by a sync), in a thread, only when its text changed
(`core.library.auto_exports`). A file that cannot be written is said once, in one line
naming it; a write still waiting when the app quits is done on the way out."""

from __future__ import annotations

import threading
from collections.abc import Callable

from textual.app import App
from textual.timer import Timer

from reader_tui.core.atomic_storage import describe_error
from reader_tui.core.library.library import Library

DELAY = 0.5
"""Seconds of quiet after a change before the files are written (a burst is written once)."""


class AutoExports:
    """Owned by the app: `changed()` after each change of the library."""

    def __init__(self, app: App, library: Library, say: Callable[[str], None]) -> None:
        self.app = app
        self.library = library
        self.say = say  # one line for a file that cannot be written (a notification)
        self._timer: Timer | None = None
        self._asked = 0  # changes asked for
        self._done = 0  # changes whose files are written (or failed)
        self._one_writer = threading.Lock()  # the last to write renders the newest state
        self._said: set[str] = set()
        self._memos: dict = {}  # file -> core Memo: a rewrite after one change renders that change

    @property
    def pending(self) -> bool:
        """Whether a change is not in the files yet."""
        return self._done < self._asked

    def changed(self) -> None:
        """The library changed: write the files once it has been quiet for DELAY s."""
        from reader_tui.core.library.auto_exports import SETTING

        if not self.library.settings.get(SETTING):
            return
        self._asked += 1
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.app.set_timer(DELAY, self._start, name="auto-export")

    def _start(self) -> None:
        self._timer = None
        asked = self._asked
        self.app.run_worker(lambda: self._write(asked), thread=True, group="auto-export", exit_on_error=False)

    def _write(self, asked: int) -> None:
        """In a thread: bring every file up to date (reading the library as it is now)."""
        from reader_tui.core.library.auto_exports import exported_ids, refresh_saved

        try:
            with self._one_writer:
                written, errors = refresh_saved(self.library, self._memos)
        except RuntimeError:  # the library changed under the reading: the next try reads it whole
            self.app.call_from_thread(self.changed)
            return
        except Exception as error:  # never a traceback: one line, the files as they were
            written, errors = [], [f"auto-export: {describe_error(error)}"]
        self.app.call_from_thread(self._finished, asked, exported_ids(written), errors)

    def _finished(self, asked: int, ids: list[str], errors: list[str]) -> None:
        self._done = max(self._done, asked)
        for line in errors:
            if line not in self._said:
                self.say(line)
        self._said = set(errors)
        if ids and not self.library.read_only:
            try:
                self.library.keep_citekeys(ids)  # in a .bib now: a document may cite them
            except Exception:  # a failed write is the writer's to report, as any other
                pass

    def finish(self, *, force: bool = False) -> list[str]:
        """On the way out (the app's screen gone): write what is still waiting (`force`:
        look at every file, after a sync on quit brought changes), here and now. Returns
        one line per file that could not be written."""
        from reader_tui.core.library.auto_exports import SETTING, refresh_saved

        if not (self.pending or force) or not self.library.settings.get(SETTING):
            return []
        with self._one_writer:
            try:
                _, errors = refresh_saved(self.library, self._memos)
            except Exception as error:
                errors = [f"auto-export: {describe_error(error)}"]
        self._done = self._asked
        return errors
