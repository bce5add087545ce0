"""The Library's writer thread: runs writes in order, off the thread that asked for them.

A write that fails is not dropped: it stays, with every write submitted after it, in
the order they were made, and is tried again before the next write and every
`retry_delay` seconds, so a repaired file or a freed disk gets every change. Writes
never overtake a failed one: each re-reads the file and sets its own fields, so an
older value written after a newer one would undo the newer change.

A write whose caller waits for it (`run`) is the exception: its caller is told at once
whether it happened, so it is never kept to happen later. It runs only after every
earlier write is on disk; when one of those fails, or it fails itself, it is dropped
and its caller gets the error. The writes after it keep their order and their retries.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

Write = Callable[[], Any]

_BEGIN = object()  # in the queue: run `begin_with`'s job now


class BlockedWrite(Exception):
    """A waited-for write was not run: an earlier write failed and is still waiting.
    `cause` is that write's error."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Waited:
    """A write whose caller waits for it: set `done` once it ran or was dropped."""

    def __init__(self, write: Write) -> None:
        self.write = write
        self.done = threading.Event()
        self.error: BaseException | None = None

    def __call__(self) -> Any:
        return self.write()


class BackgroundWriter:
    """A thread that runs writes in order, so the UI thread never waits on the disk."""

    RETRY_DELAY = 3.0
    """Seconds between two tries of writes that failed (while nothing new comes in)."""
    HOLD_AT_MOST = 2.0
    """Seconds `begin_with`'s job waits for a `release` that does not come."""

    def __init__(self, retry_delay: float | None = None) -> None:
        self.retry_delay = self.RETRY_DELAY if retry_delay is None else retry_delay
        self._queue: queue.Queue[Write | None] = queue.Queue()
        self._queued = 0  # submitted, not yet taken by the thread
        self._unwritten: list[Write] = []  # taken, not yet on disk: a failed write and those after it
        self._trying = False
        self._error: BaseException | None = None  # why the oldest unwritten write failed
        self._idle = threading.Condition()
        self._go = threading.Event()  # cleared until `begin_with`'s job may run
        self._go.set()
        self._begin_job: Write | None = None
        self._thread = threading.Thread(target=self._run, name="reader-tui-writer", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> int:
        """How many writes are not on disk yet: queued, running, or waiting after a failure."""
        with self._idle:
            return self._queued + len(self._unwritten)

    @property
    def error(self) -> BaseException | None:
        """Why writes are waiting (the last failure), or None when none failed."""
        with self._idle:
            return self._error if self._unwritten else None

    def begin_with(self, job: Write) -> None:
        """Run `job` before every write submitted after this call, once `release` is
        called (or `flush`, `run` or `stop`; at most `HOLD_AT_MOST` seconds later): work
        that is no change of the user's (the TUI's start backup, see `Library.open`), so
        `pending` does not count it, though `flush` waits for it. `job` must not raise."""
        with self._idle:
            self._go.clear()
            self._begin_job = job
            self._trying = True  # for `flush`, which waits while a job is under way
        self._queue.put(_BEGIN)

    def release(self) -> None:
        """Let the job given to `begin_with` run."""
        self._go.set()

    def submit(self, write: Write) -> None:
        with self._idle:
            self._queued += 1
        self._queue.put(write)

    def run(self, write: Write) -> None:
        """Run `write` after the writes before it and wait for it. Raises its error, or
        `BlockedWrite` when an earlier write failed; either way it is not kept: nothing
        runs it later."""
        waited = _Waited(write)
        self.release()
        self.submit(waited)
        waited.done.wait()
        if waited.error is not None:
            raise waited.error

    def _run(self) -> None:
        while True:
            try:
                write = self._queue.get(timeout=self.retry_delay if self._unwritten else None)
            except queue.Empty:  # nothing new: try the failed writes again
                self._write_all()
                continue
            if write is None:
                return
            if write is _BEGIN:
                self._begin()
                continue
            with self._idle:
                self._queued -= 1
                self._unwritten.append(write)
                self._trying = True
            self._write_all()

    def _begin(self) -> None:
        self._go.wait(self.HOLD_AT_MOST)
        job, self._begin_job = self._begin_job, None
        try:
            if job is not None:
                job()
        finally:
            with self._idle:
                self._trying = False
                self._idle.notify_all()

    def _write_all(self) -> None:
        """Run the unwritten writes oldest first; stop at the first that fails."""
        with self._idle:
            self._trying = True
        try:
            while True:
                with self._idle:
                    if not self._unwritten:
                        self._error = None
                        return
                    write = self._unwritten[0]
                try:
                    write()
                except BaseException as error:
                    with self._idle:
                        if isinstance(write, _Waited):  # its caller gets the error; not kept
                            self._unwritten.pop(0)
                            self._drop(write, error)
                            continue
                        # Kept, reported by `error` and `flush`. The waited-for writes
                        # behind it cannot overtake it and were promised an answer now.
                        self._error = error
                        for waited in [w for w in self._unwritten if isinstance(w, _Waited)]:
                            self._unwritten.remove(waited)
                            self._drop(waited, BlockedWrite(error))
                    return
                with self._idle:
                    self._unwritten.pop(0)
                    if isinstance(write, _Waited):
                        write.done.set()
        finally:
            with self._idle:
                self._trying = False
                self._idle.notify_all()

    @staticmethod
    def _drop(waited: _Waited, error: BaseException) -> None:
        waited.error = error
        waited.done.set()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every submitted write has been tried. Raises the error of a failed
        write while any write is still waiting on it; otherwise True when all is on disk
        (False when `timeout` ran out first)."""
        self.release()
        with self._idle:
            done = self._idle.wait_for(lambda: self._queued == 0 and not self._trying, timeout)
            error = self._error if self._unwritten else None
        if error is not None:
            raise error
        return done

    def stop(self) -> None:
        self.release()
        self._queue.put(None)
        self._thread.join(timeout=5)
