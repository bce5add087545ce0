"""The OS's errors as a user reads them: the file and the reason in words, never
"[Errno 28]" and never without the file when the program knows it."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import describe_error, write_file_atomically
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper


def test_the_file_and_the_reason_in_words() -> None:
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert describe_error(full, Path("lib/x.json")) == "lib/x.json: No space left on device"
    assert describe_error(OSError(errno.EACCES, "Permission denied", "/a/b")) == "/a/b: Permission denied"
    assert describe_error(OSError(errno.EXDEV, "Invalid cross-device link", "a", None, "b")) == "a -> b: Invalid cross-device link"
    assert describe_error(OSError(errno.EACCES, "Permission denied", os.fsencode("/a/\u00e9"))) == "/a/\u00e9: Permission denied"
    # an errno without its text still comes out in words
    assert describe_error(OSError(errno.ENOSPC, None, "f")) == f"f: {os.strerror(errno.ENOSPC)}"
    # errors that already are one line (the store's, an export's) are kept as they are
    assert describe_error(OSError("out.bib: cannot write: Is a directory")) == "out.bib: cannot write: Is a directory"
    assert describe_error(ValueError("bad\nsecond line")) == "bad"


def test_a_failed_atomic_write_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
    target = tmp_path / "a.json"
    with pytest.raises(OSError) as caught:
        write_file_atomically(target, b"{}")
    assert describe_error(caught.value) == f"{target}: No space left on device"
    assert list(tmp_path.iterdir()) == []


def test_the_full_disk_notice_names_the_backup_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = Library.open(tmp_path / "lib", seed=None)
    lib.import_papers([Paper(id="p1", title="One", year=2026)])
    lib.set_notes("p1", "kept")
    lib.close()
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
    lib = Library.open(tmp_path / "lib", background_writes=True)
    try:
        assert lib.flush()  # the TUI's backup is its writer's first write
        (notice,) = lib.notices
        assert "Errno" not in notice
        backups = str(tmp_path / "lib" / "backups" / "annotations-")
        assert notice.startswith(backups) and notice.endswith(".json: No space left on device: no backup was taken"), notice
    finally:
        lib.close()
