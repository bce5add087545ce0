"""A library the process cannot write (read-only mount, no permission) and a full disk:
reading works and creates nothing, writes fail with one line naming the folder or file,
nothing is half-written, and a full disk does not keep the library from opening."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import ReadOnlyError, SaveError
from reader_tui.core.library.files import ANNOTATIONS_FILE, CATALOG_FILE, list_backups
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from tests.faults import full_disk, read_only


def _everything(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store with papers and one annotation, without its lock file or backups (as a
    store copied onto a read-only medium could be)."""
    folder = tmp_path / "db"
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(5)])
    lib.set_status(["p1"], Status.READ)
    (folder / ".lock").unlink()
    for backup in list_backups(folder):
        backup.unlink()
    return folder


@pytest.mark.parametrize("background_writes", [False, True])
def test_a_read_only_library_reads_and_creates_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch, background_writes: bool
) -> None:
    read_only(monkeypatch, db)
    before = _everything(db)
    lib = Library.open(db, background_writes=background_writes)
    assert lib.read_only
    assert len(lib) == 5 and lib.view("p1").status is Status.READ
    lib.reload_if_changed()
    assert _everything(db) == before  # no lock file, no backup, no seed


def test_a_write_to_a_read_only_library_fails_with_one_line_naming_the_folder(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_only(monkeypatch, db)
    before = _everything(db)
    lib = Library.open(db)
    with pytest.raises(ReadOnlyError) as caught:
        lib.set_status(["p2"], Status.READ)
    message = str(caught.value)
    assert str(db) in message and "read-only" in message and "\n" not in message
    with pytest.raises(ReadOnlyError):
        lib.import_papers([Paper(id="new", title="New")])
    assert _everything(db) == before


def test_the_tui_writer_reports_a_read_only_library_on_flush(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_only(monkeypatch, db)
    lib = Library.open(db, background_writes=True)
    lib.set_notes("p2", "cannot be kept")  # the TUI's call returns at once...
    with pytest.raises(ReadOnlyError):  # ...and the writer reports the refusal
        lib.flush()
    with pytest.raises(ReadOnlyError):  # closing does not pretend the change was kept
        lib.close()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_a_folder_without_write_permission_is_read_only(db: Path) -> None:
    db.chmod(0o555)
    try:
        lib = Library.open(db)
        assert lib.read_only and len(lib) == 5
        with pytest.raises(ReadOnlyError):
            lib.set_status(["p2"], Status.READ)
    finally:
        db.chmod(0o755)


def test_a_full_disk_leaves_every_file_as_it_was(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = Library.open(db)
    before = _everything(db)
    full_disk(monkeypatch)
    with pytest.raises(SaveError) as caught:
        lib.set_status(["p2"], Status.READ)
    message = str(caught.value)
    assert str(db / ANNOTATIONS_FILE) in message and "No space left on device" in message
    assert "\n" not in message
    with pytest.raises(SaveError) as caught:
        lib.import_papers([Paper(id="new", title="New")])
    assert str(db / CATALOG_FILE) in str(caught.value)
    assert _everything(db) == before  # nothing half-written, no temporary file left behind


def test_a_full_disk_does_not_stop_the_library_from_opening(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full_disk(monkeypatch)
    # The TUI's open takes a backup of the annotations, which the full disk refuses.
    lib = Library.open(db, background_writes=True)
    try:
        assert len(lib) == 5 and lib.view("p1").status is Status.READ
        assert lib.flush()  # the TUI's backup is its writer's first write
        assert not list_backups(db)
        assert len(lib.notices) == 1 and "no backup" in lib.notices[0]
        assert "No space left on device" in lib.notices[0]
    finally:
        lib.close()
