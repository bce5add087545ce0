"""The store's folder on disk: two TinyDB files, a lock, and backups.

    <folder>/catalog.json      papers as imported (large, written only by imports)
    <folder>/annotations.json  the user's status, tags, notes, edits, settings (small, written often)
    <folder>/.lock             held (`locks`, filelock) around every read-modify-write
    <folder>/backups/          the last few good annotations files, one per session start

Reading takes no lock and creates nothing, so a read-only library (a read-only mount, a
folder without write permission) can still be listed, shown and exported. A write that
fails (full disk, no permission) raises `SaveError` naming the file, which is left as it was.

Keeping the two apart is what makes a status change cost a millisecond instead of
rewriting a 36 MB catalog. Every write re-reads the file under the lock and changes
only the records it means to, so two processes never overwrite each other's work.
Each file carries a `_meta` table with its format version, checked on open.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from ..atomic_storage import AtomicJSONStorage, SaveError, StoreError, write_file_atomically
from ..gc_pause import gc_paused
from .locks import exclusive

FORMAT_VERSION = 1
CATALOG_FILE = "catalog.json"
ANNOTATIONS_FILE = "annotations.json"
LOCK_FILE = ".lock"
BACKUP_DIR = "backups"
BACKUPS_KEPT = 5

PAPERS_TABLE = "papers"
ANNOTATIONS_TABLE = "annotations"
SETTINGS_TABLE = "settings"
META_TABLE = "_meta"

Tables = dict[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class FileSignature:
    """Enough of a stat to tell that another process replaced the file."""

    mtime_ns: int
    size: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileSignature | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        return cls(st.st_mtime_ns, st.st_size, st.st_ino)


def annotation_doc_id(paper_id: str) -> str:
    """The TinyDB document id of a paper's annotation: derived from the paper id, so two
    processes that annotate the same new paper agree on where it goes."""
    digest = hashlib.blake2b(paper_id.encode("utf-8"), digest_size=7).digest()
    return str(int.from_bytes(digest, "big"))


class StoreFiles:
    """Reads and writes the store's two files. Knows nothing of undo or events."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise StoreError(f"{self.folder}: the store must be a folder, and this is a file")
        self.catalog_path = self.folder / CATALOG_FILE
        self.annotations_path = self.folder / ANNOTATIONS_FILE
        self._catalog_db = TinyDB(self.catalog_path, storage=AtomicJSONStorage)
        self._annotations_db = TinyDB(self.annotations_path, storage=AtomicJSONStorage)
        self._thread_lock = threading.RLock()
        self.catalog_signature: FileSignature | None = None
        self.annotations_signature: FileSignature | None = None
        # The annotations tables as this process last wrote them, and that file's signature.
        self._last_written: tuple[FileSignature | None, Tables | None] = (None, None)

    # -- locking ------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock: one read-modify-write at a time, across threads and
        processes. Re-entrant within a thread, whichever StoreFiles of the folder asks."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._thread_lock, exclusive(self.folder / LOCK_FILE):
            yield

    # -- reading ------------------------------------------------------------------------

    def read_catalog(self) -> tuple[Tables | None, FileSignature | None]:
        """The catalog's tables (None when there is no catalog yet) and its signature."""
        return self._read(self._catalog_db, self.catalog_path, "catalog")

    def read_annotations(self) -> tuple[Tables | None, FileSignature | None]:
        """The annotations file's tables (None when there is none yet) and its signature."""
        return self._read(self._annotations_db, self.annotations_path, "annotations")

    def _read(self, db: TinyDB, path: Path, kind: str) -> tuple[Tables | None, FileSignature | None]:
        with self._thread_lock, gc_paused():
            signature = FileSignature.of(path)
            data = db.storage.read()
        if data is None:
            return None, signature
        check_meta(path, data, kind)
        return data, signature

    def changed_on_disk(self) -> tuple[bool, bool]:
        """Whether (catalog, annotations) differ from what this process last read or wrote."""
        return (
            FileSignature.of(self.catalog_path) != self.catalog_signature,
            FileSignature.of(self.annotations_path) != self.annotations_signature,
        )

    # -- writing ------------------------------------------------------------------------

    def update_annotations(self, change: Callable[[Tables], None]) -> Tables:
        """Re-read the annotations file under the lock, let `change` edit its tables in
        place, and write it back atomically. Returns the tables as written."""
        # With a 20k-paper catalog in memory, the objects parsing makes trigger full
        # collections that walk all of it: 25 ms of a write's 27 ms, for nothing.
        with saving(self.annotations_path), self.locked(), gc_paused():
            on_disk = FileSignature.of(self.annotations_path)
            seen = on_disk == self.annotations_signature
            written, cached = self._last_written
            if on_disk is not None and on_disk == written:
                data = cached  # nobody wrote since we did: no need to parse it again
            else:
                data, _ = self.read_annotations()
                data = data if data is not None else new_tables("annotations")
            for table in (ANNOTATIONS_TABLE, SETTINGS_TABLE):
                data.setdefault(table, {})
            self._last_written = (None, None)  # until this write is known to have landed
            change(data)
            self._annotations_db.storage.write(data)
            after = FileSignature.of(self.annotations_path)
            self._last_written = (after, data)
            # What we wrote holds another process's changes when the file had moved on
            # since we last read it: forget the signature so the next reload shows them.
            self.annotations_signature = after if seen else None
            self._annotations_db.clear_cache()
            return data

    def update_catalog(self, change: Callable[[Tables], bool]) -> Tables:
        """The same for the catalog: one atomic write however many papers change, and
        none when `change` returns False (nothing changed)."""
        with saving(self.catalog_path), self.locked(), gc_paused():
            seen = FileSignature.of(self.catalog_path) == self.catalog_signature
            data, signature = self.read_catalog()
            data = data if data is not None else new_tables("catalog")
            data.setdefault(PAPERS_TABLE, {})
            if not change(data):
                self.catalog_signature = signature if seen else None
                return data
            self._catalog_db.storage.write(data)
            self.catalog_signature = FileSignature.of(self.catalog_path) if seen else None
            self._catalog_db.clear_cache()
            return data

    # -- backups ------------------------------------------------------------------------

    def backup_annotations(self, *, min_age_s: float = 0) -> Path | None:
        """Copy the annotations file into backups/ when it differs from the newest backup
        and that one is at least `min_age_s` old, keeping the last few. Called once per
        session start; returns the new backup, if one was taken."""
        with self.locked():
            if not self.annotations_path.exists():
                return None
            existing = list_backups(self.folder)
            current = self.annotations_path.read_bytes()
            if existing:
                newest = existing[0]
                if newest.read_bytes() == current:
                    return None
                if time.time() - newest.stat().st_mtime < min_age_s:
                    return None
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            target = self.folder / BACKUP_DIR / f"annotations-{stamp}.json"
            write_file_atomically(target, current)
            for old in list_backups(self.folder)[BACKUPS_KEPT:]:
                old.unlink(missing_ok=True)
            return target

    def remove_stale_temp_files(self) -> int:
        """Delete temporary files left by writers that were killed mid-write. Under the
        lock no write is under way, so every one of them is stale. Returns how many."""
        removed = 0
        with self.locked():
            for name in (CATALOG_FILE, ANNOTATIONS_FILE):
                for tmp in self.folder.glob(f".{name}.*.tmp"):
                    tmp.unlink(missing_ok=True)
                    removed += 1
        return removed


