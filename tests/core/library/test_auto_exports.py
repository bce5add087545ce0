"""Saved auto-exports: one rendering for `export --watch`, `export --save` and the TUI;
papers in the library's order (a paper's change is that paper's lines in a diff); written
only when the text changed; a path that cannot be written is one line naming it."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from reader_tui.core.library import auto_exports
from reader_tui.core.library.auto_exports import (
    AutoExportError,
    ExportSpec,
    refresh,
    refresh_saved,
    remove,
    render,
    save,
    saved,
)
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status


@pytest.fixture
def library(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "db")
    lib.import_papers([
        Paper(id=f"p{n}", title=f"Attention paper {n}", abstract=f"About attention {n} times.", authors=(f"Ada Author{n}",),
              year=2026, citekey=f"author{n}2026")
        for n in range(6)
    ])
    return lib


def test_a_status_change_is_that_papers_lines_only_in_the_diff(library: Library, tmp_path: Path) -> None:
    spec = ExportSpec(str(tmp_path / "read.bib"), status="read")
    library.set_status(["p1", "p4"], Status.READ)
    assert refresh(library, spec).rewritten
    before = spec.file.read_text("utf-8")
    library.set_status(["p2"], Status.READ)
    assert refresh(library, spec).rewritten
    after = spec.file.read_text("utf-8")
    added = [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:1] in "+-"]
    assert added and all(line.startswith("+") for line in added)  # nothing else moved
    assert "author22026" in "\n".join(added) and not any("author12026" in line or "author42026" in line for line in added)
    assert after.index("author12026") < after.index("author22026") < after.index("author42026")  # library order


def test_a_search_keeps_the_library_order_not_the_ranking(library: Library, tmp_path: Path) -> None:
    library.set_notes("p5", "attention attention attention")  # ranks p5 first for the search
    spec = ExportSpec(str(tmp_path / "att.bib"), search="attention")
    text, ids = render(library, spec)
    assert ids == [f"p{n}" for n in range(6)]
    assert text.index("author02026") < text.index("author52026")


def test_written_only_when_the_text_changed(library: Library, tmp_path: Path) -> None:
    spec = ExportSpec(str(tmp_path / "read.md"), format="markdown", status="read")
    library.set_status(["p0"], Status.READ)
    assert refresh(library, spec).rewritten
    inode = os.stat(spec.file).st_ino
    library.set_status(["p3"], Status.SKIPPED)  # not in the export: its text is the same
    assert not refresh(library, spec).rewritten
    assert os.stat(spec.file).st_ino == inode  # not even replaced by the same bytes
    library.set_status(["p3"], Status.READ)
    assert refresh(library, spec).rewritten and os.stat(spec.file).st_ino != inode


def test_a_bad_path_is_one_line_naming_it_and_the_others_are_written(library: Library, tmp_path: Path) -> None:
    good = ExportSpec(str(tmp_path / "good.bib"))
    bad = ExportSpec(str(tmp_path / "missing" / "bad.bib"))
    folder = ExportSpec(str(tmp_path))
    save(library, bad)
    save(library, folder)
    save(library, good)
    written, errors = refresh_saved(library)
    assert [w.spec.path for w in written] == [good.path] and good.file.exists()
    assert errors == [
        f"auto-export {bad.path}: the folder {tmp_path / 'missing'} does not exist",
        f"auto-export {tmp_path}: is a folder; give a file name",
    ]


def test_an_existing_file_is_not_replaced_without_being_asked(library: Library, tmp_path: Path) -> None:
    mine = tmp_path / "thesis.bib"
    mine.write_text("my own entries\n", "utf-8")
    with pytest.raises(AutoExportError, match=r"thesis.bib: exists already \(use --force"):
        refresh(library, ExportSpec(str(mine)), create=False)
    assert mine.read_text("utf-8") == "my own entries\n"


def test_saved_in_the_settings_one_per_file_and_removed(library: Library, tmp_path: Path) -> None:
    path = str(tmp_path / "refs.bib")
    assert save(library, ExportSpec(path, status="read")) is False
    assert save(library, ExportSpec(path, tags=("thesis",), mode="unicode")) is True  # the same file: replaced
    save(library, ExportSpec(str(tmp_path / "list.md"), format="markdown", search="attention"))
    reopened = Library.open(library.files.folder)
    found = saved(reopened.settings)
    assert [s.describe() for s in found] == ["bibtex (unicode): tag:thesis", "markdown: 'attention'"]
    assert reopened.settings[auto_exports.SETTING][0] == {"path": path, "tags": ["thesis"], "mode": "unicode"}
    assert remove(reopened, path).path == path
    assert remove(reopened, path) is None
    assert [s.path for s in saved(Library.open(library.files.folder).settings)] == [str(tmp_path / "list.md")]


def test_a_saved_export_this_version_cannot_read_is_said_and_skipped(library: Library, tmp_path: Path) -> None:
    library.set_setting(auto_exports.SETTING, [{"path": str(tmp_path / "x.endnote"), "format": "endnote"}, {"format": "bibtex"}])
    found = saved(library.settings)
    assert [str(e) for e in found] == [
        f"{tmp_path / 'x.endnote'}: saved as an export in 'endnote' ('latex'), which this version cannot write",
        "a saved auto-export names no file: {'format': 'bibtex'}",
    ]
    _, errors = refresh_saved(library)
    assert len(errors) == 2


@pytest.mark.parametrize("fmt", ["bibtex", "markdown", "csljson", "ris"])
def test_a_memo_renders_what_a_fresh_export_renders(library: Library, tmp_path: Path, fmt: str) -> None:
    spec = ExportSpec(str(tmp_path / "all.out"), format=fmt)
    memo = auto_exports.Memo()
    assert refresh(library, spec, memo=memo).rewritten
    for change in (lambda: library.set_tags("p1", ["new"]), lambda: library.set_status(["p2"], Status.READ),
                   lambda: library.edit("p3", title="Retitled paper"), lambda: library.set_notes("p4", "a note")):
        change()
        refresh(library, spec, memo=memo)
        assert spec.file.read_text("utf-8") == render(library, spec)[0]  # no memo: every entry made again
    if fmt in ("csljson", "ris"):  # an auto-export in these formats follows the edits too
        assert "Retitled paper" in spec.file.read_text("utf-8")
    spec.file.write_text("changed by hand\n", "utf-8")  # the memo does not trust a file touched since
    assert refresh(library, spec, memo=memo).rewritten
    assert spec.file.read_text("utf-8") == render(library, spec)[0]
