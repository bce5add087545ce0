"""SVG snapshots of the main screen (fixed tiny library, nothing time-dependent shown).

Update after an intended change: `pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from tui_support import make_library, settle, settle_workers


def _library(tmp_path: Path):
    library = make_library(tmp_path / "lib")
    library.set_status(["p-graphs"], Status.READ)
    library.set_status(["p-rl"], Status.READING)
    library.set_tags("p-graphs", ["gnn", "chemistry"])
    library.set_tags("p-attention", ["llm"])
    library.set_notes("p-attention", "Check the *linear* attention proof.")
    library.flush()
    return library


def test_main_screen_wide(snap_compare, tmp_path: Path) -> None:
    library = _library(tmp_path)
    try:
        assert snap_compare(create_app(library), terminal_size=(120, 40), run_before=settle_workers)
    finally:
        library.close()


def test_main_screen_narrow(snap_compare, tmp_path: Path) -> None:
    library = _library(tmp_path)
    try:
        assert snap_compare(create_app(library), terminal_size=(80, 24), run_before=settle_workers)
    finally:
        library.close()


def test_main_screen_marked_and_searching(snap_compare, tmp_path: Path) -> None:
    library = _library(tmp_path)

    async def run_before(pilot) -> None:
        await settle_workers(pilot)
        await pilot.press("space", "j", "space", "slash", *"graph")
        # the search runs once typing pauses (a 50 ms timer): settle waits for that pause, not
        # only for workers already started, which a loaded machine could reach first
        await settle(pilot.app, pilot)

    try:
        assert snap_compare(create_app(library), terminal_size=(120, 40), run_before=run_before)
    finally:
        library.close()


def test_main_screen_reading_group_narrow(snap_compare, tmp_path: Path) -> None:
    """A reading group's library at 80x24: the list's group column, the detail's group lines."""
    import json

    from reader_tui.core.model import Annotation
    from reader_tui.tui.widgets.paper_list import PaperList
    from tui_support import wait_until

    library = _library(tmp_path)
    members = {
        "bob": {"p-attention": Annotation(status=Status.TO_READ, tags=("must-read",), notes="Section 3 first"),
                "p-graphs": Annotation(status=Status.READ)},
        "carol": {"p-attention": Annotation(status=Status.TO_READ), "p-rl": Annotation(status=Status.READING)},
        "dan": {"p-attention": Annotation(status=Status.READ), "p-diffusion": Annotation(status=Status.SKIPPED)},
    }
    (tmp_path / "lib" / "members").mkdir()
    for name, marks in members.items():
        docs = {str(n): {"paper_id": pid, **ann.to_dict()} for n, (pid, ann) in enumerate(marks.items(), 1)}
        (tmp_path / "lib" / "members" / f"{name}.json").write_text(json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs}), "utf-8")

    async def run_before(pilot) -> None:
        papers = pilot.app.screen.query_one(PaperList)
        assert await wait_until(pilot, lambda: papers.group is not None)
        await settle_workers(pilot)
        pilot.app.screen.show_current_now()
        await pilot.pause()

    try:
        assert snap_compare(create_app(library), terminal_size=(80, 24), run_before=run_before)
    finally:
        library.close()
