"""The detail pane's "group" lines: what the other members of a reading group did with
the paper (status, tags, notes), read-only. Members' names, tags and notes are data:
their control characters are made visible, nothing is read as markup."""

from __future__ import annotations

from collections.abc import Mapping

from textual.content import Content

from reader_tui.core.model import Annotation, Status
from reader_tui.core.text.display import one_line, visible_controls

NOTE_WIDTH = 160
"""Characters of a member's notes shown (on one line: the full notes are theirs)."""


def member_line(name: str, ann: Annotation) -> Content:
    """"bob: to-read · tags must-read, theory · notes: first words…"."""
    parts = [Content.styled(visible_controls(name) + ":", "bold")]
    what: list[Content] = []
    if ann.status is not Status.UNREAD:
        what.append(Content.assemble((ann.status.mark + " ", "$text-accent"), ann.status.value))
    if ann.tags:
        what.append(Content.assemble(("tags ", "$text-muted"),
                                     (", ".join(map(visible_controls, ann.tags)), "$text-secondary")))
    if ann.notes.strip():
        what.append(Content.assemble(("notes ", "$text-muted"), visible_controls(one_line(ann.notes, NOTE_WIDTH))))
    return Content(" ").join([*parts, Content(" · ").join(what)]) if what else parts[0]


def group_lines(marks: Mapping[str, Annotation]) -> list[Content]:
    """One line per member who touched the paper, in name order."""
    return [member_line(name, ann) for name, ann in sorted(marks.items())]
