"""What `reader-tui import` says when the papers reach the disk but their tags and notes
cannot: not a bare file error that reads as if nothing was imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.cli import main
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper
from tests.faults import no_space_for

#: one entry with a note (`annote`): the import writes the catalog and the annotations
BIB = Path(__file__).parents[1] / "fixtures" / "import_bibtex" / "annotated.bib"


def test_the_cli_import_says_the_papers_are_in_when_their_notes_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "lib"
    library = Library.open(folder)
    library.import_papers([Paper(id="p1", title="Already there")])
    library.set_notes("p1", "mine")
    no_space_for(monkeypatch, library.files.annotations_path)
    assert main(["--db", str(folder), "import", str(BIB)]) != 0
    err = capsys.readouterr().err
    assert "1 paper imported" in err and "notes were not saved" in err and "annotations.json" in err
    catalog = json.loads(library.files.catalog_path.read_text(encoding="utf-8"))
    assert len(catalog["papers"]) == 2  # true: the paper is in
