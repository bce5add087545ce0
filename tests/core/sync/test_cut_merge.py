"""A sync killed while git merged into the library's files (git writes them in place, not
atomically) may leave one cut off: opening the library restores the committed files, so
the store opens and the next sync merges again. Real git, no remote needed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.files import ANNOTATIONS_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.library.sync.state import MERGING_FILE, merge_cut_short
from reader_tui.core.model import Paper, Status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _synced_library(folder: Path) -> str:
    library = Library.open(folder)
    library.import_papers([Paper(id="p1", title="Cut Off 🧪 ünï"), Paper(id="p2", title="Whole")])
    library.set_status(["p1"], Status.READ)
    library.close()
    sync.init(folder)
    sync.sync(folder)  # commits (no remote: nothing else)
    return (folder / ANNOTATIONS_FILE).read_text("utf-8")


def test_a_file_cut_off_by_a_killed_merge_is_restored_as_committed(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "lib"
    committed = _synced_library(folder)
    (folder / ANNOTATIONS_FILE).write_bytes(b"")  # what git left, killed mid-write
    (folder / ".git" / MERGING_FILE).touch()
    library = Library.open(folder)
    assert library.annotations["p1"].status is Status.READ
    library.close()
    assert (folder / ANNOTATIONS_FILE).read_text("utf-8") == committed
    assert not merge_cut_short(folder)
    assert "restored as last committed" in capsys.readouterr().err


def test_without_the_mark_a_damaged_file_is_refused_not_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    _synced_library(folder)
    (folder / ANNOTATIONS_FILE).write_bytes(b"")
    with pytest.raises(StoreError, match="empty"):
        Library.open(folder)
    assert (folder / ANNOTATIONS_FILE).read_bytes() == b""  # never overwritten behind the user's back


def test_a_sync_that_merged_leaves_no_mark(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    a, b = tmp_path / "a", tmp_path / "b"
    _synced_library(a)
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    sync.init(a, str(remote))
    sync.sync(a)
    sync.init(b, str(remote))  # a clone of a's library
    library = Library.open(b)
    library.set_status(["p2"], Status.TO_READ)
    library.close()
    sync.sync(b)
    report = sync.sync(a)  # merges b's change
    assert report.received and not merge_cut_short(a)
    assert Library.open(a).annotations["p2"].status is Status.TO_READ
