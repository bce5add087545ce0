"""The benchmark runs end to end on a small synthetic list (a smoke test: the figures
themselves are checked by people on a quiet machine, never asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench", "--papers", "120", "--runs", "1", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path)},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["papers"] == 120
    expected = {
        "import_cli_s", "import_tui_s", "import_new_s", "import_duplicates_s", "write_p50_ms",
        "write_p95_ms", "index_build_s", "index_build_cpu_s", "query_p50_ms", "query_p95_ms", "query_max_ms",
        "related_build_s", "related_p50_ms", "export_bibtex_s", "first_paint_s", "tui_peak_rss_mb",
        "search_ready_s", "index_prepare_s", "prepared_first_paint_s", "prepared_search_ready_s",
        "prepared_tui_peak_rss_mb", "held_scroll_ms", "held_in_page_ms",
    }
    assert expected <= figures.keys()
    assert all(figures[key] > 0 for key in expected)
    # what a user sees, from a terminal: one launch here, so median and range are that run
    launched = {"terminal_list_s", "terminal_first_key_s", "terminal_idle_s", "terminal_peak_rss_mb"}
    assert launched <= figures.keys()
    assert all(figures[key]["min"] == figures[key]["median"] > 0 for key in launched)
    # The floor row: a bare Textual app drawn and answering `j` in the same terminal, and
    # a bare interpreter that starts and exits sooner than that app shows its rows.
    assert figures["floor_first_key_s"]["median"] > 0  # its cursor row moved on j
    assert figures["floor_peak_rss_mb"]["median"] > 10  # Textual itself is in that process
    assert 0 < figures["floor_interpreter_s"]["median"] < figures["floor_list_s"]["median"]


def test_synthetic_lists_grow_to_the_size_asked(tmp_path: Path) -> None:
    from benchmarks.synthetic import generate

    papers = generate(500)
    assert len(papers) == 500
    assert len({p.id for p in papers}) == 500
    assert all(p.title and p.abstract for p in papers)


def test_lists_with_scores_grow_with_scores_and_others_as_before() -> None:
    from benchmarks.synthetic import grow
    from reader_tui.core.model import Paper, Scores

    plain = [Paper(id=f"p{n}", title=f"Paper {n}", abstract="One sentence. Another one here.") for n in range(3)]
    reviewed = [replace(p, tldr="Short.", area="optimization", scores=Scores(ratings=(4, 6), confidences=(3, 4)))
                for p in plain]
    grown = grow(reviewed, 50)
    assert all(p.scores == Scores(ratings=(4, 6), confidences=(3, 4)) and p.area == "optimization" for p in grown)
    # a list without reviews grows into the same papers as before the scores were drawn
    before = [(p.id, p.title, p.abstract) for p in grow(plain, 50)]
    assert [(p.id, p.title, p.abstract) for p in grown] == before
    assert all(p.scores is None and not p.tldr for p in grow(plain, 50))
