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


def test_bulk_allocations_keeps_freed_blocks_then_hands_them_back(monkeypatch):
    # during the block: blocks up to glibc's highest mmap threshold reused from the heap and
    # its top never trimmed; after it (even when the block raises): the trim threshold where
    # glibc's own adjustment ends, and what is free handed back
    from reader_tui.core import memory

    calls = []
    monkeypatch.setattr(memory, "_mallopt", lambda: lambda param, value: calls.append((param, value)) or 1)
    monkeypatch.setattr(memory, "release_free_memory", lambda: calls.append("release") or True)
    with pytest.raises(KeyError), memory.bulk_allocations():
        assert calls == [(memory._M_MMAP_THRESHOLD, 32 << 20), (memory._M_TRIM_THRESHOLD, memory._NO_TRIM)]
        raise KeyError
    assert calls[2:] == [(memory._M_TRIM_THRESHOLD, 64 << 20), "release"]
    assert memory._NO_TRIM < 2**31  # mallopt takes a C int


def test_bulk_allocations_does_nothing_without_glibc(monkeypatch):
    from reader_tui.core import memory

    calls = []
    monkeypatch.setattr(memory, "_mallopt", lambda: None)
    monkeypatch.setattr(memory, "release_free_memory", lambda: calls.append("release") or True)
    with memory.bulk_allocations():
        calls.append("body")
    assert calls == ["body"]  # the body ran, and nothing was asked of a C library there is not


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_bulk_allocations_spares_the_page_faults_of_blocks_made_again(tmp_path):
    # in a fresh process (glibc's thresholds as they start): a 6 MB block made, written and
    # freed ten times, beside a 6 MB one freed at the heap's top each time, faults its
    # pages in once inside the block, again and again without it
    import subprocess

    code = """
import resource, sys
from reader_tui.core.memory import bulk_allocations
def rounds():
    for _ in range(10):
        a = bytearray(6 << 20)
        b = bytearray(6 << 20)
        del b, a
def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    rounds()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
if sys.argv[1] == "bulk":
    with bulk_allocations():
        print(faults())
else:
    print(faults())
"""
    found = {mode: int(subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True,
                                      check=True).stdout) for mode in ("bulk", "plain")}
    assert found["bulk"] * 3 < found["plain"], found
