"""The reviews store: each paper's forum (reviews, comments, decision) in `reviews.sqlite`
beside the catalog, read one paper at a time.

Why SQLite (the standard library's `sqlite3`), not more JSON: a conference's reviews are
some 230 MB of text, which must not be parsed at every start, and the screen needs one
paper's at a time. SQLite gives per-paper reads by key (a fraction of a millisecond),
transactions that are atomic and survive `kill -9` and power loss (its rollback journal,
`synchronous=FULL`), an import that rewrites only the forums that changed, and a format
every platform's Python reads. Each forum is one zlib-compressed JSON record
(`core.reviews`), about a third of the text's size on disk.

Promises, as for the rest of the library: an import is one transaction (all its forums
or none, under the store's lock); a file that is not a reviews store, or is damaged, is
refused in one line naming it (`StoreError`) and never written; a read-only library is
read without creating or changing anything.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic_storage import StoreError

if TYPE_CHECKING:
    import sqlite3

    from ..reviews import Forum, ForumData


def _sqlite3() -> Any:
    """The sqlite3 module, imported on first use: most starts read no reviews before the
    list is on screen (a library without reviews never does)."""
    import sqlite3

    return sqlite3

REVIEWS_FILE = "reviews.sqlite"
KIND = "reader-tui reviews"
_MAGIC = b"SQLite format 3\x00"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS forum ("
    " paper_id TEXT PRIMARY KEY, captured TEXT NOT NULL, notes INTEGER NOT NULL, data BLOB NOT NULL)",
)


@dataclass(slots=True)
class ReviewsWritten:
    """What one import did to the reviews store: forums added, updated (a newer snapshot),
    unchanged (the same snapshot again, or an older one), and how many reviews' scores
    moved since the snapshot before. `kept`: one line per review whose newer version held
    a value that could not be read, so the one known before was kept (paper id first);
    `repaired`: those papers' forum records as stored, for the catalog's scores."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    moved: int = 0
    kept: list[str] = field(default_factory=list)
    repaired: dict[str, dict[str, Any]] = field(default_factory=dict)


