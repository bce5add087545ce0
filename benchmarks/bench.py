"""The project's benchmark: `python -m benchmarks.bench [--data FILE] [--papers N] [--runs R] [--json]`.

Speed targets are checked here, not in timed tests (the machines are shared and noisy).
With `--data` it reads a real list (any format `reader-tui import` takes; for the figures of
benchmarks/README.md, the 19,630-paper OpenReview dump); `--papers N` grows or generates a
list of N papers (recombining real sentences, see `synthetic.py`). It measures, in this order:

- start-up: importing the CLI (no Textual) and the TUI, each in a fresh interpreter;
- `reader-tui import FILE` as a user runs it (with `--data` alone), then the import's
  merge and write alone: into an empty store, then the same list again (all duplicates);
- store writes: one status change with the whole catalog loaded (p50/p95);
- search: index build, query latency p50/p95/max over a fixed set of queries;
- related papers: index build, per-paper latency;
- BibTeX export of every paper;
- the TUI in-process (headless, in a fresh process, the clock started once the store is
  open): first paint, time to full search, memory; once with no index caches and once
  with them prepared as `reader-tui import` leaves them, then the CPU cost per key of a
  held `j` (30 keys/s), scrolling and within a page. These isolate the app's own share;
- the TUI as a user sees it (`bench_terminal.py`): `reader-tui --db STORE` started in a
  140x45 terminal, timed from the Enter key to the list on screen and to the first key
  answered, with the process's own peak memory; `--runs` launches, median and range.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reader_tui.core.library.indexing import BACKGROUND_ENV
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from reader_tui.core.paths import CACHE_ENV

from .bench_terminal import compile_tree
from .synthetic import load_papers


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a paper list to measure with (default: synthetic papers)")
    parser.add_argument("--papers", type=int, help="use this many papers (grown from --data or the seed list)")
    parser.add_argument("--runs", type=int, default=5,
                        help="launches of the TUI in a terminal (default 5); fresh imports timed min(3, R) times")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--skip", action="append", default=[], choices=sorted(STEPS), help="leave a step out")
    args = parser.parse_args(argv)

    compile_tree()  # the fresh processes below read the app compiled, as an install has it
    papers = load_papers(args.data, args.papers)
    figures: dict[str, Any] = {"papers": len(papers), "data": str(args.data) if args.data else "synthetic"}
    with tempfile.TemporaryDirectory(prefix="reader-tui-bench-") as tmp:
        # the index caches of this throw-away store go with it, not to the user's cache
        os.environ[CACHE_ENV] = str(Path(tmp) / "cache")
        context = {"papers": papers, "folder": Path(tmp) / "library", "data": args.data,
                   "grown": args.papers is not None, "runs": args.runs}
        for name, step in STEPS.items():
            if name in args.skip:
                continue
            _progress(f"{name}...")
            figures.update(step(context))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(format_table(figures))
    return 0


# -- steps ------------------------------------------------------------------------------


def step_startup(context: dict) -> dict:
    tries = max(1, min(3, context["runs"]))  # the best of three; once for a smoke run (--runs 1)
    return {
        "import_cli_s": _fresh_import_time("reader_tui.cli", tries),
        "import_tui_s": _fresh_import_time("reader_tui.tui.app", tries),
    }


def step_import_file(context: dict) -> dict:
    """`reader-tui import FILE` as a user runs it (fresh process: read, parse, merge,
    write), when the benchmark reads a real file as it is (`--data` without `--papers`)."""
    data: Path | None = context["data"]
    if data is None or context["grown"]:
        return {}
    folder = context["folder"].parent / "import-file"
    code = "from reader_tui.cli import main; main()"
    os.environ[BACKGROUND_ENV] = "0"  # the background index build is measured by step_tui
    try:
        read = _timed(lambda: _run_python("import sys; from reader_tui.core.formats.detect import read_any; "
                                          "read_any(sys.argv[1])", str(data)))
        total = _timed(lambda: _run_python(code, "--db", str(folder), "--no-seed", "import", str(data)))
    finally:
        del os.environ[BACKGROUND_ENV]
    return {"cli_import_read_s": read, "cli_import_s": total}


def step_import(context: dict) -> dict:
    folder: Path = context["folder"]
    papers: list[Paper] = context["papers"]
    library = Library.open(folder)
    first = _timed(lambda: library.import_papers(papers))
    again = _timed(lambda: library.import_papers(papers))
    reopen = _timed(lambda: Library.open(folder))  # parses the catalog, writes its layout
    laid_out = _timed(lambda: Library.open(folder))  # reads the records at their places
    return {"import_new_s": first, "import_duplicates_s": again, "store_open_s": reopen, "store_reopen_s": laid_out}


def step_writes(context: dict) -> dict:
    library = Library.open(context["folder"])
    ids = list(library.papers)
    rng = random.Random(7)
    # A realistic annotations file: a tenth of the papers already touched.
    library.set_status(rng.sample(ids, len(ids) // 10), Status.TO_READ)
    times = []
    for _ in range(60):
        pid = rng.choice(ids)
        times.append(_timed(lambda: library.set_status([pid], rng.choice(list(Status)))))
    return {"write_p50_ms": _ms(statistics.median(times)), "write_p95_ms": _ms(_percentile(times, 95))}


def step_search(context: dict) -> dict:
    from reader_tui.core.search import cache as search_cache
    from reader_tui.core.search.index import SearchIndex

    from .bench_search import run_benchmark

    library = Library.open(context["folder"])
    views = library.views()
    result = run_benchmark(views)
    cache = context["folder"].parent / "search.idx"
    search_cache.save(SearchIndex.build(views), cache)

    def warm_start() -> None:
        search_cache.load(views, cache, search_cache.fingerprint(views))

    return {
        "index_warm_load_s": _timed(warm_start),
        "index_build_s": result["build_s"],
        # the process's CPU for the same build: less moved by other load on the machine
        "index_build_cpu_s": result["build_cpu_s"],
        "query_p50_ms": result["p50_ms"],
        "query_p95_ms": result["p95_ms"],
        "query_max_ms": result["max_ms"],
    }


def step_related(context: dict) -> dict:
    from .bench_related import run_benchmark

    library = Library.open(context["folder"])
    result = run_benchmark(library.views(), cache=False)
    return {
        "related_build_s": result["build_s"],
        "related_p50_ms": result["related_p50_ms"],
        "related_p95_ms": result["related_p95_ms"],
    }


def step_export(context: dict) -> dict:
    from reader_tui.core.formats.bibtex.writer import export_bibtex

    library = Library.open(context["folder"])
    views = library.views()
    return {"export_bibtex_s": _timed(lambda: export_bibtex(views))}


def step_tui(context: dict) -> dict:
    """The TUI twice, each in a fresh process: first with no index caches (it builds them
    itself, in a worker), then as a user finds it after `reader-tui import`, whose
    background `reader-tui index` (timed here) has prepared them."""
    folder = str(context["folder"])
    caches = Path(os.environ[CACHE_ENV])
    shutil.rmtree(caches, ignore_errors=True)
    cold = json.loads(_run_python(_TUI_CODE, folder).strip().splitlines()[-1])
    shutil.rmtree(caches, ignore_errors=True)
    prepare = _timed(lambda: _run_python("from reader_tui.cli import main; main()", "index", "--quiet", "--db", folder))
    prepared = json.loads(_run_python(_TUI_CODE, folder, "--held").strip().splitlines()[-1])
    context["indexed"] = True
    return {
        **cold,
        "index_prepare_s": prepare,
        "prepared_first_paint_s": prepared["first_paint_s"],
        "prepared_search_ready_s": prepared["search_ready_s"],
        "prepared_tui_rss_mb": prepared["tui_rss_mb"],
        "prepared_tui_peak_rss_mb": prepared["tui_peak_rss_mb"],
        "held_scroll_ms": _ms(prepared["held_scroll_cpu_per_key_s"]),
        "held_in_page_ms": _ms(prepared["held_in_page_cpu_per_key_s"]),
    }


def step_terminal(context: dict) -> dict:
    """The TUI as a user starts it, in a terminal, with the index caches prepared as
    `reader-tui import` leaves them (see `bench_terminal.py`)."""
    from . import bench_terminal

    folder = context["folder"]
    if not context.get("indexed"):
        _run_python("from reader_tui.cli import main; main()", "index", "--quiet", "--db", str(folder))
        context["indexed"] = True
    figures = bench_terminal.measure(folder, runs=context["runs"])
    # Textual's own start in the same terminal, the floor under these figures.
    return {**figures, **bench_terminal.measure_floor(runs=context["runs"])}


_TUI_CODE = "import sys; from benchmarks.bench import tui_figures; tui_figures(sys.argv[1], '--held' in sys.argv)"


def tui_figures(folder: str, held: bool = False) -> None:
    """Start the TUI headless on the store in `folder` and print, as JSON: first paint,
    seconds until its search index was complete, resident memory once its workers ended,
    and this process's peak resident memory; with `held`, also the CPU cost of a held `j`
    (bench_tui.measure_held_keys). Run by `step_tui` in a fresh process."""
    from reader_tui.tui.screens.main_screen import MainScreen

    from . import bench_tui

    search_ready: list[float] = []
    original = MainScreen.on_index_ready

    def spy(screen: MainScreen, message: Any) -> None:
        original(screen, message)
        if message.index.abstracts_indexed and not search_ready:
            search_ready.append(time.perf_counter())

    MainScreen.on_index_ready = spy  # type: ignore[method-assign]
    library = Library.open(Path(folder), background_writes=True)
    start = time.perf_counter()
    paint = bench_tui.measure_first_paint(library)
    figures = {
        "first_paint_s": paint,
        "search_ready_s": search_ready[0] - start if search_ready else float("nan"),
        "tui_rss_mb": bench_tui.settled_rss_mb,
        "tui_peak_rss_mb": bench_tui.rss_mb(),
    }
    if held:  # after the memory figures: it runs a second app
        figures.update(bench_tui.measure_held_keys(library))
    library.close()
    print(json.dumps(figures))


STEPS: dict[str, Callable[[dict], dict]] = {
    "startup": step_startup,
    "import-file": step_import_file,
    "import": step_import,
    "writes": step_writes,
    "search": step_search,
    "related": step_related,
    "export": step_export,
    "tui": step_tui,
    "terminal": step_terminal,
}


# -- output -----------------------------------------------------------------------------


def _terminal_rows() -> list[tuple[str, str, str]]:
    from .bench_terminal import ROWS

    return ROWS


_ROWS = [
    ("papers", "papers", "{:,}"),
    ("import_cli_s", "import the CLI (fresh process, no Textual)", "{:.3f} s"),
    ("import_tui_s", "import the TUI (fresh process)", "{:.3f} s"),
    ("cli_import_read_s", "read and parse the file (fresh process)", "{:.2f} s"),
    ("cli_import_s", "reader-tui import FILE into an empty store (fresh process)", "{:.2f} s"),
    ("import_new_s", "import into an empty store (papers already read)", "{:.2f} s"),
    ("import_duplicates_s", "import again (all duplicates)", "{:.2f} s"),
    ("store_open_s", "open the store, first time after an import (parse every record)", "{:.3f} s"),
    ("store_reopen_s", "open the store again (records read at their places: what a start does)", "{:.3f} s"),
    ("write_p50_ms", "store write (status change), p50", "{:.1f} ms"),
    ("write_p95_ms", "store write (status change), p95", "{:.1f} ms"),
    ("index_build_s", "search index build (cold)", "{:.2f} s"),
    ("index_build_cpu_s", "search index build (cold), CPU", "{:.2f} s"),
    ("index_warm_load_s", "search index load from its cache (warm start)", "{:.2f} s"),
    ("query_p50_ms", "search query, p50", "{:.1f} ms"),
    ("query_p95_ms", "search query, p95", "{:.1f} ms"),
    ("query_max_ms", "search query, max", "{:.1f} ms"),
    ("related_build_s", "related-papers index build", "{:.2f} s"),
    ("related_p50_ms", "related papers of one paper, p50", "{:.1f} ms"),
    ("related_p95_ms", "related papers of one paper, p95", "{:.1f} ms"),
    ("export_bibtex_s", "BibTeX export of every paper", "{:.2f} s"),
    ("index_prepare_s", "reader-tui index (import runs it in the background)", "{:.2f} s"),
    *[(key, f"TUI in a terminal: {label}", fmt) for key, label, fmt in _terminal_rows()],
    ("prepared_first_paint_s", "TUI in-process, indexes prepared: store open to first painted list", "{:.3f} s"),
    ("prepared_search_ready_s", "TUI in-process, indexes prepared: store open to full search", "{:.2f} s"),
    ("prepared_tui_rss_mb", "TUI in-process, indexes prepared: resident memory", "{:.0f} MB"),
    ("prepared_tui_peak_rss_mb", "TUI in-process, indexes prepared: peak resident memory", "{:.0f} MB"),
    ("held_scroll_ms", "TUI in-process: j held (30/s), every key scrolling: CPU per key", "{:.1f} ms"),
    ("held_in_page_ms", "TUI in-process: j held (30/s), within the page: CPU per key", "{:.1f} ms"),
    ("first_paint_s", "TUI in-process, no index caches: store open to first painted list", "{:.3f} s"),
    ("search_ready_s", "TUI in-process, no index caches: store open to full search (built in a worker)", "{:.2f} s"),
    ("tui_rss_mb", "TUI in-process, no index caches: resident memory, indexes built", "{:.0f} MB"),
    ("tui_peak_rss_mb", "TUI in-process, no index caches: peak resident memory (during the builds)", "{:.0f} MB"),
]


def format_table(figures: dict[str, Any]) -> str:
    """The figures as a two-column text table (what benchmarks/README.md shows); a figure of
    several runs shows its median and range."""
    rows = [(label, _format(fmt, figures[key])) for key, label, fmt in _ROWS if key in figures]
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label:<{width}}  {value:>12}" for label, value in rows)


def _format(fmt: str, value: Any) -> str:
    return fmt.format(**value) if isinstance(value, dict) else fmt.format(value)


# -- helpers ----------------------------------------------------------------------------


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _ms(seconds: float) -> float:
    return seconds * 1000


def _percentile(values: Sequence[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def _fresh_import_time(module: str, tries: int = 3) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return min(float(_run_python(code)) for _ in range(tries))


def _run_python(code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_repo_root(), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=600, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed: {result.stderr.strip().splitlines()[-1:]}")
    return result.stdout


def _repo_root() -> str:
    return str(Path(__file__).resolve().parent.parent)


def _progress(message: str) -> None:
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
