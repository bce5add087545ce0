"""`export --ascii`: a pure ASCII file, notes and tags still exact, losses said on stderr;
the default mode keeps an emoji tag and a CJK note through export and import (each
command reading the library afresh from its files)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

Cli = Callable[..., tuple[str, str]]  # the `reader_tui` fixture (conftest.py)
NOTE = "論文 한국어 שלום e\u0301 \\{ tab\there\n\nlast line \n"


def annotations(reader_tui: Cli, db: Path) -> list[tuple[list[str], str]]:
    papers = json.loads(reader_tui("--db", str(db), "list", "--json")[0])
    return sorted((p["tags"], p["notes"]) for p in papers if p["tags"] or p["notes"])


def test_ascii_and_default_exports_bring_notes_and_tags_back(tmp_path: Path, reader_tui: Cli) -> None:
    a = tmp_path / "A"
    first = json.loads(reader_tui("--db", str(a), "list", "--json")[0])[0]["id"]
    reader_tui("--db", str(a), "tag", first, "+🎉", "+한국어")
    reader_tui("--db", str(a), "note", first, "--set", NOTE)
    reader_tui("--db", str(a), "edit", first, "--title", "A 論文 title 🎉")
    expected = annotations(reader_tui, a)
    assert expected == [(["🎉", "한국어"], NOTE)]
    for option in ([], ["--ascii"]):
        bib = tmp_path / f"x{len(option)}.bib"
        _, err = reader_tui("--db", str(a), "export", *option, "-o", str(bib))
        # The title's CJK and emoji have no LaTeX form: said, one line per kind.
        assert "2 characters with no LaTeX form written as ?" in err
        assert "1 character with no LaTeX form left out" in err
        if option:
            assert bib.read_bytes().isascii()
        b = tmp_path / f"B{len(option)}"
        reader_tui("--db", str(b), "import", str(bib))
        assert annotations(reader_tui, b) == expected


def test_unicode_and_ascii_exclude_each_other(tmp_path: Path, reader_tui: Cli) -> None:
    _, err = reader_tui("--db", str(tmp_path / "A"), "export", "--ascii", "--unicode", code=2)
    assert "choose one of --unicode and --ascii" in err
