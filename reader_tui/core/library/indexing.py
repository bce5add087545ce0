"""The derived indexes of a library (search, related papers), prepared ahead of the TUI.

Both are functions of the catalog alone, cached per library (`paths.store_cache_path`),
and building them takes seconds of pure-Python CPU at 20,000 papers (search about 2 s,
related papers about 5 s on a slow 2-core machine), against a fraction of a second to
load them from their caches. So whatever changes the catalog (`reader-tui import`)
starts `reader-tui index` in a detached background process, the way `git gc --auto`
does, and the TUI's next start finds both ready: search works at once, and neither the
seconds of CPU nor the build's transient memory land in the TUI's process.

Each cache file has a lock (`locks`, a lock file) held while it is built: a TUI that starts while a
background build runs waits for it and then loads its result, instead of doing the
same work twice on a machine with two cores. A TUI that finds no fresh cache for a
big library has a child `reader-tui index` build them too (`provide_indexes`), and
searches titles meanwhile. Edits of titles or authors (`reader-tui edit`, or the TUI's
as it exits) start the background build like an import. Anything that goes
wrong with a cache, a lock or a child (read-only cache folder) costs a rebuild in the app's worker thread, never an error.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..paths import store_cache_path
from ..process_tuning import release_free_memory
from .locks import exclusive_if_possible

if TYPE_CHECKING:
    from ..related.similar import RelatedIndex
    from ..search.index import SearchIndex
    from .library import Library

#: Set to 0 to keep `reader-tui import` from starting the background build (the tests do).
BACKGROUND_ENV = "READER_TUI_BACKGROUND_INDEX"


def search_cache_path(folder: Path) -> Path:
    """The search index's cache file for the store in `folder`."""
    return store_cache_path(folder, "search", ".idx")


def related_cache_path(folder: Path) -> Path:
    """The related-papers index's cache file for the store in `folder`."""
    return store_cache_path(folder, "related", ".marshal")


@contextmanager
def building(cache: Path) -> Iterator[None]:
    """Hold `cache`'s build lock: wait while another process builds it, keep others waiting
    while this one does. Without a usable lock file (read-only folder) it does not wait."""
    with exclusive_if_possible(cache.with_name(cache.name + ".lock")):
        yield


def load_search_index(library: Library) -> SearchIndex | None:
    """The library's search index from its cache (after waiting for a build of it that
    another process is running), or None when there is no cache matching the catalog."""
    from ..search import cache as search_cache
    from .sync.group import load_group

    views = library.views()
    # Building every Paper freed the catalog's record texts, in small pieces the index
    # arrays do not reuse: handed back now, before the indexes load, not after (26 MB
    # off the peak at 100,000 papers).
    release_free_memory()
    cache = search_cache_path(library.files.folder)
    with building(cache):
        index = search_cache.load(views, cache)
    if index is not None:
        index.group = load_group(library.files.folder)  # a reading group's marks (by:, group:)
    return index


def search_index(
    library: Library, on_titles: Callable[[SearchIndex], None] | None = None
) -> tuple[SearchIndex, bool]:
    """The library's search index and whether it came from the cache.

    Loaded from the cache when it matches the catalog (after waiting for a build of it
    that another process is running), else built here and cached. `on_titles`, when
    given, is called with the index as soon as its titles are in, before the abstracts
    (most of the build): a caller can search titles while the rest is built.
    """
    from ..search import cache as search_cache
    from ..search.index import SearchIndex
    from .sync.group import load_group

    views = library.views()
    cache = search_cache_path(library.files.folder)
    fingerprint = search_cache.fingerprint(views)
    with building(cache):
        index = search_cache.load(views, cache, fingerprint)
        if index is not None:
            index.group = load_group(library.files.folder)  # a reading group's marks (by:, group:)
            return index, True
        # with nobody to search the titles meanwhile, at once (every field numbered together)
        index = SearchIndex.build(views, abstracts=on_titles is None)
        index.group = load_group(library.files.folder)
        if on_titles is not None:
            on_titles(index)
            index.index_abstracts()
        search_cache.save(index, cache, fingerprint)
        return index, False


def load_related_index(library: Library) -> RelatedIndex | None:
    """The library's related-papers index from its cache (after waiting for a build of it
    that another process is running), or None when there is no cache matching the catalog."""
    from ..related.similar import RelatedIndex

    # what loading the search index freed (its cache's head, the fingerprint's texts), in
    # pieces the related index's arrays do not reuse: handed back first (see above)
    release_free_memory()
    cache = related_cache_path(library.files.folder)
    with building(cache):
        # each view made as the load reads it, not a list of them all (see RelatedIndex.load)
        return RelatedIndex.load(map(library.view, library.papers), cache)


def related_index(library: Library) -> tuple[RelatedIndex, bool]:
    """The library's related-papers index and whether it came from the cache: loaded
    (after waiting for a build of it that another process is running), else built here
    and cached."""
    index = load_related_index(library)
    if index is not None:
        return index, True
    return _build_related_index(library), False


