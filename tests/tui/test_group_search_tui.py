"""Issue 34, item 1: a colleague's marks are searchable in the TUI as in the CLI
(`by:`, `is:group-*`, `group:`): after a restart (the search index from its cache) and
when the members' files arrive while the app runs (a sync)."""

from __future__ import annotations

import json
from pathlib import Path

from reader_tui.core.library.indexing import search_index
from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import PAPERS, settle, wait_until


def _write_member(folder: Path, name: str, marks: dict[str, Annotation]) -> None:
    docs = {str(n): {"paper_id": pid, **ann.to_dict()} for n, (pid, ann) in enumerate(marks.items(), 1)}
    (folder / "members").mkdir(exist_ok=True)
    (folder / "members" / f"{name}.json").write_text(
        json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs}), encoding="utf-8"
    )


QUERIES = {
    "by:alice": {PAPERS[0].id, PAPERS[1].id},
    "is:group-to-read": {PAPERS[0].id},
    "group:>=1": {PAPERS[0].id, PAPERS[1].id},
}


async def _search(app, pilot, query: str) -> set[str]:
    await pilot.press("slash", *query)
    await settle(app, pilot)
    found = set(app.screen.query_one(PaperList).ids)
    await pilot.press("escape")
    await settle(app, pilot)
    return found


async def test_group_queries_find_the_members_marks_after_a_restart(library: Library) -> None:
    folder = library.files.folder
    _write_member(folder, "alice", {PAPERS[0].id: Annotation(status=Status.TO_READ), PAPERS[1].id: Annotation(status=Status.READ)})
    search_index(library)  # the last run cached the index: this start loads it
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        for query, expected in QUERIES.items():
            assert await _search(app, pilot, query) == expected, query


async def test_group_queries_see_members_files_that_arrive_while_running(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        _write_member(library.files.folder, "alice", {PAPERS[0].id: Annotation(status=Status.TO_READ),
                                                      PAPERS[1].id: Annotation(status=Status.READ)})
        papers = app.screen.query_one(PaperList)
        assert await wait_until(pilot, lambda: papers.group is not None, 10)  # the members' files are read
        await settle(app, pilot)
        for query, expected in QUERIES.items():
            assert await _search(app, pilot, query) == expected, query
