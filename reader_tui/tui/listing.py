"""What the paper list shows: filter, sort and search turned into an ordered list of ids.

Pure functions over the Library (no widgets), run in a thread worker by the main
screen, so a 100,000-paper re-sort never blocks a key press. Which papers pass is the
core list filter's (`core.search.filters.ListFilter`), the CLI's too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import MODEL_FIELDS, SortKey, sort_views
from reader_tui.core.text.display import search_text
from reader_tui.core.text.tokens import tokens


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
) -> Listing:
    """The ids to show. With `search`, the ranked hits (through `index` when it is built,
    else a substring match over the titles' words as the index reads them), in `sort`'s
    order when the search has no words to rank by (fields only); otherwise the catalog
    order, or `sort`'s (a model's sort, "for you", needs its `scores`: without them the
    catalog order). `search` adds to the filter's own."""
    marked = set(marked)
    ids = list(library.papers)  # one atomic copy: the UI thread may add papers meanwhile
    ids = list_filter.keep(ids, dict(library.annotations), marked)
    text = " ".join(part for part in (list_filter.search.strip(), search.strip()) if part)
    if text:
        found = _search(library, ids, text, index, marked)
        if sort is not None and not found.error and (not ranks(text) or sort.field in MODEL_FIELDS):
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
        from reader_tui.core.search.query import parse_query

        return parse_query(search).has_text
    except Exception:  # a query that does not parse ranks nothing; the search says why
        return bool(search.strip())


def counts(library: Library, ids: list[str]) -> tuple[int, int, int, int]:
    """Papers in `ids` (the list shown), of them read and being read, and papers in the library."""
    annotations = library.annotations
    read = reading = 0
    if len(annotations) < len(ids):  # few annotated papers: count those instead of the rows
        shown = set(ids) if len(ids) != len(library.papers) else None
        for pid, ann in annotations.items():
            if shown is None or pid in shown:
                read += ann.status is Status.READ
                reading += ann.status is Status.READING
    else:
        for pid in ids:
            ann = annotations.get(pid)
            if ann is not None:
                read += ann.status is Status.READ
                reading += ann.status is Status.READING
    return len(ids), read, reading, len(library.papers)


def resorted(library: Library, ids: list[str], changed: frozenset[str], sort: SortKey) -> list[str] | None:
    """`ids` (in `sort`'s order) with the `changed` papers moved to where `sort` now puts
    them; None when nothing moves, or for a model's sort ("for you" re-sorts once the
    model has learned from the change)."""
    from reader_tui.core.search.sorting import order_key, reposition

    if sort.field in MODEL_FIELDS or not changed.intersection(ids):
        return None
    order = order_key(sort)
    view = library.view
    moved = reposition(ids, changed, lambda pid: order(view(pid)))
    return moved if moved != ids else None


def search_words(search: str) -> tuple[str, ...]:
    """The words and phrases `search` looks for (not its fields): what a text that the
    index does not hold (the reviews) highlights."""
    try:
        from reader_tui.core.search.query import parse_query

        query = parse_query(search)
    except Exception:
        return ()
    return (*query.terms, *query.phrases)


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
    from reader_tui.core.search.query import QueryError, parse_query

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
        order = [pid for pid in ids if pid in papers and needle in _words(search_text(papers[pid].title))]
        return Listing(order, _same_words(text), partial=TITLES_ONLY)
    try:
        allowed = ids if len(ids) != len(library.papers) else None
        hits = ListFilter(search=text).search_hits(index, allowed, marked)
    except QueryError as error:
        return Listing([], error=str(error))
    order = [hit.id for hit in hits]
    matched = {hit.id: frozenset(hit.matched or ()) for hit in hits}
    complete = getattr(hits, "complete", None)
    every_word = complete if complete is not None and complete < len(order) else None
    # (a search indexes the abstracts first, unless a child process is indexing them)
    partial = TITLES_ONLY if not getattr(index, "abstracts_indexed", True) and ranks(text) else ""
    return Listing(order, matched, every_word=every_word, named=getattr(hits, "found", None), partial=partial)


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
