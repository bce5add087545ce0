"""Scores: a plain record of tuples and strings, written to the catalog as one string
(`to_text`) and read back to the same record."""

from __future__ import annotations

import copy
import pickle

import pytest

from reader_tui.core.model import Paper, Scores

TEXT = "4,6,8|3,4,4|2,3,3|3,3,2|2,2,3|5,5,6|2025-11-12T02:49:13+00:00|2025-11-01T10:00:00+00:00|oral|Accept (Oral)"


def test_the_catalog_text_reads_back_to_the_same_text() -> None:
    assert Scores.from_text(TEXT, "p1").to_text() == TEXT
    assert Scores().to_text() == "|||||||||" and Scores.from_text("|||||||||") == Scores()


def test_every_field_reads_back_as_built() -> None:
    scores = Scores.from_text(TEXT)
    assert scores == Scores(
        ratings=(4, 6, 8), confidences=(3, 4, 4), soundness_scores=(2, 3, 3), presentation_scores=(3, 3, 2),
        contribution_scores=(2, 2, 3), decision="oral", decision_text="Accept (Oral)",
        captured="2025-11-12T02:49:13+00:00", previous=(5, 5, 6), previous_captured="2025-11-01T10:00:00+00:00",
    )
    assert (scores.ratings, scores.previous, scores.decision, scores.decision_text) == (
        (4, 6, 8), (5, 5, 6), "oral", "Accept (Oral)")
    assert (scores.captured, scores.previous_captured) == ("2025-11-12T02:49:13+00:00", "2025-11-01T10:00:00+00:00")
    assert (scores.rating, scores.spread, scores.reviews, scores.rating_min, scores.rating_max) == (6.0, 4, 3, 4, 8)
    assert scores.weighted_rating == pytest.approx((4 * 3 + 6 * 4 + 8 * 4) / 11)
    # a decision text may hold the separator: it is the last field
    assert Scores(ratings=(5,), decision_text="a | b").decision_text == "a | b"
    assert Scores.from_text(Scores(ratings=(5,), decision_text="a | b").to_text()).decision_text == "a | b"
    assert Scores().ratings == () and Scores().rating is None
    assert Scores((5, 5), (1, 1)).confidences == (1, 1)  # positionally, in the fields' order


def test_a_text_written_otherwise_is_read_to_the_same_scores() -> None:
    assert Scores.from_text("04,6|||||||||") == Scores(ratings=(4, 6))
    assert Scores.from_text("04,6|||||||||").to_text() == "4,6|||||||||"
    with pytest.raises(ValueError, match="not a number"):
        Scores.from_text("4,x|||||||||", "p9")
    with pytest.raises(ValueError, match="catalog's form"):
        Scores.from_text("4,6|3", "p9")


def test_copies_pickles_and_papers_keep_the_scores() -> None:
    scores = Scores.from_text(TEXT)
    for other in (copy.copy(scores), copy.deepcopy(scores), pickle.loads(pickle.dumps(scores))):
        assert type(other) is Scores and other == scores and other.ratings == (4, 6, 8)
    paper = Paper(id="p1", title="T", scores=scores)
    back = Paper.from_dict(paper.to_dict())
    assert back == paper and back.scores.decision == "oral"
    assert Paper.from_dict({**paper.to_dict(), "scores": scores.to_dict()}) == paper
    assert "ratings=(4, 6, 8)" in repr(scores)
    assert hash(scores) == hash(Scores.from_text(TEXT))
