"""The detail pane says when a title was derived from the abstract, and names the
venue as a person would (issue 14, "Words and names")."""

from __future__ import annotations

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.tui.widgets.paper_detail import header_content

NOTE = "(title derived from the abstract)"


def view(title_derived: bool, overrides: dict | None = None, venue: str = "ICLR") -> PaperView:
    paper = Paper(id="p", title="QuickGraph: a sampler", abstract="...", venue=venue, year=2026, title_derived=title_derived)
    return PaperView(paper, Annotation(overrides=overrides or {}))


def test_a_derived_title_is_marked_under_the_title() -> None:
    lines = header_content(view(True)).plain.splitlines()
    assert lines[:2] == ["QuickGraph: a sampler", NOTE]


def test_a_real_or_edited_title_is_not_marked() -> None:
    assert NOTE not in header_content(view(False)).plain
    assert NOTE not in header_content(view(True, {"title": "My Title"})).plain


def test_the_venue_without_openreview_noise() -> None:
    text = header_content(view(False, venue="ICLR 2026 Conference Submission")).plain
    assert "ICLR 2026 submission" in text and "Conference Submission" not in text
    assert "ICLR 2026" in header_content(view(False)).plain  # the year is added where the venue lacks it
