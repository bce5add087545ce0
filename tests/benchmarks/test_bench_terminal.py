"""The terminal benchmark measures what a user sees: its clock starts at the Enter key,
before the program's process exists, and its memory is that process's own peak.

A small stand-in for the TUI (no Textual: fast) makes the figures known in advance: it
starts only after a shell has slept, allocates and frees a block, draws rows with a
highlighted cursor row, moves the cursor on `j` and quits on `q`."""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks import bench_terminal

DELAY_S = 0.4  # before Python starts: the shell sleeps first
BLOCK_MB = 64
TITLES = ["Zero row shown twice", "Learning Facts at Scale", "Log Linear Attention", "Third of them"]

FAKE_TUI = textwrap.dedent(
    """
    import os, sys, termios, tty
    block = bytearray({block} * 1024 * 1024)  # touched: resident, then freed
    for i in range(0, len(block), 4096):
        block[i] = 1
    del block
    titles = {titles!r}
    fd = sys.stdin.fileno()
    tty.setcbreak(fd)

    def draw(cursor):
        out = ["\\x1b[2J\\x1b[H"]
        for row, title in enumerate(titles):
            style = "\\x1b[1;7m" if row == cursor else "\\x1b[0m"
            out.append(f"\\x1b[{{row + 1}};1H{{style}} . {{title}}\\x1b[0m")
        os.write(1, "".join(out).encode())

    cursor = 0
    draw(cursor)
    while True:
        key = os.read(fd, 1)
        if key == b"j":
            cursor += 1
            draw(cursor)
        elif key in (b"q", b""):
            break
    """
)


def _fake_tui(tmp_path: Path) -> list[str]:
    script = tmp_path / "fake_tui.py"
    script.write_text(FAKE_TUI.format(block=BLOCK_MB, titles=TITLES))
    return ["sh", "-c", f'sleep {DELAY_S}; exec "$0" "$1"', sys.executable, str(script)]


KINDS = ["pty", pytest.param("tmux", marks=pytest.mark.skipif(not shutil.which("tmux"), reason="no tmux"))]


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_is_timed_from_enter_and_weighs_only_the_started_process(tmp_path: Path, kind: str) -> None:
    ballast = bytearray(2 * BLOCK_MB * 1024 * 1024)  # the benchmark's own memory must not count
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    run = bench_terminal.measure_run(_fake_tui(tmp_path), bench_terminal.list_marks(TITLES), kind=kind)
    del ballast
    assert run.list_s >= DELAY_S  # the clock ran while no Python process existed yet
    assert run.first_key_s is not None and run.first_key_s > 0
    assert run.idle_s >= run.list_s
    assert BLOCK_MB <= run.peak_rss_mb < 2 * BLOCK_MB  # its own peak, not the benchmark's
    assert run.idle_rss_mb < run.peak_rss_mb - BLOCK_MB / 2  # the block was freed
    assert run.quit_s >= 0


def test_the_list_is_recognised_by_rows_only_it_draws() -> None:
    titles = ["Shown in the detail pane too", "$\\alpha$-Nets for all", "  Plain   words then: more", "Short"]
    # row 0 is also the detail pane's title; a title starting with LaTeX may be drawn otherwise
    assert bench_terminal.list_marks(titles) == ["Plain words then"]
    with pytest.raises(ValueError):
        bench_terminal.list_marks(["Only row zero has words", "$x$"])


def test_the_summary_gives_median_and_range() -> None:
    figures = bench_terminal.summary([0.9, 0.5, 0.7])
    assert (figures["median"], figures["min"], figures["max"]) == (0.7, 0.5, 0.9)


def test_each_run_starts_from_the_top_whatever_place_was_saved(tmp_path: Path) -> None:
    from reader_tui.core.library.library import Library
    from reader_tui.core.model import Paper

    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper number {n}") for n in range(3)])
    library.set_setting("cursor", {"paper": "p2"})
    library.set_setting("sort", {"field": "title", "reverse": True})
    library.set_setting("theme", "nord")
    library.close()
    bench_terminal.forget_place(tmp_path / "lib")
    settings = Library.open(tmp_path / "lib").settings
    assert settings.get("cursor") is None and settings.get("sort") is None
    assert settings["theme"] == "nord"  # only the list's place is forgotten
