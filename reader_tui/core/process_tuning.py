"""Process tuning: how this process's garbage collector, C allocator and BLAS threads are
set, in one place. Nothing here changes what the program computes; each setting trades
nothing the user sees for time or memory, and each says why.

`tune_for_tui_start` is the one entry point, called by the CLI's `tui` command before the
library opens. The rest are the named helpers the places that need them call:

- the cyclic garbage collector: `gc_paused` around a bulk build (an import, the search
  and related indexes) and `pause_for_start` / `resume_after_start` around the TUI's
  start; `freeze_long_lived` once objects that live as long as the app are made.
  Bulk builds make millions of small objects, none of them cyclic; each full collection
  they would trigger walks the whole catalog again (about 0.1 s each on a 2-core
  machine). Pausing the collector loses nothing: reference counting still frees memory.
- glibc's allocator: `use_one_arena`, `bulk_allocations`, `release_free_memory`.
  Opening a library parses the catalog into one dict per record and then replaces each
  by a `Paper`; loading the indexes unpickles and unmarshals their caches. What that
  frees is scattered between the strings that stay (the abstracts), so the C allocator
  keeps it and the process stays some 15 MB larger at 20,000 papers than what it holds.
  glibc's `malloc_trim` returns the free pages in the middle of its heap too; elsewhere
  (macOS, Windows, musl) there is nothing to call and these do nothing.
- OpenBLAS's threads: `load_numpy` imports numpy with one BLAS thread.

This module measures nothing: what the process holds is read by the benchmarks.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from types import ModuleType

# -- the one entry point ---------------------------------------------------------------------


def tune_for_tui_start() -> None:
    """Tune the process for a TUI start: the collector held off until the list is on
    screen (the main screen calls `resume_after_start`), and one allocation arena for
    every thread. Call it before the library opens: the arena setting must come before
    the writer and worker threads start."""
    pause_for_start()
    use_one_arena()


# -- the cyclic garbage collector ------------------------------------------------------------


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold off the cyclic garbage collector for the duration of a bulk build."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_paused_for_start = False


def pause_for_start() -> None:
    """Hold the collector off while the TUI starts. A start makes modules, classes, the
    catalog and the first screen: objects that live on, none of them cyclic garbage, yet
    the collector walked them some 130 times before the first frame (60-70 ms of the
    start). `resume_after_start` ends the pause once the list is on screen."""
    global _paused_for_start
    if gc.isenabled():
        gc.disable()
        _paused_for_start = True


def resume_after_start() -> None:
    """End `pause_for_start` (nothing if it was not called: tests make many apps in one
    process): what the start made lives as long as the app, so it is moved out of the
    collector's sight (`gc.freeze`) and collections resume for what comes after. The
    start's own cyclic garbage is frozen with it (about 2,000 objects, 0.3 MB, measured
    at 19,630 papers): less than the 5-13 ms a collection before the freeze would add
    to the first frame or the first key."""
    global _paused_for_start
    if _paused_for_start:
        _paused_for_start = False
        gc.freeze()
        gc.enable()
        defer_full_collections()


#: Full collections wait for a pause in the input, but never longer than this (seconds).
FULL_COLLECTION_AT_LEAST_EVERY = 30.0
#: A pause in the input this long (seconds) is a moment for a full collection.
FULL_COLLECTION_PAUSE = 0.4
_full_collections_deferred = False
_last_full_collection = 0.0


def defer_full_collections() -> None:
    """Leave full collections (the oldest generation) to `collect_fully_if_idle`, the
    young ones to the collector as usual. Textual's rendered rows are cyclic (a Strip
    caches itself), so each second of typing leaves some 15,000 objects that only a
    full collection frees; with the long-lived objects frozen, the collector made one
    every second or so, 20-30 ms each in the middle of a frame (a typed search's answer
    came 50 ms late, measured at 19,630 papers). In a pause nobody waits for them."""
    global _full_collections_deferred, _last_full_collection
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1_000_000)
    _full_collections_deferred = True
    _last_full_collection = time.monotonic()


def collect_fully_if_idle(last_input: float) -> bool:
    """After `defer_full_collections`: a full collection now if the input paused
    (`last_input`, a `time.monotonic()`, is `FULL_COLLECTION_PAUSE` old) since some
    younger collection moved objects up, or if the last was `FULL_COLLECTION_AT_LEAST_EVERY`
    ago. True if it collected."""
    global _last_full_collection
    if not _full_collections_deferred:
        return False
    now = time.monotonic()
    paused = now - last_input >= FULL_COLLECTION_PAUSE and gc.get_count()[2] > 0
    if not paused and now - _last_full_collection < FULL_COLLECTION_AT_LEAST_EVERY:
        return False
    gc.collect()
    _last_full_collection = time.monotonic()
    return True


def freeze_long_lived() -> None:
    """Move every object made so far out of the collector's sight (`gc.freeze`): for
    objects that live as long as the app (the catalog and its Papers, a loaded index),
    so that full collections, every few thousand allocations, stop walking them."""
    gc.freeze()


# -- glibc's allocator -----------------------------------------------------------------------


def _libc_function(name: str):
    """glibc's function `name`, or None where there is no glibc (ctypes is imported only
    here: a CLI command that opens no TUI and builds nothing does not load it)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return getattr(libc, name)
    except (OSError, AttributeError):  # not glibc
        return None


@cache
def _malloc_trim():
    return _libc_function("malloc_trim")


@cache
def _mallopt():
    return _libc_function("mallopt")


#: glibc's mallopt parameter for the number of allocation arenas (malloc.h: M_ARENA_MAX).
_M_ARENA_MAX = -8


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


# -- OpenBLAS's threads ----------------------------------------------------------------------


def load_numpy() -> ModuleType:
    """numpy, imported (the first time) with OPENBLAS_NUM_THREADS=1 unless set already.

    Importing numpy loads OpenBLAS, which starts a thread per core that spins a while
    waiting for work: 0.04-0.08 s of CPU at every start of a process that imports numpy
    (the `reader-tui index` child, the cold search build), taken on a 2-core machine from
    the build itself. Nothing here calls BLAS: the search build sorts and counts, "for
    you" multiplies scipy sparse matrices (scipy's own code) and trains liblinear (its
    own), the related papers use no numpy. So one thread loses nothing (scipy's OpenBLAS,
    loaded after, reads the same variable). Only the first import of numpy in a process
    can set it (OpenBLAS reads the variable as it loads), and a user's own
    OPENBLAS_NUM_THREADS is kept."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import numpy

    return numpy


__all__ = [
    "bulk_allocations",
    "freeze_long_lived",
    "gc_paused",
    "load_numpy",
    "pause_for_start",
    "release_free_memory",
    "resume_after_start",
    "tune_for_tui_start",
    "use_one_arena",
]
