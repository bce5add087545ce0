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


def test_a_file_being_read_moves_the_bar_by_bytes_with_a_rate_and_the_time_left() -> None:
    # one big file (a conference's reviews) used to leave the bar empty until it was read
    stream = FakeTerminal()
    file = io.BytesIO(b"x" * 10_000_000)
    file.seek(5_000_000)
    progress = Progress(12_000_000, delay=0, stream=stream, in_bytes=True)
    progress.step("reading reviews.jsonl.gz")
    progress.watch(file, base=1_000_000)  # a first file of 1 MB was read before it
    progress._start = time.monotonic() - 3.0  # three seconds in
    progress._draw()
    line = stream.getvalue()
    assert "[" + "#" * 12 + "-" * 12 + "] 6.0/12.0 MB reading reviews.jsonl.gz" in line
    assert "2.0 MB/s, 3 s left" in line


def test_the_import_follows_the_file_it_reads(tmp_path, monkeypatch) -> None:
    import json

    from reader_tui.cli import import_cmd
    from reader_tui.cli import progress as progress_module
    from reader_tui.core.library.library import Library

    notes = tmp_path / "notes.jsonl"
    notes.write_text("\n".join(json.dumps({"id": f"n{i}", "content": {"title": {"value": f"Paper {i}"}}})
                               for i in range(50)))
    seen = []

    class Watching(progress_module.Progress):
        def watch(self, file, base=0):
            if file is not None:
                seen.append((file.name, base, self.total))
            super().watch(file, base)

    monkeypatch.setattr(progress_module, "Progress", Watching)
    library = Library.open(tmp_path / "lib")
    try:
        assert import_cmd.run_import(library, [notes], format=None, venue=None, year=None) == 0
    finally:
        library.close()
    assert seen == [(str(notes), 0, notes.stat().st_size)]
