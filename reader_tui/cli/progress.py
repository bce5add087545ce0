"""A progress line on standard error for long CLI work, shown only to a person.

Nothing is drawn when stderr is not a terminal (scripts, pipes, CI), nor for work that
ends within `delay` seconds, so quick commands stay quiet.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, TextIO

BAR_WIDTH = 24


class Progress:
    """`with Progress(total) as p: ... p.step("reading x.bib")` draws `[####----] 2/5 reading x.bib  1.4 s`.

    With `in_bytes`, `total` and `done` count bytes, and the line says the rate and the
    time left: `[####----] 12.0/48.0 MB reading x.jsonl.gz  4.0 MB/s, 9 s left  3.0 s`;
    `watch(file, base)` follows a file being read (`done` is `base` plus its `tell()`)."""

    def __init__(self, total: int, *, delay: float = 1.0, stream: TextIO | None = None, in_bytes: bool = False) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.label = ""
        self.in_bytes = in_bytes
        self._watched: tuple[IO[bytes], int] | None = None
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

    def watch(self, file: IO[bytes] | None, base: int = 0) -> None:
        """Count as done `base` bytes plus what of `file` has been read (None: stop)."""
        self._watched = None if file is None else (file, base)

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            self._draw()
            self._stop.wait(0.1)

    def _draw(self) -> None:
        from ..core.text.display import one_line

        done, label, watched = self.done, self.label, self._watched  # the main thread moves on meanwhile
        if watched is not None:
            try:
                done = max(done, watched[1] + watched[0].tell())
            except (ValueError, OSError):  # closed meanwhile: `done` says where it ended
                pass
        done = min(done, self.total)
        filled = round(BAR_WIDTH * done / self.total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        elapsed = time.monotonic() - self._start
        if self.in_bytes:
            rate = done / elapsed if elapsed > 0 else 0.0
            left = f", {(self.total - done) / rate:.0f} s left" if rate > 0 and done < self.total else ""
            line = (f"[{bar}] {done / 1e6:.1f}/{self.total / 1e6:.1f} MB {one_line(label, 50)}"
                    f"  {rate / 1e6:.1f} MB/s{left}  {elapsed:.1f} s")
        else:
            line = f"[{bar}] {done}/{self.total} {one_line(label, 60)}  {elapsed:.1f} s"
        self.stream.write("\r\x1b[2K" + line)
        self.stream.flush()
        self._drawn = True
