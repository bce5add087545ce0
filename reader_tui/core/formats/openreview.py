"""Read OpenReview notes (JSON array or JSON Lines, optionally gzipped) into `Paper`s.

Two note shapes are understood, per record:
- flat: `{"id", "title", "abstract", "keywords", "venue", "year", "url", "authors"}`
  (what paper-list trackers publish);
- OpenReview API v2: `{"id", "forum", "cdate", "pdate", "content": {"title": {"value":
  ...}, ...}}`, and API v1's `content.title` as a plain string.
A JSON object `{"notes": [...]}` (an API v2 response saved to a file) is read too.

Notes that carry their forum (`replies`, or openreview-py's `details.replies` /
`details.directReplies`) bring their reviews, comments and decision: each paper gets its
TL;DR, primary area, pdf link, withdrawn flag and `Scores`, and `ImportResult.forums`
the forum's record for the reviews store (see `core.reviews`). Such a file is taken
whole or not at all: a line that is not JSON fails the file, naming the line.

JSON Lines are read one line at a time, so a file of any size costs memory for its
papers only; a line that is not JSON is skipped and reported. A JSON document is parsed
whole, with orjson (about 2x faster than the standard library's json).

The forum id is the paper id and `https://openreview.net/forum?id=ID` its url. Year:
the record's `year`, else a year in its venue ("ICLR 2026"), else the `year` given by
the caller, else the publication/creation time.
"""

from __future__ import annotations

import gzip
import io
import re
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import orjson

from ..model import Paper
from ..process_tuning import gc_paused
from ..reviews import ForumData, encode_forum, forum_record, replies_of, summarize
from ..text.display import stable_id
from ..text.titles import derive_title
from .base import ImportFailure, ImportProblem, ImportResult, reading
from .encoding import (
    NAMED,
    Undecodable,
    bom_encoding,
    c1_as_windows_1252,
    c1_message,
    count_c1,
    decode_file,
    encoding_name,
    fallback_message,
    first_c1,
    first_fallback,
    invalid_byte_message,
    utf8_with_fallback,
)

_loads = orjson.loads
_DecodeError: tuple[type[Exception], ...] = (orjson.JSONDecodeError, ValueError)

GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_NOT_JSON = object()
#: A C1 control in UTF-8, or as a JSON escape: a record that may hold one (see `_Mode.c1_read`).
_MAY_HOLD_C1 = re.compile(rb"\xc2[\x80-\x9f]|\\u00[89][0-9a-fA-F]")
_WS = re.compile(r"\s+")
_VENUE_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
#: Abstracts that only say "there is none" (withdrawn submissions).
_PLACEHOLDERS = {"n/a", "na", "none", "null", "tbd", "tba", "withdrawn", "abstract"}


def read_openreview(
    path: Path | str,
    *,
    venue: str | None = None,
    year: int | None = None,
    encoding: str | None = None,
    on_open: Callable[[IO[bytes]], object] | None = None,
) -> ImportResult:
    """Read the OpenReview notes in `path` (.json, .jsonl, either gzipped).

    `on_open` is handed the file as opened (its `tell()`: the bytes of it read so far,
    before decompression), so that a progress line can follow a long read.

    `venue` and `year` fill in records that have none. The file is read as UTF-8, or in
    the encoding its byte-order mark or `encoding` names; without either, bytes that are
    not UTF-8 are read as Windows-1252, with a warning (see `formats.encoding`). Raises
    ImportFailure naming the file (and line) when it is empty, binary, not valid in the
    encoding named, damaged, or JSON of another shape.
    """
    path = Path(path)
    result = ImportResult(path=path)
    mode = _Mode()
    mode.strict = encoding is not None
    try:
        with _open(path, encoding, on_open) as stream, gc_paused(), _Compressor(result) as compress:
            head = _peek(stream, path)
            if head.startswith(b"["):
                records = _document(stream.read(), path, mode)
            elif head.startswith(b"{") and not _parses(head.split(b"\n", 1)[0]):
                # Not one note per line: a pretty-printed object (an API response?). Judge
                # it whole, and fall back to lines when it is not one JSON value either.
                data = stream.read()
                notes = _document_object(data, path, mode)
                records = notes if notes is not None else _lines(io.BytesIO(data), path, result.problems, mode)
            else:
                records = _lines(stream, path, result.problems, mode)
            source = f"openreview:{path.name}"
            for line, record in records:
                replies = replies_of(record) if isinstance(record, dict) else None
                if replies is not None:
                    mode.forums = True
                elif mode.forums and isinstance(record, dict) and ("replies" in record or "details" in record):
                    where = line if line > 0 else None
                    raise ImportFailure(path, "the note's replies are not a list; nothing was imported", where)
                forum = None
                if replies is not None:
                    forum = forum_record(record, replies, _text(record.get("forum")) or _text(record.get("id")))
                paper = _paper(record, source, venue, year, replies, forum)
                if isinstance(paper, str):
                    where = line if line > 0 else None
                    label = f"item {-line}: " if line < 0 else ""
                    result.problems.append(ImportProblem(path, where, label + paper))
                    continue
                if forum is not None:
                    compress(paper.id, forum)
                result.papers.append(paper)
        if mode.c1 is not None:
            line, count, first = mode.c1
            result.problems.insert(0, ImportProblem(path, line, c1_message(count, first), kind="warning"))
        if mode.fallback is not None:
            line, count, first = mode.fallback
            result.problems.insert(0, ImportProblem(path, line, fallback_message(count, first), kind="warning"))
    except ImportFailure:
        raise
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise ImportFailure(path, "is a damaged or cut-off gzip file") from None
    except OSError as error:
        raise ImportFailure(path, error.strerror or str(error)) from None
    return result.require_papers("note", "holds no OpenReview notes")


