"""Reviews benchmark: importing a conference's reviews, reading one paper's, and the
score query and sort at full size.

    python -m benchmarks.bench_reviews --list iclr2026-openreview.jsonl.gz --data iclr2026-reviews.jsonl.gz

1. A fresh library takes in the list (`--list`, not timed), as a user's would hold it.
2. `python -m reader_tui import REVIEWS` runs in a fresh process, as typed in a shell:
   its wall time and its peak memory (the child's own `ru_maxrss`, from `wait4`). The
   background index build that an import starts is turned off for the run, so that it
   does not share the machine with what is measured.
3. In this process: the library opened, the reviews of `--samples` random papers read
   one at a time (`Library.forum`): p50 / p95 / max.
4. A `rating:>=6` query and a sort by mean rating over every paper (`SearchIndex.search`,
   `sort_views`), `--repeat` times each: p50 / p95.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env["READER_TUI_BACKGROUND_INDEX"] = "0"
    return env


def timed_import(db: Path, path: Path) -> tuple[float, float, str]:
    """(seconds, peak MB, its summary line) of `reader-tui import PATH` in a fresh process."""
    command = [sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", "import", str(path)]
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    out = proc.stdout.read().decode() if proc.stdout else ""
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"import failed ({proc.returncode}): {err.strip()}")
    return seconds, usage.ru_maxrss / 1024, out.strip()


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "max": ordered[-1],
    }


def run(list_path: Path | None, reviews: Path, db: Path, samples: int, repeat: int) -> dict:
    figures: dict = {}
    if list_path is not None:
        figures["list_import_s"], _, _ = timed_import(db, list_path)
    seconds, peak, line = timed_import(db, reviews)
    figures.update(import_s=seconds, import_peak_mb=peak, import_line=line)

    from reader_tui.core.library.library import Library
    from reader_tui.core.search.index import SearchIndex
    from reader_tui.core.search.sorting import SortKey, sort_views

    started = time.perf_counter()
    library = Library.open(db)
    figures["open_s"] = time.perf_counter() - started
    ids = list(library.papers)
    rng = random.Random(15)
    reads = []
    notes = 0
    for pid in rng.sample(ids, min(samples, len(ids))):
        started = time.perf_counter()
        forum = library.forum(pid)
        reads.append((time.perf_counter() - started) * 1000)
        notes += len(forum.notes) if forum else 0
    figures["forum_read_ms"] = percentiles(reads)
    figures["forum_notes_read"] = notes

    views = library.views()
    started = time.perf_counter()
    index = SearchIndex.build(views, abstracts=False)
    figures["index_build_no_abstracts_s"] = time.perf_counter() - started
    for name, work in (
        ("query_rating_ge_6_ms", lambda: index.search("rating:>=6")),
        ("query_area_rating_ms", lambda: index.search("area:interpretability rating:>=5 -is:withdrawn")),
        ("sort_rating_ms", lambda: sort_views(views, SortKey("rating"))),
        ("sort_weighted_ms", lambda: sort_views(views, SortKey("weighted"))),
    ):
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            work()
            times.append((time.perf_counter() - started) * 1000)
        figures[name] = percentiles(times)
    figures["hits_rating_ge_6"] = len(index.search("rating:>=6"))
    figures["papers"] = len(ids)
    figures["reviews_file_mb"] = (db / "reviews.sqlite").stat().st_size / 1e6
    figures["catalog_mb"] = (db / "catalog.json").stat().st_size / 1e6
    figures["load"] = os.getloadavg()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="the reviews file (OpenReview notes with replies)")
    parser.add_argument("--list", type=Path, help="the conference's list, imported first (not timed)")
    parser.add_argument("--db", type=Path, help="the library folder (default: a temporary one)")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="reader-tui-bench-reviews-") as tmp:
        db = args.db or Path(tmp) / "library"
        figures = run(args.list, args.data, db, args.samples, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    load = ", ".join(f"{x:.1f}" for x in figures["load"])
    rows = [
        ("papers", f"{figures['papers']:,}"),
        ("reader-tui import REVIEWS (fresh process)", f"{figures['import_s']:.1f} s, peak {figures['import_peak_mb']:.0f} MB"),
        ("  its report", figures["import_line"]),
        ("reviews.sqlite / catalog.json", f"{figures['reviews_file_mb']:.0f} MB / {figures['catalog_mb']:.0f} MB"),
        ("open the library", f"{figures['open_s']:.2f} s"),
    ]
    for name, label in (
        ("forum_read_ms", "reviews of one paper (Library.forum)"),
        ("query_rating_ge_6_ms", f"rating:>=6 ({figures['hits_rating_ge_6']:,} hits)"),
        ("query_area_rating_ms", "area:interpretability rating:>=5 -is:withdrawn"),
        ("sort_rating_ms", "sort by mean rating"),
        ("sort_weighted_ms", "sort by confidence-weighted rating"),
    ):
        p = figures[name]
        rows.append((label, f"p50 {p['p50']:.2f} ms, p95 {p['p95']:.2f} ms, max {p['max']:.2f} ms"))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    print(f"load average at the end: {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
