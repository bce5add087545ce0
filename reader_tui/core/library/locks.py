"""The one inter-process lock: a lock file held through `filelock` (flock on POSIX,
msvcrt on Windows), so the store's writes and the index builds are coordinated on every
platform with the same code.

A holder is exclusive across threads and processes and re-entrant within its thread:
the store's read-modify-write may nest (a write that takes a backup). Only writers take
a lock; reading never creates a lock file, so a read-only library opens and reads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from filelock import FileLock

# A process's waiters for another process's hold poll this often (filelock polls).
POLL_SECONDS = 0.01

_locks: dict[Path, tuple[threading.RLock, FileLock]] = {}
_locks_guard = threading.Lock()


def _lock(path: Path) -> tuple[threading.RLock, FileLock]:
    # One pair per path: a second FileLock of the same file in this process would wait
    # on the first; threads queue on the RLock, and the FileLock's own count is only ever
    # changed by the thread holding it.
    # filelock imported here, at the first write: with the inspect and logging modules it
    # brings, 10-15 ms that the TUI's first frame no longer waits for (it writes nothing).
    from filelock import FileLock

    key = Path(path).resolve()
    with _locks_guard:
        if key not in _locks:
            _locks[key] = (threading.RLock(), FileLock(key, thread_local=False))
        return _locks[key]


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the lock file at `path` (created if missing): wait while another thread or
    process holds it. Re-entrant within a thread. Raises OSError when the file cannot be
    created or opened (a read-only folder)."""
    thread_lock, file_lock = _lock(path)
    with thread_lock, file_lock.acquire(poll_interval=POLL_SECONDS):
        yield


@contextmanager
def exclusive_if_possible(path: Path) -> Iterator[bool]:
    """`exclusive`, or nothing when the lock file cannot be had (a read-only cache
    folder): yields whether the lock is held. Errors of the body are not caught."""
    with ExitStack() as stack:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(exclusive(path))
            held = True
        except OSError:
            held = False
        yield held
