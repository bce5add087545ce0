"""A venue as a person reads it: "ICLR 2026 Conference Submission" is an ICLR 2026
submission; the year is added where the venue does not say it."""

from __future__ import annotations

import re

# OpenReview's venue strings for papers under review: "ICLR 2026 Conference Submission",
# "... Withdrawn Submission", "... Desk Rejected Submission", "Submitted to ICLR 2026",
# sometimes with the submission's number glued on ("Submission12345").
_SUBMISSION = re.compile(
    r"^(?P<venue>.+?)\s+Conference\s+(?P<kind>(?:Withdrawn|Desk[\s-]Rejected|Rejected)\s+)?Submission(?:\s*#?\d+)?$",
    re.I,
)
_SUBMITTED_TO = re.compile(r"^Submitted\s+to\s+(?P<venue>.+)$", re.I)


def venue_line(venue: str, year: int | None = None) -> str:
    """`venue` (one line of display text) without OpenReview's submission noise, with
    `year` added when the venue does not name it: "ICLR 2026 submission",
    "ICLR 2026 withdrawn submission", "NeurIPS 2024"."""
    venue = " ".join(venue.split())
    found = _SUBMISSION.match(venue)
    if found:
        kind = (found.group("kind") or "").strip().lower().replace(" ", "-")
        venue = f"{found.group('venue')} {kind + ' ' if kind else ''}submission"
    else:
        found = _SUBMITTED_TO.match(venue)
        if found:
            venue = f"{found.group('venue')} submission"
    if year and not re.search(rf"\b{year}\b", venue):
        venue = f"{venue} {year}".strip() if not venue.endswith(" submission") else f"{venue[:-11]} {year} submission".strip()
    return venue
