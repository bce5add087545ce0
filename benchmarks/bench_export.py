"""Benchmark of the exporters: BibTeX (classic and UTF-8) and Markdown over a whole list.

`run_benchmark(views)` is what the main benchmark calls; `python -m benchmarks.bench_export
PATH` runs it on an OpenReview JSONL(.gz) dump (id, title, abstract, keywords, venue,
year, url per line) and prints the figures. The target: 20k papers in under 2 s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

from reader_tui.core.formats.bibtex import latex
from reader_tui.core.formats.bibtex import writer as bibtex
from reader_tui.core.formats.markdown import export_markdown
from reader_tui.core.model import PaperView

from .synthetic import load_views


def _timed(fn, *args, **kwargs) -> tuple[float, str]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def run_benchmark(views: Sequence[PaperView]) -> dict:
    """Time the exporters over `views`. The BibTeX figure is cold: the per-character
    LaTeX cache is emptied first, as in a fresh process.

    Returns papers, export_bibtex_s, export_bibtex_unicode_s, export_markdown_s, bibtex_mb.
    """
    latex._latex_char.cache_clear()
    bib_s, bib = _timed(bibtex.export_bibtex, views)
    uni_s, _ = _timed(bibtex.export_bibtex, views, unicode=True)
    md_s, _ = _timed(export_markdown, views)
    return {
        "papers": len(views),
        "export_bibtex_s": round(bib_s, 3),
        "export_bibtex_unicode_s": round(uni_s, 3),
        "export_markdown_s": round(md_s, 3),
        "bibtex_mb": round(len(bib.encode("utf-8")) / 1e6, 1),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m benchmarks.bench_export PAPERS.jsonl[.gz]", file=sys.stderr)
        return 2
    for key, value in run_benchmark(load_views(Path(args[0]))).items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
