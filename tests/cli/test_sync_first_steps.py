"""The first steps of a reading group, as a new user takes them (issue 34, items 2 and 9):
a remote given as a relative path, an empty remote, the first push, git's own words, and
a clone of a library with reviews."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[2]
BIB = "@article{a1, title={Attention Is All You Need}, author={Vaswani, A.}, year={2017}}\n"


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # git runs the merge driver as `python -m reader_tui`
    subprocess.run(["git", "init", "--quiet", "--bare", "shared.git"], check=True)
    Path("refs.bib").write_text(BIB, encoding="utf-8")


def test_a_relative_remote_is_the_folder_the_user_meant(tmp_path: Path, reader_tui) -> None:
    reader_tui("--db", "alice", "--no-seed", "import", "refs.bib")
    out, _ = reader_tui("--db", "alice", "sync", "init", "shared.git", "--member", "alice")
    assert str(tmp_path / "shared.git") in out
    url = subprocess.run(["git", "-C", "alice", "remote", "get-url", "origin"], capture_output=True, text=True).stdout
    assert url.strip() == str(tmp_path / "shared.git")
    out, _ = reader_tui("--db", "alice", "sync")
    assert out.splitlines() == ["nothing new from the remote", "pushed the whole library: the remote had none yet"]
    assert subprocess.run(["git", "--git-dir", "shared.git", "rev-parse", "HEAD"], capture_output=True).returncode == 0
    out, _ = reader_tui("--db", "bob", "sync", "init", "shared.git", "--member", "bob")
    assert out.splitlines() == [f"bob: cloned from {tmp_path / 'shared.git'}"]  # no reviews in it: nothing to say


def test_an_empty_remote_is_said_to_be_empty(tmp_path: Path, reader_tui) -> None:
    out, _ = reader_tui("--db", "bob", "sync", "init", "shared.git", "--member", "bob")
    assert "is empty: nothing to clone yet" in out and "cloned" not in out


def test_git_is_quoted_in_whole_sentences(reader_tui) -> None:
    reader_tui("--db", "alice", "--no-seed", "import", "refs.bib")
    reader_tui("--db", "alice", "sync", "init", "nothere.git")
    out, _ = reader_tui("--db", "alice", "sync", code=1)
    offline = next(line for line in out.splitlines() if line.startswith("offline:"))
    assert "does not appear to be a git repository" in offline
    assert "and the repository exists." not in offline


def test_a_clone_says_the_reviews_stay_behind(reader_tui) -> None:
    snapshot = REPO / "tests" / "fixtures" / "import_reviews" / "snapshot1.jsonl"
    reader_tui("--db", "alice", "--no-seed", "import", str(snapshot))
    reader_tui("--db", "alice", "sync", "init", "shared.git", "--member", "alice")
    reader_tui("--db", "alice", "sync")
    out, _ = reader_tui("--db", "bob", "sync", "init", "shared.git", "--member", "bob")
    assert out.splitlines()[-1].startswith("reviews are not shared: import the list's reviews here too")


def test_a_sync_in_a_terminal_says_at_once_that_it_is_syncing(reader_tui, capsys, monkeypatch) -> None:
    reader_tui("--db", "alice", "--no-seed", "import", "refs.bib")
    reader_tui("--db", "alice", "sync", "init", "shared.git")
    out, err = reader_tui("--db", "alice", "sync")
    assert "syncing" not in err  # not a terminal (a script, a pipe): only the report
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    out, err = reader_tui("--db", "alice", "sync")
    assert err.startswith("reader-tui: syncing (commit, fetch, merge, push)…")
