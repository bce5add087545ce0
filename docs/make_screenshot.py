"""Make docs/main.svg, the README's picture of the main screen: the bundled seed list
with a few papers triaged, tagged and annotated. Run: python docs/make_screenshot.py"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from reader_tui.core.formats.seed import read_seed
from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.paths import default_seed_path
from reader_tui.tui.app import create_app

OUT = Path(__file__).resolve().parent / "main.svg"


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open(Path(tmp) / "lib", background_writes=True)
        library.import_papers(read_seed(default_seed_path()).papers)
        ids = list(library.papers)
        library.set_status(ids[:3], Status.READ)
        library.set_status(ids[3:5], Status.TO_READ)
        library.set_status([ids[5]], Status.READING)
        library.set_status([ids[8]], Status.SKIPPED)
        library.add_tags([ids[0], ids[5], ids[6]], ["llm"])
        library.add_tags([ids[5]], ["conformal"])
        library.set_notes(ids[5], "Singleton sets: compare with the APS baseline.\nRead section 4 first.")
        app = create_app(library)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("j", "j", "j", "j", "j")
            await pilot.pause()
            await app.workers.wait_for_complete()
            app.screen.show_current_now()
            await pilot.pause()
            app.save_screenshot(filename=OUT.name, path=str(OUT.parent))
        library.close()


if __name__ == "__main__":
    asyncio.run(main())
    print(f"wrote {OUT}")
