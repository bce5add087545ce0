"""`reader-tui stats` and the TUI's stats screen show the same figures, from one function.

They used to disagree: the command counted tags through `Library.all_tags`, which also
counted the annotations kept for papers no longer in the catalog, and both counted those
papers' reads per day.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from reader_tui.cli import stats as cli_stats
from reader_tui.core import stats as core_stats
from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Paper, Status
from reader_tui.tui.screens import stats_screen

TODAY = date(2026, 3, 20)


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper {n}", abstract="") for n in range(4)])
    library.set_status(["p0", "p1"], Status.READ)
    library.set_status(["p2"], Status.SKIPPED)
    library.set_tags("p0", ["ML", "論文 🎉"])
    library.set_tags("p1", ["ml"])
    library.set_tags("p2", ["\u202ertl"])
    for pid in ("p0", "p1"):
        library.annotations[pid].history = [["2026-03-19T12:00:00+00:00", "read"]]
    # The annotation of a paper gone from the catalog, kept in case it comes back.
    library.annotations["gone"] = Annotation(
        status=Status.READ, tags=("ml", "orphan"), history=[["2026-03-20T09:00:00+00:00", "read"]]
    )
    return library


def test_the_cli_and_the_tui_use_one_function() -> None:
    assert cli_stats.numbers_for is core_stats.numbers_for
    assert stats_screen.numbers_for is core_stats.numbers_for


def test_the_cli_and_the_tui_agree(library: Library, capsys: pytest.CaptureFixture[str]) -> None:
    tui = stats_screen.compute_numbers(library, None, TODAY)
    cli = cli_stats.whole_library(library, TODAY)
    assert cli == tui
    assert tui.papers == 4
    assert tui.status == {"unread": 1, "to-read": 0, "reading": 0, "read": 2, "skipped": 1}
    assert tui.tags == {"ML": 2, "\u202ertl": 1, "論文 🎉": 1}  # not the gone paper's
    assert dict(tui.per_day)[date(2026, 3, 19)] == 2 and dict(tui.per_day)[TODAY] == 0
    assert library.all_tags() == tui.tags

    cli_stats.print_stats(library, as_json=True, today=TODAY)
    printed = json.loads(capsys.readouterr().out)
    assert printed == {"papers": tui.papers, "status": tui.status, "tags": tui.tags}
    cli_stats.print_stats(library, today=TODAY)
    assert capsys.readouterr().out.rstrip().endswith(": 2 in 28 days")
