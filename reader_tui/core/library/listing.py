"""The listing policy: which papers a list shows and in what order, from a filter, a
search and a sort. One function (`compute_listing`) for every list: the TUI's paper
list (in a thread worker) and its saved searches' counts, and the CLI's `list` and
`export` (`--status`, `--tag`, `--search`), so they agree on the papers chosen.

Which papers pass the filter is `core.search.filters.ListFilter`'s; a search ranks its
hits through the search index (titles alone while there is none); a sort is
`core.search.sorting`'s, and a model's sort ("for you") takes the model's scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..search.filters import ListFilter
from ..search.sorting import MODEL_FIELDS, SortKey, sort_views
from ..text.display import search_text
from ..text.tokens import tokens
from .library import Library


@dataclass(slots=True)
class Listing:
    """The result: ids in order, the words each search hit matched, or a query error."""

    ids: list[str]
    matched: Mapping[str, frozenset[str]] = field(default_factory=dict)
    error: str = ""
    every_word: int | None = None
    """Of a search's hits, how many have every word (None: not a search, or all do)."""
    named: str | None = None
    """The paper the search named by its id, DOI or citation key (listed first), if any."""
    partial: str = ""
    """Why the search's result is not yet the whole answer ("" when it is): no index yet,
    or one with the titles only (the abstracts are being indexed)."""


#: The filter that keeps every paper (a frozen value, so one instance serves as the default).
NO_FILTER = ListFilter()


def compute_listing(
    library: Library,
    *,
    list_filter: ListFilter = NO_FILTER,
    sort: SortKey | None = None,
    search: str = "",
    index: Any = None,
    marked: Iterable[str] = (),
    scores: Mapping[str, float] | None = None,
    sort_matches: bool = False,
) -> Listing:
    """The ids to show. With `search`, the ranked hits (through `index` when it is built,
    else a substring match over the titles' words as the index reads them), in `sort`'s
    order when the search has no words to rank by (fields only); otherwise the catalog
    order, or `sort`'s (a model's sort, "for you", needs its `scores`: without them the
    catalog order). `search` adds to the filter's own. With `sort_matches` (a sort chosen
    during the search) a words search's matches are in `sort`'s order too, not best first."""
    marked = set(marked)
    ids = list(library.papers)  # one atomic copy: the UI thread may add papers meanwhile
    ids = list_filter.keep(ids, dict(library.annotations), marked)
    text = " ".join(part for part in (list_filter.search.strip(), search.strip()) if part)
    if text:
        found = _search(library, ids, text, index, marked)
        if sort is not None and not found.error and (
            sort_matches or not ranks(text) or sort.field in MODEL_FIELDS
        ):
            # fields alone ("area:robotics rating:>=5") select without ranking: the list
            # keeps its order, so "best first" is a sort and a search together. A model's
            # order ("for you") ranks a words search's matches too (ties: best match first),
            # the paper the query names by its id, DOI or citation key still first.
            found.ids = _sorted(library, found.ids, sort, scores)
            if found.named is not None and found.named in found.ids:
                found.ids = [found.named, *(pid for pid in found.ids if pid != found.named)]
        return found
    if sort is not None:
        ids = _sorted(library, ids, sort, scores)
    return Listing(ids)


def ranks(search: str) -> bool:
    """True when `search` ranks papers (free words or a phrase: best match first), False
    when it only selects them by fields (`rating:>=6 area:robotics`), which keeps the
    list's sort."""
    if not search.strip():
        return False  # the usual case, at every start: no parser to import for it
    try:
        from ..search.query import parse_query

        return parse_query(search).has_text
    except Exception:  # a query that does not parse ranks nothing; the search says why
        return bool(search.strip())


def _sorted(library: Library, ids: list[str], sort: SortKey, scores: Mapping[str, float] | None) -> list[str]:
    if sort.field in MODEL_FIELDS and scores is None:
        return ids  # no model yet: the order as it is
    papers = library.papers
    return [v.id for v in sort_views([library.view(pid) for pid in ids if pid in papers], sort, scores)]


#: `Listing.partial` while no index is loaded: fields and exclusions wait for it.
WAITING_FOR_INDEX = "waiting for the search index to load…"
#: `Listing.partial` while only titles are searched.
TITLES_ONLY = "searching titles only until the search index is loaded"


def _search(library: Library, ids: list[str], text: str, index: Any, marked: set[str]) -> Listing:
    from ..search.query import QueryError, parse_query

    if index is None:
        try:
            query = parse_query(text)
        except QueryError as error:
            return Listing([], error=str(error))
        if query.filters or query.excluded or query.excluded_phrases:
            # "rating:>=8", "status:read", "-llm": titles cannot answer them, and an
            # empty list would say that no paper is rated 8 or more
            return Listing([], partial=WAITING_FOR_INDEX)
        # Titles read as the index reads them (LaTeX rendered, accents folded, words
        # split), so "Velez" finds V{\'e}lez here too, as it will once the index is built.
        needle = _words(text)
        if not needle:
            return Listing([], _same_words(text))
        papers = library.papers
        # The index's loader is building every Paper in catalog order meanwhile (2.8 s at
        # 100,000 papers): read from the end, each thread builds the part the other has
        # not reached, instead of both building the same Papers (11 s for both, measured).
        found = {pid for pid in reversed(ids) if pid in papers and needle in _words(search_text(papers[pid].title))}
        return Listing([pid for pid in ids if pid in found], _same_words(text), partial=TITLES_ONLY)
    try:
        allowed = ids if len(ids) != len(library.papers) else None
        ranking = ListFilter(search=text).ranking(index, allowed, marked)
    except QueryError as error:
        return Listing([], error=str(error))
    # Tens of thousands of hits at 100,000 papers, which share a few dozen combinations of
    # matched words: one frozenset per combination, and C-level maps over the hits.
    order = ranking.ids
    as_sets = {combination: frozenset(combination) for combination in set(ranking.matched)}
    matched = dict(zip(order, map(as_sets.__getitem__, ranking.matched)))
    every_word = ranking.complete if ranking.complete < len(order) else None
    # (a search indexes the abstracts first, unless a child process is indexing them)
    partial = TITLES_ONLY if not getattr(index, "abstracts_indexed", True) and ranks(text) else ""
    return Listing(order, matched, every_word=every_word, named=ranking.found, partial=partial)


def _words(text: str) -> str:
    return " ".join(tokens(text))


class _same_words(dict):
    """Every paper matched the same words (the substring fallback)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._words = frozenset([text])

    def get(self, key: str, default: Any = None) -> Any:  # noqa: D401 - dict API
        return self._words

    def __missing__(self, key: str) -> frozenset[str]:
        return self._words
