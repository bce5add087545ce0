"""bench_for_you end to end on a small list of three areas whose dump carries reviews (a
smoke test: the figures are read by people on a quiet machine, never asserted here),
and its reading of the reviewers' summaries as the store reads them."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_for_you import load_summaries

REPO = Path(__file__).resolve().parents[2]
AREAS = {
    "optimization": "optimizer momentum gradient preconditioning learning rate schedule convergence",
    "graphs": "graph message passing nodes edges neighbourhood aggregation molecules",
    "vision": "image pixels segmentation detection convolution camera scenes",
}


def _dump(path: Path) -> None:
    """180 papers, 60 an area, each with one review whose summary names its area's words."""
    lines = []
    for a, (area, words) in enumerate(AREAS.items()):
        vocab = words.split()
        for i in range(60):
            mine = " ".join(vocab[(i + k) % len(vocab)] for k in range(4))
            pid = f"P{a}x{i:03d}"
            review = {"id": f"{pid}r", "invitations": [f"ICLR.cc/2026/Conference/Submission{i}/-/Official_Review"],
                      "content": {"summary": {"value": f"The paper studies {mine}."}, "rating": {"value": 6}}}
            lines.append({"id": pid, "content": {"title": {"value": f"On {mine} {i}"},
                                                 "abstract": {"value": f"We study {mine} with experiments."},
                                                 "primary_area": {"value": area}},
                          "replies": [review]})
    with gzip.open(path, "wt") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)


def test_the_summaries_are_read_from_the_dump_as_the_store_reads_them(tmp_path: Path) -> None:
    _dump(tmp_path / "dump.jsonl.gz")
    summaries = dict(load_summaries(str(tmp_path / "dump.jsonl.gz")))
    assert len(summaries) == 180
    assert summaries["P1x002"] == "The paper studies passing nodes edges neighbourhood."


def test_the_benchmark_runs_with_the_recipe_and_without_the_reviews_beside(tmp_path: Path) -> None:
    _dump(tmp_path / "dump.jsonl.gz")
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_for_you", "--data", str(tmp_path / "dump.jsonl.gz"),
         "--area", "graphs", "--json"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path)},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["reviewed"] == 180 and figures["episodes"] == 2
    assert set(figures["mean"]) >= {"recipe", "by_score", "for_you", "without_reviews", "clusters"}
    assert all(0 <= figures["mean"][name] <= 1 for name in ("recipe", "by_score", "for_you", "without_reviews"))
    assert figures["features_s"] > 0 and "features_mb" in figures
