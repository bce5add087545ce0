"""`reader-tui sync init` and `reader-tui sync` with real git: two libraries on this
machine share a bare repository in a temporary folder (no network)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.library.sync import repository as sync_module
from reader_tui.core.library.sync.state import MERGING_FILE

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[2]
BIB = """@article{a1, title={Attention Is All You Need}, author={Vaswani, A.}, year={2017}}
@article{b2, title={Deep Residual Learning}, author={He, K.}, year={2016}}
@article{c3, title={Adam: a method}, author={Kingma, D.}, year={2015}}
"""


@pytest.fixture(autouse=True)
def _driver_runs_this_code(monkeypatch: pytest.MonkeyPatch) -> None:
    # git runs the merge driver as `python -m reader_tui`: this checkout's code
    monkeypatch.setenv("PYTHONPATH", str(REPO))


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # The store records change times to the second: a clock that moves a second per change
    # makes "the later change wins" testable without sleeping.
    from datetime import UTC, datetime, timedelta

    from reader_tui.core.library import library

    ticks = iter(range(10**6))
    start = datetime(2026, 3, 1, tzinfo=UTC)
    monkeypatch.setattr(library, "now_iso", lambda: (start + timedelta(seconds=next(ticks))).isoformat())


@pytest.fixture
def two(tmp_path: Path, reader_tui):
    """A and B: one library made on A, pushed to a bare repository, cloned into B."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    bib = tmp_path / "seed.bib"
    bib.write_text(BIB, "utf-8")
    a, b = tmp_path / "A", tmp_path / "B"
    reader_tui("--db", str(a), "--no-seed", "import", str(bib))
    reader_tui("--db", str(a), "sync", "init", str(remote))
    reader_tui("--db", str(a), "sync")
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync", "init", str(remote))
    assert "cloned" in out
    return a, b, remote


def ids(reader_tui, folder: Path) -> dict[str, str]:
    out, _ = reader_tui("--db", str(folder), "--no-seed", "list", "--json")
    return {p["title"].split()[0]: p["id"] for p in json.loads(out)}


def show(reader_tui, folder: Path, pid: str) -> dict:
    return json.loads(reader_tui("--db", str(folder), "--no-seed", "show", pid, "--json")[0])


def test_edits_on_both_sides_and_one_conflicting_note_merge_the_same_on_both(two, reader_tui) -> None:
    a, b, _ = two
    p = ids(reader_tui, a)
    att, deep, adam = p["Attention"], p["Deep"], p["Adam:"]
    run = lambda folder, *args: reader_tui("--db", str(folder), "--no-seed", *args)  # noqa: E731
    run(a, "tag", att, "+transformers", "+nlp")
    run(a, "note", deep, "--set", "one\ntwo\nthree\nfour")
    run(a, "sync")
    run(b, "sync")
    run(b, "note", deep, "--set", "one\nTWO from B שלום\nthree\nfour")
    run(b, "tag", att, "-nlp", "+classic")
    run(b, "status", "reading", adam)
    run(a, "note", deep, "--set", "one\n2 from A 🧪\nthree\nfour, and more")
    run(a, "status", "read", adam)  # later than B's
    out, _ = run(a, "sync")
    assert "committed: 1 status change, 1 note" in out
    out, _ = run(b, "sync")
    assert "received: 1 status change, 1 note" in out and "is:conflict" in out
    run(a, "sync")
    for folder in (a, b):
        notes = show(reader_tui, folder, deep)["notes"]
        assert "TWO from B שלום" in notes and "2 from A 🧪" in notes and "<<<<<<<" in notes
        assert notes.endswith("four, and more")  # A's change on another line taken as it is
        assert show(reader_tui, folder, att)["tags"] == ["transformers", "classic"]
        assert show(reader_tui, folder, adam)["status"] == "read"
        out, _ = run(folder, "list", "--search", "is:conflict")
        assert deep in out and att not in out
    assert (a / "annotations.json").read_bytes() == (b / "annotations.json").read_bytes()
    log = subprocess.run(["git", "log", "--format=%s"], cwd=b, capture_output=True, text=True, check=True).stdout
    assert "merged: 1 status change, 1 note" in log  # git log reads as the list's history


def test_plain_git_pull_merges_with_the_driver(two, reader_tui) -> None:
    a, b, _ = two
    p = ids(reader_tui, a)
    reader_tui("--db", str(a), "--no-seed", "status", "read", p["Adam:"])
    reader_tui("--db", str(a), "--no-seed", "sync")
    reader_tui("--db", str(b), "--no-seed", "tag", p["Adam:"], "+b-side")
    subprocess.run(["git", "add", "-A"], cwd=b, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "b"], cwd=b, check=True)
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "pull", "--no-rebase", "--no-edit", "-q"],
                          cwd=b, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = show(reader_tui, b, p["Adam:"])
    assert got["status"] == "read" and got["tags"] == ["b-side"]


