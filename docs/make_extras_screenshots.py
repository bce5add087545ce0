"""Make docs/triage.svg and docs/stats.svg for docs/screens.md: the bundled seed list with some
papers triaged, read on fixed days and tagged. Run: python docs/make_extras_screenshots.py"""

from __future__ import annotations

import asyncio
import os
import tempfile
from datetime import date
from pathlib import Path

from reader_tui.core.formats.seed import read_seed
from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.paths import default_seed_path
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.stats_screen import StatsScreen

DOCS = Path(__file__).resolve().parent
TODAY = date(2026, 3, 20)
READ_ON = ["2026-02-24", "2026-02-27", "2026-03-03", "2026-03-03", "2026-03-09", "2026-03-12", "2026-03-19"]


def _library(folder: Path) -> Library:
    library = Library.open(folder, background_writes=True)
    library.import_papers(read_seed(default_seed_path()).papers)
    ids = list(library.papers)
    read = ids[:7]
    library.set_status(read, Status.READ)
    for pid, day in zip(read, READ_ON):  # fixed days, so the picture does not depend on today
        library.annotations[pid].history = [[f"{day}T12:00:00+00:00", "read"]]
    library.set_status(ids[7:10], Status.TO_READ)
    library.set_status([ids[10]], Status.READING)
    library.set_status(ids[11:13], Status.SKIPPED)
    library.add_tags(ids[0:6], ["llm"])
    library.add_tags([ids[1], ids[4], ids[14]], ["agents"])
    library.add_tags([ids[5], ids[15]], ["conformal"])
    library.add_tags([ids[2]], ["memory"])
    return library


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["READER_TUI_CACHE"] = str(Path(tmp) / "cache")
        library = _library(Path(tmp) / "lib")
        app = create_app(library)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.press("T", "l", "l", "l")  # passed over three: the fourth untriaged paper
            await pilot.pause()
            app.save_screenshot(filename="triage.svg", path=str(DOCS))
            await pilot.press("escape")
            await pilot.pause()
            tagged = [pid for pid in library.papers if "llm" in library.annotation(pid).tags]
            app.push_screen(StatsScreen(library, tagged, filter_label="filter: tag:llm", today=TODAY))
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.save_screenshot(filename="stats.svg", path=str(DOCS))
        library.close()


if __name__ == "__main__":
    asyncio.run(main())
    print(f"wrote {DOCS / 'triage.svg'} and {DOCS / 'stats.svg'}")
