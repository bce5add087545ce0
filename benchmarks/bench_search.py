"""Search benchmark: index build time and per-query latency over a fixed query set.

    python -m benchmarks.bench_search /work/shared/data/iclr2026-openreview.jsonl.gz [--papers 100000]

`run_benchmark(records)` is what `benchmarks.bench` calls; `synthetic_records` makes a
bigger list by recombining the sentences and title words of a real one.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Sequence

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.search.index import SearchIndex

from .synthetic import load_views

#: Realistic queries: single words, typos, partial words, several words, phrases, fields.
QUERIES = (
    "attention",
    "attenton",
    "atten",
    "log-lin atten",
    "conformal singleton",
    "GeoPurify",
    "3d occupancy",
    "muon",
    "tag:llm reasoning",
    '"linear attention" -softmax',
    "status:to-read year:2026",
    "diffusion",
    "difusion model",
    "large language model reasoning",
    "reinforcement learning from human feedback",
    "graph neural network",
    "grpah neural",
    "federated learning privacy",
    "transformer",
    "trasnformer",
    "protein",
    "mixture of experts",
    "kv cache compression",
    "speculative decoding",
    "in-context learning",
    "optimizer convergence",
    "robot manipulation",
    "video generation",
    "time series forecasting",
    "benchmark",
    "quantization llm",
    "contrastive",
    "sparse autoencoder interpretability",
    "venue:withdrawn",
    "is:tagged",
    "-status:read reasoning",
    "gaussian splatting",
    "moleculr",
)


def synthetic_records(records: Sequence, n: int, seed: int = 0) -> list[PaperView]:
    """`n` papers made by recombining the title words and abstract sentences of `records`,
    so the vocabulary and word frequencies stay realistic. A few are annotated."""
    rng = random.Random(seed)
    sentences = [s for r in records for s in re.split(r"(?<=[.!?])\s+", r.abstract) if s]
    title_words = [r.title.split() for r in records]
    keywords = [r.keywords for r in records]
    statuses = list(Status)
    views = []
    for i in range(n):
        a, b = rng.choice(title_words), rng.choice(title_words)
        title = " ".join(a[: len(a) // 2 + 1] + b[len(b) // 2 + 1 :])
        abstract = " ".join(rng.sample(sentences, 8))
        paper = Paper(id=f"syn{i:06d}", title=title, abstract=abstract, keywords=rng.choice(keywords),
                      venue="Synthetic 2026", year=2020 + i % 7)
        annotation = Annotation()
        if i % 97 == 0:
            annotation = Annotation(status=rng.choice(statuses), tags=(rng.choice(("llm", "vision", "theory")),),
                                    notes="compare with the baseline" if i % 2 else "")
        views.append(PaperView(paper, annotation))
    return views


def run_benchmark(records: Sequence, queries: Sequence[str] = QUERIES, repeat: int = 1) -> dict:
    """Build a `SearchIndex` of `records` and time each query with a cold expansion cache
    (the worst case: a new word; while typing, earlier words are cached).

    Returns build_s, head_build_s (without abstracts), p50_ms, p95_ms, max_ms, the
    process-CPU equivalents (cpu_*, less disturbed by other load on the machine), the
    build's CPU (build_cpu_s), papers and queries.
    """
    start = time.perf_counter()
    SearchIndex.build(records, abstracts=False)
    head_build = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    index = SearchIndex.build(records)
    build, build_cpu = time.perf_counter() - start, time.process_time() - cpu
    # As the app should after loading its catalog: move the long-lived objects out of
    # the collector's sight, or a full collection (0.1 s here, most of it walking the
    # papers, not the index) lands on whichever query happens to trigger it.
    gc.collect()
    gc.freeze()
    walls, cpus = [], []
    for _ in range(repeat):
        for query in queries:
            index._cache.clear()  # cold: every word is expanded afresh
            start, cpu = time.perf_counter(), time.process_time()
            index.search(query, marked={records[0].id})
            walls.append((time.perf_counter() - start) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
    gc.unfreeze()
    return {
        "papers": len(records),
        "queries": len(walls),
        "build_s": round(build, 3),
        "build_cpu_s": round(build_cpu, 3),
        "head_build_s": round(head_build, 3),
        "p50_ms": round(statistics.median(walls), 2),
        "p95_ms": round(_percentile(walls, 95), 2),
        "max_ms": round(max(walls), 2),
        "cpu_p50_ms": round(statistics.median(cpus), 2),
        "cpu_p95_ms": round(_percentile(cpus, 95), 2),
        "cpu_max_ms": round(max(cpus), 2),
    }


def _percentile(values: Sequence[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="OpenReview-style JSONL or JSONL.gz")
    parser.add_argument("--papers", type=int, help="recombine into this many synthetic papers")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    records = load_views(args.path)
    if args.papers:
        records = synthetic_records(records, args.papers)
    json.dump(run_benchmark(records, repeat=args.repeat), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
