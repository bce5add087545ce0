"""A TinyDB storage that never leaves a half-written file, and refuses one it cannot read.

TinyDB's own JSONStorage truncates the file and writes in place: a crash in between
leaves an empty or cut-off database. `AtomicJSONStorage` writes a temporary file in the
same folder, fsyncs it, and `os.replace`s it over the old one, so a reader sees either
the old state or the new one. A file that is not a JSON object of tables raises
`StoreError` naming the file; it is never overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

try:  # orjson is an optional speed-up for 30 MB catalogs; plain json is the fallback.
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None


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
        if _orjson is not None:
            return _orjson.loads(raw)
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        where = _error_line(raw, error)
        raise StoreError(f"{path}{where}: not valid JSON, so it was left untouched ({_short(error)})") from None


def write_file_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash at any moment leaves old or new, never half.

    Writes a temporary file in the same folder (same file system, so the rename is atomic),
    fsyncs it, renames it over `path`, then fsyncs the folder so the rename itself survives
    a power cut.
    """
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
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
    if _orjson is not None:
        return _orjson.dumps(data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class AtomicJSONStorage(Storage):
    """TinyDB storage: one JSON file, written atomically, validated on read."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        data = read_json_file(self.path)
        if data is None:
            return None
        if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
            raise StoreError(f"{self.path}: not a reader-tui store (expected an object of tables)")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_file_atomically(self.path, dump_json(data))

    def close(self) -> None:
        pass


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
