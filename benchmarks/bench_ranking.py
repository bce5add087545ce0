"""Search ranking side by side with a textbook: reader-tui, BM25F, SQLite FTS5 and bm25s in one run.

    python -m benchmarks.bench_ranking --data /work/shared/data/iclr2026-openreview.jsonl.gz \\
        --reviews /work/shared/data/iclr2026-reviews.jsonl.gz [--seed 1]

Measures, on the same queries for each engine:

- known item, TL;DR: a paper's TL;DR (from the reviews file) as the query; MRR@20 of the paper;
- known item, sentence: a sentence of the paper's abstract (8-40 words) as the query; MRR@20;
- known item, two typos: the TL;DR queries with two words misspelt (a seeded generator:
  a letter dropped, doubled, swapped with the next or replaced); MRR@20;
- topic: a keyword phrase that at least `--min-papers` papers list, as the query; the
  papers listing it are relevant; precision@10;
- the graded set (`bench_relevance`, nDCG@10).

The engines: reader-tui's `SearchIndex.search` (the query pasted as a user would: a query
the syntax rejects counts as a miss); a textbook BM25F over title, abstract and keywords
(k1 1.2, b 0.75, field weights 3/1/3, per-field length normalisation, no stemming, no
phrases, the project's tokeniser); and SQLite FTS5's bm25() with the same column weights
(an in-memory table, its default unicode61 tokeniser, the query's words OR-ed); and bm25s
(`pip install bm25s`, a benchmark-only candidate, skipped when absent: method "lucene", k1 1.2,
b 0.75; it has no fields, so a paper is one document, title 3 times + keywords 3 times +
abstract, after the 3/1/3 weights), with its default tokeniser (English stopwords) as
"bm25s" and with the project's as "bm25s-tokens"; the query's words once each.

Each engine's build time, per-query p50/p95 and "build RSS +MB" (resident memory grown by the
build; run one engine alone with --engines for a clean figure, as an earlier engine's freed
memory is reused) follow the table.

Queries are random samples with a fixed seed; report one seed (1) and tune on another
(2). No query's target text is used by any engine beyond the index every query sees.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import random
import re
import sqlite3
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from reader_tui.core.text.tokens import tokens

K = 20
ENGINES = ("reader-tui", "BM25F", "FTS5", "bm25s", "bm25s-tokens")


# -- queries ---------------------------------------------------------------------------


def read_tldrs(path: Path) -> dict[str, str]:
    """Paper id -> TL;DR from the reviews file (content.tldr), non-empty ones only."""
    import orjson

    found = {}
    with gzip.open(path, "rb") as f:
        for line in f:
            record = orjson.loads(line)
            tldr = ((record.get("content") or {}).get("tldr") or "").strip()
            if tldr:
                found[record["id"]] = tldr
    return found


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def abstract_sentence(abstract: str, rng: random.Random) -> str | None:
    """A sentence of 8-40 words of `abstract`, or None."""
    chosen = [s.strip() for s in _SENTENCE.split(abstract or "") if 8 <= len(s.split()) <= 40]
    return rng.choice(chosen) if chosen else None


def misspell(text: str, rng: random.Random, typos: int = 2) -> str:
    """`text` with `typos` of its words of 5+ letters misspelt by one edit each."""
    words = text.split(" ")
    places = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    for i in rng.sample(places, min(typos, len(places))):
        w = words[i]
        j = rng.randrange(1, len(w) - 1)
        kind = rng.randrange(4)
        if kind == 0:
            w = w[:j] + w[j + 1:]
        elif kind == 1:
            w = w[:j] + w[j] + w[j:]
        elif kind == 2:
            w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        else:
            w = w[:j] + rng.choice("aeioustnrl".replace(w[j].lower(), "")) + w[j + 1:]
        words[i] = w
    return " ".join(words)


def keyword_key(keyword: str) -> str:
    return " ".join(tokens(keyword))


def make_queries(records: Sequence, tldrs: dict[str, str], seed: int, n: int, topics: int, min_papers: int) -> dict:
    """The benchmark's query sets for one seed: kind -> [(query, relevant ids)]."""
    rng = random.Random(seed)
    live = [r for r in records if not r.withdrawn]
    with_tldr = sorted(r.id for r in live if r.id in tldrs)
    tldr_ids = rng.sample(with_tldr, min(n, len(with_tldr)))
    tldr = [(tldrs[i], {i}) for i in tldr_ids]
    sentence = []
    for r in rng.sample(live, len(live)):
        s = abstract_sentence(r.abstract, rng)
        if s:
            sentence.append((s, {r.id}))
        if len(sentence) == n:
            break
    typo = [(misspell(q, rng), ids) for q, ids in tldr]
    holders: dict[str, set[str]] = defaultdict(set)
    shown: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        for k in r.keywords:
            key = keyword_key(k)
            if key and len(key) > 2:
                holders[key].add(r.id)
                shown[key][k.strip()] += 1
    common = sorted(k for k, ids in holders.items() if len(ids) >= min_papers)
    topic = [(shown[k].most_common(1)[0][0], holders[k]) for k in rng.sample(common, min(topics, len(common)))]
    return {"known item, TL;DR (MRR@20)": tldr, "known item, sentence (MRR@20)": sentence,
            "known item, two typos (MRR@20)": typo, "topic: keyword (P@10)": topic}


