"""`doctor`: checking a store file by file, and restoring damaged annotations from a backup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.cli.doctor import run_doctor
from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.doctor import check_store, report_lines, restore_from_backup
from reader_tui.core.library.files import ANNOTATIONS_FILE, CATALOG_FILE, list_backups
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store with two sessions behind it, so there is a backup holding p1 read."""
    folder = tmp_path / "db"
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(5)])
    lib.set_status(["p1"], Status.READ)
    lib.set_notes("p2", "my notes")
    Library.open(folder, background_writes=True).close()  # the next TUI session start takes the backup
    return folder


def test_a_healthy_store_is_ok(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = check_store(db)
    assert report.ok
    assert report.catalog.records == 5 and report.annotations.records == 2
    assert report.orphans == 0 and len(report.good_backups) == 1
    assert run_doctor(db, restore=False) == 0
    out = capsys.readouterr().out
    assert "ok, 5 papers" in out and "ok, 2 annotations" in out and "the store is fine" in out


def test_a_new_store_is_ok(tmp_path: Path) -> None:
    Library.open(tmp_path / "db")
    report = check_store(tmp_path / "db")
    assert report.ok and not report.catalog.exists and not report.backups


@pytest.mark.parametrize(
    "content, says",
    [
        ("", "empty"),
        ('{"_meta": {"1": {"format": 1, "kind": "annot', "not valid JSON"),
        ("[1, 2]", "not a reader-tui store"),
        ('{"annotations": {}}', "no format version"),
        ('{"_meta": {"1": {"format": 99, "kind": "annotations"}}}', "newer reader-tui"),
        ('{"_meta": {"1": {"format": 1, "kind": "catalog"}}}', "'catalog' file where the annotations belongs"),
        ('{"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": {"7": {"notes": "x"}}}', "names no paper"),
        (
            '{"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": {"7": {"paper_id": "p1", "tags": "a"}}}',
            "annotation of paper p1: tags must be a list",
        ),
    ],
)
def test_damage_is_named_in_one_line(db: Path, content: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    (db / ANNOTATIONS_FILE).write_text(content)
    report = check_store(db)
    assert not report.ok and report.annotations_restorable
    problem = report.annotations.problems[0]
    assert says in problem and str(db / ANNOTATIONS_FILE) in problem and "\n" not in problem
    # The doctor agrees with the store itself: what it calls damaged does not open.
    with pytest.raises(StoreError):
        Library(db)
    assert run_doctor(db, restore=False) == 1
    out = capsys.readouterr().out
    assert says in out and "doctor --restore" in out
    assert (db / ANNOTATIONS_FILE).read_text() == content  # a check changes nothing


def test_restore_puts_back_the_newest_good_backup_and_keeps_the_damaged_file(db: Path) -> None:
    damaged = b'{"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": {'
    (db / ANNOTATIONS_FILE).write_bytes(damaged)
    result = restore_from_backup(db)
    assert result.ok and result.restored_from == list_backups(db)[0]
    assert len(result.moved_aside) == 1 and result.moved_aside[0].read_bytes() == damaged
    assert all(str(db) in m or "annotations" in m for m in result.messages)
    lib = Library.open(db)
    assert lib.view("p1").status is Status.READ and lib.view("p2").notes == "my notes"
    assert check_store(db).ok


def test_restore_skips_backups_that_are_damaged_too(db: Path) -> None:
    lib = Library.open(db)
    lib.set_notes("p3", "newer")
    Library.open(db, background_writes=True).close()  # a second, newer backup
    good_old, newest = list_backups(db)[1], list_backups(db)[0]
    newest.write_text("{ truncated")
    (db / ANNOTATIONS_FILE).write_text("")
    result = restore_from_backup(db)
    assert result.restored_from == good_old
    assert Library.open(db).view("p2").notes == "my notes"
    assert newest.read_text() == "{ truncated"  # a bad backup is left alone too


def test_without_a_good_backup_nothing_is_moved(db: Path) -> None:
    for backup in list_backups(db):
        backup.write_text("nope")
    (db / ANNOTATIONS_FILE).write_text("nope")
    result = restore_from_backup(db)
    assert not result.ok and result.restored_from is None and not result.moved_aside
    assert (db / ANNOTATIONS_FILE).read_text() == "nope"
    assert "no backup passes the check" in result.messages[0]
    assert run_doctor(db, restore=True) == 1


def test_a_lost_annotations_file_is_restorable(db: Path) -> None:
    (db / ANNOTATIONS_FILE).unlink()
    report = check_store(db)
    assert not report.ok and "missing" in report.problems[0]
    assert run_doctor(db, restore=True) == 0
    assert Library.open(db).view("p1").status is Status.READ


def test_two_restores_in_one_second_keep_both_damaged_files(db: Path) -> None:
    (db / ANNOTATIONS_FILE).write_text("first damage")
    first = restore_from_backup(db).moved_aside[0]
    (db / ANNOTATIONS_FILE).write_text("second damage")
    second = restore_from_backup(db).moved_aside[0]
    assert first != second
    assert first.read_text() == "first damage" and second.read_text() == "second damage"


def test_a_damaged_catalog_is_moved_aside_and_annotations_reattach(db: Path) -> None:
    (db / CATALOG_FILE).write_text('{"_meta": {"1": {"format": 1, "kind": "catalog"}}, "papers": {"1": {"id": 5}}}')
    report = check_store(db)
    assert not report.ok and "paper record 1" in report.catalog.problems[0]
    assert not report.annotations_restorable  # the annotations are fine
    result = restore_from_backup(db)
    assert result.ok and result.restored_from is None and len(result.moved_aside) == 1
    assert "import your paper lists again" in result.messages[0]
    with pytest.raises(StoreError, match="catalog.json is missing"):
        Library.open(db)  # never a new, empty (or seeded) library over the annotations
    lib = Library.open(db, rebuilding_catalog=True)  # as `reader-tui import` opens it
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(5)])
    assert lib.view("p1").status is Status.READ


