"""Issue 13: a damaged catalog record never crashes the TUI mid-draw: its row says it is
damaged, and the screen names the file and record once."""

from __future__ import annotations

import json
from pathlib import Path

from reader_tui.core.library.files import CATALOG_FILE
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import PAPERS, make_library, screen_text, settle


async def test_a_damaged_record_is_a_placeholder_row_and_one_notice(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    make_library(folder).close()
    path = folder / CATALOG_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    doc_id, record = next((d, r) for d, r in data["papers"].items() if r["id"] == PAPERS[1].id)
    record["authors"] = "not a list"
    path.write_text(json.dumps(data), encoding="utf-8")

    library = Library.open(folder, background_writes=True)
    app = create_app(library)
    notices: list[str] = []
    # Hooked before the app runs: the index build may meet the record at once.
    original = app.notify
    app.notify = lambda message, *a, **k: (notices.append(str(message)), original(message, *a, **k))[1]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        rows = [papers.render_line(y).text for y in range(len(papers.ids))]
        assert len(rows) == len(PAPERS)
        assert any("damaged record" in row for row in rows)
        await pilot.press("j")  # the damaged paper's detail pane
        await settle(app, pilot)
        assert "damaged record" in screen_text(app)
        app.screen.browser.refilter()
        await settle(app, pilot)
    library.close()
    line = f"{path}: paper record {doc_id} (id {PAPERS[1].id!r}): authors must be a list of strings"
    assert notices.count(line) == 1, notices
