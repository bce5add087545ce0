"""Make docs/reviews.svg, the picture of the reviews view in docs/reviews.md (`R`): a paper of ICLR
2026 with its reviews (OpenReview, CC BY 4.0), from a library holding the conference's
list and reviews. Run:

    reader-tui --db /tmp/iclr import iclr2026-openreview.jsonl.gz iclr2026-reviews.jsonl.gz
    python docs/make_reviews_screenshot.py /tmp/iclr [PAPER_ID]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.reviews_screen import ReviewsScreen

OUT = Path(__file__).resolve().parent / "reviews.svg"
PAPER = "kkBOIsrCXh"  # Embodied Navigation Foundation Model: four reviews, 6 to 10


async def main(folder: Path, paper: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["READER_TUI_CACHE"] = str(Path(tmp) / "cache")
        library = Library.open(folder, background_writes=True)
        app = create_app(library)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            app.screen.jump_to(paper)
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("R", "n")  # the second review at the top
            while not (isinstance(app.screen, ReviewsScreen) and app.screen.loaded):
                await pilot.pause(0.01)
            await pilot.pause()
            app.save_screenshot(filename=OUT.name, path=str(OUT.parent))
        library.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else PAPER))
    print(f"wrote {OUT}")
