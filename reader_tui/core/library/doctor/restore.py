"""Restoring a store: the planned annotations written under the store's lock, damaged
files moved aside (never deleted). The catalog has no backups (it can be imported again
from the paper lists, and annotations are keyed by stable paper ids), so a damaged
catalog is only moved aside."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ...atomic_storage import dump_json_lines, write_file_atomically
from ...text.words import counted
from ..files import (
    ANNOTATIONS_TABLE,
    SETTINGS_TABLE,
    StoreFiles,
    annotation_doc_id,
    new_tables,
    restore_backup,
    unique_aside_name,
)
from .check import check_file, check_store
from .plan import RestorePlan, plan_annotations_restore


@dataclass(slots=True)
class RestoreResult:
    """What `restore_from_backup` did. `messages` are one line each, naming files."""

    ok: bool
    restored_from: Path | None = None
    moved_aside: list[Path] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


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
        # Laid out as the store writes its annotations (`StoreFiles`: one a line, sorted),
        # so the next write, and the next sync's diff, changes only the lines that change.
        write_file_atomically(path, dump_json_lines(tables, sort=True))
        source = f"the damaged file's {plan.salvaged} readable annotation{'s' if plan.salvaged != 1 else ''}" + (
            f" merged with {plan.backup.name}" if plan.backup is not None else ""
        )
    result.restored_from = plan.backup
    after = check_file(path, "annotations")
    if not after.ok:  # pragma: no cover - what was written passed the same checks
        result.ok = False
        result.messages.extend(after.problems)
        return
    result.messages.append(f"{path}: restored from {source} ({counted(after.records, 'annotation')})")


def _move_aside(path: Path) -> Path:
    """Rename `path` to an unused `<stem>.damaged-<time>.json` beside it."""
    target = unique_aside_name(path, "damaged")
    os.replace(path, target)
    return target
