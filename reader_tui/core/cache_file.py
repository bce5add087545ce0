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

import hashlib
import sys
from pathlib import Path

from .atomic_storage import write_file_atomically

_MAGIC = "reader-tui"
_MAX_HEADER = 512  # bytes: a longer first line is not a header of ours


def _prefix(kind: str, version: int, key: str) -> bytes:
    """The header up to the body's size and digest: what a read must match exactly."""
    return f"{_MAGIC} {kind} {version} {sys.implementation.cache_tag} {key} ".encode("ascii", "replace")


def _digest(body: bytes) -> str:
    # sha1 as a checksum against damage, not for security: the fastest hashlib digest here
    return hashlib.sha1(body, usedforsecurity=False).hexdigest()


def write_cache(path: Path, kind: str, version: int, key: str, body: bytes) -> bool:
    """Write `body` to the cache file `path` under a header naming `kind`, `version` and
    `key` (no newlines in them), atomically and durably. True if written; a cache that
    cannot be written (read-only or full disk) is skipped: the next start rebuilds."""
    header = _prefix(kind, version, key) + f"{len(body)} {_digest(body)}\n".encode("ascii")
    try:
        write_file_atomically(Path(path), header + body)
    except OSError:
        return False
    return True


def read_cache(path: Path, kind: str, version: int, key: str) -> bytes | None:
    """The body of the cache file `path` when it was written by `write_cache` with these
    `kind`, `version` and `key` (and this Python) and is whole; else None (missing,
    stale, foreign or damaged). Never raises for a bad or unreadable file."""
    expected = _prefix(kind, version, key)
    try:
        with open(path, "rb") as f:
            header = f.readline(_MAX_HEADER)
            if not header.startswith(expected) or not header.endswith(b"\n"):
                return None  # stale, foreign or damaged: do not read further
            size, digest = header[len(expected) :].decode("ascii").split()
            body = f.read(int(size) + 1)
    except (OSError, ValueError):
        return None
    if len(body) != int(size) or _digest(body) != digest:
        return None  # truncated, extended or damaged
    return body


__all__ = ["read_cache", "write_cache"]
