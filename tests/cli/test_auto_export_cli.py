"""`reader-tui export -o FILE --save` keeps FILE up to date: rewritten after every command
that changes the library and after a sync that brings changes in; `auto-export` lists,
writes and removes them. A bad path is one line naming it, and nothing is lost."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

BIB = """@article{a1, title={Attention Is All You Need}, author={Vaswani, A.}, year={2017}}
@article{b2, title={Deep Residual Learning}, author={He, K.}, year={2016}}
@article{c3, title={Adam: a method}, author={Kingma, D.}, year={2015}}
"""
REPO = Path(__file__).resolve().parents[2]


def _library(tmp_path: Path, reader_tui, name: str = "lib") -> tuple[Path, dict[str, str]]:
    bib = tmp_path / "seed.bib"
    bib.write_text(BIB, "utf-8")
    db = tmp_path / name
    reader_tui("--db", str(db), "--no-seed", "import", str(bib))
    out, _ = reader_tui("--db", str(db), "--no-seed", "list")
    ids = {line.split("   ", 1)[1].split()[0].lower().strip(":"): line.split()[0] for line in out.splitlines()}
    return db, ids


def test_save_writes_now_and_after_each_changing_command(tmp_path: Path, reader_tui) -> None:
    db, ids = _library(tmp_path, reader_tui)
    out_file = tmp_path / "read.bib"
    _, err = reader_tui("--db", str(db), "--no-seed", "export", "--status", "read", "-o", str(out_file), "--save")
    assert err.strip() == (f"reader-tui: wrote 0 papers to {out_file}; now rewritten after each change of the library"
                           " (`reader-tui auto-export` lists the files kept so)")
    assert "@" not in out_file.read_text("utf-8")
    _, err = reader_tui("--db", str(db), "--no-seed", "status", "read", ids["deep"])
    assert err.strip() == f"reader-tui: auto-export: wrote 1 paper to {out_file}"
    assert "Deep Residual" in out_file.read_text("utf-8")
    _, err = reader_tui("--db", str(db), "--no-seed", "note", ids["adam"], "--set", "later")  # not in the export
    assert err == ""
    reader_tui("--db", str(db), "--no-seed", "status", "read", ids["attention"])
    text = out_file.read_text("utf-8")
    assert text.index("Attention") < text.index("Deep Residual")  # the library's order
    out, _ = reader_tui("--db", str(db), "--no-seed", "auto-export")
    assert out == f"{out_file}\tbibtex: status:read\n"
    out, _ = reader_tui("--db", str(db), "--no-seed", "auto-export", "remove", str(out_file))
    assert out.strip() == f"{out_file}: no longer kept up to date (the file stays as it is)"
    reader_tui("--db", str(db), "--no-seed", "status", "unread", ids["attention"])
    assert "Attention" in out_file.read_text("utf-8")  # left as it was
    out, _ = reader_tui("--db", str(db), "--no-seed", "auto-export", "list")
    assert out.startswith("no auto-exports")


def test_save_never_replaces_a_file_unasked_and_a_bad_path_is_one_line(tmp_path: Path, reader_tui) -> None:
    db, ids = _library(tmp_path, reader_tui)
    mine = tmp_path / "mine.bib"
    mine.write_text("% my own\n", "utf-8")
    _, err = reader_tui("--db", str(db), "--no-seed", "export", "-o", str(mine), "--save", code=1)
    assert err.strip() == f"reader-tui: {mine}: exists already (use --force to overwrite it)"
    assert mine.read_text("utf-8") == "% my own\n"
    out, _ = reader_tui("--db", str(db), "--no-seed", "auto-export")
    assert out.startswith("no auto-exports")  # nothing saved either
    # a folder that disappears later: the command still does its work, and one line says what was not written
    folder = tmp_path / "papers"
    folder.mkdir()
    reader_tui("--db", str(db), "--no-seed", "export", "--format", "markdown", "-o", str(folder / "list.md"), "--save")
    shutil.rmtree(folder)
    out, err = reader_tui("--db", str(db), "--no-seed", "status", "read", ids["adam"])
    assert out.strip() == "1 paper set to read"
    assert err.strip() == f"reader-tui: auto-export {folder / 'list.md'}: the folder {folder} does not exist"
    out, _ = reader_tui("--db", str(db), "--no-seed", "show", ids["adam"])
    assert "read" in out


def test_auto_export_write_and_its_usage(tmp_path: Path, reader_tui) -> None:
    db, _ = _library(tmp_path, reader_tui)
    target = tmp_path / "all.md"
    reader_tui("--db", str(db), "--no-seed", "export", "--format", "markdown", "-o", str(target), "--save")
    target.unlink()
    _, err = reader_tui("--db", str(db), "--no-seed", "auto-export", "write")
    assert err.strip() == f"reader-tui: auto-export: wrote 3 papers to {target}"
    _, err = reader_tui("--db", str(db), "--no-seed", "auto-export", "write")
    assert err.strip() == f"reader-tui: auto-export: up to date: 3 papers in {target}"
    _, err = reader_tui("--db", str(db), "--no-seed", "auto-export", "remove", str(tmp_path / "other.bib"), code=1)
    assert "other.bib: not an auto-export of this library" in err
    _, err = reader_tui("--db", str(db), "--no-seed", "export", "--save", code=2)
    assert err.strip() == "reader-tui: --save keeps a file up to date: name it with -o FILE"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_sync_that_brings_changes_rewrites_the_file(tmp_path: Path, reader_tui, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # git runs the merge driver: this checkout's
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    a, ids = _library(tmp_path, reader_tui, "A")
    reader_tui("--db", str(a), "sync", "init", str(remote))
    reader_tui("--db", str(a), "sync")
    b = tmp_path / "B"
    reader_tui("--db", str(b), "--no-seed", "sync", "init", str(remote))
    target = tmp_path / "b-reading.bib"
    reader_tui("--db", str(b), "--no-seed", "export", "--status", "to-read", "-o", str(target), "--save")
    reader_tui("--db", str(a), "--no-seed", "status", "to-read", ids["adam"])
    reader_tui("--db", str(a), "sync")
    assert "Adam" not in target.read_text("utf-8")
    out, err = reader_tui("--db", str(b), "sync")
    assert "received: 1 status change" in out
    assert err.strip() == f"reader-tui: auto-export: wrote 1 paper to {target}"
    assert "Adam" in target.read_text("utf-8")


def test_save_is_for_files(tmp_path: Path, reader_tui) -> None:
    db, _ = _library(tmp_path, reader_tui)
    _, err = reader_tui("--db", str(db), "--no-seed", "export", "-o", "/dev/null", "--save", code=2)
    assert err.strip().startswith("reader-tui: /dev/null: not a regular file; --save keeps a file up to date")
    _, err = reader_tui("--db", str(db), "--no-seed", "export", "-o", str(tmp_path / "x.bib"), "--save", "--watch", code=2)
    assert err.strip() == "reader-tui: choose one of --watch (while it runs) and --save (for good)"
    out, _ = reader_tui("--db", str(db), "--no-seed", "auto-export")
    assert out.startswith("no auto-exports")
