"""Where each paper record's text lies in catalog.json, remembered so that opening the
store reads the records without parsing them again.

Opening a catalog of one record per line (`atomic_storage.dump_json_lines`) parses every
line, checks its shape (`catalog.check_record`) and keeps its text for the Paper to be
built from on demand: 0.3-0.5 s at 20,000 papers and 1.6-2 s at 100,000, all of it
before the TUI can draw its list, and all of it the same as at the last open, because
the catalog changes only when papers are imported. So the open that parses a catalog
also writes down, in a cache file beside the search index's (`cache_file`: a header
that must match, a checksum, written atomically), the catalog file's identity and each
record's document id, paper id and place in the file. The next open of the very same
file (same size, modification and change times, inode: any rewrite changes one, and a
change time cannot be set back) reads the record texts straight from those places, a
megabyte at a time as they are needed, as the parse would have kept them. The file was
checked record by record when its layout was written, so it is not checked again; a
record damaged since without its file changing (the disk's own fault) is still caught
when its Paper is built, as any damaged record is.

Anything unexpected (no cache, a stale or damaged one, a catalog of another shape, a
read-only cache folder) means the full parse, never an error.
"""

from __future__ import annotations

import os
import threading
import weakref
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from ...atomic_storage import describe_error
from ...cache_file import head_piece, read_array, read_head_piece, reading_cache, write_cache
from ...paths import store_cache_path
from .records import CatalogRecords, RecordTexts, Unread

#: Whether the records' texts may be read after the open (see `read_records`). Not on
#: Windows, where a file held open cannot be replaced, and the store replaces the catalog
#: at every write of it: there the texts are read at the open, as they always were.
READ_LATER = os.name != "nt"

_KIND = "catalog layout"
_VERSION = 2


def layout_cache_path(folder: Path) -> Path:
    """The layout cache of the catalog of the store in `folder`."""
    return store_cache_path(folder, "catalog", ".layout")


def file_key(stat: os.stat_result) -> str:
    """The identity of a catalog file as a cache key: any rewrite of it changes it."""
    return f"{stat.st_size}-{stat.st_mtime_ns}-{stat.st_ctime_ns}-{stat.st_ino}"


@dataclass
class Layout:
    """A catalog file's records: paper ids, the document ids that are not the record's
    number (the store writes 1, 2, 3...: usually none), and where each record's JSON
    text starts and how long it is; with the file's `_meta` table's document."""

    paper_ids: list[str]
    unusual_doc_ids: dict[str, str]
    starts: array
    lengths: array
    meta: Any


class LayoutRecorder:
    """Collects a catalog's layout while it is parsed (`files.StoreFiles.read_catalog`)."""

    def __init__(self) -> None:
        self.paper_ids: list[str] = []
        self.unusual_doc_ids: dict[str, str] = {}
        self.starts = array("q")
        self.lengths = array("q")
        self.complete = True

    def record(self, doc_id: str, paper_id: str, offset: int | None, length: int) -> None:
        if offset is None:
            self.complete = False  # a line of another form: its text is not in the file as kept
            return
        self.paper_ids.append(paper_id)
        if doc_id != str(len(self.paper_ids)):
            self.unusual_doc_ids[paper_id] = doc_id
        self.starts.append(offset)
        self.lengths.append(length)

    def save(self, folder: Path, key: str, meta: Any) -> bool:
        """Write the layout for the catalog file `key` names; False when it could not be."""
        if not self.complete:
            return False
        head = orjson.dumps({"paper_ids": self.paper_ids, "unusual_doc_ids": self.unusual_doc_ids, "meta": meta})
        return write_cache(layout_cache_path(folder), _KIND, _VERSION, key, [head_piece(head), self.starts, self.lengths])


def load_layout(folder: Path, key: str) -> Layout | None:
    """The layout written for the catalog file `key` names, or None."""
    with reading_cache(layout_cache_path(folder), _KIND, _VERSION, key) as body:
        if body is None:
            return None
        try:
            head = orjson.loads(read_head_piece(body))
            count = len(head["paper_ids"])
            return Layout(
                head["paper_ids"], head["unusual_doc_ids"], read_array(body, "q", count), read_array(body, "q", count),
                head["meta"],
            )
        except (ValueError, KeyError, TypeError, EOFError, OSError):
            return None


