"""The start-instructions benchmark: its probes are real starts that end at their first
paint (run here without valgrind), and callgrind's count is read from its report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks import bench_start_instructions as bench
from benchmarks.bench_terminal import tui_env


def run_probe(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=tui_env(), timeout=120)


def test_the_start_probe_reaches_the_lists_first_paint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    from reader_tui.core.library.library import Library
    from reader_tui.core.model import Paper

    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper number {n}", abstract="Words.") for n in range(3)])
    library.close()
    done = run_probe(["-c", bench.START_PROBE, str(tmp_path / "lib")])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "first paint"


def test_the_floor_probe_reaches_its_first_paint(tmp_path: Path) -> None:
    probe = tmp_path / "floor.py"
    probe.write_text(bench.FLOOR_PROBE, encoding="utf-8")
    done = run_probe([str(probe)])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "first paint"


def test_the_count_is_read_from_callgrinds_report(monkeypatch: pytest.MonkeyPatch) -> None:
    report = "==7== Events    : Ir\n==7== Collected : 1521834217\n==7==\n==7== I   refs:      1,521,834,217\n"
    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: SimpleNamespace(returncode=0, stderr=report))
    assert bench.count_instructions(["-c", "pass"]) == 1_521_834_217
    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: SimpleNamespace(returncode=1, stderr="valgrind: oops"))
    with pytest.raises(RuntimeError, match="valgrind: oops"):
        bench.count_instructions(["-c", "pass"])


def test_the_warm_up_run_leaves_the_counted_start_nothing_to_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    from reader_tui.core.library.library import Library
    from reader_tui.core.model import Paper

    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper number {n}", abstract="Words.") for n in range(3)])
    library.close()
    # the counted start, reporting how many CSS sources it parsed (not taken from the cache)
    counting = bench.START_PROBE.replace(
        "PaperList.render_line = first_paint",
        "from textual.css.stylesheet import Stylesheet\n"
        "parsed = []\n"
        "real_parse = Stylesheet._parse_rules\n"
        "Stylesheet._parse_rules = lambda self, *a, **k: (parsed.append(a[1]), real_parse(self, *a, **k))[1]\n"
        "PaperList.render_line = first_paint",
    ).replace('print("first paint", flush=True)', 'print("first paint", len(parsed), flush=True)')
    before = run_probe(["-c", counting, str(tmp_path / "lib")])
    assert before.returncode == 0, before.stderr
    assert int(before.stdout.split()[-1]) > 10  # no cache yet: every source parsed
    warm = run_probe(["-c", bench.WARM_PROBE, str(tmp_path / "lib")])
    assert warm.returncode == 0, warm.stderr
    after = run_probe(["-c", counting, str(tmp_path / "lib")])
    assert after.returncode == 0, after.stderr
    assert after.stdout.strip() == "first paint 0"
