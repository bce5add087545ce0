"""Issue 13: a damaged record in catalog.json is refused in one line naming the file and
the record (its number and paper id), exit 1, never a traceback; doctor says so too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui import cli
from reader_tui.core.library.files import CATALOG_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper


def damaged_db(folder: Path, damage) -> Path:
    """Three papers; the second record (record 2, id 'p1') damaged by `damage`."""
    Library.open(folder).import_papers([Paper(id=f"p{i}", title=f"Paper {i}", authors=("Ada",)) for i in range(3)])
    path = folder / CATALOG_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    table = data["papers"]
    (doc_id,) = [d for d, r in table.items() if r["id"] == "p1"]
    assert doc_id == "2"
    table[doc_id] = damage(table[doc_id])
    path.write_text(json.dumps(data), encoding="utf-8")
    return folder


DAMAGES = {
    "authors-not-a-list": (lambda r: {**r, "authors": "Ada"}, "paper record 2 (id 'p1'): authors must be a list of strings"),
    "title-a-number": (lambda r: {**r, "title": 5}, "paper record 2 (id 'p1'): the title must be a string"),
    "record-null": (lambda r: None, "paper record 2: a paper record must be an object, not NoneType"),
}


@pytest.mark.parametrize("name", DAMAGES)
@pytest.mark.parametrize("command", [["list"], ["show", "p1"], ["export", "--format", "bibtex"]])
def test_a_damaged_record_is_one_line_naming_file_and_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: list[str]
) -> None:
    damage, expected = DAMAGES[name]
    folder = damaged_db(tmp_path / "db", damage)
    code = cli.main(["--db", str(folder), "--no-seed", *command])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err == f"reader-tui: {folder / CATALOG_FILE}: {expected}\n"

    code = cli.main(["--db", str(folder), "--no-seed", "doctor"])
    out, _ = capsys.readouterr()
    assert code == 1 and str(folder / CATALOG_FILE) in out and "paper record 2" in out
