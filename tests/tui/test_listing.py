"""The list's search before the search index is built: the substring fallback matches
titles as the index does (displayed, accents folded), not their LaTeX source."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.model import Paper
from reader_tui.core.search.index import SearchIndex
from reader_tui.tui.listing import TITLES_ONLY, WAITING_FOR_INDEX, compute_listing
from tui_support import make_library

PAPERS = [
    Paper(id="p-velez", title="Interviews with V{\\'e}lez on M{\\\"u}ller's {B}ayesian Log-Linear models",
          venue="ICLR", year=2026, citekey="velez2026", added="2025-11-01T00:00:00+00:00"),
    Paper(id="p-other", title="Graph Neural Networks for Molecules",
          venue="ICLR", year=2026, citekey="other2026", added="2025-11-01T00:00:01+00:00"),
]


def both_find(tmp_path: Path, papers: list[Paper], search: str) -> list[str]:
    """What `search` lists before the search index is built (the fallback) — the same as
    what it lists with the index, or the test fails."""
    library = make_library(tmp_path / "lib", papers)
    try:
        before = compute_listing(library, search=search, index=None)
        index = SearchIndex.build(library.view(pid) for pid in library.papers)
        after = compute_listing(library, search=search, index=index)
        assert before.ids == after.ids
        return before.ids
    finally:
        library.close()


@pytest.mark.parametrize("search", ["Velez", "Vélez", "velez", "Müller", "muller", "bayesian", "log-lin"])
def test_fallback_finds_what_the_index_finds(tmp_path: Path, search: str) -> None:
    assert both_find(tmp_path, PAPERS, search) == ["p-velez"]


# The forms DBLP writes (nested braces, letter commands, \\i): the fallback reads them
# as the index does, so Goncalves finds Gon{\c{c}}alves before the index is built too.
@pytest.mark.parametrize(("source", "search"), [
    ("Gon{\\c{c}}alves", "Goncalves"), ("Ka{\\v{c}}er", "Kacer"), ('G{\\"{o}}del', "Godel"),
    ("{\\'{e}}cole", "ecole"), ('Ana\\"\\i s', "Anais"), ("Bj{\\o}rn", "Bjorn"), ("Stra{\\ss}e", "Strasse"),
    ("H\\aa kon", "Hakon"), ("{\\L}ukasz", "Lukasz"), ("Y{\\i}lmaz", "Yilmaz"), ("Erd\\H{o}s", "Erdos"),
    ("Gon{\\c{c}}alves", "Gonçalves"), ("Bj{\\o}rn", "Bjørn"),
])
def test_fallback_reads_every_accent_form(tmp_path: Path, source: str, search: str) -> None:
    papers = [Paper(id="p-form", title=f"A study by {source} of graphs", venue="ICLR", year=2026,
                    citekey="form2026", added="2025-11-01T00:00:00+00:00"), PAPERS[1]]
    assert both_find(tmp_path, papers, search) == ["p-form"]


@pytest.mark.parametrize("search", ["rating:>=8", "status:read", "tag:llm graphs", "graphs -molecules", 'graphs -"neural networks"'])
def test_before_the_index_a_query_titles_cannot_answer_waits_instead_of_listing_nothing(tmp_path: Path, search: str) -> None:
    library = make_library(tmp_path / "lib", PAPERS)
    try:
        before = compute_listing(library, search=search, index=None)
    finally:
        library.close()
    assert before.ids == [] and before.partial == WAITING_FOR_INDEX and not before.error


def test_before_the_index_words_search_titles_and_say_so(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib", PAPERS)
    try:
        before = compute_listing(library, search="graph", index=None)
        titles_only = SearchIndex.build([library.view(pid) for pid in library.papers], abstracts=False)
        titles_only.index_abstracts_on_search = False  # a child process indexes the abstracts
        meanwhile = compute_listing(library, search="graph", index=titles_only)
        fields_meanwhile = compute_listing(library, search="status:unread", index=titles_only)
        titles_only.index_abstracts()
        after = compute_listing(library, search="graph", index=titles_only)
        mistake = compute_listing(library, search="rating:>=lots", index=None)
    finally:
        library.close()
    assert before.ids == meanwhile.ids == after.ids == ["p-other"]
    assert before.partial == meanwhile.partial == TITLES_ONLY
    assert fields_meanwhile.partial == "" and len(fields_meanwhile.ids) == 2  # fields need no abstracts
    assert after.partial == ""
    assert mistake.error and mistake.partial == ""  # a query with a mistake says so at once
