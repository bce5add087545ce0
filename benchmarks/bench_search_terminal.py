"""A search as a user types it, in a real terminal: last key to the results on screen.

    python -m benchmarks.bench_search_terminal --db STORE [--runs 3] [--at-start] [--json]

Starts the TUI as `bench_terminal` does (`python -m reader_tui --db STORE`, 140x45, tmux
when installed), waits until it is idle (or, with `--at-start`, only until its list is on
screen: a search typed at the first frame, while the indexes still load), presses `/` and
types each query a key at a time, a typist's gap apart. It times, from the last key sent,
until the screen shows that query's answer: the status line's count ("629 papers of
19,630") and the plain start of the first hit's title, both as the same store gives them
in this process (`core.library.listing.compute_listing` over the built index). A query
whose answer does not appear within `ANSWER_TIMEOUT_S` counts as wrong: the TUI showed
another answer (a dropped key, a search left behind) or none.

The queries are chosen so that their last key changes the answer (the count, or the first
hit, differs from that of the query without its last letter); a query whose last key
changes neither is reported as such and not timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.bench_terminal import (
    IDLE_TIMEOUT_S,
    LIST_TIMEOUT_S,
    compile_tree,
    forget_place,
    list_marks,
    open_terminal,
    plain_start,
    status_mb,
    store_titles,
    tui_command,
    tui_env,
    wait_idle,
)

#: What a researcher types: a phrase, a phrase with a typo, an acronym, a hyphenated term.
QUERIES = (
    "graph neural netwrok",
    "diffusion language models",
    "offline reinforcement learning",
    "sparse autoencoders",
    "test-time scaling",
)
#: Between two keys: a fast typist, about eight keys a second.
TYPING_GAP_S = 0.12
#: Long enough for an index still loading at 100,000 papers on a busy machine: what has
#: not come by then is not coming (a wrong answer, not a slow one).
ANSWER_TIMEOUT_S = 30.0


@dataclass(slots=True)
class Answer:
    """What the screen shows once a query's search is done: the status line's count and
    the start of the first hit's title (None when it starts with nothing plain to look for),
    shown above `above`, the first hit before the last key (None: no such title to pass).
    Without `above`, a first hit already on screen as the second row counted as shown."""

    count: str
    first_title: str | None
    above: str | None = None

    def marks(self) -> list[str]:
        return [self.count, *([self.first_title] if self.first_title else [])]

    def shown_in(self, screen: str) -> bool:
        """True if `screen` (rows top to bottom, the list left of the detail pane) shows it."""
        if not all(mark in screen for mark in self.marks()):
            return False
        if self.first_title is None or self.above is None or self.above not in screen:
            return True
        return screen.index(self.first_title) < screen.index(self.above)


def expected_answers(folder: Path, queries: Sequence[str]) -> dict[str, tuple[Answer, Answer]]:
    """Each query's answer and that of the query without its last letter, as this process
    lists them from the same store with its built index."""
    from reader_tui.core.library.indexing import search_index
    from reader_tui.core.library.library import Library
    from reader_tui.core.library.listing import compute_listing

    library = Library.open(folder)
    try:
        index = search_index(library)[0]
        total = len(library.papers)

        def answer(query: str) -> Answer:
            ids = compute_listing(library, search=query, index=index).ids
            noun = "paper" if len(ids) == 1 else "papers"
            # between a space and " ·", as the status line begins: "629 papers of" alone is
            # also the end of "6,629 papers of"
            count = f" {len(ids):,} {noun}" + (f" of {total:,}" if len(ids) != total else "") + " ·"
            return Answer(count, plain_start(library.papers[ids[0]].title) if ids else None)

        answers = {}
        for query in queries:
            shown, before = answer(query), answer(query[:-1])
            if shown.first_title != before.first_title:
                shown.above = before.first_title
            answers[query] = (shown, before)
        return answers
    finally:
        library.close()


def type_query(terminal: Any, query: str) -> float:
    """Type `query` a key at a time; the moment the last key was sent."""
    for key in query[:-1]:
        terminal.send(key)
        time.sleep(TYPING_GAP_S)
    return terminal.send(query[-1])  # and the clock runs from here: no pause after it


def measure_run(folder: Path, answers: dict[str, tuple[Answer, Answer]], *, at_start: bool) -> dict[str, Any]:
    """One launch: each query typed, its seconds from the last key to its answer (None:
    never shown, and the status line shown instead under `wrong`), and the TUI's peak
    memory at the end."""
    terminal = open_terminal(tui_command(folder), tui_env(), (140, 45))
    try:
        start = terminal.press_enter()
        terminal.wait_for(list_marks(store_titles(folder)), start + LIST_TIMEOUT_S)
        if not at_start:
            wait_idle(terminal.pid, time.perf_counter() + IDLE_TIMEOUT_S)
        seconds: dict[str, float | None] = {}
        wrong: dict[str, str] = {}
        for query, (answer, _) in answers.items():
            terminal.send("/")
            time.sleep(TYPING_GAP_S)
            last_key = type_query(terminal, query)
            try:
                seconds[query] = wait_for_answer(terminal, answer, last_key + ANSWER_TIMEOUT_S) - last_key
            except TimeoutError:
                seconds[query] = None
                wrong[query] = status_line(terminal.screen_text())
            terminal.send("\x1b")  # escape: the search ends, the whole list is back
            time.sleep(0.5)
        peak = status_mb(terminal.pid, "VmHWM:")
    finally:
        terminal.close()
    return {"seconds": seconds, "wrong": wrong, "peak_rss_mb": peak}


def wait_for_answer(terminal: Any, answer: Answer, deadline: float) -> float:
    """The moment `answer` is on `terminal`'s screen (TimeoutError at `deadline`). A bare
    pty has no screen to read rows from: there, its marks in the output stream."""
    if not hasattr(terminal, "lines"):
        return terminal.wait_for(answer.marks(), deadline)
    while time.perf_counter() < deadline:
        terminal.wait_drawn(deadline)
        now = time.perf_counter()
        if answer.shown_in("\n".join(terminal.lines())):
            return now
    raise TimeoutError(f"not shown; the screen shows:\n{terminal.screen_text().strip()}")


def status_line(screen: str) -> str:
    """The status line of a screen (the one that counts papers), or "" without one."""
    return next((line.strip() for line in screen.splitlines() if " papers" in line or " paper " in line), "")


def measure(folder: Path, runs: int = 3, queries: Sequence[str] = QUERIES, at_start: bool = False) -> dict[str, Any]:
    compile_tree()
    forget_place(folder)
    answers = expected_answers(folder, queries)
    timed = {query: pair for query, pair in answers.items() if pair[0] != pair[1]}
    results = []
    for _ in range(runs):
        forget_place(folder)
        results.append(measure_run(folder, timed, at_start=at_start))
    latencies = [s for run in results for s in run["seconds"].values() if s is not None]
    wrong = [f"{query!r}: {shown!r}" for run in results for query, shown in run["wrong"].items()]
    return {
        "queries": list(timed),
        "not_timed": [query for query in answers if query not in timed],
        "searches": len(timed) * runs,
        "wrong": len(wrong),
        "wrong_shown": wrong,
        "last_key_to_answer_ms": {
            "median": 1000 * statistics.median(latencies) if latencies else None,
            "max": 1000 * max(latencies) if latencies else None,
            "runs": [round(1000 * s, 1) for s in latencies],
        },
        "peak_rss_mb": max(run["peak_rss_mb"] for run in results),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_search_terminal",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the store to open (not changed but for "
                        "the backup every TUI session takes)")
    parser.add_argument("--runs", type=int, default=3, help="launches (default 3)")
    parser.add_argument("--at-start", action="store_true", help="type as soon as the list is on screen")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.db, args.runs, at_start=args.at_start)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    when = "as soon as the list is on screen" if args.at_start else "once the TUI is idle"
    latency = figures["last_key_to_answer_ms"]
    print(f"{figures['searches']} searches typed {when} ({args.runs} launches, {TYPING_GAP_S * 1000:.0f} ms a key)")
    if latency["median"] is not None:
        print(f"last key to the answer on screen: median {latency['median']:.0f} ms, max {latency['max']:.0f} ms")
    print(f"wrong or no answer within {ANSWER_TIMEOUT_S:.0f} s: {figures['wrong']}")
    for shown in figures["wrong_shown"]:
        print(f"  {shown}")
    if figures["not_timed"]:
        print(f"not timed (their last key changes nothing): {', '.join(figures['not_timed'])}")
    print(f"peak memory of the TUI process: {figures['peak_rss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
