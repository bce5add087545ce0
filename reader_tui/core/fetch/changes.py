"""What moved between two snapshots of a venue, as the import of the second one leaves
the library: papers whose mean rating moved (with the one before and since when), that
were withdrawn, that got a decision. Read off the catalog's `Scores` (which keep the
ratings of the capture before: `reviews.merge_scores`), before and after the import."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Mean ratings closer than this are the same (floating point, not a move).
EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Seen:
    """What one paper's scores said at a moment."""

    rating: float | None
    withdrawn: bool
    decision: str
    captured: str


@dataclass(slots=True)
class Moves:
    """The changes an import brought to the papers of a snapshot."""

    moved: list[tuple[str, str, float, float, str]] = field(default_factory=list)
    """(id, title, mean before, mean now, captured before), the biggest move first."""
    withdrawn: list[str] = field(default_factory=list)
    decided: list[tuple[str, str]] = field(default_factory=list)
    """(id, decision tier)."""
    new: int = 0

    def summary(self) -> str:
        """"what moved: 12 papers' mean rating moved, 3 withdrawn, 40 got decisions"."""
        parts = [
            f"{len(self.moved):,} paper{'s' if len(self.moved) != 1 else ''}' mean rating moved",
            f"{len(self.withdrawn):,} withdrawn",
            f"{len(self.decided):,} got {'a decision' if len(self.decided) == 1 else 'decisions'}",
        ]
        return "what moved: " + ", ".join(parts)

    def lines(self, shown: int = 5) -> list[str]:
        """The biggest moves, one line each: "rating 4.7 -> 6.0 since 2025-11-12: Title (id)"."""
        out = []
        for pid, title, before, now, since in self.moved[:shown]:
            when = f" since {since[:10]}" if since else ""
            out.append(f"rating {before:.1f} -> {now:.1f}{when}: {title} ({pid})")
        if len(self.moved) > shown:
            out.append(f"... and {len(self.moved) - shown:,} more (search is:moved)")
        return out


def seen(papers: Mapping[str, Any], ids: Iterable[str] | None = None) -> dict[str, Seen]:
    """What the scores of `papers` (id -> Paper; only `ids` when given) say now."""
    out = {}
    for pid in papers if ids is None else ids:
        paper = papers.get(pid)
        if paper is None:
            continue
        scores = paper.scores
        out[pid] = Seen(
            None if scores is None else scores.rating,
            bool(paper.withdrawn),
            "" if scores is None else scores.decision,
            "" if scores is None else scores.captured,
        )
    return out


def compare(before: Mapping[str, Seen], after: Mapping[str, Seen], titles: Mapping[str, Any]) -> Moves:
    """The moves from `before` to `after` (both from `seen`); `titles` maps ids to papers."""
    moves = Moves()
    for pid, now in after.items():
        then = before.get(pid)
        if then is None:
            moves.new += 1
            continue
        if then.rating is not None and now.rating is not None and abs(now.rating - then.rating) > EPSILON:
            paper = titles.get(pid)
            moves.moved.append((pid, getattr(paper, "title", ""), then.rating, now.rating, then.captured))
        if now.withdrawn and not then.withdrawn:
            moves.withdrawn.append(pid)
        if now.decision and now.decision != then.decision:
            moves.decided.append((pid, now.decision))
    moves.moved.sort(key=lambda row: -abs(row[3] - row[2]))
    return moves
