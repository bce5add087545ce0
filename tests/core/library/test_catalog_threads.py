"""The catalog's lazy Paper cache read from several threads at once (the TUI's list
worker and its index thread both build Papers from a fresh Catalog)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import orjson
import pytest

from reader_tui.core.library.catalog.records import Catalog, CatalogRecords, RecordTexts, Unparsed, Unread
from reader_tui.core.model import Paper


def _records(n: int) -> dict[str, dict]:
    return {str(i): Paper(id=f"p{i:05d}", title=f"Paper {i}", abstract="x " * 20).to_dict() for i in range(n)}


def _as_texts(records: dict[str, dict]) -> CatalogRecords:
    """The records as a catalog of the line shape gives them: texts in chunks."""
    texts = RecordTexts()
    kept = CatalogRecords({doc_id: Unparsed(r["id"], texts.add(orjson.dumps(r))) for doc_id, r in records.items()})
    texts.seal()
    kept.texts = texts
    return kept


@pytest.mark.parametrize("shape", ["parsed", "texts"])
def test_threads_building_the_same_papers_all_get_them(tmp_path: Path, monkeypatch, shape: str) -> None:
    monkeypatch.setattr(RecordTexts, "CHUNK", 2000)  # many chunks, each dropped as its last record is built
    records = _records(3000)
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: widen every window
    try:
        for _ in range(5):
            catalog = Catalog(records if shape == "parsed" else _as_texts(records), tmp_path / "catalog.json")
            errors: list[BaseException] = []
            start = threading.Barrier(4)

            def hammer(order: list[str]) -> None:
                start.wait()
                try:
                    for pid in order:
                        assert catalog[pid].id == pid
                except BaseException as error:  # noqa: BLE001 - reported below
                    errors.append(error)

            ids = list(catalog)
            orders = [ids, ids, ids[::-1], ids[1::2] + ids[::2]]
            threads = [threading.Thread(target=hammer, args=(order,)) for order in orders]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert not errors, errors[0]
            # Every thread sees one and the same Paper for an id once it is built.
            assert all(catalog[pid] is catalog[pid] for pid in ids)
            assert [catalog[pid].to_dict() for pid in ids] == list(records.values())
            if shape == "texts":
                assert set(catalog._texts._chunks) == {None}  # each chunk dropped once, when done
    finally:
        sys.setswitchinterval(old_interval)


def test_a_chunk_two_threads_read_at_once_reaches_both_though_the_first_read_closes_the_file() -> None:
    # The read-ahead and a record wanted on the UI thread may read the same unread chunk:
    # the one that finishes first keeps it and, as it was the last, closes the reader;
    # the other's read then fails, and must still get the chunk, not an error.
    text = orjson.dumps(Paper(id="p1", title="One").to_dict())
    first_in, second_done = threading.Event(), threading.Event()

    class Reader:
        calls, closed = 0, False

        def __call__(self, start: int, length: int) -> bytes:
            self.calls += 1
            if self.calls == 1:
                first_in.set()
                assert second_done.wait(10)
            if self.closed:
                raise ValueError("its text is no longer at hand")
            return text[start : start + length]

        def close(self) -> None:
            self.closed = True
            second_done.set()

    texts = RecordTexts()
    (place,) = texts.add_chunk(Unread(0, len(text)), [(0, len(text))])
    reader = Reader()
    texts.read_from(reader)
    got: list[bytes] = []
    first = threading.Thread(target=lambda: got.append(bytes(texts.text(place))))
    first.start()
    assert first_in.wait(10)
    assert bytes(texts.text(place)) == text  # the second read, done first
    first.join(10)
    assert got == [text] and reader.calls == 2 and reader.closed
