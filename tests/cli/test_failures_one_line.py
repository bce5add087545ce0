"""Every failure of a command is one line on stderr, `reader-tui: ...`, never a traceback:
a read-only library (reading works), a full disk, a lost catalog, the OS's errors and
bugs (which say so, and show their traceback with READER_TUI_DEBUG=1)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from reader_tui import cli
from reader_tui.cli import papers, stats
from reader_tui.core.library.files import CATALOG_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from tests.faults import full_disk, read_only


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}", authors=("Ada Lovelace",), year=2026) for i in range(3)])
    lib.set_status(["p1"], Status.READ)
    return folder


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    assert err.startswith("reader-tui: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_a_read_only_library_lists_shows_and_exports_but_refuses_changes(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (db / ".lock").unlink()
    read_only(monkeypatch, db)
    before = sorted(p.name for p in db.rglob("*"))
    code, out, _ = run(capsys, "list", "--json", "--db", str(db))
    assert code == 0 and [p["id"] for p in json.loads(out)] == ["p0", "p1", "p2"]
    code, out, _ = run(capsys, "show", "p1", "--db", str(db))
    assert code == 0 and "Paper 1" in out
    code, out, _ = run(capsys, "export", "--db", str(db))
    assert code == 0 and out.count("@") == 3
    for args in (("mark", "read", "p2"), ("tag", "p2", "+x"), ("note", "p2", "--set", "n")):
        code, out, err = run(capsys, *args, "--db", str(db))
        assert code == 1 and not out
        assert str(db) in one_line_error(err) and "read-only" in err
    assert sorted(p.name for p in db.rglob("*")) == before  # not even a lock file


def test_a_full_disk_is_one_line(db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    full_disk(monkeypatch)
    code, _, err = run(capsys, "mark", "read", "p2", "--db", str(db))
    assert code == 1 and "No space left on device" in one_line_error(err) and "annotations.json" in err
    code, out, _ = run(capsys, "list", "--db", str(db))
    assert code == 0 and "p1" in out


def test_a_lost_catalog_is_refused_in_one_line_and_import_brings_it_back(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (db / CATALOG_FILE).unlink()
    code, out, err = run(capsys, "list", "--db", str(db))
    assert code == 1 and not out
    assert "catalog.json is missing" in one_line_error(err) and str(db) in err
    assert not (db / CATALOG_FILE).exists()
    bib = tmp_path / "list.bib"
    bib.write_text("@misc{k, title={Paper 1}, author={Ada Lovelace}, year={2026}}\n", encoding="utf-8")
    code, _, err = run(capsys, "import", str(bib), "--db", str(db))
    assert code == 0, err
    code, out, err = run(capsys, "list", "--db", str(db))
    assert code == 0 and out.count("\n") == 1  # the imported paper, not the bundled list


def test_an_os_error_is_one_line_naming_the_file(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fail(args):  # type: ignore[no-untyped-def]
        raise PermissionError(errno.EACCES, "Permission denied", "/somewhere/catalog.json")

    monkeypatch.setattr(papers, "cmd_list", fail)
    code, _, err = run(capsys, "list")
    assert code == 1 and one_line_error(err) == "reader-tui: /somewhere/catalog.json: Permission denied\n"


def test_a_bug_is_one_line_that_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fail(args):  # type: ignore[no-untyped-def]
        raise RuntimeError("something broke\nwith a second line")

    monkeypatch.setattr(stats, "cmd_stats", fail)
    code, _, err = run(capsys, "stats")
    assert code == 1
    assert "unexpected error: RuntimeError: something broke" in one_line_error(err)
    assert "report" in err and "READER_TUI_DEBUG=1" in err
    monkeypatch.setenv("READER_TUI_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main(["stats"])