def test_what_never_goes_into_git(two, reader_tui) -> None:
    a, _, _ = two
    (a / "reviews.sqlite").write_bytes(b"x")
    (a / "backups").mkdir(exist_ok=True)
    (a / "backups" / "annotations-1.json").write_text("{}")
    reader_tui("--db", str(a), "--no-seed", "status", "read", ids(reader_tui, a)["Adam:"])
    reader_tui("--db", str(a), "--no-seed", "sync")
    tracked = subprocess.run(["git", "ls-files"], cwd=a, capture_output=True, text=True, check=True).stdout.split()
    assert sorted(tracked) == [".gitattributes", ".gitignore", "annotations.json", "catalog.json"]
    config = subprocess.run(["git", "config", "merge.reader-tui.driver"], cwd=a, capture_output=True, text=True).stdout
    assert config.strip() == sync_module.driver_command()  # the driver module, run by this Python


def test_a_folder_that_is_not_a_repository_is_one_line(tmp_path: Path, reader_tui) -> None:
    _, err = reader_tui("--db", str(tmp_path / "lib"), "--no-seed", "sync", code=1)
    assert err.count("\n") == 1 and "not a git repository" in err and "sync init" in err


def test_no_git_on_the_path_is_one_line(tmp_path: Path, reader_tui, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    _, err = reader_tui("--db", str(tmp_path / "lib"), "--no-seed", "sync", code=1)
    assert err.count("\n") == 1 and "git is not on the PATH" in err


def test_an_unreachable_remote_keeps_the_work_committed_for_the_next_sync(two, reader_tui) -> None:
    a, b, remote = two
    moved = remote.with_name("away.git")
    remote.rename(moved)
    pid = ids(reader_tui, a)["Adam:"]
    reader_tui("--db", str(a), "--no-seed", "status", "read", pid)
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync", code=1)
    assert "committed: 1 status change" in out and "offline:" in out and "next sync" in out
    assert show(reader_tui, a, pid)["status"] == "read"
    moved.rename(remote)
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync")
    assert "pushed" in out
    reader_tui("--db", str(b), "--no-seed", "sync")
    assert show(reader_tui, b, pid)["status"] == "read"


def test_a_rejected_push_fetches_and_merges_again(two, reader_tui, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, _ = two
    p = ids(reader_tui, a)
    reader_tui("--db", str(a), "--no-seed", "status", "read", p["Adam:"])
    reader_tui("--db", str(b), "--no-seed", "tag", p["Deep"], "+from-b")
    real_git = sync_module.git
    raced = []

    def git(folder, *args, **kwargs):
        if args[0] == "push" and not raced:  # B pushes between A's merge and A's push
            raced.append(True)
            sync_module.sync(b)
        return real_git(folder, *args, **kwargs)

    monkeypatch.setattr(sync_module, "git", git)
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync")
    assert raced and "pushed" in out and "1 tag change" in out
    monkeypatch.setattr(sync_module, "git", real_git)
    reader_tui("--db", str(b), "--no-seed", "sync")
    for folder in (a, b):
        assert show(reader_tui, folder, p["Adam:"])["status"] == "read"
        assert show(reader_tui, folder, p["Deep"])["tags"] == ["from-b"]


def _mid_merge(two, reader_tui, *, killed: bool) -> tuple[Path, dict[str, str]]:
    """B in the middle of a merge: its work committed, A's change half merged (MERGE_HEAD,
    the index and the files hold the merge); `killed` adds the mark a sync killed inside
    `git merge` leaves."""
    a, b, _ = two
    p = ids(reader_tui, a)
    reader_tui("--db", str(a), "--no-seed", "tag", p["Adam:"], "+from-a 🧪")
    reader_tui("--db", str(a), "--no-seed", "sync")
    reader_tui("--db", str(b), "--no-seed", "status", "skipped", p["Deep"])
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "add", "-A"], cwd=b, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "b"], cwd=b, check=True, env=env)
    subprocess.run(["git", "fetch", "-q"], cwd=b, check=True, env=env)
    subprocess.run(["git", "merge", "--no-commit", "--no-ff", "-q", "@{u}"], cwd=b, env=env, capture_output=True)
    if killed:
        (b / ".git" / MERGING_FILE).touch()
    assert (b / ".git" / "MERGE_HEAD").exists()
    return b, p


def test_a_repository_left_in_the_middle_of_a_merge_is_undone_and_synced(two, reader_tui) -> None:
    b, p = _mid_merge(two, reader_tui, killed=False)
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync")
    assert "merge left unfinished" in out and "pushed" in out
    assert show(reader_tui, b, p["Adam:"])["tags"] == ["from-a 🧪"] and show(reader_tui, b, p["Deep"])["status"] == "skipped"


