"""OpenReview notes that carry their forum: both shapes (the trackers' flat submission
with v2 replies, openreview-py's `{"value": ...}` notes with `details`), decisions,
and a bad line in a file of reviews."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.model import Scores
from reader_tui.core.reviews import Forum, decision_tier, decode_forum, summarize, venue_decision

FIXTURES = Path(__file__).parents[2] / "fixtures"
REVIEWS = FIXTURES / "import_reviews"


def by_id(result):
    return {p.id: p for p in result.papers}


def forum(result, pid) -> Forum:
    return Forum.from_record(pid, decode_forum(result.forums[pid].data))


def test_flat_shape_gives_tldr_area_pdf_withdrawn_and_scores():
    result = read_openreview(REVIEWS / "snapshot1.jsonl")
    papers = by_id(result)
    a = papers["PaperAAAA1"]
    assert a.tldr == "Linear attention, long contexts."
    assert a.area == "interpretability and explainable AI"
    assert a.pdf_url == "https://openreview.net/pdf/paperaaaa1hash.pdf"
    assert not a.withdrawn
    assert a.scores.ratings == (4, 8, 2) and a.scores.confidences == (3, 4, 5)
    assert a.scores.soundness_scores == (3, 3, 1)
    assert a.scores.captured.startswith("2025-")
    assert papers["PaperBBBB2"].withdrawn
    # a paper whose forum holds nothing yet has no scores, but its (empty) forum is kept
    assert papers["PaperDDDD4"].scores is None
    assert set(result.forums) == set(papers)


def test_flat_shape_keeps_every_note_with_its_kind_and_reply_chain():
    result = read_openreview(REVIEWS / "snapshot1.jsonl")
    a = forum(result, "PaperAAAA1")
    kinds = [n.kind for n in a.notes]
    assert kinds.count("review") == 3 and kinds.count("comment") == 2
    review = a.reviews[0]
    assert review.author == "Reviewer_x1y2"
    assert [name for name, _ in review.sections] == ["summary", "strengths", "weaknesses", "questions"]
    assert "code_of_conduct" not in dict(review.sections)
    thread = [(n.id, depth) for n, depth in a.thread()]
    # the authors' rebuttal sits under the review it answers; the general response at the end
    assert thread.index(("ComA1", 1)) == thread.index(("RevA1", 0)) + 1
    assert thread[-1] == ("ComA0", 0)
    b = forum(result, "PaperBBBB2")
    assert [n.kind for n, _ in b.thread()] == ["review", "withdrawal"]
    assert dict(b.notes[1].sections) == {"comment": "We withdraw to improve the paper."}


def test_api_shape_with_decisions_meta_reviews_and_venues():
    result = read_openreview(REVIEWS / "api_notes.json")
    papers = by_id(result)
    oral = papers["ApiOral01"]
    assert oral.tldr == "An API tldr." and oral.area == "optimization"
    assert oral.authors == ("Ada Lovelace", "Alan Turing")
    assert oral.pdf_url == "https://openreview.net/pdf/ApiOral01.pdf"
    # "8: accept, good paper" reads as 8; "3 good" as 3
    assert oral.scores.ratings == (8, 10) and oral.scores.soundness_scores == (3, 3)
    assert (oral.scores.decision, oral.scores.decision_text) == ("oral", "Accept (Oral)")
    # details.directReplies, a Reject decision
    assert papers["ApiRejct2"].scores.decision == "reject"
    assert papers["ApiRejct2"].scores.ratings == (2, 4)
    # no decision note: the accepted venue names the tier
    assert papers["ApiPostr3"].scores.decision == "poster"
    kinds = [n.kind for n, _ in forum(result, "ApiOral01").thread()]
    assert kinds == ["decision", "meta", "review", "review"]


def test_decision_tiers_from_text_and_venue():
    assert decision_tier("Accept (Oral)") == "oral"
    assert decision_tier("Accept (Spotlight)") == "spotlight"
    assert decision_tier("Accept (Poster)") == "poster"
    assert decision_tier("Reject") == "reject"
    assert venue_decision("ICLR 2026 Oral") == "oral"
    assert venue_decision("ICLR 2026 Conference Submission") == ""
    assert venue_decision("Submitted to ICLR 2026") == ""
    assert venue_decision("ICLR 2026 Conference Withdrawn Submission") == ""


def test_a_bad_line_in_a_file_of_reviews_fails_the_file_naming_the_line():
    with pytest.raises(ImportFailure) as caught:
        read_openreview(REVIEWS / "bad_line.jsonl")
    message = str(caught.value)
    assert message.startswith(f"{REVIEWS / 'bad_line.jsonl'}:2: ")
    assert "nothing was imported" in message and "\n" not in message


def test_a_plain_list_brings_no_forums_and_no_scores(tmp_path):
    path = tmp_path / "list.jsonl"
    path.write_text(json.dumps({"id": "P1", "title": "A paper", "venue": "ICLR 2026 Conference Withdrawn Submission"}) + "\n")
    result = read_openreview(path)
    assert result.forums == {} and result.papers[0].scores is None
    assert result.papers[0].withdrawn  # the venue says so


def test_the_score_summary():
    scores = Scores(ratings=(2, 6, 8), confidences=(5, 3, 2), soundness_scores=(1, 3), decision="poster")
    assert scores.rating == pytest.approx(16 / 3)
    assert (scores.rating_min, scores.rating_max, scores.spread, scores.reviews) == (2, 8, 6, 3)
    assert scores.confidence == pytest.approx(10 / 3)
    assert scores.weighted_rating == pytest.approx((10 + 18 + 16) / 10)
    assert scores.soundness == 2.0 and scores.presentation is None
    summary = scores.summary()
    assert summary["rating"] == 5.33 and summary["reviews"] == 3 and summary["decision"] == "poster"
    assert Scores.from_dict(scores.to_dict()) == scores
    assert summarize({"notes": [], "captured": ""}) is None


def test_pdf_link_falls_back_to_the_forums_pdf():
    from reader_tui.core.model import Paper
    from reader_tui.core.reviews import pdf_link

    assert pdf_link(Paper(id="a", title="t", pdf_url="https://openreview.net/pdf/x.pdf")) == "https://openreview.net/pdf/x.pdf"
    assert pdf_link(Paper(id="a", title="t", url="https://openreview.net/forum?id=AbC")) == "https://openreview.net/pdf?id=AbC"
    assert pdf_link(Paper(id="a", title="t", url="https://arxiv.org/abs/1")) == ""
