"""A paper's reviews in one line or cell: the list's score column, the detail pane's
and the CLI's line of scores, and the pdf link."""

from __future__ import annotations

from typing import Any

from ..model import Scores


def pdf_link(paper: Any) -> str:
    """The paper's pdf: its `pdf_url`, else OpenReview's pdf of the forum its url names
    (`https://openreview.net/pdf?id=ID`), else ""."""
    if paper.pdf_url:
        return paper.pdf_url
    url = paper.url or ""
    prefix = "https://openreview.net/forum?id="
    if url.startswith(prefix) and len(url) > len(prefix):
        return "https://openreview.net/pdf?id=" + url[len(prefix):]
    return ""


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def compact_scores(scores: Scores | None) -> str:
    """The score column: mean rating and the lowest-highest, "5.3 2-8" (at most 8
    cells), "" without ratings."""
    if scores is None or not scores.ratings:
        return ""
    lo, hi = min(scores.ratings), max(scores.ratings)
    return f"{_fmt(scores.rating)} {lo}-{hi}" if lo != hi else f"{_fmt(scores.rating)} ={lo}"


def scores_line(scores: Scores | None) -> str:
    """One line of a paper's scores: "rating 5.3 (2-8, 3 reviews; 4.7 -> 5.3 since 2025-11-02)
    · confidence 4.0 · soundness 2.3 · presentation 2.3 · contribution 2.0 · oral";
    "" when there are none."""
    if scores is None:
        return ""
    parts = []
    if scores.ratings:
        inner = f"{scores.rating_min}-{scores.rating_max}, {scores.reviews} review{'s' if scores.reviews != 1 else ''}"
        if scores.previous_captured and scores.previous:
            # the move since the snapshot before, as `fetch` reports it (`is:moved` finds these)
            inner += f"; {_fmt(scores.previous_rating)} -> {_fmt(scores.rating)} since {scores.previous_captured[:10]}"
        parts.append(f"rating {_fmt(scores.rating)} ({inner})")
    for name in ("confidence", "soundness", "presentation", "contribution"):
        figure = getattr(scores, name)
        if figure is not None:
            parts.append(f"{name} {_fmt(figure)}")
    if scores.decision:
        parts.append(scores.decision_text or scores.decision)
    return " · ".join(parts)
