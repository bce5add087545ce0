"""Two processes on one store, for real: this process (A, a Library held open like the TUI's)
and `python -m reader_tui` commands or writer scripts (B) in other processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status

REPO = Path(__file__).resolve().parents[3]
STATUSES = list(Status)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def cli(db: Path, *args: str) -> str:
    """Run a reader-tui command in its own process; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", *args],
        capture_output=True, text=True, env=_env(), timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    Library.open(folder).import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(6)])
    return folder


@pytest.mark.parametrize("background", [False, True], ids=["cli-like", "tui-like"])
def test_different_papers_and_fields_both_survive(db: Path, background: bool) -> None:
    a = Library.open(db, background_writes=background)
    a.set_notes("p1", "A's note on p1")
    a.set_notes("p3", "A's note on p3")
    a.flush()
    cli(db, "mark", "read", "p2", "p3")  # B: another paper, and another field of p3
    a.add_tags(["p3"], ["from-a"])  # A writes again after B: B's change must survive it
    a.flush()

    fresh = Library.open(db)
    assert fresh.view("p1").notes == "A's note on p1"
    assert fresh.view("p2").status is Status.READ
    assert fresh.view("p3").status is Status.READ
    assert fresh.view("p3").notes == "A's note on p3"
    assert fresh.view("p3").tags == ("from-a",)
    a.close()


def test_same_field_the_later_change_wins(db: Path) -> None:
    a = Library.open(db)
    a.set_status(["p1"], Status.READING)
    cli(db, "mark", "read", "p1")
    assert Library.open(db).view("p1").status is Status.READ
    a.reload_if_changed()
    a.set_status(["p1"], Status.SKIPPED)
    assert Library.open(db).view("p1").status is Status.SKIPPED
    # Nothing else was touched on the way.
    assert all(Library.open(db).annotation(f"p{i}").is_default for i in (0, 2, 3, 4, 5))


def test_a_sees_b_change_after_reload_if_changed(db: Path) -> None:
    a = Library.open(db, background_writes=True)
    seen: list[frozenset[str] | None] = []
    a.subscribe(seen.append)
    cli(db, "mark", "read", "p2")
    cli(db, "note", "p4", "--set", "from B")
    assert a.view("p2").status is Status.UNREAD  # not yet: A has not looked
    changed = a.reload_if_changed()
    assert changed == {"p2", "p4"}
    assert seen == [frozenset({"p2", "p4"})]
    assert a.view("p2").status is Status.READ
    assert a.view("p4").notes == "from B"
    assert a.reload_if_changed() == frozenset()  # and only once
    a.close()


def test_a_sees_b_change_even_after_writing_itself(db: Path) -> None:
    a = Library.open(db)
    cli(db, "mark", "read", "p2")
    a.set_notes("p1", "A writes before it looks")  # this write carries B's change to disk
    assert Library.open(db).view("p2").status is Status.READ
    assert a.reload_if_changed() == {"p2"}
    assert a.view("p2").status is Status.READ


HAMMER = r"""
import sys, time
from pathlib import Path
from reader_tui.core.model import Status
from reader_tui.core.library.library import Library

folder, role, seconds = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
statuses = list(Status)
library = Library.open(folder, background_writes=(role == "tags"))
shared = [f"p{i}" for i in range(4)]
end = time.monotonic() + seconds
i = 0
while time.monotonic() < end:
    paper = shared[i % len(shared)]
    if role == "notes":
        # notes of the shared papers, and the status of a paper only this writer touches
        library.set_notes(paper, f"n{i}")
        library.set_status(["p4"], statuses[i % len(statuses)])
    else:
        library.add_tags([paper], [f"t{i}"])
        if i % 50 == 0:
            library.flush()
    i += 1
library.close()
print(i)
"""


def test_two_writers_hammering_lose_nothing(db: Path) -> None:
    """Two processes write as fast as they can for about 2 s: one the notes of four papers
    (and the status of a fifth), the other the tags of the same four papers, through a
    background writer. Every write of both must be on disk at the end."""
    procs = {
        role: subprocess.Popen(
            [sys.executable, "-c", HAMMER, str(db), role, "2.0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
        )
        for role in ("notes", "tags")
    }
    counts = {}
    for role, proc in procs.items():
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        counts[role] = int(out)
    assert min(counts.values()) > 10, counts  # both really wrote, many times

    fresh = Library.open(db)
    notes_n, tags_n = counts["notes"], counts["tags"]
    for k in range(4):
        paper = f"p{k}"
        last_note = max((i for i in range(notes_n) if i % 4 == k), default=None)
        assert fresh.view(paper).notes == ("" if last_note is None else f"n{last_note}")
        assert fresh.view(paper).tags == tuple(f"t{i}" for i in range(tags_n) if i % 4 == k)
    assert fresh.view("p4").status is STATUSES[(notes_n - 1) % len(STATUSES)]
    assert fresh.annotation("p5").is_default
    print(f"\ntwo writers: {notes_n} notes/status writes and {tags_n} tag writes, none lost")