def test_orphans_and_leftover_temp_files_are_reported_not_problems(db: Path) -> None:
    data = json.loads((db / ANNOTATIONS_FILE).read_text())
    record = next(iter(data["annotations"].values()))
    data["annotations"]["123"] = {**record, "paper_id": "gone"}
    (db / ANNOTATIONS_FILE).write_text(json.dumps(data))
    (db / ".annotations.json.abc.tmp").write_text("half")
    report = check_store(db)
    assert report.ok and report.orphans == 1 and len(report.leftovers) == 1
    text = "\n".join(report_lines(report))
    assert "1 annotation of papers not in the catalog" in text
    assert "1 temporary file left" in text
    assert "unexpected record id" in text  # "123" is not where writes would look for it


def test_a_folder_that_is_a_file_or_missing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert not check_store(tmp_path / "file").ok
    assert not restore_from_backup(tmp_path / "file").ok
    missing = check_store(tmp_path / "missing")
    assert missing.ok and "no store here yet" in report_lines(missing)[0]


@pytest.fixture
def eight(tmp_path: Path) -> Path:
    """The issue's store: a backup holding 1 annotation, then 7 more annotated, then the
    annotations file cut off by a crash in the middle of its last records."""
    folder = tmp_path / "eight"
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(10)])
    lib.set_notes("p0", "old note")
    Library.open(folder, background_writes=True).close()  # the (older) backup: 1 annotation
    lib = Library.open(folder)
    lib.set_notes("p0", "newer note")
    for i in range(1, 8):
        lib.set_notes(f"p{i}", f"note {i} 🎉 שלום")
    raw = (folder / ANNOTATIONS_FILE).read_bytes()
    ids = json.loads(raw)["annotations"]
    assert len(ids) == 8
    # Cut the file in the middle of the record of the last annotation written (p7), just
    # after its paper id: the file names 8 annotations and holds 7 whole ones.
    # p7's line moved last (the file keeps annotations in a stable order, not the order
    # they were written), so that the crash cuts the last annotation written.
    lines = raw.split(b"\n")
    start = lines.index(b'"annotations":{') + 1
    end = lines.index(b"}", start)
    records = [line.rstrip(b",") for line in lines[start:end]]
    records.sort(key=lambda line: b'"paper_id":"p7"' in line)
    lines[start:end] = [line + b"," for line in records[:-1]] + records[-1:]
    raw = b"\n".join(lines)
    cut = raw.index(b",", raw.rindex(b'"paper_id"')) + 4
    (folder / ANNOTATIONS_FILE).write_bytes(raw[:cut])
    return folder


