"""Search reads titles, authors and venues as the user reads them (LaTeX rendered) and
folds accents in papers and queries alike: `Vélez`, `Velez` and `V{\\'e}lez` agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.text import tokens as tokens_module
from reader_tui.core.text.tokens import tokens


def view(pid: str, title: str, *, authors=(), abstract="", venue="", tags=(), notes="") -> PaperView:
    paper = Paper(id=pid, title=title, authors=tuple(authors), abstract=abstract, venue=venue, year=2020)
    return PaperView(paper, Annotation(tags=tuple(tags), notes=notes))


PAPERS = [
    view("velez", "Robust estimation of trends", authors=("V{\\'e}lez, Ana", "M{\\\"u}ller, Hans")),
    view("deja", "Evil ``how'' d{\\'e}j{\\`a} vu in {B}ayesian networks", venue="J. {\\\"O}sterreich"),
    view("abs", "Plain title", abstract="As Cram\\'{e}r showed, the na\\\"ive bound fails."),
    view("uni", "Ünïcödé título", authors=("Jose\u0301 Nu\u0301n\u0303ez",), tags=("Résumé",),
         notes="lu à Zürich"),
    view("hebrew", "שָׁלוֹם עולם"),
    view("other", "Unrelated work on graphs", authors=("Ada Lovelace",)),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(PAPERS)


def ids(index: SearchIndex, query: str) -> list[str]:
    return [hit.id for hit in index.search(query)]


@pytest.mark.parametrize("query", ["Vélez", "Velez", "velez", "VÉLEZ", "Ve\u0301lez", "Müller", "Muller"])
def test_an_author_written_in_latex_is_found_with_or_without_accents(index: SearchIndex, query: str) -> None:
    assert ids(index, query)[:1] == ["velez"]


@pytest.mark.parametrize("query", ["déjà", "deja", "bayesian", '"deja vu"', "venue:österreich", "venue:osterreich"])
def test_a_title_and_venue_written_in_latex_are_found_as_displayed(index: SearchIndex, query: str) -> None:
    assert ids(index, query)[:1] == ["deja"]


@pytest.mark.parametrize("query", ["cramer", "Cramér", "naive"])
def test_latex_accents_in_abstracts_are_read(index: SearchIndex, query: str) -> None:
    assert ids(index, query)[:1] == ["abs"]


@pytest.mark.parametrize("query", ["unicode", "titulo", "jose nunez", "José Núñez", "tag:resume", "tag:Résumé",
                                   "resume", "zurich", "Zürich"])
def test_unicode_accents_fold_in_titles_authors_tags_and_notes(index: SearchIndex, query: str) -> None:
    assert ids(index, query)[:1] == ["uni"]


def test_hebrew_points_fold_away(index: SearchIndex) -> None:
    assert ids(index, "שלום")[:1] == ["hebrew"]
    assert ids(index, "שָׁלוֹם")[:1] == ["hebrew"]


def test_fold_leaves_other_scripts_and_plain_text_alone() -> None:
    for text in ("plain ascii", "論文 한국어 हिन्दी 🎉 𝔘"):
        assert tokens_module.fold(text) == text
    # Latin letters whose mark NFD cannot take off are written as a user types them.
    assert tokens_module.fold("Øresund ß Łódź") == "Oresund ss Lodz"
    assert tokens("V{\\'e}lez and \\\"{u}ber \\c{c}a") == ["velez", "and", "uber", "ca"]


def test_a_cache_written_by_the_unfolded_index_is_not_trusted(tmp_path: Path) -> None:
    # The cache header carries the index format: a cache from before folding is rebuilt.
    cache = tmp_path / "search.idx"
    search_cache.save(SearchIndex.build(PAPERS), cache)
    header = cache.read_bytes().split(b"\n", 1)[0]
    assert f" {search_cache.FORMAT} ".encode() in header and search_cache.FORMAT >= 2
    loaded = search_cache.load(PAPERS, cache)
    assert loaded is not None and [h.id for h in loaded.search("tag:resume")] == ["uni"]
