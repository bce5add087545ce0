"""What the paper list needs besides the listing itself (`core.library.listing`, the
CLI's too): the status line's counts, a sorted list's changed papers moved to their new
place without a re-sort, and the words a search highlights where the index is not used.
"""

from __future__ import annotations

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.sorting import MODEL_FIELDS, SortKey


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


