"""The reviews view as a user meets it: `R` in the list of a real terminal, to the reviews
on screen.

    python -m benchmarks.bench_reviews_view --db LIBRARY [--papers 20] [--profile OUT.prof] [--json]

`LIBRARY` holds a conference's list and its reviews (`reader-tui import` the list, then
the reviews file). The TUI runs from this tree in tmux at 140x45, as typed in a shell
(`SIZE` of `bench_terminal`); once it is idle and has made its reviews screen
(`PREPARE_REVIEWS_S` after the start), for each of `--papers` papers picked at random (the cursor moved down a random 1-40 rows with `j`, the screen let settle):

- in tmux: from `R` sent until the pane shows the reviews (the position line "n / N
  next / previous review", or "No reviews"), then `escape` back to the list;
- in the TUI's own process (a probe loaded before the app starts, see `probe_main`):
  from the `R` key event's creation to the first frame written with the reviews in it,
  the CPU time the UI thread used meanwhile (steadier than wall time on a shared
  machine), and, with `--profile`, a cProfile of the UI thread over exactly those
  intervals; both processes read the same monotonic clock, so the tmux figure is also
  split into the key's way in, the TUI's work and the frame's way out;
- with `READER_TUI_BENCH_PHASES=module.Class.method,...` in the environment, the time spent in each
  of those methods per `R` (a rough breakdown; nested ones count in both).

p50 / p95 / max of each. The machine is shared: compare figures taken in the same minute.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_terminal import SIZE, TmuxTerminal, forget_place, list_marks, store_titles, wait_idle
from reader_tui.tui.app import PREPARE_REVIEWS_S

SHOWN = ("next / previous review", "No reviews")
KEY_TIMEOUT_S = 20.0


def _quiet(terminal: TmuxTerminal, settle_s: float = 0.25, limit_s: float = 10.0) -> None:
    """Until the pane got no new output for `settle_s`."""
    end = time.perf_counter() + limit_s
    while time.perf_counter() < end:
        before = terminal.output.stat().st_size
        time.sleep(settle_s)
        if terminal.output.stat().st_size == before:
            return


def _wait_screen(terminal: TmuxTerminal, shown: bool, deadline: float) -> float:
    """The moment the pane shows the reviews (`shown`) or no longer does."""
    while time.perf_counter() < deadline:
        terminal.wait_drawn(deadline)
        now = time.perf_counter()
        screen = terminal.screen_text()
        if any(mark in screen for mark in SHOWN) == shown:
            return now
        if terminal.exited():
            raise RuntimeError(f"the TUI exited:\n{screen}")
    raise TimeoutError(f"the reviews {'did not appear' if shown else 'did not go'}:\n{terminal.screen_text()}")


def measure(folder: Path, papers: int, profile: Path | None, seed: int = 15) -> dict[str, Any]:
    rng = random.Random(seed)
    forget_place(folder)
    marks = list_marks(store_titles(folder))
    with tempfile.TemporaryDirectory(prefix="reader-tui-bench-rv-") as tmp:
        probe_out = Path(tmp) / "probe.json"
        argv = [sys.executable, "-m", "benchmarks.bench_reviews_view", "--probe", str(probe_out),
                *(["--profile", str(profile)] if profile else []), "--db", str(folder)]
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        terminal = TmuxTerminal(argv, env, SIZE)
        taken: list[tuple[float, float]] = []  # (R sent, reviews seen), on the monotonic clock the probe uses too
        try:
            start = terminal.press_enter()
            terminal.wait_for(marks, start + 180)
            wait_idle(terminal.pid, time.perf_counter() + 300)
            time.sleep(PREPARE_REVIEWS_S)  # the reviews screen made ahead, as a user's would be
            wait_idle(terminal.pid, time.perf_counter() + 300)
            for _ in range(papers):
                terminal.send("j" * rng.randint(1, 40))
                _quiet(terminal)
                sent = terminal.send("R")
                taken.append((sent, _wait_screen(terminal, True, sent + KEY_TIMEOUT_S)))
                _quiet(terminal)
                terminal.send("\x1b")
                _wait_screen(terminal, False, time.perf_counter() + KEY_TIMEOUT_S)
                _quiet(terminal)
            terminal.send("q")
            end = time.perf_counter() + 30
            while not terminal.exited() and time.perf_counter() < end:
                time.sleep(0.01)
        finally:
            terminal.close()
        inside = json.loads(probe_out.read_text()) if probe_out.exists() else []  # (key event, frame written)
        phases_file = Path(str(probe_out) + ".phases")
        phases = json.loads(phases_file.read_text()) if phases_file.exists() else {}
    figures: dict[str, Any] = {"papers": papers, "terminal_ms": percentiles([(seen - sent) * 1000 for sent, seen in taken])}
    if inside:
        figures["in_process_ms"] = percentiles([(frame - key) * 1000 for key, frame, _ in inside])
        figures["ui_cpu_ms"] = percentiles([used * 1000 for _, _, used in inside])
    if len(inside) == len(taken):  # the same clock (CLOCK_MONOTONIC) in both processes
        figures["key_latency_ms"] = percentiles([(key - sent) * 1000 for (sent, _), (key, _, _) in zip(taken, inside)])
        figures["terminal_after_frame_ms"] = percentiles(
            [(seen - frame) * 1000 for (_, seen), (_, frame, _) in zip(taken, inside)])
    return {**figures,
            "phases_ms_per_R": {name: round(sum(v) / papers, 1) for name, v in phases.items()},
            "load": os.getloadavg()}


def percentiles(samples: list[float]) -> dict[str, Any]:
    ordered = sorted(samples)
    return {"p50": statistics.median(ordered), "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
            "max": ordered[-1], "runs": [round(s, 1) for s in samples]}


# -- the probe: runs inside the TUI's process ------------------------------------------------


def probe_main(out: Path, profile: Path | None, db: str) -> int:
    """Start the TUI on `db` with hooks that time each `R` (the key event's creation to
    the first frame written with the reviews loaded), written to `out` at exit."""
    import cProfile

    from textual import _time, events
    from textual.app import App

    from reader_tui.cli import main as cli_main
    from reader_tui.tui.screens.reviews_screen import ReviewsScreen

    profiler = cProfile.Profile() if profile else None
    taken: list[tuple[float, float, float]] = []
    pending: list[float] = []
    cpu: list[float] = []
    on_event, display = App.on_event, App._display

    async def timed_on_event(self, event):  # noqa: ANN001, ANN202
        if (isinstance(event, events.Key) and event.key == "R" and not pending
                and not isinstance(self.screen, ReviewsScreen)):
            pending.append(event.time)
            cpu.append(time.thread_time())
            if profiler:
                profiler.enable()
        return await on_event(self, event)

    def timed_display(self, screen, renderable):  # noqa: ANN001, ANN202
        display(self, screen, renderable)
        if pending and renderable is not None and isinstance(screen, ReviewsScreen) and screen.loaded:
            if profiler:
                profiler.disable()
            taken.append((pending.pop(), _time.get_time(), time.thread_time() - cpu.pop()))

    App.on_event, App._display = timed_on_event, timed_display  # type: ignore[method-assign]
    phases: dict[str, list[float]] = {}
    if os.environ.get("READER_TUI_BENCH_PHASES"):
        import importlib
        for spec in os.environ["READER_TUI_BENCH_PHASES"].split(","):
            module_name, cls_name, attr = spec.rsplit(".", 2)
            cls = getattr(importlib.import_module(module_name), cls_name)
            original = getattr(cls, attr)

            @functools.wraps(original)
            def wrapped(*args, _original=original, _name=f"{cls_name}.{attr}", **kwargs):
                started = time.perf_counter()
                try:
                    return _original(*args, **kwargs)
                finally:
                    if pending:
                        phases.setdefault(_name, []).append((time.perf_counter() - started) * 1000)
            wrapped.__signature__ = inspect.signature(original)  # Textual counts a handler's parameters
            setattr(cls, attr, wrapped)
    try:
        return cli_main(["--db", db])
    finally:
        out.write_text(json.dumps(taken))
        if phases:
            Path(str(out) + ".phases").write_text(json.dumps(phases))
        if profiler:
            profiler.dump_stats(str(profile))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_reviews_view",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a library with a conference's list and its reviews")
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--profile", type=Path, help="write a cProfile of the UI thread over each R here")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.probe:
        return probe_main(args.probe, args.profile, args.db)
    figures = measure(Path(args.db), args.papers, args.profile, args.seed)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    for key, label in (("terminal_ms", "R to the reviews on screen (tmux)"),
                       ("key_latency_ms", "  R sent (tmux send-keys) to its key event"),
                       ("in_process_ms", "  R key event to the frame written (in the TUI)"),
                       ("terminal_after_frame_ms", "  frame written to seen in the pane"),
                       ("ui_cpu_ms", "CPU time of the TUI's UI thread from R to the frame")):
        if figures.get(key):
            p = figures[key]
            print(f"{label:<48} p50 {p['p50']:.0f} ms, p95 {p['p95']:.0f} ms, max {p['max']:.0f} ms")
    for name, ms in figures["phases_ms_per_R"].items():
        print(f"  {name:<46} {ms:.1f} ms per R")
    print(f"{figures['papers']} papers, {SIZE[0]}x{SIZE[1]}; load average at the end: "
          + ", ".join(f"{x:.1f}" for x in figures["load"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
