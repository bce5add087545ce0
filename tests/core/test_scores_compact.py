"""Scores are one compact object a paper (the catalog's text of them), each figure read
from it on demand: a 100,000-paper catalog with reviews must fit in memory."""

from __future__ import annotations

import copy
import gc
import pickle
import sys

import pytest

from reader_tui.core.model import Paper, Scores

TEXT = "4,6,8|3,4,4|2,3,3|3,3,2|2,2,3|5,5,6|2025-11-12T02:49:13+00:00|2025-11-01T10:00:00+00:00|oral|Accept (Oral)"


def test_scores_from_the_catalog_are_one_object_holding_nothing_else() -> None:
    scores = Scores.from_text(TEXT, "p1")
    assert [r for r in gc.get_referents(scores) if r is not Scores] == []  # no tuple of fields, no string per capture time
    assert sys.getsizeof(scores) < len(TEXT) + 64
    assert scores.to_text() == TEXT


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
    assert Scores().ratings == () and Scores().rating is None


def test_the_same_columns_are_one_tuple_across_papers() -> None:
    a = Scores.from_text("4,6,8|3,4,4|||||2025-11-12T02:49:13+00:00|||")
    b = Scores.from_text("4,6,8|3,4,4|||||2025-11-13T02:49:13+00:00|||")
    assert a.ratings is b.ratings and a.confidences is b.confidences


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
    assert "ratings=(4, 6, 8)" in repr(scores)


def test_what_sorts_read_is_what_the_scores_say() -> None:
    from reader_tui.core.model import score_figures

    rating, spread, weighted = score_figures("rating"), score_figures("spread"), score_figures("weighted")
    for scores in (Scores.from_text(TEXT), Scores((5, 5), (1, 1)), Scores((3,), (4, 4)), Scores((8, 2, 6), (0, 0, 0))):
        assert rating[rating.head(scores)] == scores.rating
        assert spread[spread.head(scores)] == scores.spread
        assert weighted[weighted.head(scores)] == scores.weighted_rating
        assert weighted.head(scores) in weighted  # kept for the next paper with the same text
    unrated = Scores(decision="oral")
    assert rating[rating.head(unrated)] is None and weighted[weighted.head(unrated)] is None
    assert score_figures("rating") is rating
