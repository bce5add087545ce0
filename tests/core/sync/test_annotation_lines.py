"""The annotations file is shaped for git: one annotation per line, documents and keys in
sorted order, so one status change is a one-line diff and the same annotations are the
same bytes whatever order the changes came in. Old compact files are still read."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import orjson
import pytest

from reader_tui.core.library.files import ANNOTATIONS_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status

HARD = ["𝔘𝔫𝔦 🧪", "שלום مرحبا", "e\u0301\u0303", "tab\tnl\ncr\rnul\x00esc\x1b", "sep\u2028par\u2029nel\x85", 'q"b\\{}']


@pytest.fixture(autouse=True)
def _quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("READER_TUI_BACKGROUND_INDEX", "0")


def _library(folder: Path, n: int = 8) -> Library:
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(n)])
    return lib


def test_one_status_change_is_a_one_line_diff(tmp_path: Path) -> None:
    lib = _library(tmp_path / "db")
    for i in range(8):
        lib.set_notes(f"p{i}", f"note {i} {HARD[i % len(HARD)]}")
    path = tmp_path / "db" / ANNOTATIONS_FILE
    before = path.read_text("utf-8").splitlines()
    assert len(before) > 8  # not one line for the whole file
    lib.set_status(["p3"], Status.READ)
    after = path.read_text("utf-8").splitlines()
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0) if line[:1] in "+-"]
    assert len([c for c in changed if not c.startswith(("+++", "---"))]) == 2  # one line out, one in


def test_documents_and_keys_are_in_sorted_order_whatever_order_changes_came(tmp_path: Path) -> None:
    a = _library(tmp_path / "a")
    for i in reversed(range(8)):
        a.set_tags(f"p{i}", [f"t{i}"])
    text = (tmp_path / "a" / ANNOTATIONS_FILE).read_bytes()
    keys = [line.split(b":", 1)[0] for line in text.splitlines() if line.startswith(b'"') and b"paper_id" in line]
    assert keys == sorted(keys, key=lambda k: (len(k), k))
    docs = [json.loads(b"{" + line.rstrip(b",") + b"}") for line in text.splitlines() if b"paper_id" in line]
    for doc in docs:
        (value,) = doc.values()
        assert list(value) == ["paper_id", *sorted(set(value) - {"paper_id"})]  # the paper first, then sorted


def test_an_old_compact_file_is_read_and_takes_the_line_shape(tmp_path: Path) -> None:
    lib = _library(tmp_path / "db")
    lib.set_notes("p1", HARD[4])
    path = tmp_path / "db" / ANNOTATIONS_FILE
    path.write_bytes(orjson.dumps(json.loads(path.read_bytes())))  # the shape before
    assert path.read_bytes().count(b"\n") == 0
    again = Library.open(tmp_path / "db")
    assert again.annotation("p1").notes == HARD[4]
    again.set_status(["p2"], Status.READ)
    assert path.read_bytes().count(b"\n") > 4
    third = Library.open(tmp_path / "db")
    assert third.annotation("p1").notes == HARD[4] and third.annotation("p2").status is Status.READ
