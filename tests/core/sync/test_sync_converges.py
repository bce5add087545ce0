"""Two or three clones of one library make random concurrent changes (statuses, tags,
notes, edits, imports) and sync in random orders through a bare repository (real git, no
network): afterwards every clone holds the same library, and every change the merge rules
say survives is there."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader_tui.core.library import library as library_module
from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.model import Paper, Status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[3]
PAPERS = 2
TAGS = ("ml", "rl", "Théorie", "𝔘")

clone = st.integers(0, 2)
paper = st.integers(0, PAPERS - 1)
operation = st.one_of(
    st.tuples(st.just("status"), clone, paper, st.sampled_from(list(Status))),
    st.tuples(st.just("tag"), clone, paper, st.sampled_from(TAGS)),
    st.tuples(st.just("untag"), clone, paper, st.sampled_from(TAGS)),
    st.tuples(st.just("note"), clone, paper, st.none()),
    st.tuples(st.just("edit"), clone, paper, st.none()),
    st.tuples(st.just("import"), clone, st.none(), st.none()),
    st.tuples(st.just("sync"), clone, st.none(), st.none()),
)


def _open(folder: Path) -> Library:
    return Library.open(folder)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(clones=st.integers(2, 3), operations=st.lists(operation, min_size=6, max_size=16))
def test_clones_converge_and_surviving_changes_are_there(clones: int, operations: list) -> None:
    ticks = itertools.count()
    start = datetime(2026, 5, 1, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, {
        "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(Path(tmp) / "cache"), "READER_TUI_BACKGROUND_INDEX": "0",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }), mock.patch.object(library_module, "now_iso", lambda: (start + timedelta(seconds=next(ticks))).isoformat()):
        root = Path(tmp)
        remote = root / "remote.git"
        subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
        folders = [root / f"c{n}" for n in range(clones)]
        first = _open(folders[0])
        first.import_papers([Paper(id=f"p{i}", title=f"Original paper number {i} of the seed") for i in range(PAPERS)])
        sync.init(folders[0], str(remote))
        sync.sync(folders[0])
        for folder in folders[1:]:
            sync.init(folder, str(remote))
        ids = [f"p{i}" for i in range(PAPERS)]
        last_status: dict[str, Status] = {}
        last_note: dict[str, str] = {}
        last_title: dict[str, str] = {}
        added: set[tuple[str, str]] = set()
        removed: set[tuple[str, str]] = set()
        imported: list[str] = []
        count = itertools.count()
        for kind, c, p, value in operations:
            folder = folders[c % clones]
            if kind == "sync":
                sync.sync(folder)
                continue
            lib = _open(folder)
            if kind == "import":
                n = next(count)
                pid = f"new{n}"
                lib.import_papers([Paper(id=pid, title=f"Imported {n} {'xyzzy' * (n + 1)} quux", citekey=f"imp{n}")])
                imported.append(pid)
                continue
            pid = ids[p]
            before = lib.annotation(pid)
            if kind == "status":
                lib.set_status([pid], value)
                if before.status != value:
                    last_status[pid] = value
            elif kind == "tag":
                lib.retag([pid], add=[value])
                if value.casefold() not in {t.casefold() for t in before.tags}:
                    added.add((pid, value.casefold()))
            elif kind == "untag":
                lib.retag([pid], remove=[value])
                removed.add((pid, value.casefold()))
            elif kind == "note":
                text = f"note {next(count)} 🧪"
                lib.set_notes(pid, text)
                last_note[pid] = text
            elif kind == "edit":
                title = f"Edited title {next(count)}"
                lib.edit(pid, title=title)
                last_title[pid] = title
        for _ in range(2):
            for folder in folders:
                report = sync.sync(folder)
                assert not report.offline
        annotations = {(f / "annotations.json").read_bytes() for f in folders if (f / "annotations.json").exists()}
        catalogs = {(f / "catalog.json").read_bytes() for f in folders}
        assert len(catalogs) == 1 and len(annotations) <= 1
        lib = _open(folders[0])
        for pid, status in last_status.items():
            assert lib.annotation(pid).status is status
        for pid, text in last_note.items():
            assert text in lib.annotation(pid).notes.splitlines()
        for pid, title in last_title.items():
            assert lib.view(pid).title == title
        for pid, tag in added - removed:
            assert tag in {t.casefold() for t in lib.annotation(pid).tags}
        for pid in imported:
            assert pid in lib.papers
        keys = [lib.view(pid).citekey.casefold() for pid in lib.papers]
        assert len(keys) == len(set(keys))
