"""A TinyDB storage that never leaves a half-written file, and refuses one it cannot read.

TinyDB's own JSONStorage truncates the file and writes in place: a crash in between
leaves an empty or cut-off database. `AtomicJSONStorage` writes a temporary file in the
same folder, fsyncs it, and `os.replace`s it over the old one, so a reader sees either
the old state or the new one. A file that is not a JSON object of tables raises
`StoreError` naming the file; it is never overwritten.

A storage opened with `lines=True` (the catalog) writes one document per line
(`dump_json_lines`): still one JSON object that any JSON reader takes, in a stable order,
so a changed paper is a changed line (what a sync through git wants), and it is read line
by line (`read_json_lines`), so opening a 38 MB catalog never holds the whole file and
the parser's copy of it on top of the records (that was the TUI's peak memory).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
from tinydb.storages import Storage


class StoreError(Exception):
    """The store cannot be used as it is. `str()` is one line naming the file."""


class SaveError(StoreError, OSError):
    """A write failed (full disk, no permission...) and left the file as it was. Also an
    OSError, so code that handles the OS's write errors handles this one line too."""


class ReadOnlyError(SaveError):
    """The library's folder cannot be written (read-only mount, no write permission)."""


def describe_error(error: BaseException, path: str | os.PathLike[str] | None = None) -> str:
    """One line for an error shown to a user: for the OS's, "<file>: <reason in words>"
    (`path` names the file when the error does not; "a -> b" for a rename), never
    "[Errno 28] ..."; for any other error, the first line of its message.

    The one place the CLI, the TUI and the library turn an OSError into text."""
    if isinstance(error, OSError) and error.errno is not None:
        reason = error.strerror or os.strerror(error.errno)
        names = [os.fsdecode(n) for n in (error.filename or path, error.filename2) if n not in (None, "")]
        return f"{' -> '.join(names)}: {reason}" if names else reason
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def read_json_file(path: Path) -> Any:
    """The parsed JSON of `path`, or None when the file does not exist.

    Raises StoreError naming the file (and line) when it is unreadable or not JSON.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"{path}: cannot read: {error.strerror or error}") from None
    if not raw.strip():
        raise StoreError(f"{path}: the file is empty (a store file is never empty; was it cut off?)")
    try:
        # orjson parses the bytes as they are: a 37 MB catalog costs no decoded copy.
        return orjson.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        where = _error_line(raw, error)
        raise StoreError(f"{path}{where}: not valid JSON, so it was left untouched ({_short(error)})") from None


#: What `read_json_lines` keeps of a document of a table named in `keep`: called with the
#: document's id, the parsed document, its JSON text and where that text starts in the
#: file (None when the text is the document written again: its line had another form).
Keep = Callable[[str, Any, bytes, "int | None"], Any]


def read_json_lines(path: Path, keep: Mapping[str, Keep] | None = None) -> Any:
    """`read_json_file` for a file written by `dump_json_lines`, read one line at a time:
    memory holds the parsed documents, never the whole file (nor the parser's copy of it).

    A file of another shape (a compact or indented JSON file, a catalog written before
    this format) is parsed whole, as `read_json_file` does: it is as valid as ever, and
    the next write gives it the line shape. A document line that is not JSON is refused
    naming the file and the line (`catalog.json:1234`), which is the record's line.

    `keep` (table name -> function) says what to keep of each document of those tables
    in a file of the line shape: the function's result instead of the parsed document
    (the catalog keeps a record's text, parsed again when it is needed; the parsed
    documents would leave some 15 MB of holes at 20,000 papers once freed). It may raise
    StoreError to refuse the file. A file of another shape keeps parsed documents.
    """
    try:
        with open(path, "rb") as file:
            parsed = _parse_lines(path, file, keep or {})
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"{path}: cannot read: {error.strerror or error}") from None
    if isinstance(parsed, StoreError):
        # Not our line shape after all: a whole parse decides (valid JSON of another
        # layout is read; else its own error, or the bad line we found, is reported).
        try:
            return read_json_file(path)
        except StoreError:
            if parsed.args and parsed.args[0]:
                raise parsed from None
            raise
    return parsed


def _parse_lines(path: Path, file: Any, keep: Mapping[str, Keep]) -> dict[str, dict[str, Any]] | StoreError:
    """The tables of a `dump_json_lines` file, or a StoreError to fall back on: with a
    message when a document line failed (that line is named if the whole parse fails
    too), empty when the file has some other shape."""
    other_shape = StoreError("")
    if file.readline() != b"{\n":
        return other_shape
    position = 2  # of the line being read, in the file
    loads = orjson.loads
    dumps = orjson.dumps
    tables: dict[str, dict[str, Any]] = {}
    current: dict[str, Any] | None = None
    keeping: Keep | None = None
    closed = False
    for number, line in enumerate(file, 2):
        line_start, position = position, position + len(line)
        if closed or not line.endswith(b"\n"):
            return other_shape  # text after the end, or a last line cut off
        if current is None:
            if line == b"}\n":
                closed = True
                continue
            if not line.endswith(b":{\n"):
                return other_shape
            try:
                name = loads(line[:-3])
            except ValueError:
                return other_shape
            if type(name) is not str:
                return other_shape
            current = tables[name] = {}
            keeping = keep.get(name)
        elif line in (b"}\n", b"},\n"):
            current = None
        else:
            body = line[:-2] if line.endswith(b",\n") else line[:-1]
            try:
                # `"doc id":{...}` made an object of its own: one small parse per record
                (doc_id, document), = loads(b"{" + body + b"}").items()
            except (ValueError, UnicodeDecodeError) as error:
                return StoreError(f"{path}:{number}: not valid JSON, so it was left untouched ({_short(error)})")
            if keeping is not None:
                key = dumps(doc_id) + b":"
                if body.startswith(key):
                    text, offset = body[len(key) :], line_start + len(key)
                else:
                    text, offset = dumps(document), None
                document = keeping(doc_id, document, text, offset)
            current[doc_id] = document
    return tables if closed else other_shape


def write_file_atomically(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Replace `path` with `data` (bytes, or pieces of it written one after the other, so
    a large file never exists whole in memory) so that a crash at any moment leaves old or
    new, never half.

    Writes a temporary file in the same folder (same file system, so the rename is atomic),
    fsyncs it, renames it over `path`, then fsyncs the folder so the rename itself survives
    a power cut.
    """
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as tmp:
            if isinstance(data, bytes | bytearray | memoryview):
                tmp.write(data)
            else:
                tmp.writelines(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp_name, path)
    except BaseException as error:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError) and error.filename in (None, tmp_name):
            # A full disk fails in write() or fsync(), which name no file: name the one
            # the user knows (the temporary file is gone).
            error.filename = str(path)
        raise
    _fsync_folder(folder)


