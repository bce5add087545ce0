"""What a forum says in numbers: the catalog's `Scores` of a forum record, and what a
newer snapshot keeps of an older one (the ratings that moved, with when).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model import DECISIONS, Scores
from .records import SCORE_NAMES, UNREADABLE, decision_tier, iso_ms, venue_decision


def summarize(record: Mapping[str, Any], venue: str = "") -> Scores | None:
    """The catalog's `Scores` of a forum record: each review's numbers, the decision (a
    decision note's, else the tier an accepted venue names) and when it was captured.
    None when the forum has neither reviews nor a decision."""
    columns: dict[str, list[int]] = {name: [] for name in SCORE_NAMES}
    decision_text = ""
    for note in record.get("notes", ()):
        kind = note.get("kind")
        if kind == "review":
            for name, number in note.get("scores", {}).items():
                if name in columns:
                    columns[name].append(number)
        elif kind == "decision":
            for name, text in note.get("text", ()):
                if name in ("decision", "recommendation"):
                    decision_text = text.strip()
    decision = decision_tier(decision_text) if decision_text else venue_decision(venue)
    if decision not in DECISIONS:
        decision = ""
    if not columns["rating"] and not decision and not any(columns.values()):
        return None
    return Scores(
        ratings=tuple(columns["rating"]),
        confidences=tuple(columns["confidence"]),
        soundness_scores=tuple(columns["soundness"]),
        presentation_scores=tuple(columns["presentation"]),
        contribution_scores=tuple(columns["contribution"]),
        decision=decision,
        decision_text=decision_text or (venue if decision else ""),
        captured=str(record.get("captured") or ""),
    )


def merge_scores(old: Scores | None, new: Scores | None) -> Scores | None:
    """The scores a paper keeps when a snapshot brings `new` over `old`: the newer capture
    wins (an older snapshot imported late changes nothing), and when its ratings differ
    the old ones are kept as `previous`, with their capture time; a decision once known
    stays known."""
    if new is None:
        return old
    if old is None:
        return new
    if new.captured and old.captured and new.captured < old.captured:
        return old
    previous, previous_captured = old.previous, old.previous_captured
    if new.ratings != old.ratings:
        previous, previous_captured = old.ratings, old.captured or "unknown"
    decision, decision_text = new.decision, new.decision_text
    if not decision:
        decision, decision_text = old.decision, old.decision_text
    merged = Scores(
        ratings=new.ratings,
        confidences=new.confidences,
        soundness_scores=new.soundness_scores,
        presentation_scores=new.presentation_scores,
        contribution_scores=new.contribution_scores,
        decision=decision,
        decision_text=decision_text,
        captured=new.captured or old.captured,
        previous=previous,
        previous_captured=previous_captured,
    )
    return old if merged == old else merged


def merge_history(old: Mapping[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], int, list[str]]:
    """`new` (a forum record of a later snapshot) with the history of `old` carried over:
    a review whose scores changed keeps its earlier ones, with when they were captured.

    A value the newer note holds but that cannot be read (a rating `null` or `[6, 7]`, a
    note without content) never replaces one that could: the earlier score or text is
    kept, and a line saying so ("review R1 by Reviewer_x: its rating could not be read
    (null or not a number): 4 kept") is returned for the import report.

    Returns the record, how many reviews' scores moved, and those lines. An older
    snapshot than `old` gives `old` back unchanged."""
    if str(new.get("captured") or "") < str(old.get("captured") or ""):
        return dict(old), 0, []
    before = {n.get("id"): n for n in old.get("notes", ()) if n.get("id")}
    moved = 0
    kept: list[str] = []
    for note in new.get("notes", ()):
        unreadable = note.pop(UNREADABLE, None) or ()
        earlier = before.get(note.get("id"))
        if earlier is None:
            continue
        if unreadable:
            said = _keep_readable(earlier, note, unreadable)
            if said:
                who = f" by {note['author']}" if note.get("author") else ""
                kept.append(f"{note.get('kind') or 'note'} {note.get('id')}{who}: {said}")
        history = list(earlier.get("history") or ())
        if earlier.get("scores") and earlier.get("scores") != note.get("scores"):
            when = iso_ms(earlier.get("mdate")) or str(old.get("captured") or "")
            history.append([when, earlier["scores"]])
            moved += 1
        if history:
            note["history"] = history
    return new, moved, kept


def _keep_readable(earlier: Mapping[str, Any], note: dict[str, Any], unreadable: Sequence[str]) -> str:
    """Put back into `note` what `earlier` held of the fields it could not read; say what."""
    if "content" in unreadable:
        if not earlier.get("scores") and not earlier.get("text"):
            return ""
        note["scores"], note["text"] = dict(earlier.get("scores") or {}), list(earlier.get("text") or ())
        return "it came without its content: its scores and text as known before are kept"
    said = []
    scores = earlier.get("scores") or {}
    texts = dict((name, text) for name, text in earlier.get("text") or ())
    for name in unreadable:
        if name in scores:
            note.setdefault("scores", {})[name] = scores[name]
            said.append(f"its {name} could not be read (null or not a number): {scores[name]} kept")
        elif name in texts and all(item[0] != name for item in note.get("text", ())):
            note.setdefault("text", []).append([name, texts[name]])
            said.append(f"its {name} was empty (null): the text known before is kept")
    return "; ".join(said)
