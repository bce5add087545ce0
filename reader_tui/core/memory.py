"""Giving freed memory back to the operating system after the start-up's bulk work.

Opening a library parses the catalog into one dict per record and then replaces each by a
`Paper`; loading the indexes unpickles and unmarshals their caches. What that frees is
scattered between the strings that stay (the abstracts), so the C allocator keeps it and
the process stays some 15 MB larger at 20,000 papers than what it holds. glibc's
`malloc_trim` returns the free pages in the middle of its heap too; elsewhere (macOS,
Windows, musl) there is nothing to call and this does nothing. `use_one_arena` keeps the
threads' allocations in one arena, so that what one thread frees another reuses.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
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


@cache
def _malloc_free():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        malloc, free = libc.malloc, libc.free
        if not hasattr(libc, "malloc_trim"):  # not glibc: another allocator's thresholds
            return None
    except (OSError, AttributeError):
        return None
    malloc.restype, malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    free.restype, free.argtypes = None, [ctypes.c_void_p]
    return malloc, free


def reuse_blocks_up_to(size: int) -> bool:
    """Have glibc serve freed blocks of up to `size` bytes (32 MB at most) again from its
    heap, rather than map fresh zeroed pages for each (glibc only; True if it could).

    glibc maps each block above its mmap threshold (128 KB at first) on its own and
    unmaps it when freed, and raises the threshold to the size of such a block once one
    is freed (mallopt(3), M_MMAP_THRESHOLD). numpy's passes over a chunk of words make
    and drop arrays of a megabyte or so, one after another: each mapped afresh, its pages
    faulted in and zeroed again (55,000 page faults, 0.1 s of CPU, in the abstracts of
    19,630 papers). One block of `size` allocated and freed here raises the threshold to
    it, untouched (no page of it is ever used)."""
    found = _malloc_free()
    if found is None:
        return False
    malloc, free = found
    block = malloc(size)
    if not block:
        return False
    free(block)
    return True


__all__ = ["release_free_memory", "reuse_blocks_up_to", "use_one_arena"]
