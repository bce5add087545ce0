"""A progress line on standard error for long CLI work, shown only to a person.

Nothing is drawn when stderr is not a terminal (scripts, pipes, CI), nor for work that
ends within `delay` seconds, so quick commands stay quiet.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

BAR_WIDTH = 24


class Progress:
    """`with Progress(total) as p: ... p.step("reading x.bib")` draws `[####----] 2/5 reading x.bib  1.4 s`."""

    def __init__(self, total: int, *, delay: float = 1.0, stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.label = ""
        self.delay = delay
        self.stream = stream or sys.stderr
        self._enabled = self.stream.isatty()
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False

    def __enter__(self) -> Progress:
        if self._enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()
        if self._drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def step(self, label: str, *, advance: bool = False) -> None:
        """Say what is being done now; `advance` counts one more unit of work as finished."""
        if advance:
            self.done = min(self.done + 1, self.total)
        self.label = label

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            self._draw()
            self._stop.wait(0.1)

    def _draw(self) -> None:
        from ..core.text.display import one_line

        done, label = self.done, self.label  # one reading: the main thread moves on meanwhile
        filled = round(BAR_WIDTH * done / self.total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        elapsed = time.monotonic() - self._start
        line = f"[{bar}] {done}/{self.total} {one_line(label, 60)}  {elapsed:.1f} s"
        self.stream.write("\r\x1b[2K" + line)
        self.stream.flush()
        self._drawn = True