# -- engines ---------------------------------------------------------------------------


class BM25F:
    """The textbook: BM25F over title, abstract and keywords (per-field length
    normalisation, term frequencies summed by field weight, then saturated once)."""

    def __init__(self, records: Sequence, weights=(3.0, 1.0, 3.0), k1: float = 1.2, b: float = 0.75) -> None:
        self.ids = [r.id for r in records]
        self.weights, self.k1, self.b = weights, k1, b
        self.post: dict[str, list[tuple[int, tuple[int, int, int]]]] = defaultdict(list)
        lengths = [[], [], []]
        for o, r in enumerate(records):
            fields = (tokens(r.title), tokens(r.abstract or ""), tokens(" ; ".join(r.keywords)))
            counts = [Counter(f) for f in fields]
            for f, words in enumerate(fields):
                lengths[f].append(len(words))
            for w in set().union(*counts):
                self.post[w].append((o, tuple(c[w] for c in counts)))
        self.avg = [max(sum(x) / len(x), 1e-9) for x in lengths]
        self.norm = [[1 - b + b * x / a for x in xs] for xs, a in zip(lengths, self.avg)]

    def search(self, query: str, limit: int = K) -> list[str]:
        n = len(self.ids)
        scores: dict[int, float] = defaultdict(float)
        (w0, w1, w2), (n0, n1, n2), k1 = self.weights, self.norm, self.k1
        for w in set(tokens(query)):
            post = self.post.get(w)
            if not post:
                continue
            idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5))
            for o, (a, b, c) in post:
                tf = w0 * a / n0[o] + w1 * b / n1[o] + w2 * c / n2[o]
                scores[o] += idf * tf / (k1 + tf)
        best = sorted(scores, key=scores.__getitem__, reverse=True)[:limit]
        return [self.ids[o] for o in best]


class FTS5:
    """SQLite FTS5 in memory, ranked by bm25() with column weights, words OR-ed."""

    def __init__(self, records: Sequence, weights=(3.0, 1.0, 3.0)) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create virtual table papers using fts5(id unindexed, title, abstract, keywords, "
                        "tokenize='unicode61 remove_diacritics 2')")
        self.db.executemany("insert into papers values (?, ?, ?, ?)",
                            ((r.id, r.title, r.abstract or "", " ; ".join(r.keywords)) for r in records))
        self.rank = "bm25(papers, 0, {}, {}, {})".format(*weights)

    def search(self, query: str, limit: int = K) -> list[str]:
        words = list(dict.fromkeys(tokens(query)))
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self.db.execute(f"select id from papers where papers match ? order by {self.rank} limit ?", (match, limit))
        return [row[0] for row in rows]


class BM25S:
    """bm25s (numpy/scipy, no fields): title x3 + keywords x3 + abstract as one document."""

    def __init__(self, records: Sequence, split: Callable[[str], list[str]] | None = None) -> None:
        import bm25s  # benchmark-only: not a dependency of reader-tui

        if split is None:
            def split(text: str) -> list[str]:
                return bm25s.tokenize([text], return_ids=False, show_progress=False)[0]
        self.split, self.ids = split, [r.id for r in records]
        docs = [split(" ".join([r.title] * 3 + [" ; ".join(r.keywords)] * 3 + [r.abstract or ""])) for r in records]
        self.model = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
        self.model.index(docs, show_progress=False)

    def search(self, query: str, limit: int = K) -> list[str]:
        import numpy as np

        words = list(dict.fromkeys(self.split(query)))
        if not words:
            return []
        scores = self.model.get_scores(words)
        limit = min(limit, len(scores))
        top = np.argpartition(-scores, limit - 1)[:limit]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [self.ids[o] for o in top if scores[o] > 0]


