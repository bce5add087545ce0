"""`reader-tui stats` ends with papers read per day as a line of block characters."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from reader_tui.cli.stats import reads_line
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status


def test_reads_line(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper {n}", abstract="") for n in range(4)])
    library.set_status(["p0", "p1", "p2", "p3"], Status.READ)
    days = {"p0": "2026-03-01", "p1": "2026-03-20", "p2": "2026-03-20", "p3": "2026-03-20"}
    for pid, day in days.items():
        library.annotations[pid].history = [[f"{day}T12:00:00+00:00", "read"]]
    line = reads_line(library, date(2026, 3, 20))
    bars = line.split(" ")[5]
    assert line.startswith("read per day Feb 21 ") and line.endswith("Mar 20: 4 in 28 days")
    assert len(bars) == 28 and bars[-1] == "█" and bars[8] == "▃" and set(bars[:8]) == {"·"}
