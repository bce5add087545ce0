"""The one lock (`core.library.locks`): exclusive across threads and processes,
re-entrant within a thread, and through filelock (no hand-written fcntl)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from reader_tui.core.library import files, indexing, locks


def test_no_hand_written_flock() -> None:
    for module in (files, indexing):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert "fcntl" not in source and "flock(" not in source


def test_reentrant_in_a_thread_exclusive_between_threads(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    order: list[str] = []
    inside = threading.Event()

    def other() -> None:
        inside.wait()
        with locks.exclusive(path):
            order.append("other")

    thread = threading.Thread(target=other)
    thread.start()
    with locks.exclusive(path), locks.exclusive(path):  # nested: no deadlock
        inside.set()
        thread.join(0.2)  # the other thread must still be waiting
        order.append("first")
    thread.join()
    assert order == ["first", "other"]


def test_another_process_waits(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    child = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from reader_tui.core.library.locks import exclusive\n"
        f"with exclusive(Path({str(path)!r})):\n"
        "    print('held', flush=True)\n"
        "    sys.stdin.readline()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", child], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        got = threading.Event()

        def take() -> None:
            with locks.exclusive(path):
                got.set()

        waiter = threading.Thread(target=take)
        waiter.start()
        assert not got.wait(0.3)  # the child holds it
        proc.stdin.write("\n")
        proc.stdin.flush()
        waiter.join(10)
        assert got.is_set()
    finally:
        proc.kill() if proc.poll() is None else None
        proc.wait()


def test_a_read_only_folder_gives_no_lock_and_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with locks.exclusive_if_possible(blocker / "sub" / "x.lock") as held:
        assert held is False
