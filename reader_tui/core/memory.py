"""Giving freed memory back to the operating system after the start-up's bulk work.

Opening a library parses the catalog into one dict per record and then replaces each by a
`Paper`; loading the indexes unpickles and unmarshals their caches. What that frees is
scattered between the strings that stay (the abstracts), so the C allocator keeps it and
the process stays some 15 MB larger at 20,000 papers than what it holds. glibc's
`malloc_trim` returns the free pages in the middle of its heap too; elsewhere (macOS,
Windows, musl) there is nothing to call and this does nothing. `use_one_arena` keeps the
threads' allocations in one arena, so that what one thread frees another reuses.
`bulk_allocations` keeps what a bulk build frees for the build itself to reuse, until
it ends.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache


@cache
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


#: glibc's mallopt parameter for the number of allocation arenas (malloc.h: M_ARENA_MAX).
_M_ARENA_MAX = -8


@cache
def _mallopt():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return None


def use_one_arena() -> bool:
    """Have every thread allocate from one glibc arena; True if it could (glibc only).

    glibc gives each new thread an arena of its own. The TUI opens its catalog on the main
    thread and builds the Papers and loads the indexes on a worker: the memory the catalog's
    record texts free on the main thread's arena was not reused by the worker, whose own
    arena grew beside it (peak 184 MB instead of 148 at 19,630 papers). Python threads
    allocate under the GIL anyway, so one arena costs no contention. Call it before any
    thread starts: a thread keeps the arena it has."""
    mallopt = _mallopt()
    if mallopt is None:
        return False
    return bool(mallopt(_M_ARENA_MAX, 1))


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system (glibc only); True if it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


#: glibc's mallopt parameters (malloc.h): M_TRIM_THRESHOLD, M_MMAP_THRESHOLD.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: The highest mmap threshold glibc's own adjustment goes to (64-bit: 32 MB).
_MMAP_THRESHOLD_MAX = 32 << 20
#: A trim threshold no heap reaches: nothing handed back while a bulk build runs.
_NO_TRIM = 1 << 30  # (an int: what mallopt takes)


@contextmanager
def bulk_allocations() -> Iterator[None]:
    """Around a bulk build that makes and drops many arrays of a megabyte or so, one after
    another: freed memory is reused as it is, not handed back to the system to be mapped,
    faulted in and zeroed again (glibc only; elsewhere nothing is done). Afterwards what
    is free is handed back (`release_free_memory`).

    glibc maps each block above its mmap threshold (128 KB at first) on its own and
    unmaps it when freed, and hands the top of its heap back as soon as more than the
    trim threshold is free there; it raises both thresholds as it sees big blocks freed
    (to 32 and 64 MB at most). numpy's passes over the abstracts' chunks of words, their
    texts' bytes freed a slab at a time, had 45,000 to 80,000 page faults in the cold
    search build of 19,630 papers (0.1-0.2 s of CPU), 23,000 with this. The block sets
    the mmap threshold to glibc's highest (32 MB) and the trim threshold out of reach,
    then the trim threshold to 64 MB: where glibc's own adjustment ends once it has seen
    blocks that big freed (mallopt(3); setting them ends that adjustment, so what follows,
    such as the related-papers build and its arrays of tens of megabytes, finds them
    there)."""
    mallopt = _mallopt()
    if mallopt is None:
        yield
        return
    mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX)
    mallopt(_M_TRIM_THRESHOLD, _NO_TRIM)
    try:
        yield
    finally:
        mallopt(_M_TRIM_THRESHOLD, 2 * _MMAP_THRESHOLD_MAX)
        release_free_memory()


__all__ = ["bulk_allocations", "release_free_memory", "use_one_arena"]