class CatalogFileReader:
    """Reads pieces of a catalog file later, from the file as it was when it was opened
    (a `catalog.ChunkReader`): a duplicate of its descriptor is kept, so a catalog
    replaced since (every write of the store replaces it) is still read as it was. A
    file changed in place (not the store's doing) is refused, not read as records."""

    def __init__(self, file: BinaryIO, stat: os.stat_result, path: Path) -> None:
        self._fd = os.dup(file.fileno())
        self._stat = stat
        self._path = path
        self._lock = threading.Lock()  # a read does not meet a close
        self._close = weakref.finalize(self, os.close, self._fd)

    def __call__(self, start: int, length: int) -> bytes:
        with self._lock:
            if not self._close.alive:
                raise ValueError("its text is no longer at hand: open the library again")
            try:
                if not _unchanged(self._stat, os.fstat(self._fd)):
                    raise ValueError(f"{self._path.name} was changed on disk by another program: open the library again")
                data = _read_at(self._fd, start, length)
            except OSError as error:
                raise ValueError(f"{self._path.name} could not be read: {describe_error(error)}") from error
        if len(data) != length:
            raise ValueError(f"{self._path.name} ended before this record: open the library again")
        return data

    def close(self) -> None:
        with self._lock:
            self._close()


def _unchanged(opened: os.stat_result, now: os.stat_result) -> bool:
    # Replacing the file (the store's every write) or deleting it changes its change time
    # too, but then nothing can write into it by its name any more: once it has no name
    # left, its size and modification time say enough.
    if now.st_nlink == 0:
        return (now.st_size, now.st_mtime_ns) == (opened.st_size, opened.st_mtime_ns)
    return file_key(now) == file_key(opened)


def _read_at(fd: int, start: int, length: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, length, start)
    os.lseek(fd, start, os.SEEK_SET)  # Windows has no pread: the reader's lock keeps this whole
    return os.read(fd, length)


def read_records(file: BinaryIO, layout: Layout, stat: os.stat_result, path: Path) -> CatalogRecords | None:
    """The catalog's records, kept as `read_catalog`'s parse keeps them (their texts in
    `RecordTexts` chunks of about a megabyte), from the open catalog `file` (`stat` as it
    was opened), at the places `layout` says; None when the places do not fit the file.

    The chunks are read when they are first needed (`RecordTexts.read_ahead` reads them
    all on a thread), from a duplicate of `file`'s descriptor; where `READ_LATER` is
    false, all of them now."""
    starts, lengths = layout.starts, layout.lengths
    count, size = len(starts), stat.st_size
    if any(later <= earlier for earlier, later in zip(starts, starts[1:], strict=False)):
        return None  # records follow each other in the file
    texts = RecordTexts()
    places: list[int] = []
    first = 0
    while first < count:
        # records first..last-1 make one chunk: from the first's start to the last's end
        chunk_start = starts[first]
        last = max(first + 1, bisect_left(starts, chunk_start + RecordTexts.CHUNK, first, count))
        chunk_end = starts[last - 1] + lengths[last - 1]
        if chunk_start < 0 or chunk_end > size or chunk_end < chunk_start:
            return None
        spans = zip([start - chunk_start for start in starts[first:last]], lengths[first:last])
        places += texts.add_chunk(Unread(chunk_start, chunk_end - chunk_start), spans)
        first = last
    if count:
        texts.read_from(CatalogFileReader(file, stat, path))
        if not READ_LATER:
            texts.read_all()
    records = CatalogRecords()
    records.texts = texts
    records.by_paper = dict(zip(layout.paper_ids, places, strict=True))
    records.unusual_doc_ids = layout.unusual_doc_ids
    return records


__all__ = ["CatalogFileReader", "Layout", "LayoutRecorder", "file_key", "layout_cache_path", "load_layout", "read_records"]
