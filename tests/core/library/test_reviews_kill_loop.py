"""kill -9 during `reader-tui import` of a file of reviews never leaves a store that will
not open, nor a mix of two snapshots, nor loses the user's annotations.

Each round writes snapshot k (every paper's first review rated k, captured later than
the round before) and runs `python -m reader_tui import` on it, SIGKILLed at a random
moment between 0.3 and 1.7 times how long such an import takes here (learnt from those
that finish: about half of them die). After
every round the library must open; every paper's scores in the catalog must come from
one snapshot, and every forum in the reviews store from one snapshot, each either the
last acknowledged one (exit 0) or one tried since; the reviews store is never older
than the catalog (it is committed first); the annotations are as set before the loop.
Run with -s to see the figures; KILL_LOOP_SEED replays a run's random delays.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from tests.kill_aim import KillAim, enough_kills

REPO = Path(__file__).resolve().parents[3]
PAPERS = 150
TIME_BUDGET = 12.0
MIN_KILLS = 5
# Past the budget the loop goes on until it has its kills, up to this: a machine so slow
# that it has too few then skips the test, which says so.
TIME_LIMIT = 3 * TIME_BUDGET
BASE_MS = 1_760_000_000_000


def snapshot(path: Path, k: int) -> None:
    text = "A long review paragraph with $x^2$ and **markdown**. " * 40
    with path.open("w") as out:
        for n in range(PAPERS):
            pid = f"Kill{n:04d}"
            replies = [
                {
                    "id": f"{pid}r{r}", "forum": pid, "replyto": pid,
                    "invitations": [f"ICLR.cc/2026/Conference/Submission{n}/-/Official_Review"],
                    "signatures": [f"ICLR.cc/2026/Conference/Submission{n}/Reviewer_{r}"],
                    "cdate": BASE_MS, "mdate": BASE_MS + k * 1000,
                    "content": {"rating": {"value": k if r == 0 else 6}, "confidence": {"value": 3},
                                "summary": {"value": f"{text} snapshot {k}"}, "weaknesses": {"value": text}},
                }
                for r in range(3)
            ]
            out.write(json.dumps({
                "id": pid, "cdate": BASE_MS, "mdate": BASE_MS,
                "content": {"title": f"Paper {n}", "abstract": "An abstract of a paper. " * 8, "tldr": f"tldr {n}",
                            "primary_area": "optimization", "venue": "ICLR 2026 Conference Submission", "pdf": "/pdf/x.pdf"},
                "withdrawn": False, "replies": replies,
            }) + "\n")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env["READER_TUI_BACKGROUND_INDEX"] = "0"
    return env


def _import(db: Path, path: Path) -> list[str]:
    return [sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", "import", str(path)]


def _snapshots(db: Path) -> tuple[set[int], set[int]]:
    """The snapshots the catalog's scores and the stored forums come from."""
    library = Library.open(db)
    assert library.review_store.check() is None
    catalog = {library.papers[pid].scores.ratings[0] for pid in library.papers if library.papers[pid].scores}
    forums = {library.forum(pid).reviews[0].scores["rating"] for pid in library.papers if library.forum(pid)}
    assert library.annotation("Kill0000").status is Status.READING
    assert library.annotation("Kill0001").tags == ("keep",) and library.annotation("Kill0001").notes == "mine"
    assert len(library.papers) == PAPERS
    return catalog, forums


def test_kill_9_during_review_imports_leaves_one_snapshot_and_every_annotation(tmp_path: Path) -> None:
    db = tmp_path / "db"
    env = _env()
    seed = int(os.environ.get("KILL_LOOP_SEED") or random.randrange(1 << 30))
    rng = random.Random(seed)
    first = tmp_path / "snap1.jsonl"
    snapshot(first, 1)
    started = time.monotonic()
    subprocess.run(_import(db, first), check=True, env=env, capture_output=True)
    aim = KillAim(time.monotonic() - started, 0.3, 1.7)  # the first import made the library: the aim only starts there
    library = Library.open(db)
    library.set_status(["Kill0000"], Status.READING)
    library.set_tags("Kill0001", ["keep"])
    library.set_notes("Kill0001", "mine")
    tried = [1]  # the last acknowledged snapshot, then those tried since
    kills = rounds = acks = 0
    began = time.monotonic()
    while (elapsed := time.monotonic() - began) + aim.seconds < TIME_BUDGET or (kills < MIN_KILLS and elapsed < TIME_LIMIT):
        rounds += 1
        k = rounds + 1
        path = tmp_path / f"snap{k}.jsonl"
        snapshot(path, k)
        tried.append(k)
        proc = subprocess.Popen(_import(db, path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        killed = aim.run(proc, rng.random())
        _, err = proc.communicate(timeout=60)
        if killed:
            kills += 1
        else:
            assert proc.returncode == 0, err.decode(errors="replace")
            tried, acks = [k], acks + 1
        path.unlink()
        catalog, forums = _snapshots(db)
        allowed = set(tried)
        assert len(catalog) == 1 and catalog <= allowed, f"round {rounds}: catalog from {catalog}, allowed {allowed}"
        assert len(forums) == 1 and forums <= allowed, f"round {rounds}: forums from {forums}, allowed {allowed}"
        assert min(forums) >= min(catalog), "the reviews store is committed before the catalog"
        if proc.returncode == 0:
            assert catalog == forums == {k}
    print(f"\nreviews kill loop (seed {seed}): {rounds} imports, {kills} killed, {acks} acknowledged")
    enough_kills(kills, MIN_KILLS, f"review imports, seed {seed}")
