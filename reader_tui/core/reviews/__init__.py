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

import importlib
from typing import TYPE_CHECKING, Any

# What each name is imported from, on first use (PEP 562): the TUI's list and detail pane
# need only `one_line` at a start, and the forum's and the records' modules (their
# dataclasses among them) were 8-10 ms of it.
_SOURCES = {
    "KIND_LABELS": "forum", "Forum": "forum", "Note": "forum",
    "compact_scores": "one_line", "pdf_link": "one_line", "scores_line": "one_line",
    "FORMAT": "records", "SCORE_NAMES": "records", "ForumData": "records", "decision_tier": "records",
    "decode_forum": "records", "encode_forum": "records", "forum_record": "records", "iso_ms": "records",
    "note_record": "records", "replies_of": "records", "review_summaries": "records", "score_number": "records", "value": "records",
    "venue_decision": "records",
    "merge_history": "scores", "merge_scores": "scores", "summarize": "scores",
}

__all__ = [
    "FORMAT", "KIND_LABELS", "SCORE_NAMES", "Forum", "ForumData", "Note", "compact_scores", "decision_tier",
    "decode_forum", "encode_forum", "forum_record", "iso_ms", "merge_history", "merge_scores", "note_record",
    "pdf_link", "replies_of", "review_summaries", "score_number", "scores_line", "summarize", "value", "venue_decision",
]


def __getattr__(name: str) -> Any:
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(importlib.import_module(f"{__name__}.{source}"), name)
    globals()[name] = found  # the next look-up finds it without this function
    return found


if TYPE_CHECKING:
    from .forum import KIND_LABELS, Forum, Note
    from .one_line import compact_scores, pdf_link, scores_line
    from .records import (
        FORMAT,
        SCORE_NAMES,
        ForumData,
        decision_tier,
        decode_forum,
        encode_forum,
        forum_record,
        iso_ms,
        note_record,
        replies_of,
        score_number,
        value,
        venue_decision,
    )
    from .scores import merge_history, merge_scores, summarize
