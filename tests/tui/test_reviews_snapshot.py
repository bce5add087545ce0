"""SVG snapshot of the reviews view (`R`): a paper with three reviews, the authors' reply
under the first, hostile escapes in a review drawn as symbols. Fixed fixture, nothing
time-dependent shown.

Update after an intended change: `pytest tests/tui/test_reviews_snapshot.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.reviews_screen import ReviewsScreen
from tui_support import settle_workers, wait_until

REVIEWS = Path(__file__).parents[1] / "fixtures" / "import_reviews"


def test_reviews_view(snap_compare, tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", background_writes=True)
    result = read_openreview(REVIEWS / "snapshot1.jsonl")
    library.import_papers(result.papers, result.annotations, result.forums)
    library.flush()

    async def run_before(pilot) -> None:
        await settle_workers(pilot)
        await pilot.press("R")  # the first paper: three reviews, a reply under the first
        assert await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewsScreen) and pilot.app.screen.loaded)
        await pilot.pause()

    try:
        assert snap_compare(create_app(library), terminal_size=(100, 40), run_before=run_before)
    finally:
        library.close()
