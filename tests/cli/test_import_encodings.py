"""`reader-tui import` of files that are not UTF-8 (issue 30, items 6 and 8b): a Latin-1
.bib gets in with one warning and comes out right; `--encoding NAME` reads a file as
named, an unknown name is one line that changes nothing; a UTF-16 CSV is read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

Cli = Callable[..., tuple[str, str]]  # the `reader_tui` fixture (conftest.py)

BIB = """\
% an old BibTeX file, saved as Latin-1
@article{muller2001,
  title = {Über die Größe naïver Modelle},
  author = {Müller, Jürgen},
  journal = {Zeitschrift für Beispiele},
  year = {2001}
}
"""


def test_a_latin1_bib_gets_in_with_one_warning_and_comes_out_right(tmp_path: Path, reader_tui: Cli) -> None:
    bib, db = tmp_path / "old.bib", tmp_path / "db"
    bib.write_bytes(BIB.encode("latin-1"))
    out, err = reader_tui("--db", str(db), "--no-seed", "import", str(bib))
    assert out == "1 entry read: 1 new, 0 updated, 0 merged, 0 unchanged, 0 skipped; 1 warning\n"
    assert err == (
        f"reader-tui: warning: {bib}:3: not UTF-8: 7 bytes read as Windows-1252 (the first on this line, as 'Ü');"
        " if a character looks wrong, import the file again with --encoding NAME (its encoding, e.g. latin-1,"
        " cp1250, mac-roman)\n"
    )
    exported, _ = reader_tui("--db", str(db), "--no-seed", "export", "--unicode")
    assert "title = {Über die Größe naïver Modelle}" in exported
    assert "author = {Müller, Jürgen}" in exported
    assert "journal = {Zeitschrift für Beispiele}" in exported


def test_encoding_names_the_files_encoding_and_says_nothing_more(tmp_path: Path, reader_tui: Cli) -> None:
    bib, db = tmp_path / "polish.bib", tmp_path / "db"
    bib.write_bytes("@misc{w, title = {Łódź i Wrocław}, year = 2001}\n".encode("cp1250"))
    out, err = reader_tui("--db", str(db), "--no-seed", "import", "--encoding", "cp1250", str(bib))
    assert out == "1 entry read: 1 new, 0 updated, 0 merged, 0 unchanged, 0 skipped\n" and err == ""
    exported, _ = reader_tui("--db", str(db), "--no-seed", "export", "--unicode")
    assert "title = {Łódź i Wrocław}" in exported


def test_an_unknown_encoding_is_one_line_and_changes_nothing(tmp_path: Path, reader_tui: Cli) -> None:
    bib, db = tmp_path / "refs.bib", tmp_path / "db"
    bib.write_text(BIB, encoding="utf-8")
    out, err = reader_tui("--db", str(db), "--no-seed", "import", "--encoding", "latin-9x", str(bib), code=2)
    assert out == ""
    assert err == "reader-tui: --encoding: unknown encoding 'latin-9x' (for example: utf-8, cp1252, latin-1, utf-16)\n"
    assert not db.exists()


def test_a_utf16_csv_is_read(tmp_path: Path, reader_tui: Cli) -> None:
    table, db = tmp_path / "from-excel.csv", tmp_path / "db"
    table.write_bytes("title\tyear\r\nÉtude des réseaux\t2020\r\n".encode("utf-16"))  # Excel's "Unicode text"
    out, err = reader_tui("--db", str(db), "--no-seed", "import", str(table))
    assert out == "1 entry read: 1 new, 0 updated, 0 merged, 0 unchanged, 0 skipped\n" and err == ""
    exported, _ = reader_tui("--db", str(db), "--no-seed", "export", "--unicode")
    assert "title = {Étude des réseaux}" in exported
