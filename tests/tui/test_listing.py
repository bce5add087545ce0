"""The list's search before the search index is built: the substring fallback matches
titles as the index does (displayed, accents folded), not their LaTeX source."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.model import Paper
from reader_tui.core.search.index import SearchIndex
from reader_tui.tui.listing import compute_listing

from tui_support import make_library

PAPERS = [
    Paper(id="p-velez", title="Interviews with V{\\'e}lez on M{\\\"u}ller's {B}ayesian Log-Linear models",
          venue="ICLR", year=2026, citekey="velez2026", added="2025-11-01T00:00:00+00:00"),
    Paper(id="p-other", title="Graph Neural Networks for Molecules",
          venue="ICLR", year=2026, citekey="other2026", added="2025-11-01T00:00:01+00:00"),
]


@pytest.mark.parametrize("search", ["Velez", "Vélez", "velez", "Müller", "muller", "bayesian", "log-lin"])
def test_fallback_finds_what_the_index_finds(tmp_path: Path, search: str) -> None:
    library = make_library(tmp_path / "lib", PAPERS)
    try:
        before = compute_listing(library, search=search, index=None)
        index = SearchIndex.build(library.view(pid) for pid in library.papers)
        after = compute_listing(library, search=search, index=index)
        assert before.ids == after.ids == ["p-velez"]
    finally:
        library.close()