def dump_json(data: Any) -> bytes:
    """JSON bytes as the store writes them: UTF-8, compact (catalogs are large)."""
    return orjson.dumps(data)


def dump_json_lines(tables: dict[str, dict[str, Any]], *, sort: bool = False) -> Iterator[bytes]:
    """The store's `tables` as JSON, one document per line, in the tables' own order:

        {
        "_meta":{
        "1":{"format":1,"kind":"catalog"}
        },
        "papers":{
        "1":{"id":"...","title":"...",...},
        "2":{...}
        }
        }

    One JSON object (any JSON reader takes it), compact within a line, a change of one
    document a change of one line; `read_json_lines` reads it back a line at a time.
    Yields the lines, for `write_file_atomically` to write as they come. JSON strings
    never hold a raw line break (orjson escapes it), so every line is whole.

    With `sort`, tables, documents and each document's keys in sorted order (the
    annotations): the file's bytes then depend only on what it holds, never on the order
    changes came in, so two machines that hold the same annotations hold the same file
    and git diffs nothing but the changed documents."""
    if sort:
        return _dump_json_lines_sorted(tables)
    return _dump_json_lines(tables, orjson.dumps, lambda items: items)


def _dump_json_lines_sorted(tables: dict[str, dict[str, Any]]) -> Iterator[bytes]:
    def dumps(value: Any) -> bytes:
        # An annotation's paper id first (then the keys sorted): a line cut short still
        # names its paper (`doctor`'s salvage), and `git diff` shows whose line changed.
        if type(value) is dict and type(value.get("paper_id")) is str:
            rest = orjson.dumps({k: v for k, v in value.items() if k != "paper_id"}, option=orjson.OPT_SORT_KEYS)
            head = b'{"paper_id":' + orjson.dumps(value["paper_id"])
            return head + (b"}" if rest == b"{}" else b"," + rest[1:])
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)

    return _dump_json_lines(dict(sorted(tables.items())), dumps, lambda items: sorted(items, key=_doc_key))


