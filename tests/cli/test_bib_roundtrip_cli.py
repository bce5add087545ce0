"""Tags and notes survive `export` to BibTeX and `import` into another store (real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "READER_TUI_DB"}
    env["PYTHONPATH"] = str(REPO)
    env["HOME"] = str(tmp_path / "home")
    env["XDG_DATA_HOME"] = str(tmp_path / "home" / "data")
    result = subprocess.run([sys.executable, "-m", "reader_tui", *args], capture_output=True, text=True, env=env,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result


def annotated(tmp_path: Path, db: Path) -> list[tuple[list[str], str]]:
    """(tags, notes) of every paper that has any, in a stable order."""
    papers = json.loads(run(tmp_path, "--db", str(db), "list", "--json").stdout)
    return sorted((p["tags"], p["notes"]) for p in papers if p["tags"] or p["notes"])


def test_tags_and_notes_survive_a_bibtex_round_trip(tmp_path: Path) -> None:
    a, b, bib = tmp_path / "A", tmp_path / "B", tmp_path / "x.bib"
    first, second = [p["id"] for p in json.loads(run(tmp_path, "--db", str(a), "list", "--json").stdout)][:2]
    run(tmp_path, "--db", str(a), "mark", "read", first)
    run(tmp_path, "--db", str(a), "tag", first, "+to cite", "+R&D", "+50%", "+naïve", "+x_y")
    run(tmp_path, "--db", str(a), "note", first, "--set",
        "Section 3: 100% sure & {unbalanced.\n@comment{ not a block\nC:\\tmp\\x and \\textbf{bold}, très bien")
    run(tmp_path, "--db", str(a), "tag", second, "+$x^2$ math")
    run(tmp_path, "--db", str(a), "note", second, "--set", "cost $5 ~ roughly")
    assert len(annotated(tmp_path, a)) == 2

    run(tmp_path, "--db", str(a), "export", "-o", str(bib))  # classic (ASCII) BibTeX
    imported = run(tmp_path, "--db", str(b), "--no-seed", "import", str(bib))
    assert "19" in imported.stdout

    assert annotated(tmp_path, b) == annotated(tmp_path, a)