class _Mode:
    """What the file has shown itself to be so far: `forums` once a note carried its
    replies (then a bad line fails the whole file instead of being skipped); `fallback`,
    the first line with bytes that are not UTF-8, how many there were and what the first
    was read as (`strict`: an encoding was named, so such a byte fails the file)."""

    forums = False
    strict = False
    fallback: tuple[int, int, str] | None = None
    c1: tuple[int | None, int, str] | None = None
    """The first line with C1 controls read as Windows-1252, how many, the first one."""

    def c1_read(self, record: Any, data: bytes, line: int | None) -> Any:
        """`record` (parsed from `data`) with the C1 controls of its strings that stand for
        Windows-1252 punctuation replaced by it (see `formats.encoding`), noted for the
        warning. Only a record whose bytes may hold one is walked: the test is one search."""
        found = _MAY_HOLD_C1.search(data)
        if found is None:
            return record
        counted = [0, ""]

        def fix(value: Any) -> Any:
            if isinstance(value, str):
                at = first_c1(value)
                if at is None:
                    return value
                counted[0] += count_c1(value)
                counted[1] = counted[1] or value[at]
                return c1_as_windows_1252(value)
            if isinstance(value, list):
                return [fix(item) for item in value]
            if isinstance(value, dict):
                return {fix(key): fix(item) for key, item in value.items()}
            return value

        record = fix(record)
        if counted[0]:
            if self.c1 is None:
                where = line if line is not None else data[: found.start()].count(b"\n") + 1
                self.c1 = (where, counted[0], counted[1])
            else:
                self.c1 = (self.c1[0], self.c1[1] + counted[0], self.c1[2])
        return record

    def not_utf8(self, data: bytes, path: Path, line: int) -> bytes:
        """`data` (on `line`) as UTF-8, its bytes that are not read as Windows-1252 and
        noted for the warning; raises ImportFailure when an encoding was named."""
        found = first_fallback(data)
        if found is None:
            return data
        offset, first = found
        if self.strict:
            where = line + data[:offset].count(b"\n")
            raise ImportFailure(path, invalid_byte_message(data[offset], "utf-8", NAMED), where)
        text, count = utf8_with_fallback(data)
        if self.fallback is None:
            self.fallback = (line + data[:offset].count(b"\n"), count, first)
        else:
            self.fallback = (self.fallback[0], self.fallback[1] + count, self.fallback[2])
        return text.encode("utf-8")


_QUEUED_FORUMS = 256


