"""Reporting: a store's check and a repair's plan as one-line messages for people, each
naming its file. Reads the records only; decides nothing."""

from __future__ import annotations

from ...text.words import counted
from ..files import BACKUP_DIR
from .check import DoctorReport
from .plan import RestorePlan


def report_lines(report: DoctorReport) -> list[str]:
    """The report as one-line messages, problems first."""
    out = list(report.all_problems) + report.remarks
    for check in (report.catalog, report.annotations):
        if not check.exists:
            if check.ok:
                out.append(f"{check.path}: not there yet (a new store)")
        elif check.ok:
            noun = "papers" if check.kind == "catalog" else "annotations"
            out.append(f"{check.path}: ok, {check.records} {noun}")
        out.extend(check.remarks)
    if report.orphans:
        out.append(
            f"{report.annotations.path}: {counted(report.orphans, 'annotation')} of papers not in the catalog "
            "(kept; they reattach when those papers are imported)"
        )
    good = len(report.good_backups)
    if report.backups:
        out.append(f"{report.folder / BACKUP_DIR}: {good} of {counted(len(report.backups), 'backup')} good")
        out.extend(p for b in report.backups for p in b.problems)
    else:
        out.append(f"{report.folder / BACKUP_DIR}: no backups yet")
    if report.leftovers:
        out.append(
            f"{report.folder}: {counted(len(report.leftovers), 'temporary file')} left by interrupted writes "
            "(harmless; safe to delete when reader-tui is not running)"
        )
    return out


def plan_lines(plan: RestorePlan) -> list[str]:
    """What the restore keeps and loses, one line each, naming files."""
    out = []
    if plan.damaged and plan.cut_at is not None:
        # Cut short: the ids past the cut are gone with it, so no count of them is exact.
        out.append(
            f"{plan.path}: {counted(plan.salvaged, 'annotation')} can still be read from it; the part after "
            f"byte {plan.cut_at} cannot be read, so how many annotations it held is unknown"
        )
    elif plan.damaged:
        out.append(
            f"{plan.path}: {plan.salvaged} of the {counted(plan.named, 'annotation')} it names can still be read from it"
        )
    if plan.backup is not None:
        out.append(
            f"newest good backup: {plan.backup.name}, taken {_age(plan.backup_age_s)} ago, "
            f"holding {counted(plan.backup_records, 'annotation')}"
        )
    if not plan.possible:
        out.append(f"{plan.path}: nothing can be read from it and no backup passes the check")
        return out
    if plan.salvaged and plan.backup is not None:
        how = f"the {plan.salvaged} still readable, and the backup's for the other papers"
    elif plan.salvaged:
        how = f"the {plan.salvaged} still readable (there is no good backup)"
    else:
        how = "the backup's"
    out.append(f"restoring keeps {counted(len(plan.merged), 'annotation')}: {how}")
    if plan.damaged and plan.backup is not None and len(plan.merged) > plan.backup_records:
        out.append(f"(putting back the backup alone would keep {plan.backup_records})")
    if plan.only_in_backup:
        out.append(f"{'at least ' if plan.cut_at is not None else ''}{plan.only_in_backup} unreadable ones come back as the backup had them (later changes to them are lost)")
    if plan.cut_at is not None:
        known = ""
        if plan.lost:
            shown = _first_few(plan.lost)
            known = f" (among them papers {shown})"
        out.append(
            f"the annotations after byte {plan.cut_at} of the damaged file cannot be recovered from it{known}; "
            "how many there were is unknown" + (", and the backup gives back only what it holds" if plan.backup else "")
        )
    elif plan.lost:
        shown = _first_few(plan.lost)
        out.append(f"{counted(len(plan.lost), 'annotation')} named in the damaged file cannot be recovered (papers {shown})")
    if plan.damaged:
        out.append(f"the damaged file is moved aside as {plan.path.stem}.damaged-<time>.json, never deleted")
    return out


def _age(seconds: float) -> str:
    if seconds < 90:
        return f"{round(seconds)} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _first_few(ids: list[str], most: int = 5) -> str:
    return ", ".join(ids[:most]) + (", ..." if len(ids) > most else "")
