"""The review query fields and sorts: rating:, reviews:, spread:, area:, decision:,
is:withdrawn, combined with everything else; withdrawn papers last in rankings."""

from __future__ import annotations

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView, Scores, Status
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search.index import SearchIndex, area_matches
from reader_tui.core.search.query import QueryError, number_bounds, parse_query
from reader_tui.core.search.sorting import SortKey, sort_views

INTERP = "interpretability and explainable AI"
ROBOTS = "applications to robotics, autonomy, planning"
RL = "reinforcement learning"


def view(pid, title, ratings=(), *, area="", decision="", withdrawn=False, confidences=(), tags=()):
    scores = Scores(ratings=ratings, confidences=confidences, decision=decision) if ratings or decision else None
    paper = Paper(id=pid, title=title, abstract=f"{title} abstract text.", area=area, withdrawn=withdrawn, scores=scores)
    return PaperView(paper, Annotation(status=Status.UNREAD, tags=tuple(tags)))


PAPERS = [
    view("high", "Sparse attention features", (8, 8, 6), area=INTERP, decision="oral", tags=("llm",)),
    view("mid", "Attention heads explained", (4, 6), area=INTERP, confidences=(5, 1)),
    view("split", "Robot attention grasping", (2, 10, 6, 4), area=ROBOTS, decision="reject"),
    view("low", "Policy gradients again", (2, 2, 4), area=RL, decision="poster"),
    view("gone", "Withdrawn attention paper", (8, 8), area=INTERP, withdrawn=True),
    view("none", "Attention with no reviews", area=RL),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(PAPERS)


def ids(index: SearchIndex, query: str) -> set[str]:
    return {hit.id for hit in index.search(query)}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("rating:>=6", {"high", "gone"}),
        ("rating:>6", {"high", "gone"}),
        ("rating:4..6", {"mid", "split"}),
        ("rating:<3", {"low"}),
        ("reviews:>=3", {"high", "split", "low"}),
        ("reviews:0", {"none"}),
        ("spread:>=4", {"split"}),
        ("spread:0", {"gone"}),
        ("area:interpretability", {"high", "mid", "gone"}),
        ("area:robotics", {"split"}),
        ("area:explain", {"high", "mid", "gone"}),
        ("area:interpretabilty", {"high", "mid", "gone"}),  # a typo
        ("area:rl", {"low", "none"}),  # initials
        ("decision:oral", {"high"}),
        ("decision:accept", {"high", "low"}),
        ("decision:reject", {"split"}),
        ("is:withdrawn", {"gone"}),
        ("-is:withdrawn", {"high", "mid", "split", "low", "none"}),
        ("is:reviewed", {"high", "mid", "split", "low", "gone"}),
        ("rating:>=5 -is:withdrawn area:interp", {"high", "mid"}),
        ("rating:>5 -is:withdrawn area:interp", {"high"}),
        ("attention rating:>=5", {"high", "mid", "split", "gone"}),
        ("tag:llm rating:>=6", {"high"}),
        ("-area:interp reviews:>=2", {"split", "low"}),
    ],
)
def test_review_fields_select_and_combine(index: SearchIndex, query: str, expected: set[str]) -> None:
    assert ids(index, query) == expected


def test_bad_values_are_one_line_errors() -> None:
    for text, words in (("rating:good", "not a number or range"), ("decision:maybe", "decision:oral")):
        with pytest.raises(QueryError, match=words):
            parse_query(text)
    assert number_bounds("4..6") == (4.0, 6.0, False, False)
    assert number_bounds(">5.5") == (5.5, float("inf"), True, False)


def test_area_is_forgiving_but_not_anything_goes() -> None:
    assert area_matches("Interp", INTERP) and area_matches("explainable ai", INTERP)
    assert not area_matches("robotics", INTERP) and not area_matches("zz", RL)


def test_withdrawn_papers_rank_last_unless_asked_for() -> None:
    best = Paper(id="best", title="Attention Is All You Need", abstract="Transformers.", withdrawn=True)
    other = Paper(id="other", title="Mixers", abstract="Is attention all you need? We doubt it.")
    index = SearchIndex.build([PaperView(best, Annotation()), PaperView(other, Annotation())])
    assert [hit.id for hit in index.search("attention is all you need")] == ["other", "best"]
    assert [hit.id for hit in index.search("attention is all you need is:withdrawn")] == ["best"]


def test_the_review_columns_come_from_the_records_on_a_cache_load(tmp_path) -> None:
    path = tmp_path / "search.cache"
    search_cache.save(SearchIndex.build(PAPERS), path)
    # the same texts with other scores (a review import changes no text): the cache is
    # valid, and the columns are the new records', not the cache's
    rescored = [view(v.id, v.title, (10,) if v.id == "low" else v.paper.scores.ratings if v.paper.scores else (),
                     area=v.paper.area, withdrawn=v.paper.withdrawn) for v in PAPERS]
    loaded = search_cache.load(rescored, path)
    assert loaded is not None
    assert {hit.id for hit in loaded.search("rating:>=9")} == {"low"}


def test_score_sorts_best_first_unscored_then_withdrawn_last() -> None:
    by_rating = [v.id for v in sort_views(PAPERS, SortKey("rating"))]
    assert by_rating == ["high", "split", "mid", "low", "none", "gone"]
    assert [v.id for v in sort_views(PAPERS, SortKey("rating", reverse=True))] == ["low", "mid", "split", "high", "none", "gone"]
    assert [v.id for v in sort_views(PAPERS, SortKey("spread"))] == ["split", "high", "mid", "low", "none", "gone"]
    # confidence-weighted: mid's confident 4 outweighs its unsure 6 (4.33 < split's 5.5;
    # split has no confidences, so its plain mean)
    assert [v.id for v in sort_views(PAPERS, SortKey("weighted"))] == ["high", "split", "mid", "low", "none", "gone"]
    assert [v.id for v in sort_views(PAPERS, SortKey("rating", withdrawn_last=False))][:2] == ["gone", "high"]
    assert SortKey("rating").label == "mean rating (highest first)"
