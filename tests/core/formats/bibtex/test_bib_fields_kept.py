"""A user's .bib comes back field for field: a bare month macro stays bare, the file's
@preamble is written again, a foreign annote is written as it was (issue 12, item 2)."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.user_text import encode_user_text
from reader_tui.core.formats.bibtex.writer import HEADER, export_bibtex
from reader_tui.core.library.library import Library

BIB = r"""@preamble{"\newcommand{\noopsort}[1]{}"}

@article{old, title={{\noopsort{a}}Old Results}, author={Ann Alpha}, journal={J}, year=1990, month = jan,
  annote = {See \cite{x} and $\alpha+\beta$}}

@article{new, title={New Results}, author={Bob Beta}, journal={J}, year=1991, month = {feb}}
"""


def library_with(tmp_path: Path, name: str, text: str) -> Library:
    path = tmp_path / f"{name}.bib"
    path.write_text(text, encoding="utf-8")
    library = Library.open(tmp_path / name)
    result = read_bibtex(path)
    library.import_papers(result.papers, result.annotations)
    return library


def by_key(library: Library) -> dict[str, object]:
    return {library.view(pid).citekey: library.view(pid) for pid in library.papers}


def test_a_bare_month_macro_is_written_back_bare(tmp_path: Path) -> None:
    out = export_bibtex(library_with(tmp_path, "a", BIB).views())
    assert "  month = jan" in out and "January" not in out
    assert "  month = {feb}" in out  # a braced month stays braced
    again = export_bibtex(library_with(tmp_path, "b", out).views())
    assert "  month = jan" in again and "  month = {feb}" in again


def test_the_files_preamble_is_written_once_at_the_top(tmp_path: Path) -> None:
    out = export_bibtex(library_with(tmp_path, "a", BIB).views())
    assert out.startswith(HEADER + '@preamble{"\\newcommand{\\noopsort}[1]{}"}\n\n@article{')
    assert out.count("@preamble") == 1
    again = export_bibtex(library_with(tmp_path, "b", out).views())
    assert again.count("@preamble") == 1 and again.startswith(HEADER + "@preamble{")
    # A reserved key is never written as a field.
    assert "@bare" not in out and "@annote" not in out and "preamble =" not in out


def test_a_foreign_annote_comes_back_as_written_until_the_notes_change(tmp_path: Path) -> None:
    library = library_with(tmp_path, "a", BIB)
    (pid,) = [pid for pid in library.papers if library.view(pid).citekey == "old"]
    assert library.view(pid).notes == r"See \cite{x} and $\alpha+\beta$"
    out = export_bibtex(library.views())
    assert "  annote = {See \\cite{x} and $\\alpha+\\beta$}\n" in out
    # Re-imported into a new library: the same notes, and the same annote again.
    other = library_with(tmp_path, "b", out)
    assert [v.notes for v in other.views() if v.citekey == "old"] == [library.view(pid).notes]
    assert "  annote = {See \\cite{x} and $\\alpha+\\beta$}\n" in export_bibtex(other.views())
    # Into the same library: the note is not doubled.
    path = tmp_path / "out.bib"
    path.write_text(out, encoding="utf-8")
    result = read_bibtex(path)
    library.import_papers(result.papers, result.annotations)
    assert library.view(pid).notes == r"See \cite{x} and $\alpha+\beta$"
    # Once the user edits the notes, they are the user's text, in its exact encoding.
    library.set_notes(pid, r"See \cite{y} 🎉")
    assert f"  annote = {{{encode_user_text(library.view(pid).notes)}}}" in export_bibtex(library.views())
