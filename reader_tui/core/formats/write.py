"""Writing an export to a file: atomically, never over a file the user did not give up.

The exporters make text; this puts it on disk. The TUI and the CLI share it, so both
refuse the same things with the same messages.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from ..atomic_storage import write_file_atomically


class ExportError(OSError):
    """The export cannot be written where asked. `str()` is one line naming the path."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def check_destination(path: Path) -> Path:
    """The expanded, absolute `path` when an export can go there.

    Raises ExportError for a folder, a missing parent folder or a parent that is a file.
    Says nothing about a file already there: callers ask `path.exists()` to confirm.
    """
    path = Path(path).expanduser()
    if not str(path).strip():
        raise ExportError("no file name given")
    path = path.absolute()
    if path.is_dir():
        raise ExportError(f"{path}: is a folder; give a file name")
    parent = path.parent
    if not parent.exists():
        raise ExportError(f"{path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise ExportError(f"{path}: {parent} is not a folder")
    return path


def write_export(text: str, path: Path, *, force: bool) -> None:
    """Write `text` (UTF-8) to `path` atomically: a temporary file beside it, fsynced, then
    renamed over it, so a crash leaves the old file or the new one, never half of one.

    Raises FileExistsError when `path` exists and `force` is false, and ExportError (an
    OSError) naming the path when it is a folder, its folder is missing, or it cannot be written.
    """
    path = check_destination(Path(path))
    if not force and (path.exists() or path.is_symlink()):
        raise FileExistsError(errno.EEXIST, "already exists (use --force to overwrite)", str(path))
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise ExportError(f"{path}: cannot write there: permission denied")
    try:
        write_file_atomically(path, text.encode("utf-8"))
    except OSError as error:
        raise ExportError(f"{path}: cannot write: {error.strerror or error}") from None
