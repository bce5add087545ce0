"""Tags and notes survive `export` to BibTeX and `import` into another store, each command
reading the library afresh from its files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

Cli = Callable[..., tuple[str, str]]  # the `reader_tui` fixture (conftest.py)


def annotated(reader_tui: Cli, db: Path) -> list[tuple[list[str], str]]:
    """(tags, notes) of every paper that has any, in a stable order."""
    papers = json.loads(reader_tui("--db", str(db), "list", "--json")[0])
    return sorted((p["tags"], p["notes"]) for p in papers if p["tags"] or p["notes"])


def test_tags_and_notes_survive_a_bibtex_round_trip(tmp_path: Path, reader_tui: Cli) -> None:
    a, b, bib = tmp_path / "A", tmp_path / "B", tmp_path / "x.bib"
    first, second = [p["id"] for p in json.loads(reader_tui("--db", str(a), "list", "--json")[0])][:2]
    reader_tui("--db", str(a), "mark", "read", first)
    reader_tui("--db", str(a), "tag", first, "+to cite", "+R&D", "+50%", "+naïve", "+x_y")
    reader_tui("--db", str(a), "note", first, "--set",
               "Section 3: 100% sure & {unbalanced.\n@comment{ not a block\nC:\\tmp\\x and \\textbf{bold}, très bien")
    reader_tui("--db", str(a), "tag", second, "+$x^2$ math")
    reader_tui("--db", str(a), "note", second, "--set", "cost $5 ~ roughly")
    assert len(annotated(reader_tui, a)) == 2

    reader_tui("--db", str(a), "export", "-o", str(bib))  # classic (ASCII) BibTeX
    out, _ = reader_tui("--db", str(b), "--no-seed", "import", str(bib))
    assert "19" in out

    assert annotated(reader_tui, b) == annotated(reader_tui, a)
