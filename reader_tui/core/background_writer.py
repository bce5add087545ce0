"""The Library's writer thread: runs writes in order, off the thread that asked for them."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


class BackgroundWriter:
    """A thread that runs writes in order, so the UI thread never waits on the disk."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Callable[[], Any] | None] = queue.Queue()
        self._error: BaseException | None = None
        self.pending = 0
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="reader-tui-writer", daemon=True)
        self._thread.start()

    def submit(self, write: Callable[[], Any]) -> None:
        with self._idle:
            self.pending += 1
        self._queue.put(write)

    def _run(self) -> None:
        while (write := self._queue.get()) is not None:
            try:
                write()
            except BaseException as error:  # kept and re-raised on flush, never lost
                self._error = error
            with self._idle:
                self.pending -= 1
                self._idle.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        with self._idle:
            done = self._idle.wait_for(lambda: self.pending == 0, timeout)
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return done

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)