class _Compressor:
    """Encodes forum records on a second thread as the file is read (zlib releases the
    GIL: on two cores the 230 MB of review text of a conference compresses while the
    next lines parse), filling `result.forums` when the block ends."""

    def __init__(self, result: ImportResult) -> None:
        self.result = result
        self.pending: dict[str, tuple[str, int, Any]] = {}
        self.pool: Any = None
        self.queued: Any = None  # futures not yet known to be done, oldest first

    def __enter__(self) -> _Compressor:
        return self

    def __call__(self, paper_id: str, record: dict[str, Any]) -> None:
        if self.pool is None:
            from collections import deque
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(1, thread_name_prefix="reader-tui-compress")
            self.queued = deque()
        future = self.pool.submit(encode_forum, record)
        self.pending[paper_id] = (record["captured"], len(record["notes"]), future)
        # Records wait uncompressed in the queue: when parsing runs ahead, wait for the
        # oldest, so that memory holds a few hundred forums' text, not the conference's.
        self.queued.append(future)
        while len(self.queued) > _QUEUED_FORUMS:
            self.queued.popleft().result()

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if self.pool is None:
            return
        try:
            if kind is None:
                for pid, (captured, count, future) in self.pending.items():
                    self.result.forums[pid] = ForumData(captured, count, future.result())
        finally:
            for _, _, future in self.pending.values():
                future.cancel()
            self.pool.shutdown(wait=True)
            self.pending.clear()


def _open(path: Path, encoding: str | None = None, on_open: Callable[[IO[bytes]], object] | None = None) -> IO[bytes]:
    """A buffered byte stream of the file in UTF-8, decompressed when it starts with the
    gzip magic.

    Big buffers: `peek` then sees a whole first line, and reads are few. A file in
    another encoding (a UTF-16 or UTF-32 byte-order mark, or `encoding` naming one) is
    read whole and turned into UTF-8 first: such files are small lists, not a
    conference's reviews.
    """
    with reading(path):
        raw = path.open("rb", buffering=1 << 20)
    if on_open is not None:
        on_open(raw)
    stream: IO[bytes] = raw
    if raw.peek(2)[:2] == GZIP_MAGIC:
        stream = io.BufferedReader(_Prefetched(gzip.GzipFile(fileobj=raw, mode="rb")), buffer_size=1 << 20)
    marked = bom_encoding(stream.peek(4)[:4])  # type: ignore[attr-defined]
    try:
        named = encoding_name(encoding) if encoding is not None and marked is None else None
    except ValueError as error:
        stream.close()
        raise ImportFailure(path, str(error)) from None
    if (marked is not None and marked[0] != "utf-8") or (named is not None and named != "utf-8"):
        with stream:
            data = stream.read()
        try:
            text, _ = decode_file(data, encoding)
        except Undecodable as error:
            raise ImportFailure(path, str(error), error.line) from None
        return io.BufferedReader(io.BytesIO(text.encode("utf-8")), buffer_size=1 << 20)
    return stream


