"""The one format of the derived indexes' cache files (search, related papers), written
with the store's durability rules.

A cache file is one header line, then the body its owner serialised:

    reader-tui <kind> <version> <python cache tag> <key> <size> <digest>\\n

`kind` names the index ("search index"), `version` its layout and rules (bumped when they
change), `key` what it was built from (a fingerprint of the papers, and of any library
whose output it holds). A load trusts the body only when the header matches what this
program would write for these papers exactly and the body has the size and digest the
header names: a stale, foreign, truncated or damaged file is never deserialised.

Writes go through `atomic_storage.write_file_atomically` (temporary file, fsync, rename,
fsync of the folder), as the store's do: a crash leaves the old cache or the new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from .atomic_storage import write_file_atomically

Buffer = Any  # bytes, an array: anything with the buffer protocol

_MAGIC = "reader-tui"
_MAX_HEADER = 512  # bytes: a longer first line is not a header of ours


def _prefix(kind: str, version: int, key: str) -> bytes:
    """The header up to the body's size and digest: what a read must match exactly."""
    return f"{_MAGIC} {kind} {version} {sys.implementation.cache_tag} {key} ".encode("ascii", "replace")


def write_cache(path: Path, kind: str, version: int, key: str, body: bytes | Sequence[Buffer]) -> bool:
    """Write `body` (bytes, or pieces of it such as arrays, written one after the other)
    to the cache file `path` under a header naming `kind`, `version` and `key` (no
    newlines in them), atomically and durably. True if written; a cache that cannot be
    written (read-only or full disk) is skipped: the next start rebuilds."""
    pieces = [body] if isinstance(body, bytes) else list(body)
    digest = hashlib.sha1(usedforsecurity=False)  # a checksum against damage, not for security
    size = 0
    for piece in pieces:
        digest.update(piece)
        size += memoryview(piece).nbytes
    header = _prefix(kind, version, key) + f"{size} {digest.hexdigest()}\n".encode("ascii")
    try:
        write_file_atomically(Path(path), [header, *pieces])
    except OSError:
        return False
    return True


def read_cache(path: Path, kind: str, version: int, key: str) -> bytes | None:
    """The body of the cache file `path` when it was written by `write_cache` with these
    `kind`, `version` and `key` (and this Python) and is whole; else None (missing,
    stale, foreign or damaged). Never raises for a bad or unreadable file."""
    with reading_cache(path, kind, version, key) as body:
        return None if body is None else body.read()


@contextlib.contextmanager
def reading_cache(path: Path, kind: str, version: int, key: str) -> Iterator[BinaryIO | None]:
    """`read_cache` as a file to read the body from (positioned at its start), so that a
    large body is read straight into its arrays (`read_array`) instead of into one bytes
    object and then copied (the copy doubled the memory a load took). The body's
    size and digest are checked first, reading it in slices; None as `read_cache`."""
    expected = _prefix(kind, version, key)
    try:
        file = open(path, "rb")  # noqa: SIM115 - closed below, after the caller's block
    except OSError:
        yield None
        return
    with file:
        if _whole(file, expected):
            yield file
        else:
            yield None


def head_piece(head: bytes) -> bytes:
    """`head` (the small serialised part of a body whose columns follow it raw) prefixed
    with its length, for `read_head_piece`."""
    return len(head).to_bytes(8, "little") + head


def read_head_piece(body: BinaryIO) -> bytes:
    """The head `head_piece` wrote, read from `body` (`reading_cache`), which is left at
    the columns. Raises ValueError for a length the file cannot hold (another layout)."""
    size = int.from_bytes(body.read(8), "little")
    if size > os.fstat(body.fileno()).st_size:
        raise ValueError("not a head written by head_piece")
    return body.read(size)


def read_array(body: BinaryIO, typecode: str, count: int) -> array:
    """An array of `count` items of `typecode` read from `body` (`reading_cache`) straight
    into its memory (`array.fromfile` reads them into a bytes object first, then copies).
    Raises EOFError when the file holds fewer."""
    result = array(typecode, [0]) * count
    if count and body.readinto(result) != count * result.itemsize:
        raise EOFError("the file ends inside an array")
    return result


def _whole(file: BinaryIO, expected: bytes) -> bool:
    """True when `file` has the header `expected` and a body of the size and digest it
    names; leaves the file at the body's start."""
    try:
        header = file.readline(_MAX_HEADER)
        if not header.startswith(expected) or not header.endswith(b"\n"):
            return False  # stale, foreign or damaged: do not read further
        size_text, digest = header[len(expected) :].decode("ascii").split()
        start, left = file.tell(), int(size_text)
        check = hashlib.sha1(usedforsecurity=False)
        while left > 0:
            chunk = file.read(min(left, 1 << 20))
            if not chunk:
                return False  # truncated
            check.update(chunk)
            left -= len(chunk)
        if file.read(1) or check.hexdigest() != digest:
            return False  # extended or damaged
        file.seek(start)
    except (OSError, ValueError):
        return False
    return True


__all__ = ["head_piece", "read_array", "read_cache", "read_head_piece", "reading_cache", "write_cache"]
