"""Every CLI test runs its commands against its own cache folder, with the debug switch
off (a failure is one line, not a traceback); the background index build is off for
every test (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_cache_no_debug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("READER_TUI_DEBUG", raising=False)
