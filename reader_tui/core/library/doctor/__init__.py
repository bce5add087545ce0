"""Check a store folder file by file, and repair damaged annotations from what can be read.

One job a module: `check` reads each file and says what is wrong and where (changes
nothing); `plan` works out what a repair of the annotations keeps and loses (the readable
part of the damaged file, `salvage`, merged with the newest good backup); `restore`
does it under the store's lock, moving damaged files aside; `report` turns a check and a
plan into one-line messages. A missing catalog is reported with what to do.
"""

from __future__ import annotations

from .check import DoctorReport, FileCheck, check_file, check_store
from .plan import RestorePlan, plan_annotations_restore
from .report import plan_lines, report_lines
from .restore import RestoreResult, restore_from_backup

__all__ = [
    "DoctorReport",
    "FileCheck",
    "RestorePlan",
    "RestoreResult",
    "check_file",
    "check_store",
    "plan_annotations_restore",
    "plan_lines",
    "report_lines",
    "restore_from_backup",
]
