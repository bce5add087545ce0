"""Sync benchmark: `reader-tui sync` of a full-size library through a local bare remote,
and the repository's size after a simulated year of use.

    python -m benchmarks.bench_sync [--data iclr2026-openreview.jsonl.gz] [--papers 19630]
        [--changes 1000] [--days 365]

1. Library A holds `--papers` papers (the OpenReview list with `--data`, else grown from
   the bundled seed list), is made a repository (`sync init REMOTE`) and synced; B is a
   clone of it (not timed).
2. A changes `--changes` annotations (statuses, tags, notes over as many papers), then
   `python -m reader_tui sync` runs in a fresh process, as typed in a shell: commit,
   fetch, push. Wall time.
3. B changes 100 other annotations and runs `reader-tui sync`: commit, fetch, merge (the
   merge driver runs on annotations.json), push. Wall time.
4. A year: each day A (and B every third day) changes 5-40 annotations and syncs
   (in this process: `core.library.sync.sync`); the remote's size after the year, as git
   keeps it (`du` of the bare repository) and after `git gc`.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _change(library, ids: list[str], n: int, rng: random.Random, day: int) -> None:
    from reader_tui.core.model import Status

    chosen = rng.sample(ids, n)
    statuses = list(Status)
    third = max(1, n // 3)
    for pid in chosen[:third]:
        library.set_status([pid], rng.choice(statuses))
    for pid in chosen[third : 2 * third]:
        library.retag([pid], add=[f"topic-{rng.randrange(40)}"])
    for pid in chosen[2 * third :]:
        library.set_notes(pid, f"day {day}: {rng.choice(['skim', 'read §3', 'compare with', 'cite in intro'])} {pid}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a paper list (OpenReview JSONL...); default: grown from the seed list")
    parser.add_argument("--papers", type=int, default=19630)
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument("--days", type=int, default=365)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(REPO))
    from benchmarks.synthetic import load_papers
    from reader_tui.core.library.library import Library
    from reader_tui.core.library.sync import repository as sync

    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        root = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(root / "cache"),
               "READER_TUI_BACKGROUND_INDEX": "0", "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x",
               "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@x"}
        os.environ.update(env)
        remote = root / "remote.git"
        subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
        a, b = root / "A", root / "B"
        papers = load_papers(args.data, args.papers)
        library = Library.open(a)
        library.import_papers(papers)
        ids = list(library.papers)
        print(f"library: {len(ids):,} papers, catalog.json {(a / 'catalog.json').stat().st_size / 1e6:.1f} MB")
        sync.init(a, str(remote))
        sync.sync(a)
        sync.init(b, str(remote))

        def timed_sync(folder: Path) -> tuple[float, str]:
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "reader_tui", "--db", str(folder), "sync"],
                                  env=env, capture_output=True, text=True)
            took = time.perf_counter() - started
            if done.returncode != 0:
                raise SystemExit(f"sync failed: {done.stdout}{done.stderr}")
            return took, " / ".join(done.stdout.splitlines())

        rng = random.Random(17)
        _change(Library.open(a), ids, args.changes, rng, 0)
        took, out = timed_sync(a)
        print(f"reader-tui sync, {args.changes:,} changed annotations (commit, fetch, push): {took:.2f} s  [{out}]")
        _change(Library.open(b), ids, 100, rng, 0)
        took, out = timed_sync(b)
        print(f"reader-tui sync, 100 changed, merging the other's {args.changes:,} (driver runs): {took:.2f} s  [{out}]")
        timed_sync(a)

        started = time.perf_counter()
        lib_a, lib_b = Library.open(a), Library.open(b)
        for day in range(1, args.days + 1):
            lib_a = Library.open(a)
            _change(lib_a, ids, rng.randint(5, 40), rng, day)
            sync.sync(a)
            if day % 3 == 0:
                lib_b = Library.open(b)
                _change(lib_b, ids, rng.randint(5, 20), rng, day)
                sync.sync(b)
        sync.sync(a)
        year = time.perf_counter() - started
        size = _du(remote)
        annotations = (a / "annotations.json").stat().st_size
        subprocess.run(["git", "gc", "--quiet", "--aggressive"], cwd=remote, check=True)
        packed = _du(remote)
        commits = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=remote, capture_output=True, text=True).stdout.strip()
        print(f"a year ({args.days} days, one sync a day on A, every third day on B; {commits} commits; {year:.0f} s):")
        print(f"  remote {size / 1e6:.1f} MB as git left it, {packed / 1e6:.1f} MB after git gc; "
              f"annotations.json {annotations / 1e6:.2f} MB, catalog.json {(a / 'catalog.json').stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
