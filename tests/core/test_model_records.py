"""The domain records are plain dataclasses (DESIGN.md, convention 8): every stored value
is an ordinary field, read as it was set; what a record derives from its fields is a
property written in the class; any compact form of them is private to the module that
keeps many of them (the catalog), never in the records."""

from __future__ import annotations

import dataclasses
import types

import pytest

from reader_tui.core.model import SCORE_FIELDS, Annotation, Paper, PaperView, Scores

#: The properties each record derives from its fields (documented in the class).
DERIVED = {
    Paper: set(),
    Scores: {
        "reviews", "rating", "rating_min", "rating_max", "spread", "confidence", "soundness", "presentation",
        "contribution", "weighted_rating", "previous_rating",
    },
    PaperView: {"id", "title", "authors", "url", "citekey", "status", "tags", "notes", "last_changed"},
    Annotation: {"is_default"},
}


@pytest.mark.parametrize("cls", list(DERIVED), ids=lambda cls: cls.__name__)
def test_records_are_plain_dataclasses(cls: type) -> None:
    assert dataclasses.is_dataclass(cls)
    assert cls.__bases__ == (object,)  # not a bytes, str or tuple in disguise
    names = {f.name for f in dataclasses.fields(cls)}
    for name in names:
        # a field is its slot, not a property over something else
        assert type(cls.__dict__[name]) is types.MemberDescriptorType, name
    properties = {name for name, value in vars(cls).items() if isinstance(value, property)}
    assert properties == DERIVED[cls]
    assert not properties & names


@pytest.mark.parametrize("cls", [Paper, Scores, PaperView], ids=lambda cls: cls.__name__)
def test_read_mostly_records_are_frozen(cls: type) -> None:
    assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_fields_hold_what_was_given() -> None:
    scores = Scores(ratings=(4, 6), captured="2025-11-12T02:49:13+00:00")
    paper = Paper(id="p1", title="T", url="https://openreview.net/forum?id=p1", tldr="Short.",
                  pdf_url="https://openreview.net/pdf/x.pdf", year=2026, scores=scores)
    for record in (paper, scores):
        for f in dataclasses.fields(record):
            value = getattr(record, f.name)
            assert type(value) in (str, int, bool, tuple, type(None), Scores), (f.name, type(value))
    assert (paper.url, paper.tldr, paper.pdf_url, paper.scores) == (
        "https://openreview.net/forum?id=p1", "Short.", "https://openreview.net/pdf/x.pdf", scores)
    assert tuple(f.name for f in dataclasses.fields(Scores)) == SCORE_FIELDS
    with pytest.raises(dataclasses.FrozenInstanceError):
        paper.title = "Other"  # type: ignore[misc]
    assert dataclasses.replace(paper, title="Other").url == paper.url
    assert dataclasses.asdict(scores)["ratings"] == (4, 6)
