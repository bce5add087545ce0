"""Author lists: the one place a "A and B and C" list is split into names and joined back.

BibTeX's rule, through bibtexparser's own splitter: names are separated by the word "and"
(any case) between whitespace, outside braces, so "{Barnes and Noble}" is one name. Names
are kept as written ("Last, First" stays so); only the whitespace around each is dropped.
"""

from __future__ import annotations

from collections.abc import Iterable

from bibtexparser.middlewares.names import split_multiple_persons_names

AUTHOR_SEPARATOR = " and "


def split_authors(text: str) -> tuple[str, ...]:
    """The names of a BibTeX-style author list, in order, blanks dropped.

    "A and B AND {C and D}" -> ("A", "B", "{C and D}"); "" -> ().
    """
    if not text.strip():
        return ()
    return tuple(name.strip() for name in split_multiple_persons_names(text) if name.strip())


def join_authors(names: Iterable[str]) -> str:
    """The author list `split_authors` reads back as `names`."""
    return AUTHOR_SEPARATOR.join(names)
