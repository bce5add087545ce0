"""The derived indexes' caches and their build locks (reader_tui/indexing.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from reader_tui.core.library import indexing
from reader_tui.core.library.indexing import (
    building,
    load_related_index,
    load_search_index,
    provide_indexes,
    related_index,
    search_cache_path,
    search_index,
)
from reader_tui.core.library.library import Library
from reader_tui.core.related.similar import RelatedIndex
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search.index import SearchIndex


@pytest.fixture
def library(tmp_path: Path, seed_path: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    lib = Library.open(tmp_path / "lib", seed=seed_path)
    yield lib
    lib.close()


def test_search_index_is_built_once_then_loaded(library: Library) -> None:
    titles_seen: list[tuple[SearchIndex, bool]] = []

    def on_titles(index: SearchIndex) -> None:
        titles_seen.append((index, index.abstracts_indexed))

    built, cached = search_index(library, on_titles=on_titles)
    assert not cached and titles_seen == [(built, False)]  # told once, before the abstracts
    assert search_cache_path(library.files.folder).exists()
    loaded, cached = search_index(library, on_titles=on_titles)
    assert cached and len(titles_seen) == 1  # a load has no titles-only stage
    query = "singleton conformal"
    assert [h.id for h in loaded.search(query)] == [h.id for h in built.search(query)]


def test_related_index_is_built_once_then_loaded(library: Library) -> None:
    built, cached = related_index(library)
    assert not cached
    loaded, cached = related_index(library)
    some = next(iter(library.papers))
    assert cached and loaded.related(some, 5) == built.related(some, 5)


def test_with_both_caches_the_app_loads_them_a_view_at_a_time(library: Library, monkeypatch) -> None:
    # building nothing and making no list of every paper's view (2.5 MB on the start's peak)
    search_index(library)
    related_index(library)

    def no_list(*args, **kwargs):
        raise AssertionError("a list of every view")

    monkeypatch.setattr(indexing, "related_index", no_list)
    monkeypatch.setattr(indexing, "search_index", no_list)
    got: dict[str, object] = {}
    provide_indexes(library, on_search=lambda index: got.setdefault("search", index),
                    on_related=lambda index: got.setdefault("related", index))
    assert isinstance(got["search"], SearchIndex) and isinstance(got["related"], RelatedIndex)


def test_a_running_build_is_waited_for_and_its_result_loaded(library: Library) -> None:
    """What the TUI does when it starts while `reader-tui index` (another process, here a
    thread with its own lock file handle) is still writing the cache."""
    cache = search_cache_path(library.files.folder)
    holding, release = threading.Event(), threading.Event()

    def other_builder() -> None:
        with building(cache):
            holding.set()
            release.wait(10)
            views = library.views()
            search_cache.save(SearchIndex.build(views), cache, search_cache.fingerprint(views))

    builder = threading.Thread(target=other_builder)
    builder.start()
    holding.wait(10)
    result: list[tuple[SearchIndex, bool]] = []
    waiter = threading.Thread(target=lambda: result.append(search_index(library)))
    waiter.start()
    waiter.join(0.5)
    assert waiter.is_alive() and not result  # blocked on the other build's lock
    release.set()
    builder.join(30)
    waiter.join(30)
    index, cached = result[0]
    assert cached  # it loaded what the other build wrote instead of building again
    assert len(index) == len(library.papers)


def test_an_unwritable_cache_folder_costs_a_build_not_an_error(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("READER_TUI_CACHE", str(blocker))
    index, cached = search_index(library)
    assert not cached and len(index) == len(library.papers)
    assert related_index(library)[1] is False


def test_a_big_library_without_caches_gets_them_from_a_child_process(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "CHILD_BUILD_MIN_PAPERS", 1)  # the seed list counts as big
    searches: list[tuple[SearchIndex, bool]] = []
    related: list[RelatedIndex] = []
    provide_indexes(library, lambda index: searches.append((index, index.abstracts_indexed)), related.append)
    (titles, titles_complete), (full, full_complete) = searches
    assert not titles_complete and full_complete and len(related) == 1
    # the titles-only index served searches meanwhile without indexing abstracts itself
    assert titles.search("singleton") and not titles.abstracts_indexed
    assert search_cache_path(library.files.folder).exists()  # written by the child
    assert load_search_index(library) is not None and load_related_index(library) is not None


def test_a_quitting_app_stops_waiting_and_the_child_still_writes_the_caches(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "CHILD_BUILD_MIN_PAPERS", 1)
    searches: list[SearchIndex] = []
    related: list[RelatedIndex] = []
    quitting = threading.Event()

    def on_search(index: SearchIndex) -> None:
        searches.append(index)
        quitting.set()  # the user quits as soon as the titles are searchable

    provide_indexes(library, on_search, related.append, cancelled=quitting.is_set)
    assert len(searches) == 1 and not searches[0].abstracts_indexed and related == []
    deadline = time.monotonic() + 60
    while load_related_index(library) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert load_search_index(library) is not None and load_related_index(library) is not None