def folder_writable(folder: Path) -> bool:
    """False when the store's folder exists and this process cannot create files in it
    (a read-only mount, or no write permission). A folder not made yet counts as writable:
    the first write makes it, or says why it cannot."""
    folder = Path(folder)
    if not folder.is_dir():
        return True
    return os.access(folder, os.W_OK | os.X_OK)


@contextlib.contextmanager
def saving(path: Path) -> Iterator[None]:
    """Turn the OS's refusal of a write of `path` (full disk, no permission, read-only
    mount) into one SaveError line naming it. The writes are atomic, so the file is as it was."""
    try:
        yield
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        other = error.filename if error.filename not in (None, str(path)) else None
        where = f" ({other})" if other else ""
        raise SaveError(f"{path}: not saved: {reason}{where}; the file is as it was") from error


def list_backups(folder: Path) -> list[Path]:
    """The annotation backups of a store folder, newest first."""
    backups = Path(folder) / BACKUP_DIR
    if not backups.is_dir():
        return []
    return sorted(backups.glob("annotations-*.json"), reverse=True)


def new_tables(kind: str) -> Tables:
    """The tables of an empty store file of `kind` ("catalog" or "annotations")."""
    return {META_TABLE: {"1": {"format": FORMAT_VERSION, "kind": kind}}}


def check_meta(path: Path, data: Tables, kind: str) -> None:
    """Refuse a file that is not a reader-tui `kind` file of a format this version reads."""
    meta = data.get(META_TABLE, {}).get("1")
    if not isinstance(meta, dict):
        raise StoreError(f"{path}: not a reader-tui {kind} file (no format version recorded)")
    if meta.get("kind") != kind:
        raise StoreError(f"{path}: holds a reader-tui {meta.get('kind')!r} file where the {kind} belongs")
    version = meta.get("format")
    if not isinstance(version, int):
        raise StoreError(f"{path}: the format version {version!r} is not a number")
    if version > FORMAT_VERSION:
        raise StoreError(
            f"{path}: written by a newer reader-tui (format {version}, this one reads up to "
            f"{FORMAT_VERSION}); upgrade reader-tui to open it"
        )


def restore_backup(folder: Path, backup: Path) -> Path | None:
    """Put `backup` in place of the annotations file, moving the damaged one aside
    (never deleting it). Returns where the damaged file went, if there was one."""
    files = StoreFiles(Path(folder))
    current = files.annotations_path
    moved = None
    with files.locked():
        if current.exists():
            moved = unique_aside_name(current, "damaged")
            os.replace(current, moved)
        write_file_atomically(current, Path(backup).read_bytes())
    return moved


def unique_aside_name(path: Path, label: str) -> Path:
    """A name beside `path` for keeping a damaged file, never one that exists already."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    candidate = path.with_name(f"{path.stem}.{label}-{stamp}{path.suffix}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}.{label}-{stamp}-{n}{path.suffix}")
        n += 1
    return candidate
