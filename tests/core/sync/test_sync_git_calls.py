"""How many git commands a sync runs: each is a process (2-3 ms of CPU, more on a slow
disk or Windows), and a sync ran about thirty. Real git, a bare repository in a temporary
folder; the commands are counted by a `git` on the PATH that logs and runs the real one."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.model import Paper, Status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A and B, clones of one library through a bare repository, both synced once; and a
    function returning the git commands run since it was last called."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # git runs the merge driver from this checkout
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")  # no identity: the sync gives its own
    log = tmp_path / "git.log"
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "git").write_text(f'#!/bin/sh\necho "$*" >> {shlex.quote(str(log))}\nexec {shlex.quote(shutil.which("git"))} "$@"\n')
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    a, b = tmp_path / "A", tmp_path / "B"
    library = Library.open(a)
    library.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(3)])
    library.close()
    sync.init(a, str(remote))
    sync.sync(a)
    sync.init(b, str(remote))
    sync.sync(b)

    def since() -> list[str]:
        calls = log.read_text("utf-8").splitlines() if log.exists() else []
        log.write_text("", "utf-8")
        return calls

    since()
    return a, b, since


def _commands(calls: list[str]) -> list[str]:
    return [call.split()[0] if not call.startswith("-c ") else call.split()[4] for call in calls]


def test_a_sync_with_nothing_new_runs_seven_git_commands(logged) -> None:
    a, _, since = logged
    report = sync.sync(a)
    assert not report.committed and not report.received and not report.pushed and not report.offline
    # the configuration read once; the folder looked at once before the fetch and once
    # after (nothing to stage either time); no upstream set again (the first push did)
    assert _commands(since()) == ["config", "status", "symbolic-ref", "fetch", "rev-list", "status", "gc"]
    upstream = subprocess.run(["git", "rev-parse", "--abbrev-ref", "@{u}"], cwd=a, capture_output=True, text=True)
    assert upstream.stdout.strip().startswith("origin/")


def test_a_sync_that_merges_reads_each_thing_once(logged) -> None:
    a, b, since = logged
    other = Library.open(b)
    other.set_status(["p1"], Status.READ)
    other.close()
    sync.sync(b)
    mine = Library.open(a)
    mine.retag(["p0"], add=["mine"])
    mine.set_notes("p2", "a note")
    mine.close()
    since()
    report = sync.sync(a)
    assert report.committed == "1 note, 1 tag change" and report.received == "1 status change" and report.pushed
    calls = since()
    commands = Counter(_commands(calls))
    # once: the configuration (member, identity, remote, upstream), each file at each commit
    assert commands["config"] == 1 and commands["remote"] == 0 and commands["branch"] == 0
    shows = [call for call in calls if call.startswith("show ")]
    assert len(shows) == len(set(shows))
    # the merge commit says what came in, with the identity the sync gives
    log = subprocess.run(["git", "log", "-1", "--format=%an %s"], cwd=a, capture_output=True, text=True, check=True)
    assert log.stdout.strip() == "reader-tui merged: 1 status change"
    # 33 before the configuration was read once, `git status` told what to stage, each file read once;
    # one more to see what the remote's commit changes (`sync.guard`), one to read its files
    assert sum(commands.values()) <= 23
    assert commands["diff-tree"] == 1 and commands["cat-file"] == 1
    assert commands["ls-files"] == 0  # status lists what is new and not ignored


def test_a_file_the_user_tracked_is_committed_by_the_next_sync(logged) -> None:
    # what `git add --update .` stages: any tracked file's change, not only the store's
    a, _, since = logged
    (a / "refs.bib").write_text("@misc{x, title={mine}}\n", "utf-8")
    subprocess.run(["git", "add", "refs.bib"], cwd=a, check=True)
    report = sync.sync(a)
    assert report.committed == "1 file(s) changed" and report.pushed
    (a / "refs.bib").write_text("@misc{x, title={changed}}\n", "utf-8")
    report = sync.sync(a)
    assert report.committed == "1 file(s) changed"
    (a / "refs.bib").unlink()
    assert sync.sync(a).committed == "1 file(s) changed"
    tracked = subprocess.run(["git", "ls-files"], cwd=a, capture_output=True, text=True, check=True).stdout.split()
    assert "refs.bib" not in tracked
    # an untracked file of the user's own is not a change to commit
    (a / "paper.pdf").write_bytes(b"%PDF")
    since()
    assert sync.sync(a).committed == ""
    assert "add" not in _commands(since())


def test_the_identity_configured_in_git_authors_the_syncs_commits(logged) -> None:
    # read from the one configuration read: both user.name and user.email, or neither
    a, _, _ = logged

    def change_and_sync(status: Status) -> str:
        library = Library.open(a)
        library.set_status(["p0"], status)
        library.close()
        assert sync.sync(a).committed == "1 status change"
        log = subprocess.run(["git", "log", "-1", "--format=%an <%ae>"], cwd=a, capture_output=True, text=True, check=True)
        return log.stdout.strip()

    subprocess.run(["git", "config", "user.name", "Ada Lovelace"], cwd=a, check=True)
    assert change_and_sync(Status.READ) == "reader-tui <reader-tui@localhost>"  # no email: git would refuse
    subprocess.run(["git", "config", "user.email", "ada@example.org"], cwd=a, check=True)
    assert change_and_sync(Status.SKIPPED) == "Ada Lovelace <ada@example.org>"


def test_a_new_store_file_is_committed_whatever_git_status_is_set_to_show(logged) -> None:
    # B's annotations file is new (nothing was marked there yet); git status lists what
    # `git add` takes even where the user told status to hide untracked files
    _, b, since = logged
    subprocess.run(["git", "config", "status.showUntrackedFiles", "no"], cwd=b, check=True)
    assert not (b / "annotations.json").exists()
    library = Library.open(b)
    library.set_status(["p1"], Status.READING)
    library.close()
    since()
    report = sync.sync(b)
    assert report.committed == "1 status change" and report.pushed
    assert "ls-files" not in _commands(since())
    tracked = subprocess.run(["git", "ls-files"], cwd=b, capture_output=True, text=True, check=True).stdout.split()
    assert "annotations.json" in tracked


def test_the_tuis_look_at_the_sync_state_runs_five_git_commands(logged) -> None:
    # What the TUI reads at start and after each sync (`library_sync.read_state`, in a
    # worker): a library of one person asks git nothing about members, and the commits
    # not sent yet are counted against the remote branch in one command (seven before).
    from reader_tui.tui.widgets.library_sync import read_state

    a, _, since = logged
    state = read_state(a)
    assert state.last_synced is not None and state.group is None and (state.unsent, state.waiting) == (0, 0)
    assert _commands(since()) == ["config", "diff", "show", "symbolic-ref", "rev-list"]
    library = Library.open(a)
    library.set_status(["p0"], Status.READ)  # a change not committed yet ...
    library.close()
    subprocess.run(["git", "-c", "user.name=x", "-c", "user.email=x@y", "commit", "--quiet", "--allow-empty",
                    "-m", "made offline"], cwd=a, check=True)  # ... and a commit not sent yet
    since()
    state = read_state(a)
    assert (state.unsent, state.waiting) == (1, 1)
    assert _commands(since()) == ["config", "diff", "show", "symbolic-ref", "rev-list"]
