"""`reader-tui fetch` as a user runs it, against a local server answering like
OpenReview's API v2 (`tests.openreview_server`): a first fetch, triage, a second fetch
after the server's data changed and what moved; 429, 403 and offline in a line or two;
a fetch killed at random moments (kill -9) resumes and leaves a whole library."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kill_aim import KillAim
from tests.openreview_server import VENUE, FakeOpenReview, make_venue

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def server():
    with FakeOpenReview(make_venue(40)) as fake:
        fake.max_limit = 10
        yield fake


def test_fetch_triage_fetch_again_and_see_what_moved(tmp_path, reader_tui, server):
    db = ["--db", str(tmp_path / "lib"), "--no-seed"]
    out, err = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db)
    assert f"{VENUE}: 40 papers in 4 pages, 4 requests this run:" in out
    assert "40 new" in out and "reviews of 40 papers: 40 new" in out
    assert "first snapshot" in out
    assert "fetched page 4 of 4 · 40 of 40 papers" in err
    first = server.notes[0]["id"]
    reader_tui("status", "reading", first, *db)
    reader_tui("tag", first, "+later", *db)
    server.notes = make_venue(40, day=1)
    out, err = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db)
    assert "what moved: 10 papers' mean rating moved, 1 withdrawn, 8 got decisions" in out
    assert " since 2025-11-12: Paper " in out and "... and 5 more (search is:moved)" in out
    listed, _ = reader_tui("list", "--search", "is:moved", "--json", *db)
    assert len(json.loads(listed)) == 10
    shown, _ = reader_tui("show", server.notes[3]["id"], *db)  # paper 4: its first reviewer moved
    assert "-> " in shown and " since 2025-11-12)" in shown
    mine = json.loads(reader_tui("show", first, "--json", *db)[0])
    assert mine["status"] == "reading" and mine["tags"] == ["later"]
    assert len(json.loads(reader_tui("list", "--search", "decision:accept", "--json", *db)[0])) == 4
    assert not list((tmp_path / "lib" / "snapshots").glob("*.partial"))
    assert not list((tmp_path / "lib" / "snapshots").glob("*.fetch.json"))


def test_429_says_when_it_resumes_and_the_next_run_goes_on(tmp_path, reader_tui, server):
    db = ["--db", str(tmp_path / "lib"), "--no-seed"]
    server.faults = ["", "429"]
    _, err = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db, code=1)
    assert "Too many requests" in err and "OpenReview takes requests again at" in err and "nothing is retried" in err
    assert len(server.notes_requests()) == 2
    out, err = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db)
    assert "resuming the fetch" in err and "3 requests this run" in out and "40 new" in out


def test_403_asks_for_a_login_from_the_environment(tmp_path, reader_tui, server, monkeypatch):
    for name in ("OPENREVIEW_TOKEN", "OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    server.login_required = True
    db = ["--db", str(tmp_path / "lib"), "--no-seed"]
    _, err = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db, code=1)
    assert "asks for a login" in err and "OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD" in err and "never stored" in err
    monkeypatch.setenv("OPENREVIEW_USERNAME", "me@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "pw")
    out, _ = reader_tui("fetch", VENUE, "--api", server.url, "--pause", "0", *db)
    assert "40 new" in out


def test_offline_in_one_line(tmp_path, reader_tui):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    _, err = reader_tui("fetch", VENUE, "--api", f"http://127.0.0.1:{port}", "--pause", "0",
                        "--db", str(tmp_path / "lib"), "--no-seed", code=1)
    assert err.count("\n") == 1 and err.startswith("reader-tui: offline: cannot reach")


def test_pdf_and_usage(tmp_path, reader_tui, server):
    db = ["--db", str(tmp_path / "lib"), "--no-seed"]
    out, _ = reader_tui("fetch", "--pdf", "abc", "--api", server.url, *db)
    assert (tmp_path / "lib" / "pdfs" / "abc.pdf").read_bytes().startswith(b"%PDF")
    _, err = reader_tui("fetch", *db, code=2)
    assert "name a venue" in err


def test_kill_9_during_fetch_resumes_and_the_library_is_whole(tmp_path, reader_tui, server, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    server.delay = 0.05
    lib = tmp_path / "lib"
    command = [sys.executable, "-m", "reader_tui", "--db", str(lib), "--no-seed", "fetch", VENUE,
               "--api", server.url, "--pause", "0.05"]
    env = {**os.environ, "READER_TUI_DEBUG": ""}
    rng = random.Random(int(os.environ.get("KILL_FETCH_SEED", "36")))
    aim = KillAim(1.5, 0.2, 1.0)
    killed = 0
    for _ in range(6):
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        killed += aim.run(proc, rng.random())
        assert not list((lib / "snapshots").glob("*.jsonl.gz.partial")) or (lib / "snapshots").is_dir()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    papers = json.loads(reader_tui("list", "--json", "--db", str(lib), "--no-seed")[0])
    assert len(papers) == 40 and len({p["id"] for p in papers}) == 40
    assert all(p.get("scores", {}).get("reviews") == 3 for p in papers), papers[0]
    assert killed >= 2
    snapshots = list((lib / "snapshots").glob("*.jsonl.gz"))
    assert snapshots and not list((lib / "snapshots").glob("*.partial"))
