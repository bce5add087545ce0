"""When a library last reached its remote: marked by a sync whose fetch succeeded, kept
through a sync that could not reach it (git's FETCH_HEAD is rewritten even then)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.library.sync.state import last_synced
from reader_tui.core.model import Paper

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _one_paper_library_with_a_remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(the library folder, its bare remote), set up for sync and never synced."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    remote, folder = tmp_path / "remote.git", tmp_path / "lib"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    Library.open(folder).import_papers([Paper(id="p1", title="A paper")])
    sync.init(folder, str(remote))
    return folder, remote


def test_last_synced_is_the_last_sync_that_reached_the_remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, remote = _one_paper_library_with_a_remote(tmp_path, monkeypatch)
    assert last_synced(folder) is None  # set up, never synced
    sync.sync(folder)
    reached = last_synced(folder)
    assert reached is not None
    marker = folder / ".git" / "reader-tui-synced"
    os.utime(marker, (reached.timestamp() - 3600, reached.timestamp() - 3600))
    shutil.rmtree(remote)
    assert sync.sync(folder).offline
    assert last_synced(folder).timestamp() == pytest.approx(reached.timestamp() - 3600)


@pytest.mark.parametrize("member", [None, "bob"])
def test_changes_waiting_are_those_made_since_the_last_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              member: str | None) -> None:
    from reader_tui.core.model import Status

    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[3]))
    remote, folder = tmp_path / "remote.git", tmp_path / "lib"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    library = Library.open(folder)
    library.import_papers([Paper(id=f"p{n}", title=f"Paper {n}") for n in range(3)])
    sync.init(folder, str(remote), member=member)
    sync.sync(folder)
    assert sync.waiting_changes(folder) == 0
    library.set_status(["p0", "p1"], Status.READ)
    library.set_notes("p2", "a note")
    assert sync.waiting_changes(folder) == 3
    library.import_papers([Paper(id="p9", title="Paper nine")])
    assert sync.waiting_changes(folder) == 4  # and one paper imported
    assert sorted(sync.waiting_list(folder)) == [  # what they are, by title
        ("note", "Paper 2"), ("paper imported", "Paper nine"), ("status change", "Paper 0"), ("status change", "Paper 1"),
    ]
    sync.sync(folder)
    assert sync.waiting_changes(folder) == 0
    assert sync.waiting_changes(tmp_path / "not-a-repository") == 0
    assert sync.waiting_list(folder) == [] and sync.waiting_list(tmp_path / "not-a-repository") == []


def test_sync_packs_the_repository_as_git_gc_auto_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.delenv("GIT_CONFIG_COUNT")  # housekeeping as git does it (tests/conftest.py turns it off)
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "lib"
    library = Library.open(folder)
    library.import_papers([Paper(id="p1", title="A paper")])
    sync.init(folder)
    # gc --auto's threshold brought down to this small repository, run in the foreground,
    # and enough loose objects for its estimate (it samples one of 256 folders)
    for key, value in (("gc.auto", "1"), ("gc.autoDetach", "false")):
        subprocess.run(["git", "-C", str(folder), "config", key, value], check=True)
    blobs = "".join(f"loose object {n}\n\0" for n in range(2000)).split("\0")[:-1]
    paths = []
    for n, text in enumerate(blobs):
        path = tmp_path / "blobs" / str(n)
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        paths.append(str(path))
    subprocess.run(["git", "-C", str(folder), "hash-object", "-w", "--stdin-paths"], input="\n".join(paths), text=True,
                   check=True, capture_output=True)

    def packs() -> int:
        out = subprocess.run(["git", "-C", str(folder), "count-objects", "-v"], capture_output=True, text=True).stdout
        return int(next(line.split()[1] for line in out.splitlines() if line.startswith("packs:")))

    assert packs() == 0
    library.set_notes("p1", "one")
    sync.sync(folder)
    assert packs() >= 1


def test_a_sync_puts_back_the_merge_driver_line_a_plain_git_pull_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A repository set up by an earlier reader-tui names another driver module (or a
    Python since removed): the next sync writes today's line, so `git pull` merges again."""
    folder, remote = _one_paper_library_with_a_remote(tmp_path, monkeypatch)
    key = f"merge.{sync.DRIVER}.driver"
    earlier = "/gone/python -m reader_tui.core.library.sync_driver %O %A %B %P"
    subprocess.run(["git", "-C", str(folder), "config", key, earlier], check=True)
    sync.sync(folder)
    line = subprocess.run(["git", "-C", str(folder), "config", "--get", key], capture_output=True, text=True, check=True)
    assert line.stdout.strip() == sync.driver_command()