class ReviewStore:
    """`reviews.sqlite` of one library folder. Connections are made per call (reads) or
    per import (writes), so any thread may use it and a file replaced by another process
    is seen at once."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self.timeout = 5.0
        """Seconds a read waits for an import's commit to finish before saying it is busy."""

    # -- reading ----------------------------------------------------------------------

    @property
    def exists(self) -> bool:
        return self.path.exists()

    @property
    def signature(self) -> tuple[int, int, int] | None:
        """The file's modification time, size and inode (None without a store): what was
        read from it holds while this stays the same (an import that changes a forum writes
the file)."""
        return _signature(self.path)

    def forum(self, paper_id: str) -> Forum | None:
        """The paper's forum, or None when the store (or the paper in it) has none.
        Raises StoreError naming the file when it is damaged or not a reviews store."""
        row = self._read_one("SELECT data FROM forum WHERE paper_id = ?", (paper_id,))
        if row is None:
            return None
        from ..reviews import Forum, decode_forum  # (with the first reviews read: see core.reviews)

        try:
            return Forum.from_record(paper_id, decode_forum(row[0]))
        except (ValueError, KeyError, TypeError) as error:
            raise StoreError(f"{self.path}: the reviews of paper {paper_id!r}: {error}") from None

    def summaries(self, batch: int = 256) -> Iterator[tuple[str, str]]:
        """(paper id, its reviewers' summaries) of every stored forum that has any, read
        `batch` forums a query: no read holds the file while the caller works on what it
        read, so an import waits for none of it. A damaged forum is passed over (the
        forum pane names it when it is opened). Raises StoreError as `forum` does."""
        from ..reviews import decode_forum, review_summaries

        # the first batch from "" on (an empty id among them), each next one after the last
        sql = "SELECT paper_id, data FROM forum WHERE paper_id >= ? ORDER BY paper_id LIMIT ?"
        after = ""
        while True:
            rows = self._read_all(sql, (after, batch))
            sql = "SELECT paper_id, data FROM forum WHERE paper_id > ? ORDER BY paper_id LIMIT ?"
            for paper_id, data in rows:
                try:
                    text = review_summaries(decode_forum(data))
                except (ValueError, KeyError, TypeError, AttributeError):  # a damaged forum, as `forum` finds it
                    continue
                if text:
                    yield paper_id, text
            if len(rows) < batch:
                return
            after = rows[-1][0]

    def count(self) -> int:
        """How many papers have a forum stored (0 without a store)."""
        row = self._read_one("SELECT count(*) FROM forum", ())
        return int(row[0]) if row else 0

    def snapshots(self) -> dict[str, tuple[str, int]]:
        """Paper id -> (captured, number of notes) of every stored forum."""
        if not self.path.exists():
            return {}
        with self._errors():
            connection = self._reader()
            if connection is None:
                return {}
            return {pid: (captured, notes) for pid, captured, notes in connection.execute(
                "SELECT paper_id, captured, notes FROM forum")}

    def check(self) -> str | None:
        """None when the store is missing or sound; else the one line that refuses it
        (SQLite's `quick_check` reads every page: a second or so for a conference)."""
        if not self.path.exists():
            return None
        try:
            with self._errors():
                connection = self._reader()
                if connection is None:
                    return None
                problems = [row[0] for row in connection.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise StoreError(f"{self.path}: the reviews store is damaged ({problems[0]}), so it was left untouched")
        except StoreError as error:
            return str(error)
        return None

    def _read_one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if not self.path.exists():
            return None
        with self._errors():
            connection = self._reader()
            if connection is None:
                return None
            return connection.execute(sql, params).fetchone()

    def _read_all(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        if not self.path.exists():
            return []
        with self._errors():
            connection = self._reader()
            if connection is None:
                return []
            return connection.execute(sql, params).fetchall()

    def _reader(self) -> sqlite3.Connection | None:
        """This thread's read-only connection, checked once: None when the file is gone."""
        signature = _signature(self.path)
        cached = getattr(self._local, "reader", None)
        if cached is not None and cached[0] == signature:
            return cached[1]
        if cached is not None:
            cached[1].close()
            self._local.reader = None
        if signature is None:
            return None
        self._check_magic()
        # Read-write where the folder allows it, though only reads are made: a writer
        # killed mid-import leaves a journal that the next reader must roll back.
        mode = "rw" if os.access(self.path.parent, os.W_OK) and os.access(self.path, os.W_OK) else "ro"
        connection = _sqlite3().connect(
            f"{self.path.resolve().as_uri()}?mode={mode}", uri=True, check_same_thread=False, timeout=self.timeout
        )
        try:
            self._check_meta(connection)
        except BaseException:
            connection.close()
            raise
        self._local.reader = (signature, connection)
        return connection

    def close(self) -> None:
        """Close this thread's read connection (others close when their thread ends)."""
        cached = getattr(self._local, "reader", None)
        if cached is not None:
            cached[1].close()
            self._local.reader = None

    # -- writing ----------------------------------------------------------------------

    def write(self, forums: Mapping[str, ForumData]) -> ReviewsWritten:
        """Store `forums` (paper id -> ForumData) in one transaction: a forum whose
        snapshot (capture time and number of notes) is stored already is left as it is;
        a newer one replaces it, keeping the history of the scores that moved
        (`core.reviews.merge_history`); an older one changes nothing. The caller holds
        the store's lock. Raises StoreError naming the file when it is damaged or not a
        reviews store (then nothing is written), OSError when it cannot be written."""
        written = ReviewsWritten()
        if not forums:
            return written
        self._check_no_link()
        if self.path.exists():
            self._check_magic()
        with self._errors():
            connection = _sqlite3().connect(self.path, isolation_level=None)
            try:
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA journal_mode=DELETE")
                connection.execute("BEGIN IMMEDIATE")
                try:
                    self._write(connection, forums, written)
                    connection.execute("COMMIT")
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
            finally:
                connection.close()
        return written

    def _write(self, connection: sqlite3.Connection, forums: Mapping[str, ForumData], written: ReviewsWritten) -> None:
        from ..reviews import FORMAT, decode_forum, encode_forum, merge_history

        new_file = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        if new_file:
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)", [("kind", KIND), ("format", str(FORMAT))]
            )
        else:
            self._check_meta(connection)
        stored = {pid: (captured, notes) for pid, captured, notes in connection.execute(
            "SELECT paper_id, captured, notes FROM forum")}
        rows = []
        for pid, forum in forums.items():
            before = stored.get(pid)
            if before is None:
                rows.append((pid, forum.captured, forum.notes, forum.data))
                written.added += 1
                continue
            if before == (forum.captured, forum.notes) or forum.captured < before[0]:
                written.unchanged += 1  # the same snapshot again, or an older one
                continue
            (old_data,) = connection.execute("SELECT data FROM forum WHERE paper_id = ?", (pid,)).fetchone()
            try:
                old = decode_forum(old_data)
            except ValueError as error:
                raise StoreError(f"{self.path}: the reviews of paper {pid!r}: {error}, so it was left untouched") from None
            record, moved, kept = merge_history(old, decode_forum(forum.data))
            written.moved += moved
            if kept:
                written.kept.extend(f"paper {pid}: {line}" for line in kept)
                written.repaired[pid] = record
            written.updated += 1
            rows.append((pid, forum.captured, forum.notes, encode_forum(record)))
        connection.executemany(
            "INSERT OR REPLACE INTO forum (paper_id, captured, notes, data) VALUES (?, ?, ?, ?)", rows
        )

    # -- checks -----------------------------------------------------------------------

    def _check_magic(self) -> None:
        self._check_no_link()
        try:
            with self.path.open("rb") as stream:
                head = stream.read(len(_MAGIC))
        except OSError as error:
            raise StoreError(f"{self.path}: cannot read: {error.strerror or error}") from None
        if head != _MAGIC:
            raise StoreError(f"{self.path}: not a reviews store (not an SQLite database), so it was left untouched")

    def _check_no_link(self) -> None:
        """Refuse a store (or its journal) that is a symbolic link: SQLite would follow it,
        writing a database outside the library's folder, or reading one from elsewhere."""
        for path in (self.path, self.path.with_name(self.path.name + "-journal")):
            if path.is_symlink():
                raise StoreError(
                    f"{path}: a symbolic link where the reviews store belongs, so it was left untouched and nothing "
                    f"was written through it; remove it (`rm {path}`) and import the reviews again"
                )

    def _check_meta(self, connection: sqlite3.Connection) -> None:
        from ..reviews import FORMAT

        try:
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        except _sqlite3().OperationalError as error:
            if "no such table" not in str(error):
                raise  # locked, busy, damaged: said as such by `_SqliteErrors`
            meta = {}
        if meta.get("kind") != KIND:
            raise StoreError(f"{self.path}: not a reader-tui reviews store, so it was left untouched")
        try:
            version = int(meta.get("format", ""))
        except ValueError:
            raise StoreError(f"{self.path}: the format version {meta.get('format')!r} is not a number") from None
        if version > FORMAT:
            raise StoreError(
                f"{self.path}: written by a newer reader-tui (format {version}, this one reads up to {FORMAT}); "
                "upgrade reader-tui to read it"
            )

    def _errors(self) -> Any:
        return _SqliteErrors(self.path)


class _SqliteErrors:
    """SQLite's errors as one StoreError line naming the file (a damaged file, one that
    is not a database); the OS's (a full disk) as SQLite reports them."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if error is not None and isinstance(error, _sqlite3().DatabaseError):
            text = str(error) or type(error).__name__
            if "locked" in text or "busy" in text:
                raise StoreError(
                    f"{self.path}: another reader-tui is writing the reviews (an import); try again when it is done"
                ) from None
            if "disk is full" in text or "readonly" in text or "unable to open" in text:
                raise StoreError(f"{self.path}: not saved: {text}; the reviews store is as it was") from None
            raise StoreError(f"{self.path}: the reviews store is damaged ({text}), so it was left untouched") from None
        return False


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
