"""`export --ascii`: a pure ASCII file, notes and tags still exact, losses said on stderr;
the default mode keeps an emoji tag and a CJK note through export and import (real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTE = "論文 한국어 שלום e\u0301 \\{ tab\there\n\nlast line \n"


def run(tmp_path: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "READER_TUI_DB"}
    env.update(PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"), READER_TUI_CACHE=str(tmp_path / "cache"),
               READER_TUI_BACKGROUND_INDEX="0")
    result = subprocess.run([sys.executable, "-m", "reader_tui", *args], capture_output=True, text=True, env=env,
                            timeout=60)
    assert result.returncode == code, result.stderr
    return result


def annotations(tmp_path: Path, db: Path) -> list[tuple[list[str], str]]:
    papers = json.loads(run(tmp_path, "--db", str(db), "list", "--json").stdout)
    return sorted((p["tags"], p["notes"]) for p in papers if p["tags"] or p["notes"])


def test_ascii_and_default_exports_bring_notes_and_tags_back(tmp_path: Path) -> None:
    a = tmp_path / "A"
    first = json.loads(run(tmp_path, "--db", str(a), "list", "--json").stdout)[0]["id"]
    run(tmp_path, "--db", str(a), "tag", first, "+🎉", "+한국어")
    run(tmp_path, "--db", str(a), "note", first, "--set", NOTE)
    run(tmp_path, "--db", str(a), "edit", first, "--title", "A 論文 title 🎉")
    expected = annotations(tmp_path, a)
    assert expected == [(["🎉", "한국어"], NOTE)]
    for option in ([], ["--ascii"]):
        bib = tmp_path / f"x{len(option)}.bib"
        result = run(tmp_path, "--db", str(a), "export", *option, "-o", str(bib))
        # The title's CJK and emoji have no LaTeX form: said, one line per kind.
        assert "2 characters with no LaTeX form written as ?" in result.stderr
        assert "1 character with no LaTeX form left out" in result.stderr
        if option:
            assert bib.read_bytes().isascii()
        b = tmp_path / f"B{len(option)}"
        run(tmp_path, "--db", str(b), "import", str(bib))
        assert annotations(tmp_path, b) == expected


def test_unicode_and_ascii_exclude_each_other(tmp_path: Path) -> None:
    result = run(tmp_path, "--db", str(tmp_path / "A"), "export", "--ascii", "--unicode", code=2)
    assert "choose one of --unicode and --ascii" in result.stderr
