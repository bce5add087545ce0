"""TUI speed figures measured in-process: first paint of the paper list, the cost of a
cursor move, memory.

In-process and headless: the clock starts when the app is created, with the store
already open and Python and Textual already imported, so these figures isolate the
app's own share. What a user sees, from the Enter key to the list in a real terminal, is
measured by `benchmarks.bench_terminal`.

`python -m benchmarks.bench_tui STORE_FOLDER` prints them for an existing store
(import ../shared/data/iclr2026-openreview.jsonl.gz into it first for the 19,630-paper
figures). The project's main benchmark calls `measure_first_paint(library)` and
`measure_held_keys(library)`.
"""

from __future__ import annotations

import asyncio
import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_terminal import status_mb
from reader_tui.core.library.library import Library

SIZE = (140, 45)
settled_rss_mb = 0.0
"""Resident memory measured by the last `measure_first_paint`, once its workers ended."""


def measure_first_paint(library: Library, size: tuple[int, int] = SIZE) -> float:
    """Seconds from creating the app (headless, in this process, the store already open)
    until the paper list has drawn its first row."""
    return asyncio.run(_first_paint(library, size))


async def _first_paint(library: Library, size: tuple[int, int]) -> float:
    from reader_tui.tui.app import create_app
    from reader_tui.tui.widgets.paper_list import PaperList

    painted: list[float] = []
    original = PaperList.render_line

    def spy(self: PaperList, y: int) -> Any:
        strip = original(self, y)
        if not painted:
            painted.append(time.perf_counter())
        return strip

    PaperList.render_line = spy  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        app = create_app(library)
        async with app.run_test(size=size) as pilot:
            while not painted:
                await pilot.pause(0.001)
            await app.workers.wait_for_complete()  # leave no index thread behind
            await pilot.pause()
            global settled_rss_mb
            settled_rss_mb = current_rss_mb()  # the app running, its indexes built
    finally:
        PaperList.render_line = original  # type: ignore[method-assign]
    return painted[0] - start


def measure_moves(library: Library, keys: int = 150, size: tuple[int, int] = SIZE) -> dict[str, float]:
    """The cost of moving the cursor (`j`), two ways:

    - single presses through Textual's pilot, each waited for (so the detail pane is
      re-drawn after every one): median and 95th percentile wall time, and the same for
      an unbound key, which is the pilot's own overhead;
    - a held key: `j` sent at 30 per second (a terminal's key repeat): CPU time per key,
      and how long after the last key the app was idle again (lag; near 0 = it kept up).
      Twice: with the cursor on the page's last row, so that every key scrolls the list
      (`held_scroll_*`, the case that counts), and within one page (`held_in_page_*`).
    """
    return asyncio.run(_moves(library, keys, size, presses=True))


def measure_held_keys(library: Library, keys: int = 150, size: tuple[int, int] = SIZE) -> dict[str, float]:
    """Only the held-key figures of `measure_moves` (the project's main benchmark shows them)."""
    return asyncio.run(_moves(library, keys, size, presses=False))


async def _moves(library: Library, keys: int, size: tuple[int, int], *, presses: bool) -> dict[str, float]:
    from reader_tui.tui.app import create_app
    from reader_tui.tui.widgets.paper_list import PaperList

    app = create_app(library)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the search index is built: a quiet app
        await pilot.pause()

        async def pressed(key: str) -> list[float]:
            times = []
            for _ in range(keys):
                t0 = time.perf_counter()
                await pilot.press(key)
                times.append(time.perf_counter() - t0)
            return times

        pressed_figures: dict[str, float] = {}
        if presses:
            baseline, moves = await pressed("f12"), await pressed("j")
            pressed_figures = {
                "press_median_s": statistics.median(moves),
                "press_p95_s": sorted(moves)[int(len(moves) * 0.95)],
                "unbound_key_median_s": statistics.median(baseline),
            }
        papers = app.screen.query_one(PaperList)
        page = papers.scrollable_content_region.height

        await pilot.press("g")
        await pilot.pause()
        in_page = await _held(app, pilot, "j", max(1, page - 2))  # the cursor stays on the page

        await pilot.press("g", "pagedown")  # the cursor on the page's last row
        await pilot.pause()
        top = papers.scroll_y
        scrolling = max(1, min(keys, len(papers.ids) - page - round(top)))  # no key past the end
        scroll = await _held(app, pilot, "j", scrolling)
        assert len(papers.ids) <= page or papers.scroll_y - top == scrolling, "every key scrolled"
    return {
        **pressed_figures,
        "held_scroll_cpu_per_key_s": scroll[0],
        "held_scroll_lag_s": scroll[1],
        "held_in_page_cpu_per_key_s": in_page[0],
        "held_in_page_lag_s": in_page[1],
    }


async def _held(app: Any, pilot: Any, key: str, keys: int) -> tuple[float, float]:
    """`key` sent `keys` times at 30 per second: CPU seconds per key, and the lag."""
    from textual import events

    driver = app._driver
    assert driver is not None
    cpu0 = time.process_time()
    for _ in range(keys):
        driver.send_message(events.Key(key, key))
        await asyncio.sleep(1 / 30)
    sent = time.perf_counter()
    await pilot.pause()
    lag = time.perf_counter() - sent
    return (time.process_time() - cpu0) / keys, lag


def current_rss_mb() -> float:
    """Resident memory of this process now, in MB (Linux; NaN where /proc is missing)."""
    return status_mb(os.getpid(), "VmRSS:")


def rss_mb() -> float:
    """Peak resident memory of this process in MB: /proc's VmHWM, else getrusage.

    Not getrusage alone: Linux carries a parent's peak into a child it starts (the
    exec'ed process inherits `maxrss`), so an app started by a benchmark whose own
    process holds the whole catalog would report the benchmark's peak, not its own.
    """
    peak = status_mb(os.getpid(), "VmHWM:")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if math.isnan(peak) else peak


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m benchmarks.bench_tui STORE_FOLDER", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    library = Library.open(Path(args[0]), background_writes=True)
    opened = time.perf_counter() - t0
    try:
        print(f"papers: {len(library):,}  (store opened in {opened:.2f} s)")
        print(f"first paint (in-process, from creating the app): {measure_first_paint(library):.3f} s")
        moves = measure_moves(library)
        print(
            "move (j) pressed alone: median {press_median_s:.4f} s, p95 {press_p95_s:.4f} s "
            "(an unbound key: {unbound_key_median_s:.4f} s)\n"
            "move (j) held at 30/s, every key scrolling: CPU {held_scroll_cpu_per_key_s:.4f} s per key, "
            "lag after the last key {held_scroll_lag_s:.3f} s\n"
            "move (j) held at 30/s, within the page: CPU {held_in_page_cpu_per_key_s:.4f} s per key, "
            "lag after the last key {held_in_page_lag_s:.3f} s".format(**moves)
        )
        print(f"peak RSS: {rss_mb():.0f} MB")
    finally:
        library.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
