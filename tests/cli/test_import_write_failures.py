"""What `reader-tui import` says when the papers reach the disk but their tags and notes
cannot: not a bare file error that reads as if nothing was imported."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from reader_tui.cli import main
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

BIB = r"""
@article{smith2024,
  title = {Sparse Experts for Protein Folding},
  author = {Smith, Jane},
  journal = {Nature},
  year = {2024},
  annote = {read this first},
}
"""


def test_the_cli_import_says_the_papers_are_in_when_their_notes_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "lib"
    library = Library.open(folder)
    library.import_papers([Paper(id="p1", title="Already there")])
    library.set_notes("p1", "mine")
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(dst) == library.files.annotations_path:  # a full disk, for this file only
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    assert main(["--db", str(folder), "import", str(bib)]) != 0
    err = capsys.readouterr().err
    assert "1 paper imported" in err and "notes were not saved" in err and "annotations.json" in err
    catalog = json.loads(library.files.catalog_path.read_text(encoding="utf-8"))
    assert len(catalog["papers"]) == 2  # true: the paper is in
