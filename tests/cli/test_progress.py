"""The import progress line is for people: drawn on a terminal for long work only."""

from __future__ import annotations

import io
import threading
import time

from reader_tui.cli.progress import Progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_drawn_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    before = set(threading.enumerate())
    with Progress(3, delay=0, stream=stream) as progress:
        progress.step("reading a.bib", advance=True)
        # no drawing thread at all: nothing can be drawn, now or later (no sleep to prove it)
        assert set(threading.enumerate()) == before
    assert stream.getvalue() == ""


def test_quick_work_draws_nothing_even_on_a_terminal() -> None:
    stream = FakeTerminal()
    with Progress(2, delay=5, stream=stream) as progress:
        progress.step("reading a.bib", advance=True)
    assert stream.getvalue() == ""


def test_long_work_draws_a_bar_and_clears_it() -> None:
    stream = FakeTerminal()
    with Progress(2, delay=0, stream=stream) as progress:
        progress.step("reading big.jsonl", advance=True)
        deadline = time.monotonic() + 5
        while "1/2 reading big.jsonl" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    out = stream.getvalue()
    assert "[" + "#" * 12 + "-" * 12 + "] 1/2 reading big.jsonl" in out
    assert out.endswith("\r\x1b[2K")