def _doc_key(item: tuple[Any, Any]) -> tuple[int, str]:
    key = str(item[0])
    return (len(key), key) if key.isdigit() else (1 << 30, key)  # numeric ids in numeric order


def _dump_json_lines(
    tables: dict[str, dict[str, Any]], dumps: Callable[[Any], bytes], order: Callable[[Any], Iterable[Any]]
) -> Iterator[bytes]:
    yield b"{\n"
    last_table = len(tables) - 1
    for t, (name, documents) in enumerate(tables.items()):
        yield dumps(name) + b":{\n"
        last = len(documents) - 1
        for n, (doc_id, document) in enumerate(order(documents.items())):
            yield dumps(str(doc_id)) + b":" + dumps(document) + (b"\n" if n == last else b",\n")
        yield b"}\n" if t == last_table else b"},\n"
    yield b"}\n"


class AtomicJSONStorage(Storage):
    """TinyDB storage: one JSON file, written atomically, validated on read.

    TinyDB's `Table` reads the whole file before every operation and writes it after
    every change. Inside `transaction()` the file is read once and every operation works
    on that one copy, so a change of many documents (and of several tables) reaches the
    disk as one atomic write at the end, or not at all when the block raises. Outside a
    transaction each `read` parses the file afresh, so nothing stale is ever served.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, keep_written: bool = False, lines: bool = False, sort: bool = False
    ) -> None:
        self.path = Path(path)
        # With `lines`, one document per line (`dump_json_lines`), read a line at a time;
        # with `sort` as well, in sorted order (see `dump_json_lines`).
        self._lines = lines or sort
        self._sort = sort
        self._in_transaction = False
        self._writable = False
        self._held: dict[str, dict[str, Any]] | None = None
        self._dirty = False
        # With `keep_written`, the tables as this storage last wrote them and the file's
        # stat then: a transaction on a file nobody replaced since skips parsing it again.
        self._keep_written = keep_written
        self._written: tuple[tuple[int, int, int], dict[str, dict[str, Any]]] | None = None

    @contextlib.contextmanager
    def transaction(self, *, writable: bool = True) -> Iterator[None]:
        """Read the file once and serve every `read` from that copy until the block ends;
        then write it atomically if anything changed (never when the block raises).

        A read-only transaction (`writable=False`) is a consistent snapshot: writing in it
        raises. The caller holds the store's lock around a writable one."""
        if self._in_transaction:
            raise RuntimeError(f"{self.path}: transactions do not nest")
        written = self._written if writable else None
        if written is not None:
            self._written = None  # its tables are changed in place: kept again once written
        if written is not None and written[0] == _stat(self.path):
            held = written[1]  # nobody wrote since we did: no need to parse it again
        else:
            held = self._read_file()
        self._in_transaction, self._writable, self._held, self._dirty = True, writable, held, False
        try:
            yield
            if self._dirty and self._held is not None:
                write_file_atomically(self.path, self._dump(self._held))
                if self._keep_written:
                    self._written = (_stat(self.path), self._held)
            elif not self._dirty and written is not None and held is written[1]:
                self._written = written
        finally:
            self._in_transaction, self._held, self._dirty = False, None, False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._in_transaction:
            return self._held
        return self._read_file()

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if not self._in_transaction:
            write_file_atomically(self.path, self._dump(data))
            return
        if not self._writable:
            raise RuntimeError(f"{self.path}: a write inside a read-only transaction")
        self._held, self._dirty = data, True

    def close(self) -> None:
        pass

    def read_keeping(self, keep: Mapping[str, Keep]) -> dict[str, dict[str, Any]] | None:
        """`read` outside a transaction, keeping of each document of the tables named in
        `keep` what its function returns (see `read_json_lines`; storages with `lines`)."""
        return self._read_file(keep)

    def _dump(self, data: dict[str, dict[str, Any]]) -> bytes | Iterator[bytes]:
        return dump_json_lines(data, sort=self._sort) if self._lines else dump_json(data)

    def _read_file(self, keep: Mapping[str, Keep] | None = None) -> dict[str, dict[str, Any]] | None:
        data = read_json_lines(self.path, keep) if self._lines else read_json_file(self.path)
        if data is None:
            return None
        if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
            raise StoreError(f"{self.path}: not a reader-tui store (expected an object of tables)")
        return data


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _error_line(raw: bytes, error: Exception) -> str:
    pos = getattr(error, "pos", None)
    if pos is None:
        return ""
    line = raw[:pos].count(b"\n") + 1
    return f":{line}"


def _short(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:120]
