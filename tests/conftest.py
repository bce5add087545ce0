"""Fixtures shared by every test: the repository's seed list, and a store that is always
temporary (a test never touches the user's real library)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# With PYTHONDONTWRITEBYTECODE set (this machine's environment sets it), nothing is cached:
# each xdist worker compiled and assertion-rewrote every test module and the package at
# collection (7.4 s CPU a worker, 2.8 s from cached bytecode), and each of the hundreds of
# interpreters the tests start (the CLI, git's merge driver, the layer checks) compiled
# what it imported again. The cache goes where Python puts it (__pycache__, ignored by
# git) and is checked against the source's mtime on every import, so it never runs stale code.
sys.dont_write_bytecode = False

#: A RAM disk for the tests' temporary folders when the machine has one with this much room.
MEMORY_DISK = Path("/dev/shm")
MEMORY_DISK_ROOM = 2 * 1024**3


def _temporary_folders_in_memory() -> None:
    """The tests make and delete some 21,000 files a run (tmp_path, git repositories, the
    CLI's stores). On the 2-core machine's ext4 disk each new file's inode was looked for
    past the ones just deleted, in the inode tables (the kernel's `recently_deleted`):
    6-13 s of kernel CPU a run, against nothing on a RAM disk. Nothing here tests the disk
    itself (full and read-only disks are staged; fsync is counted, not trusted), so the
    temporary folders go to /dev/shm where it is a writable folder with room; a folder the
    user chose (TMPDIR, or pytest's PYTEST_DEBUG_TEMPROOT) is kept. Set here, before the
    first temporary folder, it reaches the xdist workers and every process the tests start."""
    if os.environ.get("TMPDIR") or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    try:
        disk = os.statvfs(MEMORY_DISK)
    except OSError:
        return
    if disk.f_bavail * disk.f_frsize < MEMORY_DISK_ROOM or not os.access(MEMORY_DISK, os.W_OK):
        return
    os.environ["TMPDIR"] = os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_DISK)
    tempfile.tempdir = None  # read TMPDIR again


_temporary_folders_in_memory()

#: Where pytest's cache (.pytest_cache) keeps each test file's seconds, measured by the runs.
FILE_SECONDS = "reader_tui/file_seconds"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: half again as many workers as cores. A pilot test's main thread sleeps
    about a quarter of its time (Textual's idle checks, the app's timers, threads it waits
    on) and a test that runs git or the CLI waits on its children: with one worker per core
    that time was lost (3 min 00 s wall for 4.5 min of CPU on 2 cores)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook takes the number given there
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores * 3 // 2)


def pytest_configure(config: pytest.Config) -> None:
    # xdist's controller orders the files itself unless told not to (see `pytest_collection_modifyitems`)
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest test files first, by the seconds each took in the runs before (pytest's
    cache). `--dist loadfile` hands whole files to the workers in collection order as each
    gets free; xdist's own order (most tests first) put the one-test files that run a kill
    loop or real git for 12-29 s each last, so one worker ran them alone at the end. Started
    first, they overlap the short files instead. A file not measured yet (a new one, or no
    cache: a fresh checkout, `-p no:cacheprovider`) keeps xdist's order after the measured
    ones; a stale measure only costs balance, never a test."""
    cache = getattr(config, "cache", None)
    known = cache.get(FILE_SECONDS, {}) if cache is not None else {}
    files: dict[str, int] = {}
    for item in items:
        name = item.nodeid.split("::")[0]
        files[name] = files.get(name, 0) + 1

    def order(item: pytest.Item) -> tuple[int, float]:
        name = item.nodeid.split("::")[0]
        seconds = known.get(name)
        return (0, -seconds) if isinstance(seconds, (int, float)) else (1, -files[name])

    items.sort(key=order)  # stable: a file's tests keep their order


#: Seconds of each test file's tests in this run (on xdist's controller, every worker's).
_measured: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # On xdist's controller too: the workers' reports reach it through this hook.
    name = report.nodeid.split("::")[0]
    _measured[name] = _measured.get(name, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Keep each test file's seconds in a distributed run (the README's test command: its
    tests' setup, call and teardown, what one worker spends on it) for the next run's
    order: the mean of the last measure and this one, so one slow minute of a shared
    machine moves it only half way. A run on one process (a file or a test being worked
    on) measures nothing."""
    config = session.config
    cache = getattr(config, "cache", None)
    distributed = getattr(config.option, "dist", "no") != "no"
    if cache is None or hasattr(config, "workerinput") or not distributed or not _measured:
        return  # an xdist worker: the controller has every report
    root = config.rootpath
    known = cache.get(FILE_SECONDS, {})
    kept = {name: value for name, value in known.items() if isinstance(value, (int, float)) and (root / name).exists()}
    for name, seconds in _measured.items():
        old = kept.get(name)
        kept[name] = round(seconds if old is None else (old + seconds) / 2, 2)
    cache.set(FILE_SECONDS, dict(sorted(kept.items())))


@pytest.fixture
def seed_path() -> Path:
    return REPO / "seeds" / "iclr2026.txt"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # platformdirs resolves the default store under $HOME / XDG dirs: point them away from
    # the real ones so a test that forgets --db cannot touch the user's library.
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.delenv("READER_TUI_DB", raising=False)
    # Run from inside tmux, a copy would go to the developer's own paste buffer (and the
    # message would differ): the tests of that path set TMUX themselves.
    monkeypatch.delenv("TMUX", raising=False)
    # `reader-tui import` would leave an index-building process behind per test; the
    # tests of that background build turn it back on
    monkeypatch.setenv("READER_TUI_BACKGROUND_INDEX", "0")
    # git, run by the sync tests (and by git itself for the merge driver), reads no system
    # configuration and does no automatic housekeeping: `gc --auto` after every sync and
    # `maintenance run --auto` after every fetch were a quarter of the git processes of the
    # sync tests, and never what a test was about (test_sync_state.py tests the packing,
    # with these taken away). Given as command-line configuration, which a repository's
    # own settings do not override.
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for n, (key, value) in enumerate(QUIET_GIT):
        monkeypatch.setenv(f"GIT_CONFIG_KEY_{n}", key)
        monkeypatch.setenv(f"GIT_CONFIG_VALUE_{n}", value)
    monkeypatch.setenv("GIT_CONFIG_COUNT", str(len(QUIET_GIT)))


#: git configuration every test runs with (see `_isolated_home`)
QUIET_GIT = (("gc.auto", "0"), ("maintenance.auto", "false"))


def pytest_terminal_summary(terminalreporter) -> None:
    """The round-trip corpus's counts, one line a file and mode, after the run: each test
    records its line as a property, which pytest-xdist carries to this process."""
    lines = sorted(
        value
        for outcome in ("passed", "failed")
        for report in terminalreporter.stats.get(outcome, [])
        if report.when == "call"
        for name, value in report.user_properties
        if name == "corpus"
    )
    if lines:
        terminalreporter.section("BibTeX round-trip corpus")
        for line in lines:
            terminalreporter.write_line(line)
