"""core.memory: freed memory handed back after start-up, where the C library allows it."""

import platform
import sys

import pytest

from reader_tui.core.memory import release_free_memory, use_one_arena


def test_release_free_memory_runs_everywhere():
    # never raises: returns whether there was anything to call
    assert release_free_memory() in (True, False)


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_release_free_memory_trims_with_glibc():
    assert release_free_memory() is True


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_one_arena_for_every_thread_with_glibc():
    # (a process-wide setting: harmless for the test process, whose threads allocate under the GIL)
    assert use_one_arena() is True


def test_the_tui_command_asks_for_one_arena_before_opening_the_library(monkeypatch, tmp_path):
    import importlib

    main = importlib.import_module("reader_tui.cli.main")  # the module (the package exports its function)

    calls = []
    monkeypatch.setattr("reader_tui.core.memory.use_one_arena", lambda: calls.append("arena"))
    monkeypatch.setattr("reader_tui.core.gc_pause.pause_for_start", lambda: calls.append("pause"))
    monkeypatch.setattr(main, "open_library", lambda *a, **k: calls.append("open") or (_ for _ in ()).throw(SystemExit(0)))
    with pytest.raises(SystemExit):
        main.cmd_tui(object())
    assert calls == ["pause", "arena", "open"]