class Reader:
    """reader-tui's search through its public API, the query as typed."""

    def __init__(self, records: Sequence) -> None:
        from reader_tui.core.search.index import SearchIndex

        self.index = SearchIndex.build(list(records))
        self.errors = 0

    def search(self, query: str, limit: int = K) -> list[str]:
        from reader_tui.core.search.query import QueryError

        try:
            return [h.id for h in self.index.search(query, limit=limit)]
        except QueryError:
            self.errors += 1
            return []


# -- measures --------------------------------------------------------------------------


def reciprocal_rank(ranked: Sequence[str], relevant: set[str], k: int = K) -> float:
    for i, pid in enumerate(ranked[:k]):
        if pid in relevant:
            return 1.0 / (i + 1)
    return 0.0


def precision(ranked: Sequence[str], relevant: set[str], k: int = 10) -> float:
    return sum(pid in relevant for pid in ranked[:k]) / k


def measure(search: Callable[[str, int], list[str]], queries: dict, graded: list) -> tuple[dict, list[float]]:
    """Each query set's mean measure for one engine, and its per-query times (ms)."""
    from .bench_relevance import ndcg

    result, times = {}, []
    for kind, pairs in queries.items():
        values = []
        for q, relevant in pairs:
            start = time.perf_counter()
            ranked = search(q, K)
            times.append((time.perf_counter() - start) * 1000)
            values.append(precision(ranked, relevant) if "P@10" in kind else reciprocal_rank(ranked, relevant))
        result[kind] = statistics.mean(values) if values else float("nan")
    values = []
    for q, grades in graded:
        values.append(ndcg(search(q, 10), grades, 10))
    result["graded set (nDCG@10)"] = statistics.mean(values)
    return result, times


def run(records: Sequence, tldrs: dict[str, str], *, seed: int = 1, n: int = 200, topics: int = 100,
        min_papers: int = 20, engines: Sequence[str] = ENGINES) -> dict:
    import json

    from .bench_relevance import JUDGMENTS, grades
    from .bench_terminal import status_mb

    queries = make_queries(records, tldrs, seed, n, topics, min_papers)
    graded = [(q["q"], grades(records, q)) for q in json.loads(JUDGMENTS.read_text())["queries"]]
    makers = {"reader-tui": Reader, "BM25F": BM25F, "FTS5": FTS5, "bm25s": BM25S,
              "bm25s-tokens": lambda records: BM25S(records, tokens)}
    table, speed = {}, {}
    for name in engines:
        engine = None  # the last engine's memory goes before this one's is measured
        rss, start = status_mb(os.getpid(), "VmRSS:"), time.perf_counter()
        try:
            engine = makers[name](records)
        except ImportError as error:
            print(f"{name}: skipped, not installed ({error})")
            continue
        built, grown = time.perf_counter() - start, status_mb(os.getpid(), "VmRSS:") - rss
        table[name], times = measure(engine.search, queries, graded)
        times.sort()
        speed[name] = {"build s": round(built, 2), "p50 ms": round(times[len(times) // 2], 1),
                       "p95 ms": round(times[int(len(times) * 0.95)], 1), "build RSS +MB": round(grown),
                       "rejected": getattr(engine, "errors", 0)}
    return {"seed": seed, "queries": {k: len(v) for k, v in queries.items()}, "table": table, "speed": speed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--reviews", type=Path, required=True, help="the reviews file, for the TL;DRs")
    parser.add_argument("--seed", type=int, default=1, help="1 is reported; tune on another")
    parser.add_argument("--n", type=int, default=200, help="known-item queries per kind")
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--min-papers", type=int, default=20, help="papers a topic keyword needs")
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args(argv)
    from .synthetic import load_views

    records = load_views(args.data)
    result = run(records, read_tldrs(args.reviews), seed=args.seed, n=args.n, topics=args.topics,
                 min_papers=args.min_papers, engines=args.engines.split(","))
    names = list(result["table"])
    if not names:
        return 1
    print(f"seed {result['seed']}, {len(records)} papers; queries: "
          + ", ".join(f"{k.split(' (')[0]} {v}" for k, v in result["queries"].items()))
    print("| measure | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for kind in next(iter(result["table"].values())):
        print(f"| {kind} | " + " | ".join(f"{result['table'][e][kind]:.3f}" for e in names) + " |")
    for key in ("p50 ms", "p95 ms", "build s", "build RSS +MB", "rejected"):
        print(f"| {key} | " + " | ".join(str(result["speed"][e][key]) for e in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
