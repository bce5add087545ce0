"""Writing an export to a file: atomically, never over a file the user did not give up.

The exporters make text; this puts it on disk. The TUI and the CLI share it, so both
refuse the same things with the same messages.

A regular file is replaced atomically (through a symlink: its target is replaced, the link
stays); a device, FIFO or an open descriptor (`/dev/stdout`) is written into, as a shell's
`>` would, since renaming a file over it would replace it, not write to it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def memoized(memo: dict | None, paper, options: tuple, make):
    """`make()`, the text of one paper's entry, remembered in `memo` (paper id -> its
    inputs and text) while the paper, its annotation and `options` stay the same objects
    or equal: an export made again after one change renders one entry, not every one
    (a file kept up to date; 4 s for 19,630 BibTeX entries, 0.1 s with the memo)."""
    if memo is None:
        return make()
    token = (paper.paper, paper.annotation, options)
    found = memo.get(paper.id)
    if found is not None and found[0] == token:  # identical objects compare at once
        return found[1]
    text = make()
    memo[paper.id] = (token, text)
    return text


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
    """Write `text` (UTF-8) to `path`.

    A regular file (new, or replaced with `force`) is written atomically: a temporary file
    beside it, fsynced, then renamed over it, so a crash leaves the old file or the new
    one, never half of one. A new file gets the usual permissions (0666 less the umask), a
    replaced one keeps its own. A symlink is followed: its target is replaced, the link
    stays. Anything else that exists (a device, a FIFO, `/dev/stdout`) is opened and
    written into, without `force`: nothing there is lost by it.

    Raises FileExistsError when a regular file (or a dangling link) is at `path` and
    `force` is false, and ExportError (an OSError) naming the path when it is a folder, its
    folder is missing, or it cannot be written (a full device, a socket, a closed FIFO).
    """
    path = check_destination(Path(path))
    data = text.encode("utf-8")
    if _is_stream(path):
        try:
            _write_into(path, data)
        except OSError as error:
            raise ExportError(f"{path}: cannot write: {error.strerror or error}") from None
        return
    if not force and (path.exists() or path.is_symlink()):
        raise FileExistsError(errno.EEXIST, "already exists (use --force to overwrite)", str(path))
    # Through a symlink (or several): replace the file the user's link points at, not the
    # link, which would silently turn into a copy while its target kept the old text.
    target = Path(os.path.realpath(path))
    if not target.parent.is_dir():
        raise ExportError(f"{path}: the folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise ExportError(f"{path}: cannot write there: permission denied")
    try:
        _replace_atomically(target, data)
    except OSError as error:
        raise ExportError(f"{path}: cannot write: {error.strerror or error}") from None


def _is_stream(path: Path) -> bool:
    """Whether `path` is something to write into rather than replace: an existing
    non-regular file (device, FIFO, socket), or a link into /proc's open descriptors
    (`/dev/stdout`, `/dev/fd/1`), where the data belongs to whatever the descriptor is."""
    try:
        mode = os.stat(path).st_mode  # follows links
    except OSError:
        return False  # nothing there yet, or a dangling link
    if not stat.S_ISREG(mode):
        return True
    current = str(path)
    for _hop in range(40):  # the kernel's own limit on a chain of links
        if os.path.realpath(os.path.dirname(current)).startswith(("/proc/", "/dev/fd/")):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.join(os.path.dirname(current), os.readlink(current))
    return False


def _write_into(path: Path, data: bytes) -> None:
    """Open `path` (which exists) and write all of `data` into it. A regular file reached
    through a descriptor (`-o /dev/stdout >> log`) is appended to, as stdout would be."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fsync(fd)
    finally:
        os.close(fd)


def _replace_atomically(path: Path, data: bytes) -> None:
    """Replace (or create) the regular file `path` with `data` through a temporary file
    in its folder. Not `storage.write_file_atomically`: its mkstemp files are 0600, right
    for the store, wrong for a file the user shares; created here with 0666, the kernel
    applies the umask (reading the umask from Python is not thread-safe)."""
    try:
        keep_mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        keep_mode = None
    folder = path.parent
    for attempt in range(100):
        tmp = folder / f".{path.name}.{os.getpid()}.{attempt}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))
    try:
        with os.fdopen(fd, "wb") as out:
            if keep_mode is not None:
                os.fchmod(out.fileno(), keep_mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    """Make the rename survive a power cut (best effort: not every platform can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
