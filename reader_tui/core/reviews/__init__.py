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

__all__ = [
    "FORMAT", "KIND_LABELS", "SCORE_NAMES", "Forum", "ForumData", "Note", "compact_scores", "decision_tier",
    "decode_forum", "encode_forum", "forum_record", "iso_ms", "merge_history", "merge_scores", "note_record",
    "pdf_link", "replies_of", "score_number", "scores_line", "summarize", "value", "venue_decision",
]
