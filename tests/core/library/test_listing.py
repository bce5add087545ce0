"""The listing policy (`core.library.listing.compute_listing`, the TUI's list and the
CLI's selection): filter, search and sort together, and the list's search before the
search index is built, whose substring fallback matches titles as the index does
(displayed, accents folded), not their LaTeX source."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.library.listing import TITLES_ONLY, WAITING_FOR_INDEX, compute_listing
from reader_tui.core.model import Paper, Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.sorting import SortKey


def make_library(folder: Path, papers: list[Paper]) -> Library:
    library = Library.open(folder, background_writes=True)
    library.import_papers(papers)
    return library


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


def test_before_the_index_titles_matches_keep_the_catalog_order(tmp_path: Path) -> None:
    # (they are read from the end, away from the index's loader, and listed in order)
    papers = [Paper(id=f"g{n}", title=f"Graph study {n}", venue="ICLR", year=2026, citekey=f"g{n}",
                    added="2025-11-01T00:00:00+00:00") for n in (3, 1, 2)]
    library = make_library(tmp_path / "lib", [*papers, PAPERS[0]])
    try:
        before = compute_listing(library, search="graph study", index=None)
    finally:
        library.close()
    assert before.ids == ["g3", "g1", "g2"] and before.partial == TITLES_ONLY


# -- filter, search and sort together ----------------------------------------------------

MORE = [
    Paper(id=f"p{n}", title=title, abstract=f"about {title}", venue="ICLR", year=2026, citekey=f"k{n}",
          added=f"2025-11-01T00:00:0{n}+00:00")
    for n, title in enumerate(["Zebra graphs", "Attention graphs", "Mice and graphs", "Diffusion"])
]


@pytest.fixture
def four(tmp_path: Path):
    library = make_library(tmp_path / "lib", MORE)
    library.set_status(["p0", "p1"], Status.READ)
    try:
        yield library, SearchIndex.build(library.view(pid) for pid in library.papers)
    finally:
        library.close()


def test_without_a_search_the_filter_keeps_the_catalog_order_or_the_sort(four) -> None:
    library, index = four
    assert compute_listing(library).ids == ["p0", "p1", "p2", "p3"]
    assert compute_listing(library, sort=SortKey("title")).ids == ["p1", "p3", "p2", "p0"]
    read = ListFilter.of(status=Status.READ)
    assert compute_listing(library, list_filter=read, sort=SortKey("title"), index=index).ids == ["p1", "p0"]
    marked = ListFilter(marked_only=True)
    assert compute_listing(library, list_filter=marked, marked=["p3", "p2"]).ids == ["p2", "p3"]


def test_a_words_search_ranks_within_the_filter_and_a_fields_search_keeps_the_sort(four) -> None:
    library, index = four
    words = compute_listing(library, search="graphs", index=index)
    assert set(words.ids) == {"p0", "p1", "p2"} and not words.error
    within = compute_listing(library, list_filter=ListFilter.of(status=Status.READ), search="graphs", index=index)
    assert set(within.ids) == {"p0", "p1"}
    # the filter's own search and the typed one add up
    both = compute_listing(library, list_filter=ListFilter.of(search="graphs"), search="mice", index=index)
    assert both.ids == ["p2"]
    # fields alone select without ranking: the sort orders them
    fields = compute_listing(library, search="status:read", sort=SortKey("title", reverse=True), index=index)
    assert fields.ids == ["p0", "p1"]


def test_a_search_that_does_not_parse_lists_nothing_and_says_why(four) -> None:
    library, index = four
    listing = compute_listing(library, search="rating:>=lots", index=index)
    assert listing.ids == [] and listing.error


def test_a_models_sort_without_its_scores_keeps_the_order_and_with_them_ranks(four) -> None:
    library, index = four
    for_you = SortKey("for-you")
    assert compute_listing(library, sort=for_you).ids == ["p0", "p1", "p2", "p3"]
    ranked = compute_listing(library, sort=for_you, scores={"p3": 0.9, "p2": 0.5, "p1": 0.1, "p0": 0.0}).ids
    assert ranked[0] == "p3"
