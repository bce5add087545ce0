"""The writer thread keeps failed writes, in order, until they reach the disk."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library
from reader_tui.core.library.writer import BackgroundWriter, BlockedWrite
from reader_tui.core.model import Paper, Status
from tests.faults import no_space_for

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


@pytest.fixture
def disk() -> Disk:
    return Disk()


@pytest.fixture
def writer(request: pytest.FixtureRequest, disk: Disk):
    """A writer that retries after 60 s (never, in a test) unless the test is marked
    `@pytest.mark.parametrize("writer", [delay], indirect=True)`; the disk is mended before it stops."""
    writer = BackgroundWriter(retry_delay=getattr(request, "param", 60))
    yield writer
    disk.broken = False
    writer.stop()


@pytest.fixture
def damaged(tmp_path: Path):
    """A library whose paper has notes on disk, then its annotations file overwritten with
    junk by another process; yields the library and the file's good bytes."""
    library = Library.open(tmp_path / "lib", background_writes=True)
    try:
        library.import_papers([PAPER])
        library.set_notes(PAPER.id, "first")
        library.flush()
        good = library.files.annotations_path.read_bytes()
        library.files.annotations_path.write_text("junk{")
        yield library, good
    finally:
        library.close()


def _papers_on_disk(folder: Path) -> set[str]:
    return set(Library.open(folder).papers)


def _repair_and_flush(library: Library, good: bytes, notes: str) -> None:
    """Put the annotations file back, write `notes`: the status change that waited and
    the new notes are both on disk."""
    library.files.annotations_path.write_bytes(good)
    library.set_notes(PAPER.id, notes)
    assert library.flush(timeout=5)
    reopened = Library.open(library.files.folder)
    assert reopened.annotation(PAPER.id).status is Status.READ
    assert reopened.annotation(PAPER.id).notes == notes


def test_a_failed_write_stays_pending_and_is_reported_until_it_succeeds(disk: Disk, writer: BackgroundWriter) -> None:
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


@pytest.mark.parametrize("writer", [0.01], indirect=True)
def test_failed_writes_are_retried_on_their_own(disk: Disk, writer: BackgroundWriter) -> None:
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


def test_a_library_keeps_a_change_its_damaged_file_refused(damaged: tuple[Library, bytes]) -> None:
    """The change is not on disk, stays pending (not reloaded away), and reaches the disk
    once the file is repaired."""
    library, good = damaged
    library.set_status([PAPER.id], Status.READ)
    with pytest.raises(StoreError, match="annotations"):
        library.flush(timeout=5)
    assert library.pending_writes == 1
    assert library.annotation(PAPER.id).status is Status.READ
    _repair_and_flush(library, good, "later")
    assert _papers_on_disk(library.files.folder) == {PAPER.id}


# -- writes whose caller waits for them ----------------------------------------------------


def test_a_waited_for_write_that_fails_is_not_kept_and_the_later_ones_are(disk: Disk, writer: BackgroundWriter) -> None:
    """Its caller was told it failed: it must never reach the disk later."""
    disk.broken = True
    with pytest.raises(StoreError, match="cannot write waited"):
        writer.run(disk.write("waited"))
    assert writer.pending == 0 and writer.error is None  # its error went to its caller
    writer.submit(disk.write("b"))
    with pytest.raises(StoreError, match="cannot write b"):
        writer.flush(timeout=5)
    disk.broken = False
    writer.submit(disk.write("c"))
    assert writer.flush(timeout=5) is True
    assert disk.log == ["b", "c"]


def test_a_waited_for_write_behind_a_failed_one_fails_and_is_dropped(disk: Disk, writer: BackgroundWriter) -> None:
    """It cannot overtake the failed write, so it fails at once (saying why) and is not
    kept; the earlier write is not lost and reaches the disk once the fault clears."""
    disk.broken = True
    writer.submit(disk.write("status"))
    with pytest.raises(BlockedWrite, match="cannot write status") as blocked:
        writer.run(disk.write("import"))
    assert isinstance(blocked.value.cause, StoreError)
    assert writer.pending == 1  # "status" only
    disk.broken = False
    writer.submit(disk.write("later"))
    assert writer.flush(timeout=5) is True
    assert disk.log == ["status", "later"]


def test_a_waited_for_write_runs_after_the_earlier_writes_succeed(disk: Disk, writer: BackgroundWriter) -> None:
    disk.broken = True
    writer.submit(disk.write("status"))
    with pytest.raises(StoreError):
        writer.flush(timeout=5)
    disk.broken = False
    writer.run(disk.write("import"))  # the retry before it succeeds: then it runs
    assert disk.log == ["status", "import"] and writer.pending == 0




def test_an_import_while_the_annotations_file_is_damaged_fails_and_never_happens_later(
    damaged: tuple[Library, bytes],
) -> None:
    """The import reports failure; once the file is repaired and the waiting status change
    is retried, that change is on disk and the import's papers are not."""
    library, good = damaged
    library.set_status([PAPER.id], Status.READ)  # fails, stays queued
    with pytest.raises(StoreError, match="the import was not done.*annotations.json"):
        library.import_papers([Paper(id="new", title="Imported while failing")])
    assert "new" not in library.papers
    _repair_and_flush(library, good, "after the repair")
    assert _papers_on_disk(library.files.folder) == {PAPER.id}


def test_an_import_whose_catalog_write_fails_is_not_applied_when_writes_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalog cannot be replaced (a full disk, say): the import says so, and the next
    writes, once the disk is fine, do not bring it back."""
    folder = tmp_path / "lib"
    library = Library.open(folder, background_writes=True)
    try:
        library.import_papers([PAPER])
        library.flush()
        free_space = no_space_for(monkeypatch, library.files.catalog_path)
        with pytest.raises(OSError, match="No space left"):
            library.import_papers([Paper(id="new", title="Imported while failing")])
        assert library.pending_writes == 0
        free_space()
        library.set_status([PAPER.id], Status.READ)
        assert library.flush(timeout=5)
        assert _papers_on_disk(folder) == {PAPER.id}
        assert Library.open(folder).annotation(PAPER.id).status is Status.READ
    finally:
        library.close()


def test_the_first_job_runs_on_release_before_every_later_write_and_is_no_pending_change(writer) -> None:
    done: list[str] = []
    writer.begin_with(lambda: done.append("backup"))
    writer.submit(lambda: done.append("change 1"))
    writer.submit(lambda: done.append("change 2"))
    time.sleep(0.2)  # time the writer would have to write, were it not waiting
    assert done == [] and writer.pending == 2  # the job is no change of the user's
    writer.release()
    assert writer.flush(10) and done == ["backup", "change 1", "change 2"]


def test_flush_runs_the_first_job_without_a_release_and_waits_for_it(writer) -> None:
    done: list[str] = []
    writer.begin_with(lambda: (time.sleep(0.1), done.append("backup")))
    assert writer.pending == 0
    assert writer.flush(10) and done == ["backup"]


def test_the_first_job_runs_when_no_release_comes(writer, monkeypatch) -> None:
    monkeypatch.setattr(BackgroundWriter, "HOLD_AT_MOST", 0.05)
    ran, written = threading.Event(), threading.Event()
    writer.begin_with(ran.set)
    assert ran.wait(10)  # nobody released it
    writer.submit(written.set)
    assert written.wait(10)
