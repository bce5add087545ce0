"""The TUI on a library it cannot write: it opens, shows the list, and says it is
read-only; on a full disk it starts all the same and says the backup was not taken."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import make_library, settle_workers


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    lib = make_library(tmp_path / "lib")
    lib.set_status(["p-graphs"], Status.READ)
    lib.close()
    return tmp_path / "lib"


async def test_a_read_only_library_opens_and_says_so(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, *a, **k: False if Path(p) == folder and mode & os.W_OK else real_access(p, mode, *a, **k)
    )
    library = Library.open(folder, background_writes=True)
    app = create_app(library)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert len(app.screen.query_one(PaperList).ids) == 6
            assert app.sub_title == "read-only"
            notes = [n.message for n in app._notifications]
            assert any(str(folder) in m and "read-only" in m for m in notes)
            await settle_workers(pilot)
    finally:
        library.close()


async def test_a_full_disk_does_not_keep_the_tui_from_starting(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)
    library = Library.open(folder, background_writes=True)  # its backup fails
    app = create_app(library)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert len(app.screen.query_one(PaperList).ids) == 6
            assert any("no backup" in n.message for n in app._notifications)
            await settle_workers(pilot)
    finally:
        library.close()
