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

#: The test files that take longest (seconds of one worker, measured on the 2-core machine),
#: longest first. `--dist loadfile` hands whole files to the workers in collection order as
#: each gets free; xdist's own order (most tests first) put the one-test files that run a
#: kill loop or real git for 12-29 s each last, so one worker ran them alone at the end.
#: Started first, they overlap the short files instead. A file not named here keeps xdist's
#: order after them; a wrong or stale entry only costs balance, never a test.
LONGEST_FIRST = (  # seconds of one worker in a full run on 3 workers; "~": estimated
    "core/sync/test_sync_converges.py",  # 23 s, one test
    "tui/test_notes_saving.py",  # 20 s
    "tui/test_sync_tui.py",  # 19 s
    "tui/test_main_screen.py",  # 17 s
    "tui/test_dialogs.py",  # 16 s
    "cli/test_sync_cli.py",  # 16 s
    "benchmarks/test_bench.py",  # 15 s
    "tui/test_reviews_view_layout.py",  # 14 s
    "cli/test_sync_kill.py",  # 14 s, one test
    "core/search/test_word_pairs.py",  # ~13 s
    "tui/test_for_you_tui.py",  # 13 s
    "core/library/test_reviews_kill_loop.py",  # 12 s, one test
    "tui/test_reviews_tui.py",  # 12 s
    "tui/test_navigation.py",  # 12 s
    "core/library/test_crash_kill_loop.py",  # 11 s, one test
    "tui/test_more_like_tag_tui.py",  # 11 s
)


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
    # xdist's controller orders the files itself unless told not to (see LONGEST_FIRST)
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    files: dict[Path, int] = {}
    for item in items:
        files[item.path] = files.get(item.path, 0) + 1

    def order(item: pytest.Item) -> tuple[int, int]:
        name = item.path.relative_to(tests).as_posix() if item.path.is_relative_to(tests) else ""
        return rank.get(name, len(rank)), -files[item.path]

    items.sort(key=order)  # stable: a file's tests keep their order


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
