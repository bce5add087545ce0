"""When a library last reached its remote: marked by a sync whose fetch succeeded, kept
through a sync that could not reach it (git's FETCH_HEAD is rewritten even then)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.library import sync
from reader_tui.core.library.library import Library
from reader_tui.core.library.sync_state import last_synced
from reader_tui.core.model import Paper

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_last_synced_is_the_last_sync_that_reached_the_remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    remote, folder = tmp_path / "remote.git", tmp_path / "lib"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    Library.open(folder).import_papers([Paper(id="p1", title="A paper")])
    sync.init(folder, str(remote))
    assert last_synced(folder) is None  # set up, never synced
    sync.sync(folder)
    reached = last_synced(folder)
    assert reached is not None
    marker = folder / ".git" / "reader-tui-synced"
    os.utime(marker, (reached.timestamp() - 3600, reached.timestamp() - 3600))
    shutil.rmtree(remote)
    assert sync.sync(folder).offline
    assert last_synced(folder).timestamp() == pytest.approx(reached.timestamp() - 3600)
