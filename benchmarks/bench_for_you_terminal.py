""""For you" as a user meets it: the first `f` in triage, in a real terminal.

    python -m benchmarks.bench_for_you_terminal --db STORE [--runs 3] [--no-reviews] [--json]

A copy of the store (STORE is never changed) gets a reader's decisions: the first 7
papers of each of three searches kept, 19 papers found by none of them skipped (seed 0),
no place kept in the list (catalog order, no sort "for you" to train at the start), and
both index caches made, so that a launch finds them.
With `--no-reviews` the copy has no reviews store. Each run then starts
`python -m reader_tui --db COPY` in a 140x45 terminal (`bench_terminal`), waits for the
list and for the start's work to end, presses `T` and `f`, and measures from the `f` key:

* until the triage line says "learning…" (the key is answered);
* until it says "learned from N kept and M skipped" (the model is trained, the card
  shown is its first choice): the first training of the session, features and all;
* from the next key, `s` (that card skipped), until it says "... M+1 skipped": a
  decision's retraining, after which the card shown is the new model's first choice;
* the process's own peak resident memory (VmHWM) once it has.

Every run is cold: the model's features live in the process only.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .bench_terminal import (
    IDLE_TIMEOUT_S,
    LIST_TIMEOUT_S,
    QUIT_TIMEOUT_S,
    SIZE,
    compile_tree,
    forget_place,
    list_marks,
    open_terminal,
    status_mb,
    store_titles,
    tui_command,
    tui_env,
    wait_idle,
)

QUERIES = ("offline reinforcement learning", "world model", "multi-armed bandits regret")
KEPT_PER_QUERY, SKIPPED, SEED = 7, 19, 0
LEARN_TIMEOUT_S = 120.0


def decided_copy(store: Path, folder: Path, *, reviews: bool = True) -> tuple[Path, int, int]:
    """A copy of `store` in `folder` with the decisions described above, its caches made,
    and how many papers it has kept and skipped."""
    from reader_tui.core.library.indexing import prepare, search_index
    from reader_tui.core.library.library import Library
    from reader_tui.core.library.reviews_store import REVIEWS_FILE
    from reader_tui.core.model import Status
    from reader_tui.core.related.for_you import labels

    copy = folder / "store"
    shutil.copytree(store, copy, ignore=None if reviews else shutil.ignore_patterns(REVIEWS_FILE))
    library = Library.open(copy)
    try:
        index, _ = search_index(library)
        kept: list[str] = []
        for query in QUERIES:
            kept += [hit.id for hit in index.search(query)[:KEPT_PER_QUERY] if hit.id not in kept]
        found = {hit.id for query in QUERIES for hit in index.search(query)}
        others = sorted(pid for pid in library.papers if pid not in found)
        skipped = random.Random(SEED).sample(others, SKIPPED)
        library.set_status(kept, Status.TO_READ)
        library.set_status(skipped, Status.SKIPPED)
        for _ in prepare(library):
            pass
        positive, negative, _ = labels(library.views())
    finally:
        library.close()
    forget_place(copy)  # the list in catalog order from the top, as `list_marks` expects
    return copy, len(positive), len(negative)


def learned(kept: int, skipped: int) -> str:
    """What triage's line says once the model learned from these decisions (the readiness
    line before `f` says "21 papers kept", never this)."""
    return f"learned from {kept} kept and {skipped} skipped"


def measure_run(copy: Path, kept: int, skipped: int, kind: str = "auto") -> dict[str, float]:
    """One launch on the decided `copy`: see the module docstring."""
    terminal = open_terminal(tui_command(copy), tui_env(), SIZE, kind)
    try:
        start = terminal.press_enter()
        terminal.wait_for(list_marks(store_titles(copy)), start + LIST_TIMEOUT_S)
        wait_idle(terminal.pid, time.perf_counter() + IDLE_TIMEOUT_S)
        terminal.send("T")
        terminal.wait_for(["untriaged"], time.perf_counter() + LIST_TIMEOUT_S)
        asked = terminal.send("f")
        learning = terminal.wait_for(["in for you order"], asked + LEARN_TIMEOUT_S)
        trained = terminal.wait_for([learned(kept, skipped)], asked + LEARN_TIMEOUT_S)
        decided = terminal.send("s")  # the card skipped: the next one follows the new model
        retrained = terminal.wait_for([learned(kept, skipped + 1)], decided + LEARN_TIMEOUT_S)
        peak = status_mb(terminal.pid, "VmHWM:")
        terminal.send("\x1b")
        terminal.send("q")
        deadline = time.perf_counter() + QUIT_TIMEOUT_S
        while not terminal.exited() and time.perf_counter() < deadline:
            time.sleep(0.01)
    finally:
        terminal.close()
    return {"learning_s": learning - asked, "learned_s": trained - asked, "decision_s": retrained - decided,
            "peak_rss_mb": peak}


def measure(store: Path, runs: int = 3, reviews: bool = True, kind: str = "auto") -> dict[str, Any]:
    """`runs` launches on a decided copy of `store`: each figure's median and every run's."""
    compile_tree()
    with tempfile.TemporaryDirectory(prefix="reader-tui-for-you-") as folder:
        copy, kept, skipped = decided_copy(store, Path(folder), reviews=reviews)
        settings = (copy / "annotations.json").read_bytes()
        results = []
        for _ in range(runs):
            (copy / "annotations.json").write_bytes(settings)  # each launch as the first
            results.append(measure_run(copy, kept, skipped, kind))
    figures: dict[str, Any] = {"runs": runs, "reviews": reviews}
    for name in results[0]:
        values = [r[name] for r in results]
        figures[name] = round(statistics.median(values), 3)
        figures[f"{name}_all"] = [round(v, 3) for v in values]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the store to copy (never changed)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-reviews", action="store_true", help="the copy without its reviews store")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.db, args.runs, reviews=not args.no_reviews)
    if args.json:
        json.dump(figures, sys.stdout, indent=1)
        print()
    else:
        print(f"first f in triage, {'with' if figures['reviews'] else 'without'} reviews, median of {args.runs}: "
              f"'learning…' {figures['learning_s']:.2f} s, 'learned from' {figures['learned_s']:.2f} s "
              f"(all: {figures['learned_s_all']}); a decision learned in {figures['decision_s']:.2f} s; "
              f"peak {figures['peak_rss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
