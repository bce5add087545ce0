"""Writing an export: atomic, never over an existing file without force, clear errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reader_tui.core.formats.write import ExportError, write_export


def test_writes_utf8_text(tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    write_export("@misc{k, title={Café}}\n", target, force=False)
    assert target.read_text(encoding="utf-8") == "@misc{k, title={Café}}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bib"]  # no temporary file left


def test_refuses_an_existing_file_without_force(tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    target.write_text("keep me")
    with pytest.raises(FileExistsError) as info:
        write_export("new", target, force=False)
    assert str(target) in str(info.value)
    assert target.read_text() == "keep me"
    write_export("new", target, force=True)
    assert target.read_text() == "new"


def test_a_folder_is_refused_naming_the_path(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="is a folder") as info:
        write_export("x", tmp_path, force=True)
    assert str(tmp_path) in str(info.value)
    assert isinstance(info.value, OSError)


def test_a_missing_parent_folder_is_refused_not_created(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "out.bib"
    with pytest.raises(ExportError, match="does not exist") as info:
        write_export("x", target, force=False)
    assert str(target) in str(info.value)
    assert not target.parent.exists()


def test_a_parent_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ExportError, match="not a folder"):
        write_export("x", tmp_path / "file" / "out.bib", force=False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into read-only folders")
def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ExportError, match="cannot write") as info:
            write_export("x", folder / "out.bib", force=False)
        assert str(folder / "out.bib") in str(info.value)
    finally:
        folder.chmod(0o700)


def test_a_failing_write_leaves_the_old_file_and_names_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.bib"
    target.write_text("old")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(ExportError, match="No space left") as info:
        write_export("new", target, force=True)
    assert str(target) in str(info.value)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bib"]


def test_expands_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    write_export("x", Path("~/list.md"), force=False)
    assert (tmp_path / "list.md").read_text() == "x"


def test_an_empty_name_is_refused() -> None:
    with pytest.raises(ExportError):
        write_export("x", Path(""), force=False)


def test_a_symlink_is_followed_its_target_replaced_and_the_link_kept(tmp_path: Path) -> None:
    real = tmp_path / "shared" / "refs.bib"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "lnk.bib"
    link.symlink_to(real)
    with pytest.raises(FileExistsError):
        write_export("new", link, force=False)
    write_export("new", link, force=True)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["refs.bib"]  # no temporary file left


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "pipe.bib"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as pipe:
            received.append(pipe.read())

    reader = threading.Thread(target=read)
    reader.start()
    # Without --force: writing into a FIFO replaces nothing, as `cmd > fifo` in a shell.
    write_export("@misc{k}\n", fifo, force=False)
    reader.join(timeout=30)
    assert not reader.is_alive()
    assert received == [b"@misc{k}\n"]
    assert fifo.is_fifo()


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_export("x", tmp_path / "a.bib", force=False)
        os.umask(0o027)
        write_export("x", tmp_path / "b.bib", force=False)
    finally:
        os.umask(old)
    assert (tmp_path / "a.bib").stat().st_mode & 0o7777 == 0o644
    assert (tmp_path / "b.bib").stat().st_mode & 0o7777 == 0o640


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    target.write_text("old")
    target.chmod(0o664)
    old = os.umask(0o077)
    try:
        write_export("new", target, force=True)
    finally:
        os.umask(old)
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o7777 == 0o664