def test_a_restore_says_what_it_keeps_and_loses_before_it_changes_anything(
    eight: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = (eight / ANNOTATIONS_FILE).read_bytes()
    assert run_doctor(eight, restore=False) == 1
    out = capsys.readouterr().out
    # Cut short: what lay past the cut is unknown, so no count of the lost looks exact.
    assert "7 annotations can still be read from it; the part after byte" in out
    assert "holding 1 annotation" in out
    assert "restoring keeps 7 annotations" in out and "backup alone would keep 1" in out
    assert "cannot be recovered from it (among them papers p7); how many there were is unknown" in out
    # Without a terminal to ask on, --restore without --yes changes nothing.
    assert run_doctor(eight, restore=True) == 1
    assert "nothing changed" in capsys.readouterr().out
    assert (eight / ANNOTATIONS_FILE).read_bytes() == damaged


def test_a_restore_keeps_the_readable_part_merged_with_the_backup(eight: Path) -> None:
    damaged = (eight / ANNOTATIONS_FILE).read_bytes()
    assert run_doctor(eight, restore=True, yes=True) == 0
    lib = Library.open(eight)
    notes = {pid: lib.view(pid).notes for pid in lib.papers if lib.view(pid).notes}
    assert notes["p0"] == "newer note"  # the damaged file's later change beats the backup's
    assert len(notes) == 7 and all(notes[f"p{i}"] == f"note {i} 🎉 שלום" for i in range(1, 7))
    aside = list(eight.glob("annotations.damaged-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # moved aside, never deleted
    assert check_store(eight).ok


def test_salvage_alone_restores_when_no_backup_is_good(eight: Path) -> None:
    for backup in list_backups(eight):
        backup.write_text("nope")
    result = restore_from_backup(eight)
    assert result.ok and result.restored_from is None
    assert Library.open(eight).view("p3").notes == "note 3 🎉 שלום"


def test_a_lost_catalog_is_a_problem_the_doctor_names(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (db / CATALOG_FILE).unlink()
    report = check_store(db)
    assert not report.ok
    problem = report.catalog.problems[0]
    assert "missing" in problem and "2 annotations" in problem and "reader-tui import" in problem
    assert run_doctor(db, restore=True, yes=True) == 1  # there is nothing to restore it from
    assert "reader-tui import" in capsys.readouterr().out
    assert not (db / CATALOG_FILE).exists()


def test_salvage_reads_whole_documents_only_and_never_raises() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from reader_tui.core.library.doctor.salvage import salvage_annotations

    raw = (
        b'{"_meta":{"1":{"format":1,"kind":"annotations"}},"annotations":{'
        b'"11":{"paper_id":"a","notes":"quote \\"12\\": { inside"},'
        b'"12":{"paper_id":"b","tags":["bad \xff byte"]},'
        b'"13":{"paper_id":"c","notes":"\\u00e9 \xf0\x9f\x8e\x89"},"14":{"paper_id":"d","no'
    )
    found = salvage_annotations(raw)
    assert sorted(found.annotations) == ["a", "c"] and found.named == {"a", "b", "c", "d"}
    assert found.annotations["c"].notes == "é 🎉"

    @settings(max_examples=200, deadline=None)
    @given(st.binary(max_size=300), st.integers(0, len(raw)))
    def never_raises(noise: bytes, cut: int) -> None:
        salvage_annotations(raw[:cut] + noise + raw[cut:])

    never_raises()


def test_a_backups_age_is_read_from_its_name_not_from_when_the_library_was_copied(db: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from reader_tui.core.library.doctor import plan_annotations_restore, plan_lines
    from reader_tui.core.library.files import BACKUP_STAMP

    # A backup taken three days ago, in a library copied just now (every file's
    # modification time is the copy's): doctor says three days, not a few seconds.
    backup = list_backups(db)[0]
    taken = datetime.now(UTC) - timedelta(days=3)
    backup.rename(backup.with_name(f"annotations-{taken.strftime(BACKUP_STAMP)}.json"))
    (db / ANNOTATIONS_FILE).write_bytes(b"{ damaged")
    plan = plan_annotations_restore(db)
    assert plan is not None and abs(plan.backup_age_s - 3 * 86400) < 60
    assert any("taken 3.0 days ago" in line for line in plan_lines(plan))


def test_backup_time_reads_the_stamp_to_the_microsecond_and_falls_back_to_the_file_time(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from reader_tui.core.library.files import BACKUP_STAMP, backup_time

    taken = datetime(2026, 2, 28, 23, 59, 58, 123456, tzinfo=UTC)
    named = tmp_path / f"annotations-{taken.strftime(BACKUP_STAMP)}.json"
    named.write_text("{}", encoding="utf-8")
    assert backup_time(named) == taken.timestamp()
    for odd in ("annotations-20261301T000000000000Z", "annotations-2026-12-01", "annotations-x", "notes"):
        unstamped = tmp_path / f"{odd}.json"
        unstamped.write_text("{}", encoding="utf-8")
        assert backup_time(unstamped) == unstamped.stat().st_mtime


def test_a_restored_annotations_file_is_laid_out_as_the_store_writes_it(eight: Path) -> None:
    """Issue 30, item 8c: the restore wrote the annotations as one long line, so the next
    sync's diff was the whole file. It is written as the store writes it (one annotation
    a line, in sorted order): a change after the restore is a change of one line."""
    assert restore_from_backup(eight).ok
    restored = (eight / ANNOTATIONS_FILE).read_bytes()
    lib = Library.open(eight)
    lib.set_notes("p0", "newer note")  # what it holds already: the store writes it again
    lib.set_notes("p0", "newer note, edited")
    lib.close()
    after = (eight / ANNOTATIONS_FILE).read_bytes()
    assert len(restored.splitlines()) == len(after.splitlines()) > 8
    changed = [pair for pair in zip(restored.splitlines(), after.splitlines(), strict=True) if pair[0] != pair[1]]
    assert len(changed) == 1 and b'"paper_id":"p0"' in changed[0][0]
