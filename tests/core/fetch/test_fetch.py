"""`core.fetch` against a local server that answers like OpenReview's API v2
(`tests.openreview_server`), through the real client (openreview-py): pages, the
snapshot and its resume state, 429, 403, a dropped connection, offline; then what
moved between two snapshots imported into a library."""

from __future__ import annotations

import gzip
import socket
from datetime import UTC, datetime

import orjson
import pytest

from reader_tui.core.fetch import changes
from reader_tui.core.fetch.client import (
    ConnectionLost,
    LoginNeeded,
    Offline,
    OpenReviewApi,
    RateLimited,
    reset_time,
    user_agent,
)
from reader_tui.core.fetch.pdfs import PDF_LIMIT, fetch_pdfs
from reader_tui.core.fetch.snapshot import fetch, finish, read_state
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from tests.openreview_server import TOKEN, VENUE, FakeOpenReview, make_venue


@pytest.fixture
def server():
    with FakeOpenReview(make_venue(30)) as fake:
        fake.max_limit = 10
        yield fake


def _fetch(folder, server, env=None, **kw):
    api = OpenReviewApi(server.url, env=env or {})
    return fetch(folder, VENUE, api=api, pause=0, **kw), api


def test_pages_are_asked_for_politely_and_written_as_the_importer_reads_them(tmp_path, server):
    snapshot, api = _fetch(tmp_path, server)
    asked = server.notes_requests()
    assert len(asked) == api.requests == 3  # 30 papers, 10 a page: no empty page asked for
    first, *rest = (r["query"] for r in asked)
    assert first["invitation"] == f"{VENUE}/-/Submission" and first["details"] == "directReplies"
    assert first["count"] == "true" and "after" not in first and first["sort"] == "id"
    assert [r["after"] for r in rest] == sorted(r["after"] for r in rest)
    assert all(r["headers"]["user-agent"] == user_agent() for r in asked)
    assert user_agent().startswith("reader-tui/")
    assert snapshot.papers == 30 and snapshot.pages == 3 and snapshot.path.name.endswith(".jsonl.gz")
    assert snapshot.path.parent == tmp_path / "snapshots"
    read = read_openreview(snapshot.path)
    assert len(read.papers) == 30 and len(read.forums) == 30
    assert read.papers[0].scores is not None and read.papers[0].scores.reviews == 3


def test_a_dropped_connection_keeps_the_pages_and_the_next_run_resumes(tmp_path, server):
    server.faults = ["", "drop"]
    with pytest.raises(ConnectionLost, match="dropped"):
        _fetch(tmp_path, server)
    state = read_state(tmp_path, VENUE)
    assert state["pages"] == 1 and state["papers"] == 10 and not state["complete"]
    # a page half written by a kill after the state was saved is cut off on resume
    partial = tmp_path / "snapshots" / (state["file"] + ".partial")
    with partial.open("ab") as stream:
        stream.write(b"\x1f\x8b half a page")
    before = len(server.notes_requests())
    snapshot, api = _fetch(tmp_path, server)
    assert api.requests == 2 and len(server.notes_requests()) == before + 2
    assert server.notes_requests()[-2]["query"]["after"] == state["after"]
    ids = [orjson.loads(line)["id"] for line in gzip.decompress(snapshot.path.read_bytes()).splitlines()]
    assert ids == sorted(n["id"] for n in server.notes) and snapshot.resumed
    finish(tmp_path, VENUE)
    assert read_state(tmp_path, VENUE) is None


def test_a_429_is_read_once_never_retried_and_says_when_it_resumes(tmp_path, server):
    server.faults = ["", "429"]
    with pytest.raises(RateLimited) as caught:
        _fetch(tmp_path, server)
    assert len(server.notes_requests()) == 2  # no retry, no loop
    wait = (caught.value.resume_at - datetime.now(UTC)).total_seconds()
    assert 29 * 60 < wait <= 31 * 60
    assert "surpassing the limit" in str(caught.value)
    assert read_state(tmp_path, VENUE)["pages"] == 1


def test_reset_time_from_the_body_the_header_or_the_message():
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert reset_time({"details": {"resetTime": "2026-01-01T00:30:00Z"}}) == datetime(2026, 1, 1, 0, 30, tzinfo=UTC)
    assert reset_time({"details": {"resetTime": 1767227400000}}) == datetime(2026, 1, 1, 0, 30, tzinfo=UTC)
    assert reset_time({}, "60", now=now) == datetime(2026, 1, 1, 0, 1, tzinfo=UTC)
    message = {"message": "Please try again in 30 minutes and 8 seconds (2026-08-05-13683655)"}
    assert reset_time(message, now=now) == datetime(2026, 1, 1, 0, 30, 8, tzinfo=UTC)
    assert reset_time({"message": "slow down"}) is None


