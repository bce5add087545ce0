"""The store's folder on disk: two TinyDB files, a lock, and backups.

    <folder>/catalog.json      papers as imported (large, written only by imports)
    <folder>/annotations.json  the user's status, tags, notes, edits, settings (small, written often)
    <folder>/.lock             held (`locks`, filelock) around every read-modify-write
    <folder>/backups/          the last few good annotations files, one per session start

Reading takes no lock and creates nothing, so a read-only library (a read-only mount, a
folder without write permission) can still be listed, shown and exported. A write that
fails (full disk, no permission) raises `SaveError` naming the file, which is left as it was.

Keeping the two apart is what makes a status change cost a millisecond instead of
rewriting a 36 MB catalog. The annotations and settings are TinyDB tables of documents,
read and changed through TinyDB's API (`get`, `upsert`, `update`, `remove`) inside a
transaction (`writing_annotations`): under the lock, the file re-read once, one atomic
write at the end. Only the documents and fields a change means to touch are changed, so
two processes never overwrite each other's work. An annotation's document id is derived
from its paper id (`annotation_doc_id`), so it is found without a scan and two processes
agree on it. Each file carries a `_meta` table with its format version, checked on open.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document, Table

from ..atomic_storage import AtomicJSONStorage, SaveError, StoreError, write_file_atomically
from ..process_tuning import gc_paused
from .catalog.layout import LayoutRecorder, file_key, load_layout, read_records
from .catalog.records import CatalogRecords, RecordTexts, Unparsed, check_record
from .locks import exclusive
from .safe_paths import check_inside

FORMAT_VERSION = 1
CATALOG_FILE = "catalog.json"
ANNOTATIONS_FILE = "annotations.json"
LOCK_FILE = ".lock"
BACKUP_DIR = "backups"
BACKUPS_KEPT = 5

PAPERS_TABLE = "papers"
ANNOTATIONS_TABLE = "annotations"
SETTINGS_TABLE = "settings"
#: The settings that are one person's view on one machine (the TUI's cursor, sort, search
#: and filter, the triage position, the export dialog's last choices and path): a sync
#: neither takes another machine's nor reports them as news. (The theme travels.)
VIEW_SETTINGS = frozenset({"cursor", "sort", "view", "triage_position", "export"})
META_TABLE = "_meta"

Tables = dict[str, dict[str, Any]]
META_DOC_ID = SETTINGS_DOC_ID = 1


@dataclass(frozen=True, slots=True)
class FileSignature:
    """Enough of a stat to tell that another process replaced the file."""

    mtime_ns: int
    size: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileSignature | None:
        st = _stat_or_none(path)
        return None if st is None else cls.from_stat(st)

    @classmethod
    def from_stat(cls, st: os.stat_result) -> FileSignature:
        return cls(st.st_mtime_ns, st.st_size, st.st_ino)


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None


def annotation_doc_id(paper_id: str) -> str:
    """The TinyDB document id of a paper's annotation, as the file keys it: derived from
    the paper id, so two processes that annotate the same new paper agree on where it goes."""
    return str(_doc_id(paper_id))


def _doc_id(paper_id: str) -> int:
    # TinyDB's own form of `annotation_doc_id` (its tables key documents by int).
    digest = hashlib.blake2b(paper_id.encode("utf-8"), digest_size=7).digest()
    return int.from_bytes(digest, "big")


def table(db: TinyDB, name: str) -> Table:
    """The table `name` of `db`, without TinyDB's query cache: that cache is cleared only
    by the same Table's own writes, so it would answer with what another process has
    since changed. (Every document lookup here is by id, which the cache never serves.)"""
    return db.table(name, cache_size=0)


@dataclass(frozen=True, slots=True)
class AnnotationsRead:
    """The annotations file as read: the annotations table's documents (each with its
    `doc_id`) and the settings."""

    documents: list[Document]
    settings: dict[str, Any]


def annotation_records(annotations: Table, paper_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The stored annotation documents of `paper_ids` that exist, by paper id (one read)."""
    wanted = {_doc_id(pid): pid for pid in paper_ids}
    found = annotations.get(doc_ids=list(wanted)) if wanted else []
    return {wanted[doc.doc_id]: dict(doc) for doc in found}


