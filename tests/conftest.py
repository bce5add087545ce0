"""Fixtures shared by every test: the repository's seed list, and a store that is always
temporary (a test never touches the user's real library)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


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
