"""Issue 17 in the TUI: "Sync now" (ctrl+s, the palette) runs the CLI's sync in a thread,
says in one line what came in, and the list shows it; the detail pane lists a reading
group's other members' marks; the status line says when the library last synced.
Real git, no network: a bare repository in the test's folder."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.model import Annotation, Status
from reader_tui.core.text.display import one_line
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.status_bar import StatusBar
from tui_support import PAPERS, make_library, screen_text, settle, settle_workers, wait_until

REPO = Path(__file__).resolve().parents[2]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # the merge driver runs `python -m reader_tui`: this checkout's; no user git config
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")


@pytest.fixture(autouse=True)
def _quick_looks_at_the_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other processes' writes (the members' files, a sync from the command line) are seen
    at the app's next look at the disk: every 1.5 s and 2 s, waited out by half these tests.
    Here the app looks every 50 ms, so each waits only for what it waits on."""
    from reader_tui.tui.widgets import library_sync, library_watcher

    monkeypatch.setattr(library_watcher, "RELOAD_EVERY", 0.05)
    monkeypatch.setattr(library_sync, "CHECK_EVERY", 0.05)


def _two_clones(tmp_path: Path) -> tuple[Path, Path]:
    remote, a, b = tmp_path / "remote.git", tmp_path / "a", tmp_path / "b"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    make_library(a).close()
    sync.init(a, str(remote))
    sync.sync(a)
    sync.init(b, str(remote))
    return a, b


def _message(app) -> str:
    return app.screen.query_one(StatusBar)._message


