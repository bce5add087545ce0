"""Search relevance: nDCG@10 of the search over a graded quality set.

    python -m benchmarks.bench_relevance --data /work/shared/data/iclr2026-openreview.jsonl.gz

The judgments (`benchmarks/search_judgments.json`) are 38 queries a researcher would
type (short topics, long sentences, misspellings, acronyms), each graded 0-3 on the ICLR
2026 list by rules over the titles and abstracts and by hand for named papers (see the
file's "about"); they were written by reading the papers, not by running the search.
A withdrawn paper counts a grade lower: a reader wants it after the others.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

JUDGMENTS = Path(__file__).with_name("search_judgments.json")


def _rule(rule: str):
    where, _, pattern = rule.partition(":")
    parts = [re.compile(p, re.I) for p in pattern.split(" && ")]
    return where, parts


def grades(records: Sequence, query: dict) -> dict[str, int]:
    """Paper id -> grade (1-3) of every paper relevant to `query` (a judgments entry)."""
    rules = [(int(g), _rule(r)) for g in ("3", "2", "1") for r in query.get(g, ())]
    found: dict[str, int] = {}
    for r in records:
        title = f"{r.title} {getattr(r, 'short_name', '') or ''}"
        text = f"{title} {' '.join(r.keywords)} {r.abstract}"
        grade = 0
        for g, (where, parts) in rules:
            if g > grade and all(p.search(title if where == "title" else text) for p in parts):
                grade = g
        grade = max(grade, query.get("ids", {}).get(r.id, 0))
        if grade and getattr(r, "withdrawn", False):
            grade -= 1
        if grade:
            found[r.id] = grade
    return found


def ndcg(ranked: Sequence[str], relevant: dict[str, int], k: int = 10) -> float:
    """Normalised discounted cumulative gain at `k` (gain 2^grade - 1)."""
    dcg = sum((2 ** relevant.get(pid, 0) - 1) / math.log2(i + 2) for i, pid in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    best = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / best if best else 0.0


def run(records: Sequence, judgments: Path = JUDGMENTS, k: int = 10) -> dict:
    """nDCG@k of each query of `judgments` over a search index of `records`, with the
    mean per kind of query and overall."""
    from reader_tui.core.search.index import SearchIndex

    queries = json.loads(judgments.read_text())["queries"]
    index = SearchIndex.build(records)
    per_query = {}
    for q in queries:
        relevant = grades(records, q)
        hits = index.search(q["q"], limit=k)
        per_query[q["q"]] = {"kind": q["kind"], "ndcg": round(ndcg([h.id for h in hits], relevant, k), 4),
                             "relevant": len(relevant)}
    kinds = sorted({v["kind"] for v in per_query.values()})
    by_kind = {kind: round(statistics.mean(v["ndcg"] for v in per_query.values() if v["kind"] == kind), 4)
               for kind in kinds}
    return {"mean": round(statistics.mean(v["ndcg"] for v in per_query.values()), 4), "by_kind": by_kind,
            "queries": per_query}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the ICLR 2026 list the judgments were made on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from .synthetic import load_views

    result = run(load_views(args.data))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    for q, v in result["queries"].items():
        print(f"{v['ndcg']:.3f}  {v['kind']:<8} {q}  ({v['relevant']} relevant)")
    print("by kind: " + ", ".join(f"{k} {v:.3f}" for k, v in result["by_kind"].items()))
    print(f"nDCG@10 mean: {result['mean']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