def test_a_login_is_asked_for_and_taken_from_the_environment_only(tmp_path, server):
    server.login_required = True
    with pytest.raises(LoginNeeded, match="logged in"):
        _fetch(tmp_path, server)
    snapshot, _ = _fetch(tmp_path, server, env={"OPENREVIEW_TOKEN": TOKEN})
    assert snapshot.papers == 30
    assert server.notes_requests()[-1]["headers"]["authorization"] == f"Bearer {TOKEN}"
    server.log.clear()
    _fetch(tmp_path / "other", server, env={"OPENREVIEW_USERNAME": "me@x.org", "OPENREVIEW_PASSWORD": "secret"})
    assert server.log[0]["path"] == "/login" and len(server.notes_requests()) == 3
    for written in (tmp_path / "snapshots").iterdir():
        assert TOKEN.encode() not in written.read_bytes() and b"secret" not in written.read_bytes()


def test_offline_is_one_line(tmp_path):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    api = OpenReviewApi(f"http://127.0.0.1:{port}", env={})
    with pytest.raises(Offline) as caught:
        fetch(tmp_path, VENUE, api=api, pause=0)
    assert str(caught.value).startswith("offline: cannot reach") and "\n" not in str(caught.value)


def test_a_wrong_venue_says_so(tmp_path, server):
    api = OpenReviewApi(server.url, env={})
    with pytest.raises(Exception, match="no submissions under the invitation Nope/-/Submission"):
        fetch(tmp_path, "Nope", api=api, pause=0)


def test_pauses_between_pages(tmp_path, server):
    slept = []
    _fetch(tmp_path, server, sleep=slept.append)
    assert slept == [0, 0]  # between the 3 pages, never before the first


def test_second_fetch_says_what_moved(tmp_path, server):
    library = Library.open(tmp_path / "lib", seed=None)
    first, _ = _fetch(library.files.folder, server)
    library.import_papers(*_read(first.path))
    finish(library.files.folder, VENUE)
    server.notes = make_venue(30, day=1)
    before = changes.seen(library.papers)
    second, _ = _fetch(library.files.folder, server)
    assert second.path != first.path
    summary = library.import_papers(*_read(second.path))
    assert summary.reviews.moved == 7
    moves = changes.compare(before, changes.seen(library.papers), library.papers)
    assert len(moves.moved) == 7 and moves.withdrawn == [server.notes[2]["id"]] and len(moves.decided) == 6
    assert moves.summary() == "what moved: 7 papers' mean rating moved, 1 withdrawn, 6 got decisions"
    assert moves.lines()[0].startswith("rating ") and " since 2025-11-12: Paper " in moves.lines()[0]
    from reader_tui.core.search.index import SearchIndex

    index = SearchIndex.build(library.views(list(library.papers)))
    moved_ids = {pid for pid, *_ in moves.moved}
    assert {hit.id for hit in index.search("is:moved")} == moved_ids
    assert {hit.id for hit in index.search("moved:>=1")} == {p for p, _, a, b, _ in moves.moved if b - a >= 1}
    assert not {hit.id for hit in index.search("moved:<0")}


def _read(path):
    result = read_openreview(path)
    return result.papers, result.annotations, result.forums


def test_pdfs_a_few_only(tmp_path, server):
    api = OpenReviewApi(server.url, env={})
    said = []
    paths = fetch_pdfs(tmp_path, ["abc", "def"], api=api, pause=0, say=said.append)
    assert [p.name for p in paths] == ["abc.pdf", "def.pdf"] and paths[0].read_bytes().startswith(b"%PDF")
    assert [r["query"]["id"] for r in server.log if r["path"] == "/pdf"] == ["abc", "def"]
    with pytest.raises(ValueError, match=f"at most {PDF_LIMIT}"):
        fetch_pdfs(tmp_path, [f"x{i}" for i in range(PDF_LIMIT + 1)], api=api)
    with pytest.raises(ValueError, match="not an OpenReview id"):
        fetch_pdfs(tmp_path, ["../etc"], api=api)
