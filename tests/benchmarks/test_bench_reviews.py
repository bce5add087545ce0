"""The reviews benchmark runs end to end on a small file and reports every figure."""

from __future__ import annotations

from pathlib import Path

from benchmarks import bench_reviews

REVIEWS = Path(__file__).parents[1] / "fixtures" / "import_reviews"


def test_the_reviews_benchmark_measures_import_reads_query_and_sort(tmp_path: Path, capsys) -> None:
    figures = bench_reviews.run(None, REVIEWS / "snapshot1.jsonl", tmp_path / "db", samples=4, repeat=2)
    assert figures["papers"] == 4 and figures["import_s"] > 0 and figures["import_peak_mb"] > 0
    assert "reviews of 4 papers: 4 new" in figures["import_line"]
    assert figures["forum_notes_read"] == 5 + 2 + 4
    assert figures["hits_rating_ge_6"] == 1
    for name in ("forum_read_ms", "query_rating_ge_6_ms", "sort_rating_ms"):
        assert set(figures[name]) == {"p50", "p95", "max"}