class _Prefetched(io.RawIOBase):
    """A decompressed stream read on a second thread, a few MB ahead of the parser: zlib
    releases the GIL, so on two cores a 100 MB gzip file decompresses while the lines
    before parse. Errors of the decompression (a damaged file) are raised to the reader."""

    def __init__(self, source: IO[bytes]) -> None:
        import queue
        import threading

        super().__init__()
        self._source = source
        self._queue: queue.Queue[bytes | BaseException] = queue.Queue(maxsize=8)
        self._full = queue.Full
        self._buffer = memoryview(b"")
        self._done = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="reader-tui-gunzip", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                chunk = self._source.read(1 << 20)
                self._put(chunk)
                if not chunk:
                    return
        except BaseException as error:  # noqa: BLE001 - handed to the reading thread
            self._put(error)

    def _put(self, item: bytes | BaseException) -> None:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except self._full:
                continue

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        if not self._buffer:
            if self._done:
                return 0
            item = self._queue.get()
            if isinstance(item, BaseException):
                self._done = True
                raise item
            if not item:
                self._done = True
                return 0
            self._buffer = memoryview(item)
        n = min(len(target), len(self._buffer))
        target[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n

    def close(self) -> None:
        if not self.closed:
            self._stop.set()
            self._thread.join()
            self._source.close()
        super().close()


def _peek(stream: IO[bytes], path: Path) -> bytes:
    """The first non-blank bytes, without consuming them; fails on empty/binary files."""
    head = stream.peek(1 << 20)  # type: ignore[attr-defined]
    if b"\x00" in head[:65536]:
        raise ImportFailure(path, "looks like a binary file, not text")
    head = head.lstrip(b" \t\r\n")
    if head.startswith(_BOM):
        head = head[len(_BOM) :].lstrip()
    if not head:
        raise ImportFailure(path, "is empty")
    return head


def _document(data: bytes, path: Path, mode: _Mode) -> Iterator[tuple[int, Any]]:
    """The notes of a whole JSON document, numbered -1, -2, ... (items, not lines)."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    data = mode.not_utf8(data, path, 1)
    try:
        document = mode.c1_read(_loads(data), data, None)
    except _DecodeError as error:
        raise _json_failure(path, data, error) from None
    if isinstance(document, dict) and isinstance(document.get("notes"), list):
        document = document["notes"]
    if not isinstance(document, list):
        raise ImportFailure(path, f"is JSON of the wrong shape: expected a list of notes, found {_kind(document)}")
    return ((-number, note) for number, note in enumerate(document, start=1))


def _lines(stream: IO[bytes], path: Path, problems: list[ImportProblem], mode: _Mode) -> Iterator[tuple[int, Any]]:
    """The notes of a JSON Lines stream with their line numbers; bad lines become problems
    (in a file of forums, `mode.forums`, a bad line fails the file)."""
    for number, line in enumerate(_raw_lines(stream), start=1):
        if number == 1 and line.startswith(_BOM):
            line = line[len(_BOM) :]
        if not line.strip():
            continue
        try:
            record = _loads(line)
        except _DecodeError:
            record = _NOT_JSON
            repaired = mode.not_utf8(line, path, number)
            if repaired is not line:  # bytes that were not UTF-8, now read as Windows-1252
                try:
                    record = _loads(repaired)
                except _DecodeError:
                    pass
            line = repaired
        if record is _NOT_JSON:
            if mode.forums:
                raise ImportFailure(
                    path, "not valid JSON, so nothing was imported (a file of reviews is taken whole or not at all)", number
                ) from None
            problems.append(ImportProblem(path, number, "skipped a line that is not valid JSON"))
            continue
        record = mode.c1_read(record, line, number)
        if number == 1:
            if isinstance(record, dict) and isinstance(record.get("notes"), list):
                yield from ((-n, note) for n, note in enumerate(record["notes"], start=1))
                continue
            if not isinstance(record, dict) or not _looks_like_note(record):
                raise ImportFailure(path, f"is JSON of the wrong shape: expected notes, found {_kind(record)}", 1)
        yield number, record


def _parses(data: bytes) -> bool:
    try:
        _loads(data)
    except _DecodeError:
        return False
    return True


def _raw_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of `stream` without their ends, read in 1 MB chunks (much faster than
    `readline`); a line longer than a chunk is joined once, so nothing is quadratic."""
    pending: list[bytes] = []
    while chunk := stream.read(1 << 20):
        if b"\n" not in chunk:
            pending.append(chunk)
            continue
        parts = chunk.split(b"\n")
        if pending:
            parts[0] = b"".join(pending) + parts[0]
            pending = []
        last = parts.pop()
        yield from parts
        if last:
            pending.append(last)
    if pending:
        yield b"".join(pending)


def _document_object(data: bytes, path: Path, mode: _Mode) -> Iterator[tuple[int, Any]] | None:
    """The notes of a whole-file JSON object, or None when the file is not one JSON value."""
    try:
        document = mode.c1_read(_loads(data), data, None)
    except _DecodeError:
        return None
    if isinstance(document, dict) and isinstance(document.get("notes"), list):
        return ((-n, note) for n, note in enumerate(document["notes"], start=1))
    if isinstance(document, dict) and _looks_like_note(document):
        return iter([(1, document)])
    raise ImportFailure(path, f"is JSON of the wrong shape: expected a list of notes, found {_kind(document)}")


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object that is not a note"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return "a number"
    return f"a {type(value).__name__}".replace("a str", "a string").replace("a NoneType", "null")


def _json_failure(path: Path, data: bytes, error: Exception) -> ImportFailure:
    line = getattr(error, "lineno", None)
    position = getattr(error, "pos", None)
    if position is not None and position >= len(data.rstrip()):
        return ImportFailure(path, "the JSON ends too soon (is the file cut off?)", line)
    message = getattr(error, "msg", None) or str(error).split(":")[0]
    return ImportFailure(path, f"is not valid JSON ({_WS.sub(' ', str(message)).strip()})", line)


def _looks_like_note(record: dict[str, Any]) -> bool:
    return "title" in record or "abstract" in record or isinstance(record.get("content"), dict)


def _field(record: dict[str, Any], content: dict[str, Any] | None, name: str) -> Any:
    """`content.NAME.value` (API v2), `content.NAME` (API v1) or `NAME` (flat)."""
    if content is not None and name in content:
        value = content[name]
        if isinstance(value, dict):
            return value.get("value")
        return value
    return record.get(name)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


def _strings(value: Any, separators: str) -> tuple[str, ...]:
    """A tuple of clean strings from a list or a string, each split on `separators`."""
    if not value:
        return ()
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        text = _text(item)
        parts = [text]
        for separator in separators:
            if separator in text:
                parts = [piece for part in parts for piece in part.split(separator)]
        for part in parts:
            part = " ".join(part.split())
            if part:
                out.append(part)
    return tuple(out)


def _paper(
    record: Any,
    source: str,
    default_venue: str | None,
    default_year: int | None,
    replies: list[Any] | None = None,
    thread: dict[str, Any] | None = None,
) -> Paper | str:
    """The Paper for one note, or a message saying why there is none."""
    if not isinstance(record, dict):
        return f"skipped {_kind(record)}: not a note"
    content = record.get("content")
    if not isinstance(content, dict):
        content = None
    title = " ".join(_text(_field(record, content, "title")).split())
    abstract = _text(_field(record, content, "abstract")).strip()
    if len(abstract) < 20 and (
        not any(ch.isalpha() for ch in abstract) or abstract.lower().strip(".") in _PLACEHOLDERS
    ):
        abstract = ""
    forum = _text(record.get("forum")) or _text(record.get("id"))
    short_name = ""
    derived = False
    if not title:
        if not abstract:
            return f"skipped note {forum or '(no id)'}: it has neither title nor abstract"
        made = derive_title(abstract)
        title, short_name, derived = made.title, made.short_name, True
    venue = _WS.sub(" ", _text(_field(record, content, "venue"))).strip() or (default_venue or "")
    pid = forum or stable_id(abstract or title)
    keywords_value = _field(record, content, "keywords")
    # A list whose items hold `a; b` lists gets split on ";"; a bare string on "," too.
    keywords = _strings(keywords_value, ";" if isinstance(keywords_value, list) else ";,")
    pdf = _text(_field(record, content, "pdf")).strip()
    if pdf.startswith("/"):
        pdf = f"https://openreview.net{pdf}"
    elif not pdf.startswith(("https://", "http://")):
        pdf = ""
    venueid = _text(_field(record, content, "venueid"))
    withdrawn = record.get("withdrawn") is True or "withdrawn" in venue.lower() or venueid.endswith("Withdrawn_Submission")
    if replies is not None and not withdrawn:
        withdrawn = any(_is_withdrawal(reply) for reply in replies)
    return Paper(
        id=pid,
        title=title,
        abstract=abstract,
        authors=_strings(_field(record, content, "authors"), ""),
        venue=venue,
        year=_year(record, content, venue, default_year),
        url=f"https://openreview.net/forum?id={forum}" if forum else _text(record.get("url")).strip(),
        keywords=keywords,
        source=source,
        doi=_text(_field(record, content, "doi")).strip(),
        title_derived=derived,
        short_name=short_name,
        tldr=_text(_field(record, content, "TLDR") or _field(record, content, "tldr")).strip(),
        area=" ".join(_text(_field(record, content, "primary_area")).split()),
        pdf_url=pdf,
        withdrawn=withdrawn,
        scores=None if thread is None else summarize(thread, venue),
    )


def _is_withdrawal(reply: Any) -> bool:
    if not isinstance(reply, dict):
        return False
    invitations = reply.get("invitations")
    names = invitations if isinstance(invitations, list) else [reply.get("invitation")]
    return any(isinstance(name, str) and name.endswith("/-/Withdrawal") for name in names)


def _year(record: dict[str, Any], content: dict[str, Any] | None, venue: str, default: int | None) -> int | None:
    value = _field(record, content, "year")
    if isinstance(value, int) and not isinstance(value, bool) and 1900 <= value <= 2100:
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) == 4:
        return int(value)
    match = _VENUE_YEAR.search(venue)
    if match:
        return int(match.group(1))
    if default is not None:
        return default
    for key in ("pdate", "cdate", "tcdate"):
        stamp = record.get(key)
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0:
            try:
                return datetime.fromtimestamp(stamp / 1000, tz=UTC).year
            except (OverflowError, OSError, ValueError):
                continue
    return None
