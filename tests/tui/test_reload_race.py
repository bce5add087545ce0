"""Issue 13: the disk-reload worker must not replace the Library's annotations from its
thread while the UI thread changes them. A status set while a reload is reading the file
stays in memory, on screen and on disk."""

from __future__ import annotations

import json
import threading

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.library_watcher import LibraryWatcher
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import PAPERS, settle

IDS = [p.id for p in PAPERS]


def _disk_status(library: Library, paper_id: str) -> str | None:
    data = json.loads(library.files.annotations_path.read_text(encoding="utf-8"))
    for record in data.get("annotations", {}).values():
        if record.get("paper_id") == paper_id:
            return record["status"]
    return None


async def test_status_set_during_a_reload_stays(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        # Another process changes a different paper, so the next poll reads the file.
        other = Library.open(library.files.folder)
        other.set_tags(IDS[1], ["from-cli"])

        # The reload's read returns what the file held, then waits until the user acted.
        read_done, release = threading.Event(), threading.Event()
        original = library.files.read_annotations

        def slow_read():
            result = original()
            # Only the reload's read waits (the first one off the main thread); the
            # writer thread's own re-read before its write goes straight through.
            if threading.current_thread() is not threading.main_thread() and not read_done.is_set():
                read_done.set()
                release.wait(10)
            return result

        library.files.read_annotations = slow_read
        app.screen.query_one(LibraryWatcher).poll_disk()
        assert await _wait(read_done)
        current = app.screen.query_one(PaperList).current_id
        await pilot.press("4")  # read, while the reload holds the file as it was
        assert library.annotation(current).status is Status.READ
        assert library.flush(timeout=10)
        release.set()
        await settle(app, pilot)

        assert library.annotation(current).status is Status.READ
        assert library.annotation(IDS[1]).tags == ("from-cli",)
        assert _disk_status(library, current) == "read"
        # And it stays: later polls do not take it away either.
        app.screen.query_one(LibraryWatcher).poll_disk()
        await settle(app, pilot)
        assert library.annotation(current).status is Status.READ
        assert library.flush(timeout=10)
        assert _disk_status(library, current) == "read"


async def _wait(event: threading.Event) -> bool:
    import asyncio

    return await asyncio.to_thread(event.wait, 10)