def put_annotation_records(annotations: Table, records: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    """Upsert each paper's annotation document (`records`: paper id -> the document's
    fields) under the id derived from the paper id: fields given replace those stored,
    others are kept. One `update` for those stored, one `insert_multiple` for the new."""
    by_doc_id = {_doc_id(pid): (pid, record) for pid, record in records.items()}

    def replace(document: dict[str, Any]) -> None:
        pid = document.get("paper_id")
        if pid not in records:
            # Another paper's record under this paper's id: a hash clash or a hand edit.
            # Refused (the transaction writes nothing) rather than overwritten.
            raise StoreError(f"{path}: an annotation of paper {pid!r} is stored where another paper's belongs")
        document.update(records[pid])

    if not by_doc_id:
        return
    # Only ids that exist go to `update`: tinydb 4.8 fails on the others (4.9 skips them).
    stored = {document.doc_id for document in annotations.get(doc_ids=list(by_doc_id))}
    if stored:
        annotations.update(replace, doc_ids=list(stored))
    if len(stored) < len(by_doc_id):
        annotations.insert_multiple(
            Document({"paper_id": pid, **record}, doc_id)
            for doc_id, (pid, record) in by_doc_id.items()
            if doc_id not in stored
        )


class StoreFiles:
    """Reads and writes the store's two files. Knows nothing of undo or events."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise StoreError(f"{self.folder}: the store must be a folder, and this is a file")
        self.catalog_path = self.folder / CATALOG_FILE
        self.annotations_path = self.folder / ANNOTATIONS_FILE
        # The catalog one paper per line, read a line at a time (see AtomicJSONStorage).
        self._catalog_db = TinyDB(self.catalog_path, storage=AtomicJSONStorage, lines=True)
        # The annotations storage keeps what it last wrote: a write on a file nobody else
        # replaced since skips parsing it again.
        # Written one annotation per line in sorted order (keys too), so a status change
        # is a one-line git diff and two machines holding the same annotations hold the
        # same bytes (see `sync.repository`). A file of the older compact shape is read as ever and
        # takes this shape at its next write.
        self._annotations_db = TinyDB(self.annotations_path, storage=AtomicJSONStorage, keep_written=True, sort=True)
        self._thread_lock = threading.RLock()
        self.catalog_signature: FileSignature | None = None
        self.annotations_signature: FileSignature | None = None

    # -- locking ------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock: one read-modify-write at a time, across threads and
        processes. Re-entrant within a thread, whichever StoreFiles of the folder asks."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._thread_lock, exclusive(check_inside(self.folder, self.folder / LOCK_FILE)):
            yield

    # -- reading ------------------------------------------------------------------------

    def read_catalog(self) -> tuple[dict[str, Any] | None, FileSignature | None]:
        """The catalog's paper records by document id (None when there is no catalog yet)
        and its signature: each as parsed, or, from a catalog of one paper per line, as its
        text (`catalog.Unparsed`) for a `Catalog` to parse when it is needed."""
        path = self.catalog_path
        with self._thread_lock, gc_paused():
            found = self._read_catalog_as_laid_out()
            if found is not None:
                return found
            texts = RecordTexts()
            layout = LayoutRecorder()

            def keep(doc_id: str, record: Any, text: bytes, offset: int | None) -> Unparsed:
                # each record checked as it is read, and kept as its text (see `Catalog`)
                pid = check_record(path, doc_id, record)
                layout.record(doc_id, pid, offset, len(text))
                return Unparsed(pid, texts.add(text))

            stat = _stat_or_none(path)
            # Read by the catalog's storage, a line at a time, not through `Table.all()`:
            # that copies each of 20,000 records into a Document, for nothing.
            tables = self._catalog_db.storage.read_keeping({PAPERS_TABLE: keep})
            if tables is None:
                return None, FileSignature.of(path)
            meta = tables.get(META_TABLE, {}).get(str(META_DOC_ID))
            check_meta_document(path, meta if isinstance(meta, dict) else None, "catalog")
            texts.seal()
            records = CatalogRecords(tables.get(PAPERS_TABLE, {}))
            records.texts = texts
            after = _stat_or_none(path)
            # (the file read is the file stat'ed: the same identity after the read; its
            # access time may differ, the read itself may have set it)
            same_file = stat is not None and after is not None and file_key(after) == file_key(stat)
            if same_file and set(tables) <= {PAPERS_TABLE, META_TABLE}:
                layout.save(self.folder, file_key(stat), meta)
            return records, FileSignature.from_stat(stat) if stat is not None else FileSignature.of(path)

    def _read_catalog_as_laid_out(self) -> tuple[CatalogRecords, FileSignature] | None:
        """The catalog's records read at the places its layout cache names
        (`catalog.layout`), or None when there is none for this very file."""
        try:
            file = open(self.catalog_path, "rb")  # noqa: SIM115 - closed below
        except OSError:
            return None
        with file:
            try:
                stat = os.fstat(file.fileno())
                layout = load_layout(self.folder, file_key(stat))
                if layout is None:
                    return None
                check_meta_document(self.catalog_path, layout.meta if isinstance(layout.meta, dict) else None, "catalog")
                records = read_records(file, layout, stat, self.catalog_path)
            except OSError:
                return None
        return None if records is None else (records, FileSignature.from_stat(stat))

    def read_annotations(self) -> tuple[AnnotationsRead | None, FileSignature | None]:
        """The annotations file's documents and settings (None when there is no file yet)
        and its signature: one consistent read, through TinyDB's tables."""
        with self.reading_annotations() as db:
            signature = FileSignature.of(self.annotations_path)
            if db is None:
                return None, signature
            settings = table(db, SETTINGS_TABLE).get(doc_id=SETTINGS_DOC_ID)
            return AnnotationsRead(table(db, ANNOTATIONS_TABLE).all(), dict(settings or {})), signature

    @contextlib.contextmanager
    def reading_annotations(self) -> Iterator[TinyDB | None]:
        """A consistent read-only view of the annotations file for TinyDB queries
        (`table(db, ANNOTATIONS_TABLE).search(...)`): the file read once, no lock taken,
        nothing created. None when there is no file yet; StoreError for a damaged one."""
        db = self._annotations_db
        with self._thread_lock, gc_paused(), db.storage.transaction(writable=False):
            yield db if self._opened(db, self.annotations_path, "annotations") else None

    @staticmethod
    def _opened(db: TinyDB, path: Path, kind: str) -> bool:
        """Inside a transaction of `db`: False when the file does not exist; raises
        StoreError for a file that is not a reader-tui `kind` file this version reads."""
        tables = db.storage.read()
        if tables is None:
            return False
        # TinyDB makes a Document of each record it returns: one that is not an object
        # would fail there with a traceback, so the records are checked first.
        meta = tables.get(META_TABLE, {}).get(str(META_DOC_ID))
        check_meta_document(path, meta if isinstance(meta, dict) else None, kind)
        for name in (ANNOTATIONS_TABLE, SETTINGS_TABLE) if kind == "annotations" else ():
            for doc_id, record in tables.get(name, {}).items():
                if not isinstance(record, dict):
                    what = f"annotation {doc_id} names no paper" if name == ANNOTATIONS_TABLE else "the settings are not an object"
                    raise StoreError(f"{path}: {what}")
        return True

    def changed_on_disk(self) -> tuple[bool, bool]:
        """Whether (catalog, annotations) differ from what this process last read or wrote."""
        return (
            FileSignature.of(self.catalog_path) != self.catalog_signature,
            FileSignature.of(self.annotations_path) != self.annotations_signature,
        )

    # -- writing ------------------------------------------------------------------------

    @contextlib.contextmanager
    def writing_annotations(self) -> Iterator[TinyDB]:
        """A write transaction on the annotations file: under the lock, the file re-read
        (another process's changes included), the block changes it through the TinyDB it
        is given (`table(db, ...)`), and at the end one atomic write; nothing is written
        when the block raises."""
        db = self._annotations_db
        # With a 20k-paper catalog in memory, the objects parsing makes trigger full
        # collections that walk all of it: 25 ms of a write's 27 ms, for nothing.
        with saving(self.annotations_path), self.locked(), gc_paused():
            seen = FileSignature.of(self.annotations_path) == self.annotations_signature
            with db.storage.transaction():
                self._prepare(db, self.annotations_path, "annotations", (ANNOTATIONS_TABLE, SETTINGS_TABLE))
                yield db
            # What we wrote holds another process's changes when the file had moved on
            # since we last read it: forget the signature so the next reload shows them.
            self.annotations_signature = FileSignature.of(self.annotations_path) if seen else None

    def set_settings(self, values: Mapping[str, Any]) -> None:
        """Store settings (key -> JSON value), keeping every other key as it is on disk."""
        with self.writing_annotations() as db:
            table(db, SETTINGS_TABLE).upsert(Document(dict(values), SETTINGS_DOC_ID))

    def replace_catalog(self, change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> dict[str, Any]:
        """Re-read the catalog under the lock; `change` gets its paper records (by document
        id) and returns the new ones, or None when nothing changed (then nothing is
        written). The records are written through the papers table (`truncate`, then
        `insert_multiple` under their document ids) in one atomic write. Returns the
        records now in the catalog."""
        db = self._catalog_db
        with saving(self.catalog_path), self.locked(), gc_paused():
            seen = FileSignature.of(self.catalog_path) == self.catalog_signature
            with db.storage.transaction():
                self._prepare(db, self.catalog_path, "catalog", (PAPERS_TABLE,))
                records = db.storage.read()[PAPERS_TABLE]
                new = change(records)
                if new is not None:
                    papers = table(db, PAPERS_TABLE)
                    papers.truncate()
                    papers.insert_multiple(Document(record, int(doc_id)) for doc_id, record in new.items())
                    records = db.storage.read()[PAPERS_TABLE]
            self.catalog_signature = FileSignature.of(self.catalog_path) if seen else None
            return records

    def catalog_records(self) -> dict[str, Any]:
        """The catalog's paper records as `replace_catalog` hands them to its `change`, read
        without the lock and changing nothing: what an import's dry run merges into."""
        with self._thread_lock:
            tables = self._catalog_db.storage.read()
        return dict((tables or {}).get(PAPERS_TABLE, {}))

    def _prepare(self, db: TinyDB, path: Path, kind: str, tables: Iterable[str]) -> None:
        """Inside a write transaction: check the file's format (a new file gets its
        `_meta`), and make sure `tables` exist, so the file keeps one shape."""
        if self._opened(db, path, kind):
            return
        table(db, META_TABLE).insert(Document({"format": FORMAT_VERSION, "kind": kind}, META_DOC_ID))
        for name in tables:
            table(db, name).insert_multiple([])  # creates the table, empty

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
                if time.time() - backup_time(newest) < min_age_s:
                    return None
            stamp = datetime.now(UTC).strftime(BACKUP_STAMP)
            # (backups/ a link to a folder elsewhere, from a sync or by hand: nothing written there)
            target = check_inside(self.folder, self.folder / BACKUP_DIR / f"annotations-{stamp}.json")
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
    if backups.is_symlink() or not backups.is_dir():  # a link: not the library's backups
        return []
    return sorted(backups.glob("annotations-*.json"), reverse=True)


BACKUP_STAMP = "%Y%m%dT%H%M%S%fZ"  # in a backup's name: annotations-STAMP.json, UTC
_BACKUP_STAMP_DIGITS = re.compile(r"(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{6})Z", re.ASCII)


def backup_time(backup: Path) -> float:
    """When `backup` was taken (a POSIX timestamp), as its name says: a copied or restored
    library's files all carry the copy's modification time. The modification time when
    the name holds no stamp."""
    # Read by hand: `strptime` imports its locale machinery, some 7 M instructions in a
    # process that reads no other date (every TUI start looks at its newest backup, on
    # its writer thread once the list is on screen).
    stamp = _BACKUP_STAMP_DIGITS.fullmatch(backup.stem.removeprefix("annotations-"))
    if stamp is not None:
        with contextlib.suppress(ValueError):  # digits that are no date
            return datetime(*map(int, stamp.groups()), tzinfo=UTC).timestamp()
    return backup.stat().st_mtime


def new_tables(kind: str) -> Tables:
    """The tables of an empty store file of `kind` ("catalog" or "annotations")."""
    return {META_TABLE: {"1": {"format": FORMAT_VERSION, "kind": kind}}}


def check_meta(path: Path, data: Tables, kind: str) -> None:
    """Refuse a file (its tables: `data`) that is not a reader-tui `kind` file of a
    format this version reads."""
    meta = data.get(META_TABLE, {}).get(str(META_DOC_ID))
    check_meta_document(path, meta if isinstance(meta, dict) else None, kind)


def check_meta_document(path: Path, meta: Mapping[str, Any] | None, kind: str) -> None:
    """`check_meta` given the file's `_meta` document."""
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
