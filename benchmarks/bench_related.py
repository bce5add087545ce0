"""Benchmark of the related-papers index: build time and time per query.

`run_benchmark(views)` is what the main benchmark calls; `python -m benchmarks.bench_related
PATH` runs it on an OpenReview JSONL(.gz) dump (id, title, abstract, keywords, venue,
year, url per line) and prints the figures.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from reader_tui.core.model import PaperView
from reader_tui.core.related.similar import RelatedIndex

from .synthetic import load_views


def run_benchmark(
    views: Sequence[PaperView], *, queries: int = 200, seed: int = 0, cache: bool = True
) -> dict[str, float]:
    """Build a RelatedIndex over `views` and time `related(k=5)` for `queries` random papers.

    Returns papers, build_s, build_cpu_s (CPU time: less disturbed by other processes on a
    busy machine), related_p50_ms, related_p95_ms, related_max_ms, more_like_this_p50_ms
    (k=50) and, with `cache`, cache_load_s: `load_or_build` from a warm cache file (this
    builds a second time, to write the cache).
    """
    start, cpu = time.perf_counter(), time.process_time()
    index = RelatedIndex.build(views)
    build_s, build_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    figures: dict[str, float] = {"papers": len(views), "build_s": round(build_s, 3), "build_cpu_s": round(build_cpu_s, 3)}
    if cache:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "related.bin"
            RelatedIndex.load_or_build(views, path)
            start = time.perf_counter()
            RelatedIndex.load_or_build(views, path)
            figures["cache_load_s"] = round(time.perf_counter() - start, 3)

    rng = random.Random(seed)
    sample = rng.sample([v.id for v in views], min(queries, len(views)))
    timings = []
    for pid in sample:
        start = time.perf_counter()
        index.related(pid, 5)
        timings.append((time.perf_counter() - start) * 1000)
    wide = []
    for pid in sample[:50]:
        start = time.perf_counter()
        index.more_like_this(pid, 50)
        wide.append((time.perf_counter() - start) * 1000)
    return {
        **figures,
        "related_p50_ms": round(_percentile(timings, 50), 2),
        "related_p95_ms": round(_percentile(timings, 95), 2),
        "related_max_ms": round(max(timings, default=0.0), 2),
        "more_like_this_p50_ms": round(_percentile(wide, 50), 2),
    }


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(pct) - 1]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m benchmarks.bench_related PAPERS.jsonl[.gz]", file=sys.stderr)
        return 2
    views = load_views(Path(args[0]))
    for key, value in run_benchmark(views).items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
