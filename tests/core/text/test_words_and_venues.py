from __future__ import annotations

import pytest

from reader_tui.core.text.venues import venue_line
from reader_tui.core.text.words import counted


@pytest.mark.parametrize(
    ("count", "noun", "text"),
    [(0, "paper", "0 papers"), (1, "paper", "1 paper"), (2, "entry", "2 entries"), (1, "entry", "1 entry"),
     (19630, "paper", "19,630 papers"), (3, "match", "3 matches")],
)
def test_counted(count: int, noun: str, text: str) -> None:
    assert counted(count, noun) == text


@pytest.mark.parametrize(
    ("venue", "year", "line"),
    [
        ("ICLR 2026 Conference Submission", 2026, "ICLR 2026 submission"),
        ("ICLR 2026 Conference Submission 2026", 2026, "ICLR 2026 submission"),  # a number glued on
        ("ICLR 2026 Conference Withdrawn Submission", 2026, "ICLR 2026 withdrawn submission"),
        ("ICLR 2026 Conference Desk Rejected Submission", 2026, "ICLR 2026 desk-rejected submission"),
        ("ICLR Conference Submission12345", 2026, "ICLR 2026 submission"),
        ("Submitted to ICLR 2026", 2026, "ICLR 2026 submission"),
        ("NeurIPS", 2024, "NeurIPS 2024"),
        ("Proc. ICLR 2026", 2026, "Proc. ICLR 2026"),
        ("", 2024, "2024"),
        ("ICLR", None, "ICLR"),
    ],
)
def test_venue_line(venue: str, year: int | None, line: str) -> None:
    assert venue_line(venue, year) == line
