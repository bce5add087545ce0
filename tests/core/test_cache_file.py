"""One cache file format for the derived indexes, written like the store (fsync, rename)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reader_tui.core import atomic_storage, cache_file
from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.related import similar
from reader_tui.core.related.similar import CACHE_KIND, RelatedIndex, fingerprint
from reader_tui.core.search import cache as search_cache

VIEWS = [
    PaperView(Paper(id=f"p{n}", title=f"Graph networks {n} 論文 🎉", abstract=f"graph message passing {n} שלום"), Annotation())
    for n in range(6)
]


def test_round_trip_and_what_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.bin"
    assert cache_file.write_cache(path, "test index", 1, "key-a", b"\x00body\n")
    assert cache_file.read_cache(path, "test index", 1, "key-a") == b"\x00body\n"
    assert cache_file.read_cache(path, "test index", 2, "key-a") is None  # another version
    assert cache_file.read_cache(path, "test index", 1, "key-b") is None  # other papers
    assert cache_file.read_cache(path, "other index", 1, "key-a") is None
    data = path.read_bytes()
    for bad in (data[:-1], data + b"x", data[:-2] + b"X\n", b"", data[: data.index(b"\n")]):
        path.write_bytes(bad)
        assert cache_file.read_cache(path, "test index", 1, "key-a") is None
    assert cache_file.read_cache(tmp_path / "missing", "test index", 1, "key-a") is None


@pytest.mark.parametrize("which", ["search", "related"])
def test_both_indexes_write_it_durably(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(atomic_storage.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    cache = tmp_path / "cache"
    if which == "search":
        search_cache.load_or_build(VIEWS, cache)
        kind, version, key = search_cache.KIND, search_cache.FORMAT, search_cache.cache_key(search_cache.fingerprint(VIEWS))
    else:
        RelatedIndex.load_or_build(VIEWS, cache)
        kind, version, key = CACHE_KIND, similar._CACHE_FORMAT, fingerprint(VIEWS)
    assert synced  # the file (and its folder) went through the store's writer
    assert cache.read_bytes().startswith(f"reader-tui {kind} {version} ".encode())
    assert cache_file.read_cache(cache, kind, version, key) is not None
    assert [p.name for p in tmp_path.iterdir()] == ["cache"]  # no temporary file left


def test_a_related_cache_of_other_papers_is_not_used(tmp_path: Path) -> None:
    cache = tmp_path / "related"
    RelatedIndex.load_or_build(VIEWS, cache)
    assert RelatedIndex.load(VIEWS, cache) is not None
    assert RelatedIndex.load(VIEWS[:-1], cache) is None


def test_a_body_written_in_pieces_is_read_back_into_arrays(tmp_path: Path) -> None:
    # the indexes write their columns as arrays after a small head, and read them from the
    # checked file straight into arrays: no bytes copy of the body in between
    from array import array

    path = tmp_path / "c.bin"
    column = array("I", range(1000))
    assert cache_file.write_cache(path, "test index", 1, "key", [b"head", column, array("f", [0.5])])
    assert cache_file.read_cache(path, "test index", 1, "key") == b"head" + column.tobytes() + array("f", [0.5]).tobytes()
    with cache_file.reading_cache(path, "test index", 1, "key") as body:
        assert body.read(4) == b"head"
        assert cache_file.read_array(body, "I", 1000) == column
        assert cache_file.read_array(body, "f", 1) == array("f", [0.5])
        with pytest.raises(EOFError):
            cache_file.read_array(body, "I", 1)
    path.write_bytes(path.read_bytes()[:-1])
    with cache_file.reading_cache(path, "test index", 1, "key") as body:
        assert body is None


@pytest.mark.parametrize(
    "body",
    [b"", b"\xff" * 8 + b"x", (2**40).to_bytes(8, "little"), b"\x03\x00\x00\x00\x00\x00\x00\x00abc",
     __import__("marshal").dumps({"ids": ["p0"], "terms": [b""], "weights": [b""], "vocab": []})],
)
def test_a_related_cache_well_signed_but_of_another_layout_is_rebuilt(tmp_path: Path, body: bytes) -> None:
    cache = tmp_path / "related"
    assert cache_file.write_cache(cache, CACHE_KIND, similar._CACHE_FORMAT, fingerprint(VIEWS), body)
    assert RelatedIndex.load(VIEWS, cache) is None
    assert RelatedIndex.load_or_build(VIEWS, cache).related("p0") == RelatedIndex.build(VIEWS).related("p0")
    assert RelatedIndex.load(VIEWS, cache) is not None  # rewritten
