"""The app runs the full collections it defers (`process_tuning.defer_full_collections`)
in a pause of the input, not while keys come."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from reader_tui.core import process_tuning as tuning
from reader_tui.tui.app import create_app
from tui_support import make_library


@pytest.fixture
def deferred(monkeypatch):
    monkeypatch.setattr(tuning, "_full_collections_deferred", False)
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)


async def test_keys_hold_the_full_collection_off_and_a_pause_runs_it(tmp_path: Path, monkeypatch, deferred) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    library = make_library(tmp_path / "lib")
    monkeypatch.setattr(tuning, "FULL_COLLECTION_PAUSE", 1.0)
    collected: list[float] = []
    real_collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(1.0) or real_collect(*args))
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 1))  # always something to collect
    try:
        app = create_app(library)
        async with app.run_test() as pilot:
            tuning.defer_full_collections()
            await pilot.pause(1.2)
            collected.clear()
            for _ in range(8):  # a key every 0.1 s: never a pause of 1 s
                await pilot.press("j")
                await pilot.pause(0.1)
            assert collected == []
            await pilot.pause(1.5)
            assert collected  # the pause came
    finally:
        library.close()
