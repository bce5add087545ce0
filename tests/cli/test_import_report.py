"""`reader-tui import`'s report: new / updated / merged (with which, naming lines) / skipped
(with why) / warnings, each true and each entry counted once (issue 12, item 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.cli.import_cmd import run_import
from reader_tui.core.library.library import Library

BIB = """\
@article{a2001, title={First}, journal={J}, doi={10.1/x}, year=2001}
@article{b2001, title={Same DOI as the first}, journal={J}, doi={10.1/X}, year=2001}
@inbook{ch1, title={One Book}, chapter={1}, year=2010}
@inbook{ch2, title={One Book}, chapter={2}, year=2010}
@misc{old, title={Ancient}, year={535 BCE}}
@misc{a2001, title={A repeated key}}
@misc{notitle, year=2000}
"""


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def test_the_report_counts_each_entry_once_and_names_the_lines(bib: Path, tmp_path: Path, capsys) -> None:
    library = Library.open(tmp_path / "db")
    assert run_import(library, [bib], None, None, None, verbose=True) == 0
    out, err = capsys.readouterr()
    assert out == "7 entries read: 5 new, 0 updated, 1 merged, 0 unchanged, 1 skipped; 1 warning\n"
    assert err.splitlines() == [
        f"reader-tui: merged: {bib}:2 entry 'b2001' into {bib}:1 entry 'a2001': the same DOI",
        f"reader-tui: warning: {bib}:5: entry 'old': the year '535 BCE' holds no four-digit year: "
        "exported as written; sorted and filtered as having no year",
        f"reader-tui: {bib}:6: skipped entry 'a2001': the key was already used at line 1",
    ]
    assert sorted(library.papers[pid].citekey for pid in library.papers) == ["a2001", "ch1", "ch2", "notitle", "old"]


def test_a_second_import_says_unchanged_not_new(bib: Path, tmp_path: Path, capsys) -> None:
    library = Library.open(tmp_path / "db")
    run_import(library, [bib], None, None, None)
    capsys.readouterr()
    run_import(library, [bib], None, None, None)
    out, _ = capsys.readouterr()
    # the second entry of one DOI is merged again, and said so; nothing is "unchanged" that was dropped
    assert out == "7 entries read: 0 new, 0 updated, 1 merged, 5 unchanged, 1 skipped; 1 warning\n"


def test_a_file_of_nothing_usable_is_one_line_per_entry(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.bib"
    path.write_text("@misc{x year=1}\n", encoding="utf-8")
    assert run_import(Library.open(tmp_path / "db"), [path], None, None, None) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"reader-tui: {path}:1: no usable entry: skipped @misc entry 'x': Expected comma after entry key, but found =\n"


def test_a_dry_run_reports_what_the_import_would_do_and_writes_nothing(bib: Path, tmp_path: Path, capsys) -> None:
    library = Library.open(tmp_path / "db")
    before = {path.name: path.read_bytes() for path in (tmp_path / "db").iterdir() if path.is_file()}
    assert run_import(library, [bib], None, None, None, dry_run=True) == 0
    dry_out, dry_err = capsys.readouterr()
    assert {path.name: path.read_bytes() for path in (tmp_path / "db").iterdir() if path.is_file()} == before
    assert len(Library.open(tmp_path / "db")) == len(library)
    assert run_import(library, [bib], None, None, None) == 0
    out, err = capsys.readouterr()
    assert dry_out == "dry run, nothing written: " + out
    assert dry_err == err  # the same merges, skipped entries and warnings, each with its line


def test_merges_are_one_line_unless_verbose(bib: Path, tmp_path: Path, capsys) -> None:
    """A conference imported over the bundled list merges every paper of it: one line, so
    the counts and the problems stay on screen."""
    library = Library.open(tmp_path / "db")
    assert run_import(library, [bib], None, None, None) == 0
    _, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0] == "reader-tui: 1 entry merged into papers already in the library (--verbose lists each, and why)"
    assert not any(line.startswith("reader-tui: merged:") for line in lines)
    assert any("skipped entry 'a2001'" in line for line in lines) and any("warning:" in line for line in lines)
