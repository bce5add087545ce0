"""`reader-tui` in a real terminal (a pseudo-terminal): it starts on the seed list,
shows the papers, and quits with q, exit code 0."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pty = pytest.importorskip("pty")


def read_until(fd: int, wanted: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
    return seen


def test_reader_tui_starts_shows_papers_and_quits_with_q(tmp_path: Path) -> None:
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40",
           "HOME": str(tmp_path), "READER_TUI_DB": str(tmp_path / "library")}
    process = subprocess.Popen(
        [sys.executable, "-m", "reader_tui"], stdin=child, stdout=child, stderr=child, env=env, close_fds=True
    )
    os.close(child)
    try:
        screen = read_until(main, b"19 papers", timeout=60)
        assert b"19 papers" in screen
        # the status line may come a frame before the rows: keep reading until they are drawn
        # (when they came with it, reading on waited the whole 30 s for a second SOCOP)
        if b"SOCOP" not in screen:
            screen += read_until(main, b"SOCOP", timeout=30)
        assert b"SOCOP" in screen
        os.write(main, b"q")
        # Keep reading: a terminal whose output nobody drains blocks the app's writes.
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            read_until(main, b"\0never\0", timeout=0.5)
        assert process.wait(timeout=1) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
