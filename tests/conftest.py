"""Fixtures shared by every test: the repository's seed list, and a store that is always
temporary (a test never touches the user's real library)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# With PYTHONDONTWRITEBYTECODE set (this machine's environment sets it), nothing is cached:
# each xdist worker compiled and assertion-rewrote every test module and the package at
# collection (7.4 s CPU a worker, 2.8 s from cached bytecode), and each of the hundreds of
# interpreters the tests start (the CLI, git's merge driver, the layer checks) compiled
# what it imported again. The cache goes where Python puts it (__pycache__, ignored by
# git) and is checked against the source's mtime on every import, so it never runs stale code.
sys.dont_write_bytecode = False


@pytest.fixture
def seed_path() -> Path:
    return REPO / "seeds" / "iclr2026.txt"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # platformdirs resolves the default store under $HOME / XDG dirs: point them away from
    # the real ones so a test that forgets --db cannot touch the user's library.
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.delenv("READER_TUI_DB", raising=False)
    # `reader-tui import` would leave an index-building process behind per test; the
    # tests of that background build turn it back on
    monkeypatch.setenv("READER_TUI_BACKGROUND_INDEX", "0")
