"""kill -9 during `reader-tui sync` (the process and the git commands it runs: during
commit, merge or push) leaves a store that opens, and the next sync completes with every
change of both sides in place. Real git, a bare repository in a temporary folder."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 10


def test_kill_9_during_sync_leaves_a_readable_store_and_the_next_sync_completes(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(tmp_path / "cache"),
           "READER_TUI_BACKGROUND_INDEX": "0", "HOME": str(tmp_path / "home"), "READER_TUI_DEBUG": ""}

    def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "reader_tui", "--db", str(folder), "--no-seed", *args],
                              env=env, capture_output=True, text=True, timeout=60)

    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    bib = tmp_path / "seed.bib"
    bib.write_text("".join(f"@article{{k{i}, title={{Paper {i} ünï}}, year={{2020}}}}\n" for i in range(ROUNDS)), "utf-8")
    a, b = tmp_path / "A", tmp_path / "B"
    assert run(a, "import", str(bib)).returncode == 0
    assert run(a, "sync", "init", str(remote)).returncode == 0
    assert run(a, "sync").returncode == 0
    assert run(b, "sync", "init", str(remote)).returncode == 0
    pids = [p["id"] for p in json.loads(run(a, "list", "--json").stdout)]
    rng = random.Random(int(os.environ.get("KILL_SYNC_SEED", "17")))
    killed = 0
    recovered = []
    for i, pid in enumerate(pids):
        assert run(b, "tag", pid, f"+b{i}").returncode == 0
        assert run(b, "sync").returncode == 0  # A has something to merge in every round
        assert run(a, "note", pid, "--set", f"a{i} 🧪").returncode == 0
        sync = subprocess.Popen([sys.executable, "-m", "reader_tui", "--db", str(a), "--no-seed", "sync"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.15, 0.6))  # start-up is ~0.15 s: the kill lands in commit, merge or push
        if sync.poll() is None:
            os.killpg(sync.pid, signal.SIGKILL)  # the sync and every git it started
            killed += 1
        sync.wait()
        listed = run(a, "list", "--json")
        assert listed.returncode == 0, listed.stderr  # the store opens
        again = run(a, "sync")
        assert again.returncode == 0, again.stdout + again.stderr
        recovered += [line for line in again.stdout.splitlines() if "undone" in line or "removed" in line or "lock" in line]
        got = json.loads(run(a, "show", pid, "--json").stdout)
        assert got["notes"] == f"a{i} 🧪" and f"b{i}" in got["tags"]
    assert run(b, "sync").returncode == 0
    for folder in (a, b):
        for i, pid in enumerate(pids):
            got = json.loads(run(folder, "show", pid, "--json").stdout)
            assert got["notes"] == f"a{i} 🧪" and got["tags"] == [f"b{i}"]
    print(f"{killed} syncs killed, recovered from: {recovered}")
    assert killed >= ROUNDS // 3, f"only {killed} of {ROUNDS} syncs were still running when killed"
