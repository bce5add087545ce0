"""What a TUI start loads before the list is on screen: each module costs the start its
import (a few to some tens of milliseconds), so what the first frame does not need waits
until it is used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tui_support import make_library

REPO = Path(__file__).resolve().parents[2]

# The start as `reader-tui` makes it (cli.main's cmd_tui), ended at the list's first paint.
PROBE = """
import json, os, sys
from pathlib import Path
from reader_tui.cli.main import build_parser
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList

def first_paint(self, y):
    print(json.dumps(sorted(sys.modules)), flush=True)
    os._exit(0)

PaperList.render_line = first_paint
create_app(Library.open(Path(sys.argv[1]), background_writes=True)).run(headless=True, size=(120, 40))
"""

NOT_BEFORE_THE_LIST = [
    "sqlite3",  # the reviews store: read when a paper's reviews are
    "_strptime",  # datetime.strptime: backup stamps are read without it
    "filelock",  # the lock: the start's backup waits for the first frame, nothing else writes
    "reader_tui.core.reviews.forum",  # a paper's reviews, read when they are shown
    "reader_tui.core.reviews.records",  # the reviews' records: an import, or the reviews read
    "reader_tui.core.formats.base",  # the importers' results and errors: an import
    "reader_tui.core.library.catalog.merge",  # an import
    "reader_tui.core.stats",  # the statistics and the tag picker
    "reader_tui.core.search.index",  # built or loaded on a worker once the list is up
    "reader_tui.core.search.query",  # the first search (the reviews read-ahead waits for its screen)
    "numpy",
    "rapidfuzz",
    "pylatexenc",
    "sklearn",
]


def test_the_first_frame_loads_nothing_it_does_not_show(tmp_path: Path) -> None:
    make_library(tmp_path / "lib").close()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "lib")], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "reader_tui.tui.screens.main_screen" in loaded  # the probe did reach the first frame
    assert sorted(loaded & set(NOT_BEFORE_THE_LIST)) == []
