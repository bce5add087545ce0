"""A reading group shares one remote: each member's marks live in members/<name>.json,
nobody overwrites anybody, `show` lists the others' marks and searches find them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_sync_cli import BIB, REPO, ids, show

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(autouse=True)
def _driver_runs_this_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))


def test_members_keep_their_own_marks_and_see_each_others(tmp_path: Path, reader_tui) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    (tmp_path / "seed.bib").write_text(BIB, "utf-8")
    alice, bob = tmp_path / "alice", tmp_path / "bob"

    def run(folder: Path, *args: str, code: int = 0) -> str:
        return reader_tui("--db", str(folder), "--no-seed", *args, code=code)[0]

    run(alice, "import", str(tmp_path / "seed.bib"))
    run(alice, "sync", "init", str(remote), "--member", "alice")
    p = ids(reader_tui, alice)
    run(alice, "status", "to-read", p["Adam:"])
    run(alice, "note", p["Adam:"], "--set", "alice: read § 3 first")
    run(alice, "sync")
    assert "cloned" in run(bob, "sync", "init", str(remote), "--member", "bob")
    assert show(reader_tui, bob, p["Adam:"])["status"] == "unread"  # alice's marks are hers
    run(bob, "status", "read", p["Adam:"], p["Deep"])
    run(bob, "tag", p["Adam:"], "+optimiser")
    run(bob, "note", p["Adam:"], "--set", "bob: Ünïcödé 🧪 note")
    assert "by bob" in run(bob, "sync")
    assert "by bob" in run(alice, "sync")

    mine = show(reader_tui, alice, p["Adam:"])
    assert mine["status"] == "to-read" and mine["notes"] == "alice: read § 3 first"
    assert mine["group"] == {"bob": {"status": "read", "tags": ["optimiser"], "notes": "bob: Ünïcödé 🧪 note"}}
    text = run(alice, "show", p["Adam:"])
    assert "group:" in text and "bob: read  tags: optimiser" in text and "bob: Ünïcödé 🧪 note" in text
    assert p["Adam:"] in run(alice, "list", "--search", "by:bob") and p["Attention"] not in run(alice, "list", "--search", "by:bob")
    assert set(run(alice, "list", "--search", "is:group-read").split()) >= {p["Adam:"], p["Deep"]}
    both = run(alice, "list", "--search", "group:>=2")
    assert p["Adam:"] in both and p["Deep"] not in both  # alice and bob / bob alone
    assert show(reader_tui, bob, p["Adam:"])["group"]["alice"]["status"] == "to-read"
    tracked = subprocess.run(["git", "ls-files"], cwd=alice, capture_output=True, text=True, check=True).stdout.split()
    assert "annotations.json" not in tracked and {"members/alice.json", "members/bob.json"} <= set(tracked)


def test_a_library_whose_remote_became_a_groups_keeps_its_marks(tmp_path: Path, reader_tui, monkeypatch) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    (tmp_path / "seed.bib").write_text(BIB, "utf-8")
    a, b = tmp_path / "a", tmp_path / "b"

    def run(folder: Path, *args: str) -> str:
        return reader_tui("--db", str(folder), "--no-seed", *args)[0]

    run(a, "import", str(tmp_path / "seed.bib"))
    p = ids(reader_tui, a)
    run(a, "status", "read", p["Deep"])
    run(a, "sync", "init", str(remote))
    run(a, "sync")
    run(b, "sync", "init", str(remote))
    subprocess.run(["git", "config", "user.name", "Bea Both"], cwd=b, check=True)
    run(b, "status", "skipped", p["Adam:"])
    run(b, "sync")
    run(a, "sync", "init", "--member", "alice")
    run(a, "sync")
    out = run(b, "sync")
    assert "reading group" in out and "Bea Both" in out
    got = show(reader_tui, b, p["Adam:"])
    assert got["status"] == "skipped" and show(reader_tui, b, p["Deep"])["status"] == "read"
    assert json.loads((b / "members" / "Bea Both.json").read_bytes())["annotations"]
    run(a, "sync")
    assert show(reader_tui, a, p["Adam:"])["group"]["Bea Both"]["status"] == "skipped"
