"""A forum read back for the screen and the CLI: its notes, and the reading order of the
reviews view (each review with the replies under it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .records import SCORE_NAMES, iso_ms, ms_stamp

#: What each kind is called on screen.
KIND_LABELS = {
    "review": "Review",
    "comment": "Comment",
    "public": "Public comment",
    "withdrawal": "Withdrawal",
    "decision": "Decision",
    "meta": "Meta-review",
    "other": "Note",
}


@dataclass(frozen=True, slots=True)
class Note:
    """One note of a forum: a review (`scores`, `sections`), a comment, a decision...

    `sections` are its texts as (field name, markdown/LaTeX text), in the order the form
    has them (summary, strengths, weaknesses, questions for a review). `history` holds a
    review's earlier scores with when they were captured, oldest first."""

    id: str
    kind: str
    replyto: str
    author: str
    cdate: int | None
    mdate: int | None
    scores: dict[str, int]
    sections: tuple[tuple[str, str], ...]
    history: tuple[tuple[str, dict[str, int]], ...] = ()

    @property
    def label(self) -> str:
        """"Review by Reviewer_2how", "Comment by Authors"."""
        kind = KIND_LABELS.get(self.kind, "Note")
        return f"{kind} by {self.author}" if self.author else kind

    @property
    def date(self) -> str:
        """When it was last modified (else created), ISO 8601 UTC, "" when unknown."""
        return iso_ms(self.mdate or self.cdate)

    def moves(self, name: str = "rating") -> list[tuple[str, int]]:
        """The earlier values of score `name`, each with when it was captured, oldest
        first, when it changed: [("2025-11-12T...", 4)] for a rating now 6."""
        return [(when, scores[name]) for when, scores in self.history if name in scores]

    def scores_line(self) -> str:
        """"rating 6 (was 4) · confidence 4 · soundness 3 · presentation 2 · contribution 3"."""
        parts = []
        for name in SCORE_NAMES:
            if name in self.scores:
                text = f"{name} {self.scores[name]}"
                earlier = [v for _, v in self.moves(name) if v != self.scores[name]]
                if earlier:
                    text += f" (was {' -> '.join(map(str, earlier))})"
                parts.append(text)
        return " · ".join(parts)

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Note:
        scores = data.get("scores") if isinstance(data.get("scores"), dict) else {}
        text = data.get("text") if isinstance(data.get("text"), list) else []
        history = data.get("history") if isinstance(data.get("history"), list) else []
        return cls(
            id=str(data.get("id") or ""),
            kind=str(data.get("kind") or "other"),
            replyto=str(data.get("replyto") or ""),
            author=str(data.get("author") or ""),
            cdate=ms_stamp(data.get("cdate")),
            mdate=ms_stamp(data.get("mdate")),
            scores={k: v for k, v in scores.items() if isinstance(v, int)},
            sections=tuple((str(t[0]), str(t[1])) for t in text if isinstance(t, list) and len(t) == 2),
            history=tuple(
                (str(h[0]), {k: v for k, v in h[1].items() if isinstance(v, int)})
                for h in history
                if isinstance(h, list) and len(h) == 2 and isinstance(h[1], dict)
            ),
        )


_ORDER = {"decision": 0, "meta": 1, "review": 2, "comment": 3, "public": 4, "other": 5, "withdrawal": 6}


@dataclass(frozen=True, slots=True)
class Forum:
    """A paper's forum as the reviews view shows it (`Library.forum`)."""

    paper_id: str
    captured: str
    notes: tuple[Note, ...]

    @classmethod
    def from_record(cls, paper_id: str, record: Mapping[str, Any]) -> Forum:
        return cls(paper_id, str(record.get("captured") or ""), tuple(Note.from_record(n) for n in record["notes"]))

    @property
    def reviews(self) -> list[Note]:
        """The official reviews, oldest first."""
        return sorted((n for n in self.notes if n.kind == "review"), key=lambda n: n.cdate or 0)

    def thread(self) -> list[tuple[Note, int]]:
        """Every note in reading order with its depth: the decision and meta-reviews, then
        each review followed by the replies under it (authors' rebuttals, the reviewer's
        answers: depth 1, 2...), then comments on the paper itself, withdrawal notes last.
        A reply whose parent is not in the forum counts as a comment on the paper."""
        by_id = {n.id for n in self.notes}
        children: dict[str, list[Note]] = {}
        top: list[Note] = []
        for note in self.notes:
            if note.replyto in by_id and note.replyto != note.id:
                children.setdefault(note.replyto, []).append(note)
            else:
                top.append(note)
        top.sort(key=lambda n: (_ORDER.get(n.kind, 5), n.cdate or 0))
        out: list[tuple[Note, int]] = []
        seen: set[str] = set()

        def walk(note: Note, depth: int) -> None:
            if note.id in seen:  # a cycle of replyto's: each note once
                return
            seen.add(note.id)
            out.append((note, depth))
            for child in sorted(children.get(note.id, ()), key=lambda n: n.cdate or 0):
                walk(child, depth + 1)

        for note in top:
            walk(note, 0)
        return out
