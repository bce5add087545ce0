"""A paper's OpenReview forum: its reviews, comments and decision, read from either note
shape, summarised into `Scores` for the catalog, and encoded for the reviews store.

Two shapes are read, per note: the flat one of paper-list trackers (the submission's
`content` plain, its `replies` in API v2 form: `{"value": ...}`) and openreview-py's
(every content field `{"value": ...}`, replies under `details.replies` or
`details.directReplies`, API v1's `invitation` or v2's `invitations`). What a reply is
comes from its invitation's last part: `Official_Review` a review, `Official_Comment` /
`Rebuttal` a comment (author rebuttals and discussion), `Public_Comment`, `Withdrawal`,
`Decision` ("Accept (Oral)", "Reject") and `Meta_Review`.

A forum is stored (`library.reviews_store`) as one compressed JSON record per paper:

    {"v": 1, "captured": ISO, "notes": [
        {"id", "kind", "replyto", "author", "cdate", "mdate",
         "scores": {"rating": 6, "confidence": 4, ...},
         "text": [["summary", "..."], ["strengths", "..."], ...],
         "history": [[ISO, {"rating": 4, ...}], ...]}, ...]}

`history` holds a review's earlier scores, each with when it was captured: importing a
newer snapshot keeps what moved (`merge_history`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from .model import DECISIONS, Scores

FORMAT = 1
#: The numbers of a review, in the order they are shown.
SCORE_NAMES = ("rating", "confidence", "soundness", "presentation", "contribution")
#: Content fields that are form boilerplate, not something anyone reads.
_BOILERPLATE = frozenset({
    "code_of_conduct", "withdrawal_confirmation", "flag_for_ethics_review", "acknowledgement",
    "first_time_reviewer", "responsible_reviewing", "reciprocal_reviewing", "paperhash", "pdf",
    "supplementary_material", "venue", "venueid", "_bibtex", "authorids",
})
_KINDS = {
    "official_review": "review",
    "review": "review",
    "official_comment": "comment",
    "rebuttal": "comment",
    "author_rebuttal": "comment",
    "comment": "comment",
    "public_comment": "public",
    "withdrawal": "withdrawal",
    "desk_rejection": "decision",
    "decision": "decision",
    "meta_review": "meta",
    "metareview": "meta",
}
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
_SCORE_SET = frozenset(SCORE_NAMES)
_LEADING_INT = re.compile(r"\s*(-?\d+)")
#: Compression of the stored records: zlib level 1 (fast; level 6 saves 10% more disk for
#: twice the time, and an import compresses 230 MB of text).
LEVEL = 1


def value(raw: Any) -> Any:
    """A content field's value: `{"value": x}` (API v2) or `x` (API v1, flat)."""
    if isinstance(raw, dict) and "value" in raw:
        return raw["value"]
    return raw


def decision_tier(text: str) -> str:
    """The tier a decision or venue names: "oral", "spotlight", "poster", "accept",
    "reject", or "" ("Submitted to ICLR 2026", a withdrawn submission)."""
    low = text.lower()
    if "withdrawn" in low or "submitted to" in low:
        return ""
    for tier in ("oral", "spotlight", "poster"):
        if tier in low:
            return tier
    if "reject" in low:
        return "reject"
    if "accept" in low:
        return "accept"
    return ""


def venue_decision(venue: str) -> str:
    """The tier an accepted paper's venue names ("ICLR 2026 Oral" -> "oral"); "" for a
    submission's venue ("ICLR 2026 Conference Submission")."""
    low = venue.lower()
    if "submission" in low or "submitted" in low:
        return ""
    tier = decision_tier(venue)
    return tier if tier in ("oral", "spotlight", "poster") else ""


def score_number(raw: Any) -> int | None:
    """A score as an integer: `6`, or the leading number of `"6: marginally above"`."""
    raw = value(raw)
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str):
        match = _LEADING_INT.match(raw)
        if match:
            return int(match.group(1))
    return None


def replies_of(record: Mapping[str, Any]) -> list[Any] | None:
    """The forum's replies of a submission note, in either shape, or None when the note
    carries none (a plain paper list)."""
    replies = record.get("replies")
    if isinstance(replies, list):
        return replies
    details = record.get("details")
    if isinstance(details, dict):
        for key in ("replies", "directReplies"):
            if isinstance(details.get(key), list):
                return details[key]
    return None


def iso_ms(stamp: Any) -> str:
    """An OpenReview time (ms since the epoch) as ISO 8601 UTC, "" when there is none."""
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or stamp <= 0:
        return ""
    try:
        return datetime.fromtimestamp(stamp / 1000, tz=UTC).replace(microsecond=0).isoformat()
    except (OverflowError, OSError, ValueError):
        return ""


def _kind(note: Mapping[str, Any]) -> str:
    invitations = note.get("invitations")
    if not isinstance(invitations, list):
        invitations = [note.get("invitation")]
    for invitation in invitations:
        if isinstance(invitation, str) and "/-/" in invitation:
            name = invitation.rsplit("/-/", 1)[1].lower()
            if name == "edit":
                continue
            return _KINDS.get(name, "other")
    return "other"