def _build_related_index(library: Library) -> RelatedIndex:
    """The related-papers index built from the catalog, and cached."""
    from ..related.similar import RelatedIndex, fingerprint

    views = library.views()
    cache = related_cache_path(library.files.folder)
    with building(cache):
        index = RelatedIndex.build(views)
        index.save(cache, fingerprint(views))
        return index


def prepare(library: Library) -> Iterator[tuple[str, float, bool]]:
    """Make sure both caches match the catalog, search first: per index, as it is done,
    its name ("search", "related"), the seconds it took and whether it was up to date."""
    for name, get in (("search", search_index), ("related", related_index)):
        started = time.perf_counter()
        _, cached = get(library)
        yield name, time.perf_counter() - started, cached


#: From this many papers on, an app without fresh caches has them built by a child
#: process (`reader-tui index`) rather than in its own worker thread; below it a build
#: takes a blink and a child's start-up would cost more than it saves.
CHILD_BUILD_MIN_PAPERS = 2000


def provide_indexes(
    library: Library,
    on_search: Callable[[SearchIndex], None],
    on_related: Callable[[RelatedIndex], None],
    cancelled: Callable[[], bool] = lambda: False,
) -> None:
    """Hand an app the library's search and related-papers indexes as each is ready.

    Runs in a worker thread. From the caches when they match the catalog; otherwise,
    for a library of CHILD_BUILD_MIN_PAPERS or more, a child process builds and caches
    them while this thread only waits: the app's UI thread then has the GIL to itself
    during seconds of indexing, and the build's transient memory stays out of the app.
    Meanwhile a titles-only search index (a fraction of a second to build) serves the
    search. Returns early once `cancelled()` (the app is quitting): the child carries on,
    detached, and leaves the caches for the next start. If the child fails, the indexes
    are built in this thread instead.
    """
    search = load_search_index(library)
    related = None
    child = None
    # (POSIX only: the child's reports are read with select(), which Windows pipes lack)
    if search is None and len(library.papers) >= CHILD_BUILD_MIN_PAPERS and os.name == "posix":
        child = start_index_child(library.files.folder)
    if child is not None:
        from ..search.index import SearchIndex
        from .sync.group import load_group

        titles = SearchIndex.build(library.views(), abstracts=False)  # while the child starts
        titles.group = load_group(library.files.folder)
        titles.index_abstracts_on_search = False  # the child is indexing them
        on_search(titles)
        for name in child_reports(child, cancelled):
            if name == "search":
                search = load_search_index(library)
                if search is not None:
                    on_search(search)
            elif name == "related":
                related = load_related_index(library)
        if cancelled():
            return
        if search is None:
            search, _ = search_index(library)
            on_search(search)
    elif search is None:
        search, _ = search_index(library, on_titles=on_search)
        on_search(search)
    else:
        on_search(search)
    if related is None:
        # from its cache, a view at a time (a list of them all was 2.5 MB on top of the
        # start's peak at 19,630 papers); built only when there is none
        related = load_related_index(library)
        if related is None:
            related = _build_related_index(library)
    on_related(related)
    # Both indexes are in and every catalog record is a Paper: what start-up freed can go.
    release_free_memory()


def start_index_child(folder: Path) -> subprocess.Popen | None:
    """Start `reader-tui index` for the store in `folder` in a child process whose
    reports (one line per index, as its cache is written) come on its stdout pipe; in a
    session of its own, so that it outlives an app that quits. None if it cannot start."""
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "reader_tui", "index", "--db", str(folder)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None


def child_reports(child: subprocess.Popen, cancelled: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """The name of each index ("search", "related") as `child` (`start_index_child`)
    reports its cache written. Stops reading once `cancelled()`: the child carries on and
    finishes the caches (its reports then go nowhere, which `reader-tui index` allows)."""
    assert child.stdout is not None
    fd, pending = child.stdout.fileno(), b""
    try:
        while not cancelled():
            # a short timeout, so that a quitting app is never kept waiting
            if not select.select([fd], [], [], 0.1)[0]:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                child.wait()
                return
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                yield line.decode("utf-8", "replace").split(" ", 1)[0]
    finally:
        child.stdout.close()


def start_background_prepare(folder: Path) -> subprocess.Popen | None:
    """Start `reader-tui index` for the store in `folder` in a detached process (it
    outlives this one, with no terminal and its output discarded); None when turned off
    with READER_TUI_BACKGROUND_INDEX=0 or when it cannot be started."""
    if os.environ.get(BACKGROUND_ENV, "").strip() == "0":
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "reader_tui", "--db", str(folder), "index", "--quiet"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl+C in the terminal does not reach it
            close_fds=True,
        )
    except OSError:
        return None  # the TUI builds the indexes itself at its next start


__all__ = [
    "BACKGROUND_ENV", "CHILD_BUILD_MIN_PAPERS", "building", "load_related_index", "load_search_index", "prepare",
    "child_reports", "provide_indexes", "related_cache_path", "related_index", "search_cache_path",
    "search_index", "start_background_prepare", "start_index_child",
]
