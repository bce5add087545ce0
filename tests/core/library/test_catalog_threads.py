"""The catalog's lazy Paper cache read from several threads at once (the TUI's list
worker and its index thread both build Papers from a fresh Catalog)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import orjson
import pytest

from reader_tui.core.library.catalog import Catalog, CatalogRecords, RecordTexts, Unparsed
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
