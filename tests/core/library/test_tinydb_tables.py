"""The annotations file used as a TinyDB database: documents read and changed through
TinyDB's table API, each write one locked transaction ending in one atomic write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tinydb import Query
from tinydb.table import Document

from reader_tui.core import atomic_storage
from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.files import ANNOTATIONS_TABLE, StoreFiles, annotation_doc_id, table
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status


def _library(folder: Path, count: int = 3) -> Library:
    library = Library.open(folder)
    library.import_papers([Paper(id=f"p{i}", title=f"Paper {i} 論文 🎉") for i in range(count)])
    return library


def _read_ids(files: StoreFiles) -> list[str]:
    with files.reading_annotations() as db:
        return sorted(d["paper_id"] for d in table(db, ANNOTATIONS_TABLE).search(Query().status == "read"))


def test_queries_never_answer_with_what_another_process_has_changed(tmp_path: Path) -> None:
    mine = _library(tmp_path)
    mine.set_status(["p1"], Status.READ)
    reader = StoreFiles(tmp_path)
    assert _read_ids(reader) == ["p1"]
    Library.open(tmp_path).set_status(["p2"], Status.READ)  # another process
    # TinyDB's query cache (cleared only by the same Table's writes) would answer ["p1"].
    assert _read_ids(reader) == ["p1", "p2"]


def test_a_transaction_that_fails_writes_nothing(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.set_status(["p0"], Status.READ)
    before = library.files.annotations_path.read_bytes()
    with pytest.raises(RuntimeError), library.files.writing_annotations() as db:
        annotations = table(db, ANNOTATIONS_TABLE)
        annotations.upsert(Document({"paper_id": "p1", "status": "read"}, int(annotation_doc_id("p1"))))
        annotations.remove(doc_ids=[int(annotation_doc_id("p0"))])
        raise RuntimeError("killed half-way")
    assert library.files.annotations_path.read_bytes() == before
    assert not list(tmp_path.glob(".annotations.json.*.tmp"))
    # The storage's copy of what it last wrote was changed in place: it must not be reused.
    library.set_status(["p2"], Status.READ)
    stored = json.loads(library.files.annotations_path.read_text(encoding="utf-8"))["annotations"]
    assert sorted((r["paper_id"], r["status"]) for r in stored.values()) == [("p0", "read"), ("p2", "read")]


def test_a_change_of_many_papers_is_one_atomic_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library = _library(tmp_path, count=60)
    library.set_status([f"p{i}" for i in range(0, 60, 2)], Status.READ)  # half stored already
    writes: list[Path] = []
    real = atomic_storage.write_file_atomically
    monkeypatch.setattr(atomic_storage, "write_file_atomically", lambda path, data: (writes.append(path), real(path, data)))
    library.set_status([f"p{i}" for i in range(60)], Status.TO_READ)
    library.set_setting("theme", "שלום")
    assert writes == [library.files.annotations_path] * 2
    again = Library.open(tmp_path)
    assert {again.annotation(f"p{i}").status for i in range(60)} == {Status.TO_READ}
    assert again.settings["theme"] == "שלום"


def test_fields_this_version_does_not_know_survive_its_writes(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.set_status(["p0"], Status.READ)
    path = library.files.annotations_path
    data = json.loads(path.read_text(encoding="utf-8"))
    data["annotations"][annotation_doc_id("p0")]["review"] = {"score": 4}  # a newer version's field
    data["settings"]["1"] = {"sync": {"remote": "x"}}
    path.write_text(json.dumps(data), encoding="utf-8")
    library.files.annotations_signature = None
    library.set_status(["p0"], Status.UNREAD)
    library.set_setting("theme", "dark")
    data = json.loads(path.read_text(encoding="utf-8"))
    record = data["annotations"][annotation_doc_id("p0")]
    assert record["review"] == {"score": 4} and record["status"] == "unread"
    assert data["settings"]["1"] == {"sync": {"remote": "x"}, "theme": "dark"}


def test_another_papers_record_under_a_papers_id_is_refused_not_overwritten(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.set_status(["p0"], Status.READ)
    path = library.files.annotations_path
    data = json.loads(path.read_text(encoding="utf-8"))
    data["annotations"][annotation_doc_id("p0")]["paper_id"] = "p9"  # a hand edit
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(StoreError) as caught:
        library.set_status(["p0"], Status.UNREAD)
    assert str(caught.value).startswith(f"{path}: ") and "\n" not in str(caught.value)
    assert path.read_bytes() == before


def test_reading_a_folder_without_a_store_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "none"
    files = StoreFiles(folder)
    with files.reading_annotations() as db:
        assert db is None
    assert files.read_catalog() == (None, None)
    assert not folder.exists()
