"""Saved auto-exports in the TUI: a change made in the list reaches the file shortly after,
written in a thread; a path that cannot be written is said once; a change made just
before q is written on the way out."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from reader_tui.core.library import auto_exports as core
from reader_tui.core.library.auto_exports import ExportSpec, save
from reader_tui.core.library.library import Library
from reader_tui.tui import auto_exports
from reader_tui.tui.app import create_app
from tui_support import PAPERS, settle, wait_until


@pytest.fixture(autouse=True)
def _short_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(auto_exports, "DELAY", 0.05)


async def test_a_status_set_in_the_list_reaches_the_file_written_in_a_thread(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "read.bib"
    save(library, ExportSpec(str(target), status="read"))
    threads: list[str] = []
    original = core.refresh_saved

    def spy(*args):
        threads.append(threading.current_thread().name)
        return original(*args)

    monkeypatch.setattr(core, "refresh_saved", spy)
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert not target.exists()  # nothing changed yet: nothing written at start
        await pilot.press("4")  # the first paper: read
        assert await wait_until(pilot, lambda: target.exists() and PAPERS[0].citekey in target.read_text("utf-8"))
        assert threads and threading.main_thread().name not in threads
        await pilot.press("j", "4")
        assert await wait_until(pilot, lambda: PAPERS[1].citekey in target.read_text("utf-8"))
        text = target.read_text("utf-8")
        assert text.index(PAPERS[0].citekey) < text.index(PAPERS[1].citekey)


async def test_a_path_that_cannot_be_written_is_said_once(library: Library, tmp_path: Path) -> None:
    bad = tmp_path / "gone" / "refs.bib"
    save(library, ExportSpec(str(bad)))
    app = create_app(library)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        said = f"auto-export {bad}: the folder {bad.parent} does not exist"
        assert await wait_until(pilot, lambda: any(n.message == said for n in app._notifications))
        await pilot.press("j", "4")
        assert await wait_until(pilot, lambda: not app.auto_exports.pending)
        assert [n.message for n in app._notifications].count(said) == 1
        assert library.annotation(PAPERS[1].id).status.value == "read"  # the change itself is kept


async def test_a_change_made_just_before_quitting_is_written_on_the_way_out(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auto_exports, "DELAY", 30.0)  # the app quits long before
    target = tmp_path / "read.md"
    save(library, ExportSpec(str(target), format="markdown", status="read"))
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await pilot.press("q")
    assert app.auto_exports.pending and not target.exists()
    library.close()
    assert app.auto_exports.finish() == []  # as run_app does once the screen is gone
    assert "Attention Is Not All You Need" in target.read_text("utf-8")