@needs_git
async def test_sync_now_brings_the_other_machines_changes_into_the_list(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        other = Library.open(a)
        other.set_status([PAPERS[1].id], Status.READ)
        other.set_tags(PAPERS[1].id, ["from-laptop"])
        assert "from-laptop" not in screen_text(app)  # nothing came in yet
        assert "synced" not in str(app.screen.query_one("#status-synced").render())  # a clone, never synced
        sync.sync(a)
        await pilot.press("ctrl+s")
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        assert _message(app) == "synced: received: 1 status change, 1 tag change"
        assert await wait_until(pilot, lambda: library.annotation(PAPERS[1].id).status is Status.READ)
        await settle_workers(pilot)
        assert "from-laptop" in screen_text(app)
        synced = app.screen.query_one("#status-synced").render()
        assert str(synced).strip().startswith("synced ") and "synced" in screen_text(app)
        # a change made here goes out at the next sync, and the line says so
        app.screen.query_one(PaperList).move_to(0)
        await pilot.press("4")
        await pilot.press("ctrl+s")
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        assert _message(app) == "synced: nothing new from the remote · sent: 1 status change"
        assert Library.open(a).annotation(PAPERS[0].id).status is Status.UNREAD  # not pulled there yet
        sync.sync(a)
        assert Library.open(a).annotation(PAPERS[0].id).status is Status.READ
    library.close()


@needs_git
async def test_sync_now_offline_says_changes_are_kept(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    sync.sync(b)  # reached once: the status line keeps that time through the offline sync
    shutil.rmtree(tmp_path / "remote.git")
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await pilot.press("ctrl+s")
        assert await wait_until(pilot, lambda: _message(app).startswith("offline"), 20), _message(app)
        assert _message(app).startswith("offline: changes kept, the next sync sends them (")
        status = app.screen.query_one("#status-synced")
        assert await wait_until(pilot, lambda: "1 commit to send" in str(status.render()))
        assert str(status.render()).strip().startswith("synced ")  # the first sync's
    library.close()


async def test_sync_now_in_a_library_that_is_not_a_repository_says_how_to_start(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+s")
        assert await wait_until(pilot, lambda: _message(app) not in ("", "syncing…"), 20), _message(app)
        if shutil.which("git") is None:
            assert "git is not on the PATH" in _message(app)
        else:
            assert _message(app).endswith("is not a repository yet: start with `reader-tui sync init REMOTE`")
        # the sync is over: its "syncing…" does not come back with the next list (it did,
        # after a search, long after the sync had said how it went: found by hand)
        await pilot.press("slash", *"graph", "enter")
        await settle(app, pilot)
        assert "search: graph" in str(app.screen.query_one("#status-text").render())
        assert "syncing" not in _message(app)


def _write_member(folder: Path, name: str, marks: dict[str, Annotation]) -> None:
    docs = {str(n): {"paper_id": pid, **ann.to_dict()} for n, (pid, ann) in enumerate(marks.items(), 1)}
    (folder / "members").mkdir(exist_ok=True)
    (folder / "members" / f"{name}.json").write_text(json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs}), encoding="utf-8")


async def test_detail_pane_lists_the_other_members_marks_as_data(library: Library) -> None:
    folder = library.files.folder
    first = PAPERS[0].id
    _write_member(folder, "bob", {first: Annotation(status=Status.TO_READ, tags=("must-read",), notes="[bold]x[/] one\ntwo")})
    _write_member(folder, "[red]carol", {first: Annotation(status=Status.READ), PAPERS[1].id: Annotation(tags=("gnn",))})
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        detail = app.screen.query_one(PaperDetail)
        assert await wait_until(pilot, lambda: detail.group is not None)
        await settle(app, pilot)
        lines = [line.replace("\u00a0", " ") for line in detail.text.splitlines()]
        group = [line for line in lines if line.startswith("group") or ": " in line and line.startswith("         ")]
        assert group == [
            f"group    [red]carol: {Status.READ.mark} read",
            f"         bob: {Status.TO_READ.mark} to-read · tags must-read · notes [bold]x[/] one two",
        ]  # members in name order ("[" sorts before "b")
        assert "[red]carol: " in screen_text(app)  # drawn as typed, not read as markup
        await pilot.press("j")
        await settle(app, pilot)
        assert "[red]carol: tags gnn" in detail.text.replace("\u00a0", " ")
        assert "bob:" not in detail.text


async def test_palette_offers_sync_now_with_its_key(library: Library) -> None:
    from reader_tui.tui.commands import ReaderCommands

    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        helps = {text: help_text for text, help_text, _ in ReaderCommands(app.screen)._commands()}
        assert helps["Sync now (git)"] == "Anywhere · key ^s"


@needs_git
async def test_a_sync_from_the_command_line_updates_the_group_lines(tmp_path: Path) -> None:
    remote, a, b = tmp_path / "remote.git", tmp_path / "a", tmp_path / "b"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    make_library(a).close()
    sync.init(a, str(remote), member="alice")
    sync.sync(a)
    sync.init(b, str(remote), member="bob")
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        detail = app.screen.query_one(PaperDetail)
        assert "alice" not in detail.text
        alice = Library.open(a)
        alice.set_status([PAPERS[0].id], Status.TO_READ)
        alice.set_tags(PAPERS[0].id, ["must-read"])
        sync.sync(a)
        sync.sync(b)  # another process: the TUI's disk poll reads what it merged
        assert await wait_until(pilot, lambda: "alice:" in detail.text, 20), detail.text
        assert f"alice: {Status.TO_READ.mark} to-read · tags must-read" in detail.text
    library.close()


@needs_git
async def test_notes_being_typed_go_out_with_the_sync(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await pilot.press(*"typed")
        await pilot.press("ctrl+s")  # before the notes editor's own save
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        assert _message(app) == "synced: nothing new from the remote · sent: 1 note"
    library.close()
    sync.sync(a)
    assert Library.open(a).annotation(PAPERS[0].id).notes == "typed"


def _row(app, paper_id: str) -> str:
    papers = app.screen.query_one(PaperList)
    return papers._row_strip(papers.ids.index(paper_id), papers.size.width - 1, -1, False).text


@pytest.mark.parametrize("width", [80, 140])
async def test_list_rows_show_what_the_other_members_did(library: Library, width: int) -> None:
    folder = library.files.folder
    first, second, third = PAPERS[0].id, PAPERS[1].id, PAPERS[2].id
    app = create_app(library)
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(app, pilot)
        alone = _row(app, first)
        assert alone[4:].startswith("Attention")  # no group: no column
        _write_member(folder, "bob", {first: Annotation(status=Status.TO_READ), second: Annotation(status=Status.READ)})
        _write_member(folder, "carol", {first: Annotation(status=Status.TO_READ), second: Annotation(tags=("gnn",)),
                                        third: Annotation(status=Status.READING)})
        _write_member(folder, "dan", {first: Annotation(status=Status.READ)})
        papers = app.screen.query_one(PaperList)
        assert await wait_until(pilot, lambda: papers.group is not None, 10)  # the members' files are looked at
        await settle(app, pilot)
        to_read, reading, read = Status.TO_READ.mark, Status.READING.mark, Status.READ.mark
        assert _row(app, first)[4:].startswith(f"2{to_read}1{read}   Attention")  # 2 want to read it, 1 read it
        assert _row(app, second)[4:].startswith(f"1{read}     Graph")  # carol only tagged it
        assert _row(app, third)[4:].startswith(f"1{reading}     [bold red]")
        assert _row(app, PAPERS[4].id)[4:].startswith("       Reinforcement")  # nobody touched it
        assert f"2{to_read}1{read}   Attention" in screen_text(app)


# -- sync on start and on quit (`reader-tui sync auto on`) ------------------------------------


def _auto(folder: Path) -> None:
    from reader_tui.core.library.sync.state import AUTO_SYNC

    library = Library.open(folder)
    library.set_setting(AUTO_SYNC, True)
    library.close()


def _hanging_remote(folder: Path) -> None:
    """The remote becomes one that never answers (as a server that does not)."""
    subprocess.run(["git", "-C", str(folder), "config", "protocol.ext.allow", "always"], check=True)
    subprocess.run(["git", "-C", str(folder), "remote", "set-url", "origin", "ext::sh -c sleep% 600"], check=True)


@needs_git
async def test_sync_on_start_brings_in_what_came_meanwhile_after_the_first_paint(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    _auto(b)
    other = Library.open(a)
    other.set_status([PAPERS[1].id], Status.READ)
    sync.sync(a)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        assert library.annotation(PAPERS[1].id).status is Status.UNREAD  # the list came first
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        assert _message(app) == "synced: received: 1 status change · sent: 1 setting"  # sync auto on
        assert await wait_until(pilot, lambda: library.annotation(PAPERS[1].id).status is Status.READ)
    library.close()


@needs_git
async def test_sync_on_start_offline_says_so(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    _auto(b)
    shutil.rmtree(tmp_path / "remote.git")
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        assert await wait_until(pilot, lambda: _message(app).startswith("offline"), 20), _message(app)
        assert _message(app).startswith("offline: changes kept, the next sync sends them (")
    library.close()


async def test_no_sync_on_start_unless_asked(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib")
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert _message(app) == ""
        await pilot.press("q")
    assert app.return_code == 0 and app.farewell == []
    library.close()


@needs_git
async def test_quit_syncs_first_and_says_how_it_went(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _two_clones(tmp_path)
    sync.sync(b)
    _auto(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        # The quit's sync waits until the test has looked: a quick one (a local remote, an
        # idle machine) could end, and the app with it, before `press` came back.
        looked, real_sync = threading.Event(), sync.sync

        def sync_once_looked(*args, **kwargs):
            assert looked.wait(30), "the test never looked"
            return real_sync(*args, **kwargs)

        monkeypatch.setattr(sync, "sync", sync_once_looked)
        await pilot.press("4")  # the first paper: read
        await pilot.press("q")
        assert app.is_running  # syncing first, and saying so
        assert _message(app).startswith("syncing before quitting")
        assert any(n.message.startswith("syncing before quitting") for n in app._notifications)
        looked.set()
        assert await wait_until(pilot, lambda: not app.is_running, 20)
    # the status (where the cursor was is sent too, but is this machine's view, not news)
    assert app.farewell == ["reader-tui: synced: nothing new from the remote · sent: 1 status change"]
    library.close()
    sync.sync(a)
    assert Library.open(a).annotation(PAPERS[0].id).status is Status.READ


def _head_message(folder: Path) -> str:
    return subprocess.run(["git", "-C", str(folder), "log", "-1", "--format=%s"], capture_output=True, text=True).stdout.strip()


@needs_git
async def test_quit_with_a_remote_that_never_answers_quits_after_the_timeout(tmp_path: Path, monkeypatch) -> None:
    from reader_tui.tui.widgets import library_sync

    monkeypatch.setattr(library_sync, "QUIT_TIMEOUT", 1.0)
    _, b = _two_clones(tmp_path)
    _hanging_remote(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        library.set_setting("sync_auto", True)  # after the start: no sync on start here
        await pilot.press("4")
        await pilot.press("q")
        assert app.is_running
        assert await wait_until(pilot, lambda: not app.is_running, 15)
    assert len(app.farewell) == 1
    assert app.farewell[0].startswith("reader-tui: offline: changes kept, the next sync sends them (")
    assert "no answer in time" in app.farewell[0]
    library.close()
    assert _head_message(b) == "1 status change, 1 setting"  # committed here, nothing lost (the view is not news)


@needs_git
async def test_q_again_stops_the_sync_before_quitting(tmp_path: Path) -> None:
    _, b = _two_clones(tmp_path)
    _hanging_remote(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        library.set_setting("sync_auto", True)
        await pilot.press("4")
        await pilot.press("q")
        await pilot.pause(0.3)
        assert app.is_running  # the remote does not answer: still trying (for 10 s)
        await pilot.press("q")
        assert await wait_until(pilot, lambda: not app.is_running, 5)
    assert app.farewell and "(stopped)" in app.farewell[0], app.farewell
    library.close()
    assert _head_message(b) == "1 status change, 1 setting"


QUIT_SCRIPT = """
import functools, sys
from pathlib import Path
from reader_tui.core.library.library import Library
from reader_tui.tui.app import ReaderApp, run_app
from reader_tui.tui.widgets.library_sync import LibrarySync

synced = []
on_finished = LibrarySync.on_library_sync_finished
LibrarySync.on_library_sync_finished = lambda self, message: (synced.append(message), on_finished(self, message))[1]

async def read_and_quit(pilot):
    # the sync on start done first (not a fixed pause: a busy machine takes longer), so
    # that the status change is the sync before quitting's to send
    while not synced:
        await pilot.pause(0.05)
    await pilot.press("4", "q")

ReaderApp.run = functools.partialmethod(ReaderApp.run, headless=True, auto_pilot=read_and_quit)
sys.exit(run_app(Library.open(Path(sys.argv[1]), background_writes=True)))
"""


@needs_git
def test_run_app_prints_how_the_sync_before_quitting_went(tmp_path: Path) -> None:
    import os
    import sys

    _, b = _two_clones(tmp_path)
    _auto(b)
    env = {**os.environ, "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(tmp_path / "cache"),
           "READER_TUI_BACKGROUND_INDEX": "0", "GIT_CONFIG_GLOBAL": "/dev/null"}
    done = subprocess.run([sys.executable, "-c", QUIT_SCRIPT, str(b)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1].startswith("reader-tui: synced: ")
    assert "1 status change" in done.stderr.splitlines()[-1]


@needs_git
async def test_status_line_counts_the_changes_waiting_for_the_next_sync(tmp_path: Path, monkeypatch) -> None:
    from reader_tui.tui.widgets import library_sync

    monkeypatch.setattr(library_sync, "WAITING_DELAY", 0.05)
    _, b = _two_clones(tmp_path)
    sync.sync(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        status = app.screen.query_one("#status-synced")
        assert "waiting" not in str(status.render())
        await pilot.press("4", "j", "2")
        assert await wait_until(pilot, lambda: "· 2 changes waiting" in str(status.render()), 10), status.render()
        assert await wait_until(pilot, lambda: "2 changes waiting" in screen_text(app))  # drawn
        await pilot.press("ctrl+s")
        assert await wait_until(pilot, lambda: _message(app).startswith("synced"), 20), _message(app)
        assert await wait_until(pilot, lambda: "waiting" not in str(status.render()), 10), status.render()
    library.close()


@needs_git
async def test_quit_during_a_sync_on_start_that_hangs_keeps_to_the_quit_timeout(tmp_path: Path, monkeypatch) -> None:
    from reader_tui.tui.widgets import library_sync

    monkeypatch.setattr(library_sync, "QUIT_TIMEOUT", 1.0)  # the sync on start may take 60 s
    _, b = _two_clones(tmp_path)
    _hanging_remote(b)
    _auto(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40)) as pilot:
        assert await wait_until(pilot, lambda: _message(app).startswith("syncing (on start)"), 10), _message(app)
        await pilot.press("q")
        started = asyncio.get_running_loop().time()
        assert await wait_until(pilot, lambda: not app.is_running, 15)
        assert asyncio.get_running_loop().time() - started < 8  # not the start sync's 60 s
    assert app.farewell and app.farewell[0].startswith("reader-tui: offline: changes kept"), app.farewell
    library.close()


@needs_git
async def test_the_palette_lists_the_changes_waiting_by_paper(tmp_path: Path, monkeypatch) -> None:
    from reader_tui.tui.widgets import library_sync

    monkeypatch.setattr(library_sync, "WAITING_DELAY", 0.05)
    _, b = _two_clones(tmp_path)
    sync.sync(b)
    library = Library.open(b, background_writes=True)
    app = create_app(library)
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("4", "j", "2")
        status = app.screen.query_one("#status-synced")
        assert await wait_until(pilot, lambda: "2 changes waiting" in str(status.render()), 10), status.render()
        await pilot.press("ctrl+p", *"Changes waiting")
        await settle(app, pilot)
        await pilot.press("enter")
        assert await wait_until(pilot, lambda: any("waiting for the next sync" in n.title for n in app._notifications), 10)
        told = next(n for n in app._notifications if "waiting for the next sync" in n.title)
        assert told.title.startswith("2 changes waiting")
        # which papers, by their titles as the list shows them
        assert sorted(told.message.splitlines()) == sorted(f"status change: {one_line(p.title)}" for p in PAPERS[:2])
    library.close()
