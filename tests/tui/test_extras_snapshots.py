"""SVG snapshots of the triage and stats screens (fixed library, fixed dates).

Update after an intended change: `pytest tests/tui/test_extras_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.stats_screen import StatsScreen
from tui_support import make_library, settle_workers

TODAY = date(2026, 3, 20)
READ_ON = {"p-graphs": "2026-03-02", "p-rl": "2026-03-12", "p-attention": "2026-03-19", "p-diffusion": "2026-03-19"}


def _library(tmp_path: Path):
    library = make_library(tmp_path / "lib")
    library.set_status(list(READ_ON), Status.READ)
    library.set_status(["p-markup"], Status.TO_READ)
    library.set_tags("p-graphs", ["gnn", "chemistry"])
    library.set_tags("p-attention", ["llm", "gnn"])
    library.set_tags("p-rl", ["rl", "llm"])
    for pid, day in READ_ON.items():  # fixed read dates, so the sparkline is the same every day
        library.annotations[pid].history = [[f"{day}T12:00:00+00:00", "read"]]
    library.flush()
    return library


def test_triage_screen(snap_compare, tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib")
    library.set_tags("p-attention", ["llm"])

    async def run_before(pilot) -> None:
        await settle_workers(pilot)
        await pilot.press("T", "w")  # one decision: the pace is 1 per minute in the first minute
        await settle_workers(pilot)

    try:
        assert snap_compare(create_app(library), terminal_size=(110, 32), run_before=run_before)
    finally:
        library.close()


def test_stats_screen(snap_compare, tmp_path: Path) -> None:
    library = _library(tmp_path)

    async def run_before(pilot) -> None:
        await settle_workers(pilot)
        pilot.app.push_screen(StatsScreen(library, ["p-graphs", "p-rl", "p-markup"], filter_label="filter: tag:gnn", today=TODAY))
        await settle_workers(pilot)

    try:
        assert snap_compare(create_app(library), terminal_size=(120, 44), run_before=run_before)
    finally:
        library.close()
