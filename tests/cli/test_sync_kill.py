"""kill -9 during `reader-tui sync` (the process and the git commands it runs: during
commit, merge or push) leaves a store that opens, and the next sync completes with every
change of both sides in place. Real git, a bare repository in a temporary folder.

Only the sync that is killed needs a process of its own; every other command runs in this
process (`reader_tui` fixture), opening the library afresh from its files as a new process
would, which is what the test needs of them."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kill_aim import KillAim, enough_kills

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 10
# The interpreter's start is about the first half of a sync (0.25-0.6 s here): a kill from
# 0.5 to 1.0 times how long a sync takes lands in its commit, merge or push.
FIRST_GUESS_S = 0.6


def test_kill_9_during_sync_leaves_a_readable_store_and_the_next_sync_completes(
    tmp_path: Path, reader_tui, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git runs the merge driver as `python -m reader_tui`: this checkout's code, as the killed sync
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    env = {**os.environ, "READER_TUI_DEBUG": ""}  # HOME, the cache and no background index: conftest

    def run(folder: Path, *args: str) -> str:
        out, _ = reader_tui("--db", str(folder), "--no-seed", *args)  # exit code 0, checked there
        return out

    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    # The remote's side of a push runs in a session of its own, as a server's does: the kill
    # below reaches the sync and every git it started here, not the remote repository.
    # (util-linux's `setsid -w` where there is one: a Python interpreter per push cost
    # ~0.2 s of CPU, a tenth of the test)
    receive = tmp_path / "receive-pack"
    if shutil.which("setsid") and subprocess.run(["setsid", "-w", "true"]).returncode == 0:
        receive.write_text('#!/bin/sh\nexec setsid -w git receive-pack "$@"\n', "utf-8")
    else:
        receive.write_text(f"#!{sys.executable}\nimport os, sys\nos.setsid()\n"
                           "os.execvp('git', ['git', 'receive-pack', *sys.argv[1:]])\n", "utf-8")
    receive.chmod(0o755)
    bib = tmp_path / "seed.bib"
    bib.write_text("".join(f"@article{{k{i}, title={{Paper {i} ünï}}, year={{2020}}}}\n" for i in range(ROUNDS)), "utf-8")
    a, b = tmp_path / "A", tmp_path / "B"
    run(a, "import", str(bib))
    run(a, "sync", "init", str(remote))
    subprocess.run(["git", "-C", str(a), "config", "remote.origin.receivepack", str(receive)], check=True)
    run(a, "sync")
    run(b, "sync", "init", str(remote))
    pids = [p["id"] for p in json.loads(run(a, "list", "--json"))]
    assert len(pids) == ROUNDS
    rng = random.Random(int(os.environ.get("KILL_SYNC_SEED", "17")))
    aim = KillAim(FIRST_GUESS_S, 0.5, 1.0)  # learnt from each sync that ends before its kill
    killed = 0
    recovered = []
    for i, pid in enumerate(pids):
        run(b, "tag", pid, f"+b{i}")
        run(b, "sync")  # A has something to merge in every round
        run(a, "note", pid, "--set", f"a{i} 🧪")
        sync = subprocess.Popen([sys.executable, "-m", "reader_tui", "--db", str(a), "--no-seed", "sync"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        killed += aim.run(sync, rng.random(), group=True)  # the sync and every git it started
        run(a, "list", "--json")  # the store opens
        again = run(a, "sync")
        recovered += [line for line in again.splitlines() if "undone" in line or "removed" in line or "lock" in line]
        got = json.loads(run(a, "show", pid, "--json"))
        assert got["notes"] == f"a{i} 🧪" and f"b{i}" in got["tags"]
    run(b, "sync")
    for folder in (a, b):
        for i, pid in enumerate(pids):
            got = json.loads(run(folder, "show", pid, "--json"))
            assert got["notes"] == f"a{i} 🧪" and got["tags"] == [f"b{i}"]
    print(f"{killed} syncs killed, recovered from: {recovered}")
    enough_kills(killed, ROUNDS // 3, f"syncs still running when killed, of {ROUNDS}")
