"""`reader-tui index`, and the background build that `reader-tui import` starts so the TUI's
next start finds its search and related-papers indexes ready (reader_tui/indexing.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIB = """@inproceedings{lovelace2026,
  title = {Conformal Singleton Sets for Tabular Prediction},
  author = {Ada Lovelace},
  booktitle = {ICLR},
  year = {2026},
  abstract = {We study conformal prediction with singleton sets on tabular data.}
}
@inproceedings{turing2026,
  title = {Muon Optimisers at Scale},
  author = {Alan Turing},
  year = {2026},
  abstract = {An orthogonalising optimiser for large models.}
}
"""


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("READER_TUI_DB", "READER_TUI_BACKGROUND_INDEX")}
    env["PYTHONPATH"] = str(REPO)
    env["HOME"] = str(tmp_path / "home")
    env["READER_TUI_CACHE"] = str(tmp_path / "cache")
    return env


def reader_tui(env: dict[str, str], db: Path, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "reader_tui", *args, "--db", str(db)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result


def cache_files(tmp_path: Path) -> list[Path]:
    """The derived indexes' cache files (the catalog's layout, written by any open, aside),
    whole: not the temporary file a write is filling (counted, it let a test stop waiting
    while the search cache was still being written, and the related one not yet)."""
    return sorted(
        p for p in (tmp_path / "cache").rglob("*")
        if p.is_file() and not p.name.endswith((".lock", ".tmp")) and p.parent.name != "catalog"
    )


def ok(run, *args: str) -> str:
    """`reader-tui ARGS --db DB` in this process (conftest's `run`): its output, exit code 0."""
    result = run(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_index_builds_both_caches_then_finds_them_up_to_date(tmp_path: Path, run) -> None:
    ok(run, "list")  # a new store, filled with the seed list
    first = ok(run, "index")
    assert "search index: built" in first and "related index: built" in first
    assert {p.parent.name for p in cache_files(tmp_path)} == {"search", "related"}
    assert not list((tmp_path / "cache").rglob("*.tmp"))  # each written whole, nothing left behind
    second = ok(run, "index")
    assert "search index: up to date" in second and "related index: up to date" in second
    assert ok(run, "index", "--quiet") == ""


def test_import_builds_the_indexes_in_the_background(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "library"
    bib = tmp_path / "two.bib"
    bib.write_text(BIB, encoding="utf-8")
    reader_tui(env, db, "import", str(bib))
    # the import has returned; a detached `reader-tui index` is writing both caches
    deadline = time.monotonic() + 90
    while len(cache_files(tmp_path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)  # a glob: polling often costs nothing, and the test ends as the files land
    assert {p.parent.name for p in cache_files(tmp_path)} == {"search", "related"}
    # `index` waits for the background build's locks, then finds nothing left to do
    report = reader_tui(env, db, "index").stdout
    assert "search index: up to date" in report and "related index: up to date" in report
    hits = reader_tui(env, db, "list", "--search", "lovelace conformal").stdout
    assert hits.splitlines()[0].endswith("Conformal Singleton Sets for Tabular Prediction")


def test_import_starts_a_build_only_when_it_changed_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reader_tui.cli import main
    from reader_tui.core.library import indexing

    started: list[Path] = []
    monkeypatch.setattr(indexing, "start_background_prepare", started.append)
    db = tmp_path / "library"
    bib = tmp_path / "two.bib"
    bib.write_text(BIB, encoding="utf-8")
    assert main(["import", str(bib), "--db", str(db)]) == 0
    assert started == [db]
    assert main(["import", str(bib), "--db", str(db)]) == 0  # nothing new: no build
    assert started == [db]


def test_the_background_build_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reader_tui.core.library.indexing import BACKGROUND_ENV, start_background_prepare

    monkeypatch.setenv(BACKGROUND_ENV, "0")
    assert start_background_prepare(tmp_path / "library") is None


def test_editing_a_title_rebuilds_the_caches_in_the_background(
    tmp_path: Path, run, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reader_tui.core.library.indexing import BACKGROUND_ENV, load_related_index, load_search_index
    from reader_tui.core.library.library import Library

    ok(run, "index", "--quiet")  # a new store (the seed list) with fresh caches (no background build: conftest)
    pid = ok(run, "list", "--limit", "1").split()[0]
    monkeypatch.delenv(BACKGROUND_ENV)
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the background `reader-tui index`: this checkout's code
    ok(run, "edit", pid, "--title", "Quokkas Considered Harmful")
    # fresh again only if something rebuilt them: the edit's background `reader-tui index`

    def fresh() -> bool:
        library = Library.open(db)
        return load_search_index(library) is not None and load_related_index(library) is not None

    deadline = time.monotonic() + 90
    while not fresh() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fresh()
