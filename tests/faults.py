"""Faults of the disk and the OS, as tests stage them: a folder the process may not write,
a disk that runs out of space. (Imported as `tests.faults`: pytest puts the repository
root on the path.)"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def read_only(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make `folder` unwritable as the OS would report it (root ignores permission bits,
    so a chmod proves nothing when the tests run as root)."""
    real_access = os.access

    def access(path, mode, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(path).resolve() == Path(folder).resolve() and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file written from now on runs out of space when it is flushed to disk."""

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)


def no_space_for(monkeypatch: pytest.MonkeyPatch, target: Path) -> Callable[[], None]:
    """Replacing `target` fails as on a full disk (ENOSPC), for this file only; the
    returned call frees the space again."""
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(dst) == Path(target):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return lambda: monkeypatch.setattr(os, "replace", real_replace)
