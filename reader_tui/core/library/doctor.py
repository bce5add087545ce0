"""Check a store folder file by file, and repair damaged annotations from what can be read.

`check_store` never changes anything and never opens a `Library` (which refuses a damaged
store): it reads each file on its own and says, one line per finding, what is wrong and
where. `plan_annotations_restore` says, before anything changes, what a repair keeps and
loses: the annotations still readable in the damaged file (`salvage`), the newest backup
that passes the check, and the two together (a paper's readable record, else the
backup's). Then
`restore_from_backup` does it under the store's lock, moving the damaged file aside
(never deleting it). The catalog has no backups (it can be imported again from the paper
lists, and annotations are keyed by stable paper ids), so a damaged catalog is only
moved aside, and a missing one is reported with what to do.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic_storage import StoreError, dump_json, read_json_file, write_file_atomically
from ..model import Annotation, Paper
from .files import (
    ANNOTATIONS_FILE,
    ANNOTATIONS_TABLE,
    BACKUP_DIR,
    CATALOG_FILE,
    PAPERS_TABLE,
    SETTINGS_TABLE,
    StoreFiles,
    annotation_doc_id,
    check_meta,
    list_backups,
    new_tables,
    restore_backup,
    unique_aside_name,
)
from .salvage import salvage_annotations


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

    def lines(self) -> list[str]:
        """The report as one-line messages, problems first."""
        out = list(self.all_problems) + self.remarks
        for check in (self.catalog, self.annotations):
            if not check.exists:
                if check.ok:
                    out.append(f"{check.path}: not there yet (a new store)")
            elif check.ok:
                noun = "papers" if check.kind == "catalog" else "annotations"
                out.append(f"{check.path}: ok, {check.records} {noun}")
            out.extend(check.remarks)
        if self.orphans:
            out.append(
                f"{self.annotations.path}: {self.orphans} annotations of papers not in the catalog "
                "(kept; they reattach when those papers are imported)"
            )
        good = len(self.good_backups)
        if self.backups:
            out.append(f"{self.folder / BACKUP_DIR}: {good} of {len(self.backups)} backups good")
            out.extend(p for b in self.backups for p in b.problems)
        else:
            out.append(f"{self.folder / BACKUP_DIR}: no backups yet")
        if self.leftovers:
            out.append(
                f"{self.folder}: {len(self.leftovers)} temporary files left by interrupted writes "
                "(harmless; safe to delete when reader-tui is not running)"
            )
        return out


@dataclass(slots=True)
class RestoreResult:
    """What `restore_from_backup` did. `messages` are one line each, naming files."""

    ok: bool
    restored_from: Path | None = None
    moved_aside: list[Path] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


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
        check.remarks.append(f"{check.path}: {misplaced} annotations stored under an unexpected record id")
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
            f"{annotations.path}: missing, yet {len(backups)} backups exist (was it deleted or moved?)"
        )
    if not catalog.exists and catalog.ok and annotations.ok and annotations.records:
        # What Library.open refuses: a lost catalog must not pass for a new store.
        catalog.problems.append(
            f"{catalog.path}: missing, yet annotations.json holds {annotations.records} annotations "
            "(was it deleted or moved?); there is no backup of the catalog: import your paper lists "
            "again with `reader-tui import FILE...` (the annotations reattach by paper id)"
        )
    if folder.is_dir():
        report.leftovers = sorted(folder.glob(".*.tmp")) + sorted((folder / BACKUP_DIR).glob(".*.tmp"))
        from .reviews_store import REVIEWS_FILE, ReviewStore

        damaged = ReviewStore(folder / REVIEWS_FILE).check()
        if damaged is not None:
            # Not repaired: the reviews come back by importing the file of reviews again
            # once the damaged store is moved aside.
            problems.append(f"{damaged}; move it aside and import the reviews again")
    return report


@dataclass(slots=True)
class RestorePlan:
    """What repairing the annotations file would do, worked out before anything changes."""

    path: Path
    damaged: bool
    """True when the file exists and is damaged (False: it is missing)."""
    backup: Path | None
    backup_records: int
    backup_age_s: float
    salvaged: int
    named: int
    merged: dict[str, Annotation]
    settings: dict[str, Any] | None
    lost: list[str]
    """Paper ids the damaged file names whose annotation neither it nor the backup holds."""
    only_in_backup: int
    """Paper ids the damaged file names but cannot give back: they return as the backup had them."""
    cut_at: int | None = None
    """The byte after which the damaged file cannot be read (cut short), else None: then
    how many annotations it held is unknown, and `named`/`lost` count only ids seen."""

    @property
    def possible(self) -> bool:
        """True when there is something to put back (a good backup, or readable annotations)."""
        return self.backup is not None or self.salvaged > 0

    @property
    def may_lose(self) -> bool:
        """True when the restore replaces a file that holds (or may hold) the user's work:
        the caller should ask before going ahead."""
        return self.damaged

    def lines(self) -> list[str]:
        """What the restore keeps and loses, one line each, naming files."""
        out = []
        if self.damaged and self.cut_at is not None:
            # Cut short: the ids past the cut are gone with it, so no count of them is exact.
            out.append(
                f"{self.path}: {self.salvaged} annotations can still be read from it; the part after "
                f"byte {self.cut_at} cannot be read, so how many annotations it held is unknown"
            )
        elif self.damaged:
            out.append(
                f"{self.path}: {self.salvaged} of the {self.named} annotations it names can still be read from it"
            )
        if self.backup is not None:
            out.append(
                f"newest good backup: {self.backup.name}, taken {_age(self.backup_age_s)} ago, "
                f"holding {self.backup_records} annotations"
            )
        if not self.possible:
            out.append(f"{self.path}: nothing can be read from it and no backup passes the check")
            return out
        if self.salvaged and self.backup is not None:
            how = f"the {self.salvaged} still readable, and the backup's for the other papers"
        elif self.salvaged:
            how = f"the {self.salvaged} still readable (there is no good backup)"
        else:
            how = "the backup's"
        out.append(f"restoring keeps {len(self.merged)} annotations: {how}")
        if self.damaged and self.backup is not None and len(self.merged) > self.backup_records:
            out.append(f"(putting back the backup alone would keep {self.backup_records})")
        if self.only_in_backup:
            out.append(f"{'at least ' if self.cut_at is not None else ''}{self.only_in_backup} unreadable ones come back as the backup had them (later changes to them are lost)")
        if self.cut_at is not None:
            known = ""
            if self.lost:
                shown = ", ".join(self.lost[:5]) + (", ..." if len(self.lost) > 5 else "")
                known = f" (among them papers {shown})"
            out.append(
                f"the annotations after byte {self.cut_at} of the damaged file cannot be recovered from it{known}; "
                "how many there were is unknown" + (", and the backup gives back only what it holds" if self.backup else "")
            )
        elif self.lost:
            shown = ", ".join(self.lost[:5]) + (", ..." if len(self.lost) > 5 else "")
            out.append(f"{len(self.lost)} annotations named in the damaged file cannot be recovered (papers {shown})")
        if self.damaged:
            out.append(f"the damaged file is moved aside as {self.path.stem}.damaged-<time>.json, never deleted")
        return out


def plan_annotations_restore(folder: Path, report: DoctorReport | None = None) -> RestorePlan | None:
    """What restoring the annotations of the store in `folder` would keep and lose, or None
    when the annotations file is fine (or missing with no backup: a new store). Reads only."""
    folder = Path(folder)
    report = report or check_store(folder)
    check = report.annotations
    if check.ok and (check.exists or not report.backups):
        return None
    damaged = check.exists
    salvage = salvage_annotations(_read_bytes(check.path)) if damaged else None
    backup = report.good_backups[0] if report.good_backups else None
    from_backup: dict[str, Annotation] = {}
    settings: dict[str, Any] = {}
    age = 0.0
    if backup is not None:
        data = read_json_file(backup) or {}
        from_backup = {
            r["paper_id"]: Annotation.from_dict(r) for r in data.get(ANNOTATIONS_TABLE, {}).values()
        }
        settings = dict(data.get(SETTINGS_TABLE, {}).get("1", {}))
        age = max(0.0, time.time() - backup.stat().st_mtime)
    merged = dict(from_backup)
    named: set[str] = set()
    if salvage is not None:
        # The damaged file was written after the backup was copied from it: a paper's
        # readable record there is its latest state, and the backup fills in the rest.
        merged.update(salvage.annotations)
        settings.update(salvage.settings or {})
        named = salvage.named
    unreadable = named - (salvage.annotations.keys() if salvage else set())
    return RestorePlan(
        path=check.path,
        damaged=damaged,
        backup=backup,
        backup_records=len(from_backup),
        backup_age_s=age,
        salvaged=len(salvage.annotations) if salvage else 0,
        named=len(named),
        merged=merged,
        settings=settings or None,
        lost=sorted(unreadable - merged.keys()),
        only_in_backup=len(unreadable & merged.keys()),
        cut_at=salvage.cut_at if salvage else None,
    )


def restore_from_backup(folder: Path) -> RestoreResult:
    """Repair the store in `folder`: replace a damaged (or lost) annotations file by what
    `plan_annotations_restore` keeps (the readable part of the damaged file merged with the
    newest good backup), and move a damaged catalog aside. Damaged files are renamed
    `*.damaged-<time>.json` beside the store, never deleted. Does nothing when the store is
    fine, or when nothing of damaged annotations can be read and no good backup exists.
    Asks nothing: callers show the plan and ask first."""
    folder = Path(folder)
    report = check_store(folder)
    result = RestoreResult(ok=True)
    if report.problems and not folder.is_dir():
        return RestoreResult(ok=False, messages=list(report.problems))
    if report.ok:
        result.messages.append(f"{folder}: the store is fine; nothing to restore")
        return result

    # Under the store's lock, so a running reader-tui cannot write into the gap between
    # moving the damaged file away and writing the repaired one.
    with StoreFiles(folder).locked():
        report = check_store(folder)  # again: another process may have written meanwhile
        plan = plan_annotations_restore(folder, report)
        if plan is not None:
            _restore_annotations(folder, plan, result)
        if not report.catalog.ok and report.catalog.exists:
            moved = _move_aside(report.catalog.path)
            result.moved_aside.append(moved)
            result.messages.append(
                f"{report.catalog.path}: damaged, moved to {moved.name}; the catalog has no backups: "
                "import your paper lists again (annotations reattach by paper id)"
            )
        elif not report.catalog.ok:
            result.ok = False
            result.messages.extend(report.catalog.problems)
    return result


def _restore_annotations(folder: Path, plan: RestorePlan, result: RestoreResult) -> None:
    path = plan.path
    if not plan.possible:
        result.ok = False
        result.messages.append(f"{path}: damaged, and no backup passes the check nor can any annotation be read; left as it is")
        return
    if plan.damaged:
        moved = _move_aside(path)
        result.moved_aside.append(moved)
        result.messages.append(f"{path}: damaged, moved to {moved.name}")
    if plan.salvaged == 0 and plan.backup is not None:
        restore_backup(folder, plan.backup)  # the backup as it is, byte for byte
        source = plan.backup.name
    else:
        tables = new_tables("annotations")
        tables[ANNOTATIONS_TABLE] = {
            annotation_doc_id(pid): {"paper_id": pid, **ann.to_dict()} for pid, ann in plan.merged.items()
        }
        tables[SETTINGS_TABLE] = {"1": plan.settings} if plan.settings else {}
        write_file_atomically(path, dump_json(tables))
        source = f"the damaged file's {plan.salvaged} readable annotations" + (
            f" merged with {plan.backup.name}" if plan.backup is not None else ""
        )
    result.restored_from = plan.backup
    after = check_file(path, "annotations")
    if not after.ok:  # pragma: no cover - what was written passed the same checks
        result.ok = False
        result.messages.extend(after.problems)
        return
    result.messages.append(f"{path}: restored from {source} ({after.records} annotations)")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _age(seconds: float) -> str:
    if seconds < 90:
        return f"{round(seconds)} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _move_aside(path: Path) -> Path:
    """Rename `path` to an unused `<stem>.damaged-<time>.json` beside it."""
    target = unique_aside_name(path, "damaged")
    os.replace(path, target)
    return target
