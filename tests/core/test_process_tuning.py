"""core.process_tuning: the collector held off during bulk builds and during the TUI's
start; freed memory handed back where the C library allows it; numpy imported with its
OpenBLAS held to one thread; the one entry point the TUI's start calls."""

import gc
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from reader_tui.core import process_tuning as tuning


@pytest.fixture
def frozen(monkeypatch):
    """gc.freeze recorded, not done: a test process must not freeze its garbage (nor keep
    full collections deferred)."""
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(tuning, "_full_collections_deferred", False)
    thresholds = gc.get_threshold()
    yield calls
    gc.set_threshold(*thresholds)
    gc.enable()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_paused_start_collects_again_once_resumed_with_what_it_made_frozen(frozen):
    tuning.pause_for_start()
    assert not gc.isenabled()
    tuning.resume_after_start()
    assert gc.isenabled() and frozen == ["freeze"]
    tuning.resume_after_start()  # once only
    assert frozen == ["freeze"]


def test_after_the_start_full_collections_wait_for_a_pause_in_the_input(frozen, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(tuning, "time", clock)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(clock.now) or 0)
    tuning.pause_for_start()
    tuning.resume_after_start()
    assert gc.get_threshold()[2] >= 1_000_000  # the collector never starts one itself
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 3))  # younger collections moved objects up
    clock.now += 1.0
    assert not tuning.collect_fully_if_idle(last_input=clock.now - 0.1)  # typing: not now
    assert tuning.collect_fully_if_idle(last_input=clock.now - 0.5)  # a pause: now
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 0))
    clock.now += 5.0
    assert not tuning.collect_fully_if_idle(last_input=clock.now - 5.0)  # nothing new since
    clock.now += tuning.FULL_COLLECTION_AT_LEAST_EVERY
    assert tuning.collect_fully_if_idle(last_input=clock.now - 0.01)  # typing for long: anyway
    assert len(collected) == 2


def test_resuming_without_a_pause_changes_nothing(frozen):
    gc.disable()  # someone else's pause (a bulk build) is not ended by the main screen
    tuning.resume_after_start()
    assert not gc.isenabled() and frozen == []


def test_a_bulk_build_pause_restores_what_it_found():
    with tuning.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


# -- glibc's allocator ----------------------------------------


def test_release_free_memory_runs_everywhere():
    # never raises: returns whether there was anything to call
    assert tuning.release_free_memory() in (True, False)


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_release_free_memory_trims_with_glibc():
    assert tuning.release_free_memory() is True


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_one_arena_for_every_thread_with_glibc():
    # (a process-wide setting: harmless for the test process, whose threads allocate under the GIL)
    assert tuning.use_one_arena() is True


def test_the_tui_command_tunes_the_process_before_opening_the_library(monkeypatch, tmp_path):
    import importlib

    main = importlib.import_module("reader_tui.cli.main")  # the module (the package exports its function)

    calls = []
    monkeypatch.setattr(tuning, "use_one_arena", lambda: calls.append("arena"))
    monkeypatch.setattr(tuning, "pause_for_start", lambda: calls.append("pause"))
    monkeypatch.setattr(main, "open_library", lambda *a, **k: calls.append("open") or (_ for _ in ()).throw(SystemExit(0)))
    with pytest.raises(SystemExit):
        main.cmd_tui(object())
    assert calls == ["pause", "arena", "open"]


def test_bulk_allocations_keeps_freed_blocks_then_hands_them_back(monkeypatch):
    # during the block: blocks up to glibc's highest mmap threshold reused from the heap and
    # its top never trimmed; after it (even when the block raises): the trim threshold where
    # glibc's own adjustment ends, and what is free handed back
    calls = []
    monkeypatch.setattr(tuning, "_mallopt", lambda: lambda param, value: calls.append((param, value)) or 1)
    monkeypatch.setattr(tuning, "release_free_memory", lambda: calls.append("release") or True)
    with pytest.raises(KeyError), tuning.bulk_allocations():
        assert calls == [(tuning._M_MMAP_THRESHOLD, 32 << 20), (tuning._M_TRIM_THRESHOLD, tuning._NO_TRIM)]
        raise KeyError
    assert calls[2:] == [(tuning._M_TRIM_THRESHOLD, 64 << 20), "release"]
    assert tuning._NO_TRIM < 2**31  # mallopt takes a C int


def test_bulk_allocations_does_nothing_without_glibc(monkeypatch):
    calls = []
    monkeypatch.setattr(tuning, "_mallopt", lambda: None)
    monkeypatch.setattr(tuning, "release_free_memory", lambda: calls.append("release") or True)
    with tuning.bulk_allocations():
        calls.append("body")
    assert calls == ["body"]  # the body ran, and nothing was asked of a C library there is not


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_bulk_allocations_spares_the_page_faults_of_blocks_made_again(tmp_path):
    # in a fresh process (glibc's thresholds as they start): a 6 MB block made, written and
    # freed ten times, beside a 6 MB one freed at the heap's top each time, faults its
    # pages in once inside the block, again and again without it
    code = """
import resource, sys
from reader_tui.core.process_tuning import bulk_allocations
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


# -- OpenBLAS's threads ----------------------------------------

REPO = Path(__file__).resolve().parents[2]

BUILD = """
import json, os, sys
from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search import index
assert "numpy" not in sys.modules
index.BULK_MIN = 1  # a whole list's build: numpy
papers = [PaperView(Paper(id=f"p{i}", title=f"Paper {i}", abstract="large language models (LLMs) and more"),
                    Annotation()) for i in range(5)]
index.SearchIndex.build(papers)
assert "numpy" in sys.modules
threads = None
try:
    from threadpoolctl import threadpool_info
    threads = [i["num_threads"] for i in threadpool_info() if i.get("internal_api") == "openblas"]
except ImportError:
    pass
print(json.dumps({"env": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": threads}))
"""


def _run(env_value: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if env_value is not None:
        env["OPENBLAS_NUM_THREADS"] = env_value
    env["PYTHONPATH"] = str(REPO)
    result = subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_search_build_imports_numpy_with_one_blas_thread():
    found = _run(None)
    assert found["env"] == "1"
    if found["threads"]:  # (threadpoolctl, when installed, reads it from OpenBLAS itself)
        assert set(found["threads"]) == {1}


def test_a_users_own_setting_is_kept():
    assert _run("2")["env"] == "2"


def test_freezing_what_lives_long_is_gc_freeze(frozen):
    tuning.freeze_long_lived()
    assert frozen == ["freeze"]
