"""The writer thread keeps failed writes, in order, until they reach the disk."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from reader_tui.core.library.writer import BackgroundWriter
from reader_tui.core.model import Status
from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

PAPER = Paper(id="p1", title="A paper", abstract="", year=2026)


class Disk:
    """A pretend disk that can be made to fail."""

    def __init__(self) -> None:
        self.broken = False
        self.log: list[str] = []

    def write(self, what: str):
        def run() -> None:
            if self.broken:
                raise StoreError(f"/lib/annotations.json: cannot write {what}")
            self.log.append(what)

        return run


def test_a_failed_write_stays_pending_and_is_reported_until_it_succeeds() -> None:
    disk = Disk()
    writer = BackgroundWriter(retry_delay=60)
    try:
        disk.broken = True
        writer.submit(disk.write("a"))
        with pytest.raises(StoreError, match="cannot write a"):
            writer.flush(timeout=5)
        assert writer.pending == 1 and writer.error is not None
        # Still unwritten: asking again says so again (never "all on disk").
        with pytest.raises(StoreError):
            writer.flush(timeout=5)
        writer.submit(disk.write("b"))  # does not overtake "a"
        with pytest.raises(StoreError, match="cannot write a"):
            writer.flush(timeout=5)
        assert disk.log == [] and writer.pending == 2
        disk.broken = False
        writer.submit(disk.write("c"))  # the next write tries the older ones first
        assert writer.flush(timeout=5) is True
        assert disk.log == ["a", "b", "c"]
        assert writer.pending == 0 and writer.error is None
    finally:
        disk.broken = False
        writer.stop()


def test_failed_writes_are_retried_on_their_own() -> None:
    disk = Disk()
    writer = BackgroundWriter(retry_delay=0.01)
    try:
        disk.broken = True
        writer.submit(disk.write("a"))
        with pytest.raises(StoreError):
            writer.flush(timeout=5)
        disk.broken = False
        # No new write comes in: the retry alone gets "a" to disk.
        deadline = time.monotonic() + 10
        while writer.pending and time.monotonic() < deadline:
            time.sleep(0.01)
        assert disk.log == ["a"] and writer.pending == 0
    finally:
        writer.stop()


def test_a_library_keeps_a_change_its_damaged_file_refused(tmp_path: Path) -> None:
    """The annotations file overwritten with junk by another process: the change is not on
    disk, stays pending (not reloaded away), and reaches the disk once the file is repaired."""
    folder = tmp_path / "lib"
    library = Library.open(folder, background_writes=True)
    try:
        library.import_papers([PAPER])
        library.set_notes(PAPER.id, "first")
        library.flush()
        good = library.files.annotations_path.read_bytes()
        library.files.annotations_path.write_text("junk{")
        library.set_status([PAPER.id], Status.READ)
        with pytest.raises(StoreError, match="annotations"):
            library.flush(timeout=5)
        assert library.pending_writes == 1
        assert library.annotation(PAPER.id).status is Status.READ
        library.files.annotations_path.write_bytes(good)
        library.set_notes(PAPER.id, "later")
        assert library.flush(timeout=5)
        reopened = Library.open(folder)
        assert reopened.annotation(PAPER.id).status is Status.READ
        assert reopened.annotation(PAPER.id).notes == "later"
    finally:
        library.close()
