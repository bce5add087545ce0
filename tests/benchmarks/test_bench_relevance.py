"""The relevance benchmark's arithmetic: grades from the judgment rules, nDCG@k, and the
judgments file itself (every query graded, every rule a valid pattern)."""

from __future__ import annotations

import json
import math

from benchmarks import bench_relevance
from reader_tui.core.model import Annotation, Paper, PaperView


def test_grades_take_the_best_rule_and_withdrawn_papers_one_lower():
    papers = [
        PaperView(Paper(id="a", title="Long-Context Retrieval", abstract="x"), Annotation()),
        PaperView(Paper(id="b", title="Retrieval", abstract="for long context inputs"), Annotation()),
        PaperView(Paper(id="c", title="Long context again", abstract="x", withdrawn=True), Annotation()),
        PaperView(Paper(id="d", title="Other", abstract="x"), Annotation()),
    ]
    query = {"q": "long context", "3": ["title:long[- ]context"], "1": ["text:long[- ]context"], "ids": {"d": 2}}
    assert bench_relevance.grades(papers, query) == {"a": 3, "b": 1, "c": 2, "d": 2}


def test_ndcg():
    relevant = {"a": 3, "b": 1}
    assert bench_relevance.ndcg(["a", "b"], relevant) == 1.0
    swapped = (1 / 1 + 7 / math.log2(3)) / (7 / 1 + 1 / math.log2(3))
    assert math.isclose(bench_relevance.ndcg(["b", "a"], relevant), swapped)
    assert bench_relevance.ndcg(["x"], {}) == 0.0


def test_the_judgments_file_is_well_formed():
    queries = json.loads(bench_relevance.JUDGMENTS.read_text())["queries"]
    assert len(queries) >= 30 and len({q["q"] for q in queries}) == len(queries)
    for q in queries:
        assert q["kind"] in {"topic", "sentence", "typo", "acronym"}
        for grade in ("3", "2", "1"):
            for rule in q.get(grade, ()):
                bench_relevance._rule(rule)  # compiles
                assert rule.split(":", 1)[0] in ("title", "text"), rule
