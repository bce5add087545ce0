"""Paths inside the library's folder, checked before they are written or read: a synced
library's folder is partly written by git from what other people pushed, so a name in it
may be a symbolic link (to a file or folder elsewhere, or to nothing) made to turn a
write of the library's into a write outside it, or a read into a leak.

`sync.guard` keeps links out of what a sync takes in; these checks are the second wall,
for a folder that got one some other way (a sync of an older reader-tui, a plain `git
pull`, a hand-made link).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..atomic_storage import StoreError


def check_inside(folder: Path, path: Path) -> Path:
    """`path`, after making sure that writing it writes inside `folder`: no name on the
    way from the folder to it is a symbolic link, so it resolves under the folder (the
    folder itself may be reached through a link: the user chose it). Raises StoreError
    naming the path otherwise."""
    folder, path = Path(folder), Path(path)
    try:
        relative = path.relative_to(folder)
    except ValueError:
        raise StoreError(f"{path}: outside the library's folder {folder}, so it was not written") from None
    current = folder
    for part in relative.parts:
        if part in ("..", "."):
            raise StoreError(f"{path}: names a folder above the library's, so it was not written")
        current = current / part
        if current.is_symlink():
            raise StoreError(
                f"{current}: a symbolic link inside the library (to {_target(current)}), so nothing was written "
                f"through it; remove it (`rm {current}`) if you did not make it"
            )
    return path


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of `path`, read without following a symbolic link, only when it is a
    regular file of at most `limit` bytes. Raises OSError for a link, a missing file or
    anything that is not a regular file, and StoreError for a file over the limit."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path}: not a regular file")
        if info.st_size > limit:
            raise StoreError(f"{path}: {info.st_size // (1024 * 1024)} MB, more than such a file may hold")
        with os.fdopen(os.dup(fd), "rb") as stream:
            return stream.read(limit + 1)[:limit]
    finally:
        os.close(fd)


def _target(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"
