"""A forum as the reviews store keeps it: OpenReview notes of either shape (see the
package docstring) read into one record per paper, and that record encoded.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

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
_SCORE_SET = frozenset(SCORE_NAMES)
#: The key of a note record listing the fields it held that could not be read ("content"
#: when it had none): dropped when the store merges the record (`merge_history`).
UNREADABLE = "unreadable"
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


def ms_stamp(stamp: Any) -> int | None:
    """An OpenReview time in ms since the epoch, None when there is none."""
    return int(stamp) if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0 else None


def note_record(note: Any, forum_id: str) -> dict[str, Any] | None:
    """One reply as the store keeps it, or None when it is not a note at all."""
    # Runs for each of a conference's 80,000 replies: kept tight.
    if type(note) is not dict:
        return None
    content = note.get("content")
    scores: dict[str, int] = {}
    text: list[list[str]] = []
    unreadable: list[str] | None = None
    if type(content) is dict:
        for name, raw in content.items():
            val = raw.get("value") if type(raw) is dict else raw
            if name in _SCORE_SET:
                number = val if type(val) is int else score_number(val)
                if number is not None:
                    scores[name] = number
                    continue
                if type(val) is not str:  # null, a list [6, 7]: a score that cannot be read
                    unreadable = [*(unreadable or ()), name]
                    continue
            if type(val) is str and val and name not in _BOILERPLATE and not val.isspace():
                text.append([name, val])
            elif val is None and name not in _BOILERPLATE:
                unreadable = [*(unreadable or ()), name]
        if text and text[0][0] != "title":
            text.sort(key=lambda item: item[0] != "title")  # a comment's title before its text
    else:
        unreadable = ["content"]
    replyto = note.get("replyto")
    record = {
        "id": str(note.get("id") or ""),
        "kind": _kind(note),
        "replyto": replyto if type(replyto) is str and replyto else forum_id,
        "author": _author(note),
        "cdate": ms_stamp(note.get("cdate") or note.get("tcdate")),
        "mdate": ms_stamp(note.get("mdate") or note.get("tmdate")),
        "scores": scores,
        "text": text,
    }
    if unreadable:
        # What the note held that could not be read: a newer snapshot's note never
        # replaces what the store knew of it with nothing (`scores.merge_history`).
        record[UNREADABLE] = unreadable
    return record


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
        [s for s in (ms_stamp(record.get("mdate")), ms_stamp(record.get("cdate"))) if s]
        + [n["mdate"] or n["cdate"] or 0 for n in notes],
        default=0,
    )
    return {"v": FORMAT, "captured": iso_ms(newest), "notes": notes}


def encode_forum(record: Mapping[str, Any]) -> bytes:
    """A forum record as stored: compact JSON, zlib-compressed."""
    return zlib.compress(orjson.dumps(record), LEVEL)


def review_summaries(record: Mapping[str, Any]) -> str:
    """The reviewers' summaries of a stored forum (its reviews' "summary" texts, one a
    line; "" without any): the paper retold by three or four readers in their words."""
    return "\n".join(
        item[1] for note in record.get("notes", ()) if isinstance(note, dict) and note.get("kind") == "review"
        for item in (note.get("text") if isinstance(note.get("text"), list) else ())
        if isinstance(item, list) and len(item) == 2 and item[0] == "summary" and isinstance(item[1], str)
    )


def decode_forum(data: bytes) -> dict[str, Any]:
    """The record `encode_forum` made. Raises ValueError when `data` is not one."""
    try:
        record = orjson.loads(zlib.decompress(data))
    except (zlib.error, orjson.JSONDecodeError) as error:
        raise ValueError(f"damaged record ({error})") from None
    if not isinstance(record, dict) or not isinstance(record.get("notes"), list):
        raise ValueError("damaged record (not a forum)")
    return record
