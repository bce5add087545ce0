"""A reading group's marks: what the other members of a synced library did (their
statuses, tags and notes, from members/<name>.json; see `repository`), read-only here.

Searches find them (`by:alice`, `is:group-to-read`, `group:>=2`), `reader-tui show`
lists them. Nothing here runs git or writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...atomic_storage import StoreError
from ...model import Annotation, Status
from ..files import ANNOTATIONS_TABLE
from ..safe_paths import read_regular
from .changes import MEMBERS_DIR
from .remote_files import MAX_BYTES, member_name_problem, parse_store_file


@dataclass(frozen=True, slots=True)
class GroupMarks:
    """The other members' annotations: member name -> paper id -> annotation (only the
    papers a member touched)."""

    members: dict[str, dict[str, Annotation]]

    def of(self, paper_id: str) -> dict[str, Annotation]:
        """Member -> annotation for one paper, members in name order."""
        return {name: anns[paper_id] for name, anns in sorted(self.members.items()) if paper_id in anns}

    def summary(self, paper_id: str) -> str:
        """"2 to-read, 1 read": the group's statuses of one paper ("" when none)."""
        counts: dict[str, int] = {}
        for ann in self.of(paper_id).values():
            if ann.status is not Status.UNREAD:
                counts[ann.status.value] = counts.get(ann.status.value, 0) + 1
        return ", ".join(f"{n} {status}" for status, n in counts.items())

    def compact(self, paper_id: str) -> str:
        """"2○1●": how many other members gave the paper each status, in the list's
        status glyphs (to-read, reading, read, skipped); "" when none did."""
        counts = dict.fromkeys(COMPACT_ORDER, 0)
        for anns in self.members.values():
            ann = anns.get(paper_id)
            if ann is not None and ann.status in counts:
                counts[ann.status] += 1
        return "".join(f"{n}{status.mark}" for status, n in counts.items() if n)


#: The order of the statuses in `GroupMarks.compact` (unread is no mark).
COMPACT_ORDER = (Status.TO_READ, Status.READING, Status.READ, Status.SKIPPED)


def load_group(folder: Path) -> GroupMarks:
    """The group marks of the library at `folder` (none for a library of one person)."""
    members: dict[str, dict[str, Annotation]] = {}
    for name, docs in member_annotations(Path(folder)).items():
        anns = {}
        for pid, doc in docs.items():
            try:
                ann = Annotation.from_dict(doc)
            except (TypeError, ValueError):
                continue  # another member's damaged record: their own doctor's business
            if not ann.is_default:
                anns[pid] = ann
        members[name] = anns
    return GroupMarks(members)


def member_annotations(folder: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """The other members' annotations (member -> paper id -> annotation document), read
    from members/*.json: empty for a library that is not a reading group's. A file that
    is a link, not a member's name, or not of the annotations' shape is left out."""
    from .repository import is_repository, member_of

    result: dict[str, dict[str, dict[str, Any]]] = {}
    members = Path(folder) / MEMBERS_DIR
    if members.is_symlink() or not members.is_dir():  # (before asking git who this machine is: a process)
        return result
    me = member_of(folder) if is_repository(folder) else None
    for path in sorted(members.glob("*.json")):
        name = path.stem
        if name == me or member_name_problem(name):
            continue
        try:  # never through a link: what is shown is what the library holds
            raw = read_regular(path, MAX_BYTES["annotations"])
        except (OSError, StoreError):
            continue
        tables, problem = parse_store_file(raw, "annotations")
        if tables is None or problem:
            continue  # refused by the sync that brought it; `sync` names it
        docs = (tables.get(ANNOTATIONS_TABLE) or {}).values()
        result[name] = {d["paper_id"]: d for d in docs}
    return result