def test_a_merge_killed_then_written_to_is_undone_keeping_the_later_change(two, reader_tui) -> None:
    b, p = _mid_merge(two, reader_tui, killed=True)
    # The library is opened (its files restored as committed) and changed before the next
    # sync: git then refuses `merge --abort` ("not uptodate"), which used to leave the merge
    # in place and fail every sync after it.
    reader_tui("--db", str(b), "--no-seed", "note", p["Attention"], "--set", "later ✍️ שלום")
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync")
    assert "merge left unfinished" in out and "pushed" in out
    assert not (b / ".git" / "MERGE_HEAD").exists()
    assert show(reader_tui, b, p["Attention"])["notes"] == "later ✍️ שלום"
    assert show(reader_tui, b, p["Deep"])["status"] == "skipped"
    assert show(reader_tui, b, p["Adam:"])["tags"] == ["from-a 🧪"]


def test_a_merge_killed_while_it_wrote_a_file_is_restored_and_merged_by_the_next_sync(two, reader_tui) -> None:
    b, p = _mid_merge(two, reader_tui, killed=True)
    (b / "annotations.json").write_bytes(b'{"_default": {"1": {"id"')  # cut off mid-write
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync")  # nothing opened the library between
    assert "annotations.json: cut off by a sync stopped while it merged; restored as last committed" in out
    assert "merge left unfinished" in out and "pushed" in out
    assert not (b / ".git" / MERGING_FILE).exists()
    assert show(reader_tui, b, p["Deep"])["status"] == "skipped"
    assert show(reader_tui, b, p["Adam:"])["tags"] == ["from-a 🧪"]


def test_two_libraries_made_apart_merge_into_one(tmp_path: Path, reader_tui) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    one, two = tmp_path / "one.bib", tmp_path / "two.bib"
    one.write_text(BIB.splitlines()[0] + "\n", "utf-8")
    two.write_text(BIB.splitlines()[1] + "\n", "utf-8")
    a, b = tmp_path / "A", tmp_path / "B"
    for folder, bib in ((a, one), (b, two)):
        reader_tui("--db", str(folder), "--no-seed", "import", str(bib))
        reader_tui("--db", str(folder), "--no-seed", "status", "read", next(iter(ids(reader_tui, folder).values())))
        reader_tui("--db", str(folder), "--no-seed", "sync", "init", str(remote))
    reader_tui("--db", str(a), "--no-seed", "sync")
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync")
    assert "received: 1 paper imported" in out or "1 paper imported" in out
    reader_tui("--db", str(a), "--no-seed", "sync")
    for folder in (a, b):
        got = ids(reader_tui, folder)
        assert set(got) == {"Attention", "Deep"}
        assert all(show(reader_tui, folder, pid)["status"] == "read" for pid in got.values())


def test_other_files_in_the_folder_stay_out_of_git(two, reader_tui) -> None:
    a, _, _ = two
    (a / "refs.bib").write_text("@misc{x, title={mine}}\n", "utf-8")
    reader_tui("--db", str(a), "--no-seed", "status", "read", ids(reader_tui, a)["Adam:"])
    reader_tui("--db", str(a), "--no-seed", "sync")
    tracked = subprocess.run(["git", "ls-files"], cwd=a, capture_output=True, text=True, check=True).stdout.split()
    assert "refs.bib" not in tracked and "annotations.json" in tracked


def test_sync_auto_is_a_setting_of_the_library_that_travels_with_it(two, reader_tui) -> None:
    a, b, _ = two
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync", "auto")
    assert out.startswith("sync on start and quit: off")
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync", "auto", "on")
    assert out.startswith("sync on start and quit: on (the TUI syncs in the background as it starts")
    out, _ = reader_tui("--db", str(a), "--no-seed", "sync")
    assert "committed: 1 setting" in out
    reader_tui("--db", str(b), "--no-seed", "sync")
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync", "auto")
    assert out.startswith("sync on start and quit: on")  # the other machine too
    out, _ = reader_tui("--db", str(b), "--no-seed", "sync", "auto", "off")
    assert out.startswith("sync on start and quit: off")
    _, err = reader_tui("--db", str(b), "--no-seed", "sync", "auto", "maybe", code=2)
    assert err.strip() == "reader-tui: sync auto takes on or off (nothing: say which it is)"


def test_sync_auto_on_in_a_library_that_is_not_a_repository_says_what_to_do(tmp_path: Path, reader_tui) -> None:
    out, _ = reader_tui("--db", str(tmp_path / "lib"), "--no-seed", "sync", "auto", "on")
    assert out.splitlines()[1] == f"{tmp_path / 'lib'} is not a repository yet: run `reader-tui sync init REMOTE` first"
