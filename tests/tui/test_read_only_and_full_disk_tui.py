"""The TUI on a library it cannot write: it opens, shows the list, and says it is
read-only; on a full disk it starts all the same and says the backup was not taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import ReadOnlyError
from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tests.faults import full_disk, read_only
from tui_support import make_library, settle_workers, wait_until


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    lib = make_library(tmp_path / "lib")
    lib.set_status(["p-graphs"], Status.READ)
    lib.close()
    return tmp_path / "lib"


async def test_a_read_only_library_opens_and_says_so(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_only(monkeypatch, folder)
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
    full_disk(monkeypatch)
    library = Library.open(folder, background_writes=True)  # its backup fails
    app = create_app(library)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert len(app.screen.query_one(PaperList).ids) == 6
            (notice,) = [n.message for n in app._notifications if "no backup" in n.message]
            assert "Errno" not in notice and str(folder / "backups" / "annotations-") in notice
            assert notice.endswith("No space left on device: no backup was taken"), notice
            await settle_workers(pilot)
    finally:
        library.close()


async def test_the_status_line_says_read_only_for_the_whole_session(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A notification fades; the status line is where the user looks, so it says
    read-only from start to end, and a change that cannot be saved says so."""
    from textual.widgets import Static

    from reader_tui.tui.widgets.status_bar import StatusBar

    read_only(monkeypatch, folder)
    library = Library.open(folder, background_writes=True)
    app = create_app(library)

    def status_line() -> str:
        bar = app.screen.query_one(StatusBar)
        return " ".join(str(s.visual) for s in bar.query(Static))

    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert "read-only" in status_line()
            # styled through the theme, as a warning
            saving = app.screen.query_one(StatusBar).query_one("#status-saving", Static)
            assert any("warning" in str(span.style) for span in saving.visual.spans)
            app.clear_notifications()
            await pilot.press("r")  # toggle read: a change that cannot be written
            await settle_workers(pilot)
            # The write fails in the Library's writer thread and the screen's saving timer
            # reports it: wait for that report (bounded), not for a fixed time.
            await wait_until(pilot, lambda: list(app._notifications))
            notes = " ".join(n.message for n in app._notifications)
            assert "read-only" in notes and ("not saved" in notes or "cannot be saved" in notes), notes
            assert "read-only" in status_line(), status_line()
            assert " saved" not in status_line().replace("not saved", "")
            app.screen.query_one(StatusBar).set_saving("saved")  # whatever the editor says next
            assert "read-only" in status_line()
    finally:
        with pytest.raises(ReadOnlyError):  # the refused change is still pending, and says so
            library.close()
