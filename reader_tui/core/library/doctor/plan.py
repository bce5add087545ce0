"""Planning a repair of the annotations file: what it keeps and loses, worked out before
anything changes. The annotations still readable in the damaged file (`salvage`), the
newest backup that passes the check, and the two together (a paper's readable record,
else the backup's)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...atomic_storage import read_json_file
from ...model import Annotation
from ..files import ANNOTATIONS_TABLE, SETTINGS_TABLE, backup_time
from .check import DoctorReport, check_store
from .salvage import salvage_annotations


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
        age = max(0.0, time.time() - backup_time(backup))
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


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""
