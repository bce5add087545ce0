"""Author lists: the one place a "A and B and C" list is split into names and joined back.

BibTeX's rule: names are separated by the word "and" (any case) between whitespace,
outside braces, so "{Barnes and Noble}" is one name. Names are kept as written ("Last,
First" stays so, `\\'{E}va` keeps its accent); only the whitespace around each is dropped.

The split is ours rather than bibtexparser's `split_multiple_persons_names`: that one
skips the character after a backslash before it marks where the next name starts, so
"Jon Kleinberg and \\'{E}va Tardos" comes back as "{E}va Tardos".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

AUTHOR_SEPARATOR = " and "

_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


def split_authors(text: str) -> tuple[str, ...]:
    """The names of a BibTeX-style author list, in order, blanks dropped.

    "A and B AND {C and D}" -> ("A", "B", "{C and D}"); "" -> ().
    Every brace counts for the nesting, escaped or not, as BibTeX counts them.
    """
    if not text.strip():
        return ()
    names: list[str] = []
    start = depth = scanned = 0
    for match in _AND.finditer(text):
        depth = _brace_depth(text, scanned, match.start(), depth)
        scanned = match.start()
        if depth == 0:
            names.append(text[start : match.start()])
            start = match.end()
    names.append(text[start:])
    return tuple(name.strip() for name in names if name.strip())


def _brace_depth(text: str, begin: int, end: int, depth: int) -> int:
    """The brace depth at `end`, given `depth` at `begin` (never below zero: a stray `}`
    closes nothing)."""
    for char in text[begin:end]:
        if char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
    return depth


def join_authors(names: Iterable[str]) -> str:
    """The author list `split_authors` reads back as `names`."""
    return AUTHOR_SEPARATOR.join(names)
