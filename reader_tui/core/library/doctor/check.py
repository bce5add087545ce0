"""Checking a store folder, file by file, without changing anything.

`check_store` never opens a `Library` (which refuses a damaged store): it reads each file
on its own and records, one line per finding, what is wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...atomic_storage import StoreError, read_json_file
from ...model import Annotation, Paper
from ...text.words import counted
from ..files import (
    ANNOTATIONS_FILE,
    ANNOTATIONS_TABLE,
    BACKUP_DIR,
    CATALOG_FILE,
    PAPERS_TABLE,
    annotation_doc_id,
    check_meta,
    list_backups,
)


@dataclass(slots=True)
class FileCheck:
    """What reading one store file found.

    `problems` are reasons the store would refuse the file (one line each, naming it);
    `remarks` are harmless oddities worth knowing. `ids` are the paper ids it holds.
    """

    path: Path
    kind: str
    exists: bool = True
    records: int = 0
    problems: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        """True when the file is absent or fully readable."""
        return not self.problems


@dataclass(slots=True)
class DoctorReport:
    """The state of one store folder."""

    folder: Path
    catalog: FileCheck
    annotations: FileCheck
    backups: list[FileCheck]
    orphans: int = 0
    leftovers: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the store opens and holds nothing unreadable."""
        return not self.all_problems

    @property
    def all_problems(self) -> list[str]:
        return self.problems + self.catalog.problems + self.annotations.problems

    @property
    def good_backups(self) -> list[Path]:
        """Backups that pass the check, newest first."""
        return [b.path for b in self.backups if b.ok]

    @property
    def annotations_restorable(self) -> bool:
        """True when the annotations file is damaged (or lost) and a good backup exists."""
        lost = not self.annotations.exists and bool(self.backups)
        return (not self.annotations.ok or lost) and bool(self.good_backups)


def check_file(path: Path, kind: str) -> FileCheck:
    """Read one store file of `kind` ("catalog" or "annotations") and check every record.

    Never raises for a bad file: what is wrong goes into `problems`.
    """
    check = FileCheck(Path(path), kind)
    try:
        data = read_json_file(check.path)
    except StoreError as error:
        check.problems.append(str(error))
        return check
    if data is None:
        check.exists = False
        return check
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        check.problems.append(f"{path}: not a reader-tui store (expected an object of tables)")
        return check
    try:
        check_meta(check.path, data, kind)
    except StoreError as error:
        check.problems.append(str(error))
        return check
    if kind == "catalog":
        _check_papers(check, data.get(PAPERS_TABLE, {}))
    else:
        _check_annotations(check, data.get(ANNOTATIONS_TABLE, {}))
    return check


def _check_papers(check: FileCheck, table: dict[str, Any]) -> None:
    for doc_id, record in table.items():
        try:
            paper = Paper.from_dict(record)
        except (TypeError, ValueError) as error:
            check.problems.append(f"{check.path}: paper record {doc_id}: {error}")
            continue
        if paper.id in check.ids:
            check.remarks.append(f"{check.path}: paper {paper.id} is recorded twice (the later record is used)")
        check.ids.add(paper.id)
        check.records += 1
    _limit(check)


def _check_annotations(check: FileCheck, table: dict[str, Any]) -> None:
    misplaced = 0
    for doc_id, record in table.items():
        pid = record.get("paper_id") if isinstance(record, dict) else None
        if not isinstance(pid, str):
            check.problems.append(f"{check.path}: annotation {doc_id} names no paper")
            continue
        try:
            Annotation.from_dict(record)
        except (TypeError, ValueError) as error:
            check.problems.append(f"{check.path}: annotation of paper {pid}: {error}")
            continue
        # Writes find a paper's record by this derived id; one stored elsewhere would be
        # shadowed by a second record at the right place on the next change.
        if doc_id != annotation_doc_id(pid):
            misplaced += 1
        check.ids.add(pid)
        check.records += 1
    if misplaced:
        check.remarks.append(f"{check.path}: {counted(misplaced, 'annotation')} stored under an unexpected record id")
    _limit(check)


def _limit(check: FileCheck, most: int = 20) -> None:
    # A file with thousands of bad records should not print thousands of lines.
    if len(check.problems) > most:
        extra = len(check.problems) - most
        del check.problems[most:]
        check.problems.append(f"{check.path}: ... and {extra} more bad records")


def check_store(folder: Path) -> DoctorReport:
    """Check the store in `folder`: each file readable, of a known format, every record valid;
    orphan annotations counted; backups checked; temporary files of interrupted writes found.
    Changes nothing."""
    folder = Path(folder)
    problems: list[str] = []
    if folder.exists() and not folder.is_dir():
        problems.append(f"{folder}: the store must be a folder, and this is a file")
    catalog = check_file(folder / CATALOG_FILE, "catalog")
    annotations = check_file(folder / ANNOTATIONS_FILE, "annotations")
    backups = [check_file(path, "annotations") for path in list_backups(folder)]
    report = DoctorReport(folder, catalog, annotations, backups, problems=problems)
    if not folder.exists():
        report.remarks.append(f"{folder}: no store here yet (it is made on first use)")
    if catalog.ok and annotations.ok and catalog.exists:
        report.orphans = len(annotations.ids - catalog.ids)
    if not annotations.exists and backups:
        problems.append(
            f"{annotations.path}: missing, yet {counted(len(backups), 'backup')} exist (was it deleted or moved?)"
        )
    if not catalog.exists and catalog.ok and annotations.ok and annotations.records:
        # What Library.open refuses: a lost catalog must not pass for a new store.
        catalog.problems.append(
            f"{catalog.path}: missing, yet annotations.json holds {counted(annotations.records, 'annotation')} "
            "(was it deleted or moved?); there is no backup of the catalog: import your paper lists "
            "again with `reader-tui import FILE...` (the annotations reattach by paper id)"
        )
    if folder.is_dir():
        report.leftovers = sorted(folder.glob(".*.tmp")) + sorted((folder / BACKUP_DIR).glob(".*.tmp"))
        from ..reviews_store import REVIEWS_FILE, ReviewStore

        damaged = ReviewStore(folder / REVIEWS_FILE).check()
        if damaged is not None:
            # Not repaired: the reviews come back by importing the file of reviews again
            # once the damaged store is moved aside.
            problems.append(f"{damaged}; move it aside and import the reviews again")
    return report
