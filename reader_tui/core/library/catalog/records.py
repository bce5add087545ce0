"""The catalog in memory: paper records as read from disk, turned into `Paper`s on demand.

A conference list is 20,000 records; building every `Paper` up front costs more than
reading the file (0.15-0.2 s on top of a 0.17 s open), and the TUI's first screen needs
forty of them. So opening checks only each record's shape (an object with a string id and
title: one cheap pass, refused with one line naming the file and record), the raw records
are kept, and each becomes a `Paper` (checked in full, then cached) the first time it is
asked for. A record that fails then raises StoreError (the CLI's one line), or, in a
catalog opened with `placeholders` (the TUI), stands in as a `Paper` saying it is damaged
while `problems` gets one line for it, so the screen never meets an exception mid-draw.
`check_all` builds every record now (the TUI's index thread builds them all anyway).

A catalog read from a file of the line shape (`files.StoreFiles.read_catalog`) keeps each
record as its JSON text (`Unparsed`), checked for its shape as it was read, and parses it
again when its `Paper` is built: the parsed dicts of every record, once freed, left holes
between the strings that stay (some 15 MB at 20,000 papers that the process never gave
back), and the text takes half the memory of the dict until then.

The Papers are plain records; what makes 20,000 of them small is private to this module:
a value that repeats from record to record (a venue, an author, a keyword, a primary
area, a year, a score column such as ratings (4, 6, 8), a decision) is kept once for the
whole catalog, and a Paper's id is the very string the catalog keys it by. Score columns
are the largest of these: a few hundred distinct tuples among 20,000 papers, which each
paper would otherwise hold five of its own (7 MB at 20,000 papers with reviews).

Several threads read one Catalog at once (the TUI's list worker while its index thread
builds the same Papers): a built Paper replaces its record under a lock, after a second
look, so that every thread gets the one Paper stored first: see `__getitem__`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import orjson

from ...atomic_storage import StoreError
from ...model import Paper, Scores

#: Record fields whose values repeat from record to record (see `Catalog.__init__`): 21
#: primary areas (`area`) among 20,000 papers, one year, a venue or two.
_REPEATED = ("venue", "source", "entry_type", "added", "area", "year")
#: Record fields that are lists of values that repeat: a keyword ("large language
#: models") or an author is in many papers (73,000 keywords, 33,000 distinct, at 19,630).
_REPEATED_ITEMS = ("keywords", "authors")


class Unparsed(NamedTuple):
    """A paper record kept as its JSON text, its shape checked (`check_record`): the text
    itself, or its place in a `RecordTexts`."""

    id: str
    text: bytes | int


class Unread(NamedTuple):
    """A chunk of a `RecordTexts` not read yet: where it lies in the file its `ChunkReader`
    reads."""

    start: int
    length: int


class ChunkReader(Protocol):
    """Reads a piece of the catalog file a `RecordTexts` was opened from: `length` bytes
    at `start`. Raises ValueError, saying why in words, when it cannot (the file changed
    in place since it was opened, or the disk failed)."""

    def __call__(self, start: int, length: int) -> bytes: ...

    def close(self) -> None: ...


class RecordTexts:
    """Records' JSON texts, kept in chunks of about a megabyte until their Papers are built.

    One bytes object per record left, once its Paper was built, a hole of two kilobytes
    between the strings that stay, which the process never gave back (50 MB of them at
    100,000 papers). A chunk is dropped whole once every record in it is built, and goes
    back to the system. A record's place is one int: chunk, offset and length.

    Chunks may be added `Unread` (`add_chunk`, from a catalog whose layout is known): each
    is read from the file when a record in it is first wanted, or by `read_ahead`'s
    thread. Reading 38 MB into fresh memory at 20,000 papers was 40-50 ms of page faults
    on the TUI's start before its first frame, for the one record the first frame shows;
    the TUI reads ahead on a thread once that frame is up (a read releases the GIL)."""

    CHUNK = 1 << 20

    def __init__(self) -> None:
        self._chunks: list[bytes | Unread | None] = []
        self._pending: list[int] = []
        self._open = bytearray()
        self._open_count = 0
        self._lock = threading.Lock()
        self._reader: ChunkReader | None = None
        self._unread = 0

    def add(self, text: bytes) -> int:
        """Keep `text`; returns its place. Call `seal` after the last."""
        place = (len(self._chunks) << 64) | (len(self._open) << 32) | len(text)
        self._open += text
        self._open_count += 1
        if len(self._open) >= self.CHUNK:
            self.seal()
        return place

    def add_chunk(self, chunk: bytes | Unread, spans: Iterable[tuple[int, int]]) -> list[int]:
        """Keep `chunk`, a piece of a file that holds records at `spans` (start in the
        chunk, length), as one chunk of its own; returns their places (`add`'s). An
        `Unread` chunk is read by the reader `read_from` gave, when it is needed."""
        self.seal()
        index = len(self._chunks) << 64
        places = [index | (start << 32) | length for start, length in spans]
        self._chunks.append(chunk)
        self._pending.append(len(places))
        if type(chunk) is Unread:
            self._unread += 1
        return places

    def read_from(self, reader: ChunkReader) -> None:
        """Read the `Unread` chunks with `reader` (closed once all of them are read)."""
        self._reader = reader

    def seal(self) -> None:
        """Close the chunk being filled."""
        if self._open_count:
            self._chunks.append(bytes(self._open))
            self._pending.append(self._open_count)
            self._open, self._open_count = bytearray(), 0

    def text(self, place: int) -> memoryview:
        """The text at `place` (not yet `done`). Raises ValueError when its chunk, unread
        so far, cannot be read (`ChunkReader`)."""
        chunk = self._chunks[place >> 64]
        if type(chunk) is Unread:
            chunk = self._read(place >> 64)
        if chunk is None:
            raise KeyError(place)
        start = (place >> 32) & 0xFFFFFFFF
        return memoryview(chunk)[start : start + (place & 0xFFFFFFFF)]

    def _read(self, index: int) -> bytes | None:
        unread = self._chunks[index]
        if type(unread) is not Unread:
            return unread
        try:
            data = self._reader(unread.start, unread.length)  # type: ignore[misc] - outside the lock: the disk
        except ValueError:
            # another thread may have read it meanwhile, and closed the reader after it
            if type(chunk := self._chunks[index]) is Unread:
                raise
            return chunk
        with self._lock:
            chunk = self._chunks[index]
            if type(chunk) is Unread:  # not read by another thread meanwhile
                self._chunks[index] = chunk = data
                self._unread -= 1
                if not self._unread:
                    self._reader.close()  # type: ignore[union-attr]
        return chunk  # type: ignore[return-value]

    def read_ahead(self) -> None:
        """Read every unread chunk now, on a thread of its own; a chunk that cannot be read
        is left for the record that wants it to say why."""
        if self._unread and self._reader is not None:
            threading.Thread(target=self.read_all, name="catalog-read-ahead", daemon=True).start()

    def read_all(self) -> None:
        """Read every unread chunk now, on this thread; a chunk that cannot be read is left
        for the record that wants it to say why."""
        for index in range(len(self._chunks)):
            try:
                self._read(index)
            except ValueError:
                return

    def done(self, place: int) -> None:
        """The record at `place` is built (called once per record): its chunk goes when
        all of its records are."""
        index = place >> 64
        with self._lock:
            self._pending[index] -= 1
            if not self._pending[index]:
                self._chunks[index] = None


class CatalogRecords(dict):
    """A catalog's records by document id (`Unparsed`, or parsed dicts) with the `texts`
    their places point into (what `files.StoreFiles.read_catalog` returns)."""

    texts: RecordTexts | None = None
    #: The same records by paper id (their places in `texts`), when the reader made that
    #: dict already (`layout.read_records`): the Catalog takes it as it is.
    by_paper: dict[str, int] | None = None
    #: With `by_paper`: the document ids that are not the record's number (usually none).
    unusual_doc_ids: dict[str, str] | None = None


def check_record(path: Path, doc_id: str, record: Any) -> str:
    """The paper id of `record` (document `doc_id` of the catalog at `path`), after the
    check every record gets when the catalog is opened: an object with a string id and
    title. Raises StoreError, one line naming the file and the record."""
    if type(record) is not dict:
        raise StoreError(
            f"{path}: paper record {doc_id}: a paper record must be an object, not {type(record).__name__}"
        )
    pid = record.get("id")
    if type(pid) is not str or not pid:
        raise StoreError(f"{path}: paper record {doc_id} has no id")
    if type(record.get("title")) is not str:
        raise StoreError(f"{path}: paper record {doc_id} (id {pid!r}): the title must be a string")
    return pid


class Catalog(Mapping[str, Paper]):
    """Paper id -> Paper, in file order, built lazily from the stored records."""

    def __init__(self, records: Mapping[str, Any], path: Path, *, placeholders: bool = False) -> None:
        """`records`: document id -> the record as parsed, or as `Unparsed` text."""
        self.path = path
        self.placeholders = placeholders
        self.problems: list[str] = []
        """One line per damaged record met so far (only with `placeholders`)."""
        # paper id -> its record (a dict, or its text), replaced by its Paper once built:
        # one dict, not one for records and one for Papers (5 MB at 100,000 papers)
        self._records: dict[str, dict[str, Any] | bytes | Paper] = {}
        self._storing = threading.Lock()
        # Record numbers, for messages, only where they are not the usual 1, 2, 3...
        self._doc_ids: dict[str, str] = {}
        # The parser makes a new string for every value: venue, source, entry type, the
        # import time, keywords and authors repeat across thousands of records, so each is
        # kept once (setdefault: several threads may build Papers at once).
        self._share = {}.setdefault
        # score column text ("4,6,8") -> its tuple, one for all the papers that hold it
        self._columns: dict[str, tuple[int, ...]] = {"": ()}
        self._texts: RecordTexts | None = getattr(records, "texts", None)
        by_paper = getattr(records, "by_paper", None)
        if by_paper is not None:
            # taken, not copied (a second dict of 20,000 entries at the peak of the start):
            # the records give it up, so no other Catalog changes it
            self._records = by_paper
            records.by_paper = None  # type: ignore[attr-defined]
            self._doc_ids = dict(records.unusual_doc_ids or {})  # type: ignore[attr-defined]
            return
        for number, (doc_id, record) in enumerate(records.items(), 1):
            if type(record) is Unparsed:
                pid, record = record
            else:
                pid = check_record(path, doc_id, record)
                _share_values(record, self._share)
            self._records[pid] = record
            if doc_id != str(number):
                self._doc_ids[pid] = doc_id

    def read_ahead(self) -> None:
        """Read the records' texts not read yet, on a thread of its own
        (`RecordTexts.read_ahead`; nothing to do for records parsed at the open)."""
        if self._texts is not None:
            self._texts.read_ahead()

    def __getitem__(self, paper_id: str) -> Paper:
        record = self._records[paper_id]  # KeyError for an id the catalog does not hold
        if type(record) is Paper:
            return record
        place = record if type(record) is int else None
        try:
            # (valid JSON: it was read so)
            if place is not None:
                record = _share_values(orjson.loads(self._texts.text(place)), self._share)  # type: ignore[union-attr]
            elif type(record) is bytes:
                record = _share_values(orjson.loads(record), self._share)
            else:  # a parsed record, which the catalog's reader may still hold: not changed
                record = dict(record)  # type: ignore[arg-type]
            paper = self._paper(paper_id, record)
        except (TypeError, ValueError) as error:
            paper = self._damaged(paper_id, record, error)
        except KeyError:
            # another thread built it and its text's chunk is gone: its Paper is stored
            return self._records[paper_id]  # type: ignore[return-value]
        # Two threads may build the same Paper at once (the list worker and the index
        # thread do): under the lock, the one stored first is what both return. Replacing
        # the record drops the dict or text around the strings the Paper now holds.
        with self._storing:
            stored = self._records[paper_id]
            if type(stored) is Paper:
                return stored
            self._records[paper_id] = paper
            if place is not None:
                self._texts.done(place)  # type: ignore[union-attr]
        return paper

    def _paper(self, paper_id: str, record: dict[str, Any]) -> Paper:
        """The Paper of `record` (the catalog's own dict: changed here), its repeated
        values shared (`_share_values` made them so): its id is `paper_id` (the catalog's
        key, when the caller iterated the catalog), and its scores' columns are tuples
        the catalog keeps once."""
        if record.get("id") == paper_id:
            record["id"] = paper_id
        scores = record.get("scores")
        if type(scores) is str:
            record["scores"] = self._scores(scores, paper_id)
        return Paper.from_dict(record)

    def _scores(self, text: str, paper_id: str) -> Scores:
        """`Scores.from_text(text)`, with columns and decisions shared. Raises ValueError."""
        parts = text.split("|", 9)
        columns = self._columns
        try:
            r, c, s, p, n, prev = map(columns.__getitem__, parts[:6])  # the usual case: columns seen before
        except (KeyError, ValueError):
            scores = Scores.from_text(text, paper_id)  # checks it, and raises on a bad one
            made = (scores.ratings, scores.confidences, scores.soundness_scores, scores.presentation_scores,
                    scores.contribution_scores, scores.previous)
            share = self._share
            r, c, s, p, n, prev = (columns.setdefault(part, share(column, column)) for part, column in zip(parts, made))
        if len(parts) != 10:
            return Scores.from_text(text, paper_id)  # raises
        share = self._share
        captured, previous_captured, decision, decision_text = parts[6:]
        return Scores(r, c, s, p, n, share(decision, decision), share(decision_text, decision_text), captured, prev,
                      share(previous_captured, previous_captured))

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._records

    def _damaged(self, paper_id: str, record: dict[str, Any], error: Exception) -> Paper:
        doc_id = self._doc_ids.get(paper_id) or str(list(self._records).index(paper_id) + 1)
        reason = str(error).removeprefix(f"paper {paper_id}: ")
        line = f"{self.path}: paper record {doc_id} (id {paper_id!r}): {reason}"
        if not self.placeholders:
            raise StoreError(line)
        if line not in self.problems:
            self.problems.append(line)  # list.append is atomic: several threads may get here
        return Paper(id=paper_id, title=f"(damaged record: {reason})")

    def check_all(self) -> None:
        """Build every Paper now; raises StoreError naming the file at the first bad record."""
        for paper_id in self._records:
            self[paper_id]


def _share_values(record: dict[str, Any], share) -> dict[str, Any]:
    """`record` with its repeated values (`_REPEATED`, `_REPEATED_ITEMS`) replaced by the
    one value each that `share` (a dict's setdefault) keeps."""
    for key in _REPEATED:
        value = record.get(key)
        if type(value) is str or type(value) is int:  # a year: a new int object a record
            record[key] = share(value, value)
    for key in _REPEATED_ITEMS:
        items = record.get(key)
        if type(items) is list and items and _all_str(items):
            record[key] = list(map(share, items, items))
    return record


def _all_str(items: list) -> bool:
    return all(type(item) is str for item in items)