def _author(note: Mapping[str, Any]) -> str:
    signatures = note.get("signatures")
    if isinstance(signatures, list) and signatures and isinstance(signatures[0], str):
        return signatures[0].rsplit("/", 1)[-1]
    return ""


def _ms(stamp: Any) -> int | None:
    return int(stamp) if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0 else None


def note_record(note: Any, forum_id: str) -> dict[str, Any] | None:
    """One reply as the store keeps it, or None when it is not a note at all."""
    # Runs for each of a conference's 80,000 replies: kept tight.
    if type(note) is not dict:
        return None
    content = note.get("content")
    scores: dict[str, int] = {}
    text: list[list[str]] = []
    if type(content) is dict:
        for name, raw in content.items():
            val = raw.get("value") if type(raw) is dict else raw
            if name in _SCORE_SET:
                number = val if type(val) is int else score_number(val)
                if number is not None:
                    scores[name] = number
                    continue
            if type(val) is str and val and name not in _BOILERPLATE and not val.isspace():
                text.append([name, val])
        if text and text[0][0] != "title":
            text.sort(key=lambda item: item[0] != "title")  # a comment's title before its text
    replyto = note.get("replyto")
    return {
        "id": str(note.get("id") or ""),
        "kind": _kind(note),
        "replyto": replyto if type(replyto) is str and replyto else forum_id,
        "author": _author(note),
        "cdate": _ms(note.get("cdate") or note.get("tcdate")),
        "mdate": _ms(note.get("mdate") or note.get("tmdate")),
        "scores": scores,
        "text": text,
    }


@dataclass(frozen=True, slots=True)
class ForumData:
    """A forum as an importer hands it to the store: when it was captured (the newest
    change OpenReview recorded in it), how many notes it holds, and its record encoded
    (`encode_forum`)."""

    captured: str
    notes: int
    data: bytes


def forum_record(record: Mapping[str, Any], replies: Iterable[Any], forum_id: str) -> dict[str, Any]:
    """The store's record of a submission and its replies (see the module docstring)."""
    notes = [n for n in (note_record(reply, forum_id) for reply in replies) if n is not None]
    newest = max(
        [s for s in (_ms(record.get("mdate")), _ms(record.get("cdate"))) if s]
        + [n["mdate"] or n["cdate"] or 0 for n in notes],
        default=0,
    )
    return {"v": FORMAT, "captured": iso_ms(newest), "notes": notes}


def encode_forum(record: Mapping[str, Any]) -> bytes:
    """A forum record as stored: compact JSON, zlib-compressed."""
    return zlib.compress(orjson.dumps(record), LEVEL)


def decode_forum(data: bytes) -> dict[str, Any]:
    """The record `encode_forum` made. Raises ValueError when `data` is not one."""
    try:
        record = orjson.loads(zlib.decompress(data))
    except (zlib.error, orjson.JSONDecodeError) as error:
        raise ValueError(f"damaged record ({error})") from None
    if not isinstance(record, dict) or not isinstance(record.get("notes"), list):
        raise ValueError("damaged record (not a forum)")
    return record


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


def merge_history(old: Mapping[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """`new` (a forum record of a later snapshot) with the history of `old` carried over:
    a review whose scores changed keeps its earlier ones, with when they were captured.
    Returns the record and how many reviews' scores moved. An older snapshot than `old`
    gives `old` back unchanged."""
    if str(new.get("captured") or "") < str(old.get("captured") or ""):
        return dict(old), 0
    before = {n.get("id"): n for n in old.get("notes", ()) if n.get("id")}
    moved = 0
    for note in new.get("notes", ()):
        earlier = before.get(note.get("id"))
        if earlier is None:
            continue
        history = list(earlier.get("history") or ())
        if earlier.get("scores") and earlier.get("scores") != note.get("scores"):
            when = iso_ms(earlier.get("mdate")) or str(old.get("captured") or "")
            history.append([when, earlier["scores"]])
            moved += 1
        if history:
            note["history"] = history
    return new, moved


# -- reading, for the screen and the CLI --------------------------------------------------


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
            cdate=_ms(data.get("cdate")),
            mdate=_ms(data.get("mdate")),
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


# -- one-line forms, for lists, the detail pane and the CLI ---------------------------------


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
    """One line of a paper's scores: "rating 5.3 (2-8, 3 reviews; was 4.7 on 2025-11-02)
    · confidence 4.0 · soundness 2.3 · presentation 2.3 · contribution 2.0 · oral";
    "" when there are none."""
    if scores is None:
        return ""
    parts = []
    if scores.ratings:
        inner = f"{scores.rating_min}-{scores.rating_max}, {scores.reviews} review{'s' if scores.reviews != 1 else ''}"
        if scores.previous_captured and scores.previous:
            inner += f"; was {_fmt(scores.previous_rating)} on {scores.previous_captured[:10]}"
        parts.append(f"rating {_fmt(scores.rating)} ({inner})")
    for name in ("confidence", "soundness", "presentation", "contribution"):
        figure = getattr(scores, name)
        if figure is not None:
            parts.append(f"{name} {_fmt(figure)}")
    if scores.decision:
        parts.append(scores.decision_text or scores.decision)
    return " · ".join(parts)
