"""Bytes that are not UTF-8, in an argument or on standard input, are the user's mistake:
one line naming the argument (or standard input) and the byte offset, exit 2, nothing
written. File names stay any bytes: they are paths, not stored text."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from reader_tui import cli
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    lib = Library.open(folder, seed=None)
    lib.import_papers([Paper(id="p1", title="Paper one", authors=("Ada Lovelace",), year=2026)])
    lib.close()
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.suffix == ".json"}


BAD = os.fsdecode(b"ok\xff")  # as Python hands argv bytes to the program: "ok\udcff"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["tag", "p1", "+" + BAD], "+TAG"),
        (["tag", "p1", "-" + BAD], "-TAG"),
        (["tag", BAD, "+x"], "ID"),
        (["edit", "p1", "--title", BAD], "--title"),
        (["edit", "p1", "--authors", BAD], "--authors"),
        (["note", "p1", "--set", BAD], "--set"),
        (["note", "p1", "--append", BAD], "--append"),
        (["list", "--search", BAD], "--search"),
        (["show", BAD], "ID"),
    ],
)
def test_an_argument_that_is_not_utf8_is_one_line_and_changes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str], args: list[str], named: str
) -> None:
    before = _files(db)
    code = cli.main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("reader-tui: "), err
    offset = next(a for a in args if "\udcff" in a).index("\udcff")  # ASCII before it
    assert named in err and "not valid UTF-8" in err and f"byte {offset}" in err, err
    assert "bug" not in err and "Traceback" not in err
    assert out == ""
    assert _files(db) == before


@pytest.mark.parametrize("option", ["--set", "--append"])
def test_standard_input_that_is_not_utf8_is_one_line_and_changes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("note é\n".encode() + b"\xfe rest")))
    before = _files(db)
    code = cli.main(["note", "p1", option, "-", "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "standard input" in err and "not valid UTF-8" in err, err
    assert "byte 8" in err, err
    assert _files(db) == before


def test_utf8_on_standard_input_is_kept_exactly(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "🎉 שלום e\u0301 論文\t\x0b\u2028\n\nend\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode()), newline=""))
    assert cli.main(["note", "p1", "--set", "-", "--db", str(db)]) == 0
    capsys.readouterr()
    assert Library.open(db).annotation("p1").notes == text


def test_file_names_may_be_any_bytes(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / os.fsdecode(b"out\xff.bib")
    try:
        target.touch()
        target.unlink()
    except (OSError, UnicodeError):
        pytest.skip("this file system does not take such names")
    assert cli.main(["export", "-o", str(target), "--db", str(db)]) == 0
    capsys.readouterr()
    assert b"Paper one" in target.read_bytes()
