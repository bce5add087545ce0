"""Citation keys as Better BibTeX makes them by default, for CSL-JSON and RIS exports.

Better BibTeX (the Zotero plugin most people who cite from Zotero use) keys an item
`auth.lower + shorttitle(3,3) + year`: the first author's family name in lower case,
the first three words of the title that are not in its skip list, each capitalised,
and the year; ASCII-folded, letters and digits only; `a`, `b`, ... on collisions
(the first item keeps the bare key). "Attention Is All You Need" by Vaswani et al.,
2017 is `vaswaniAttentionAllYou2017`. A paper that has no key of the user's gets this
one, so that it is cited by the same key from reader-tui and from Zotero.

A key the user gave (a .bib entry's, one typed here, one pinned in Zotero's `extra` as
`Citation Key: X`) is always kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .citekeys import ascii_fold, first_free_key
from .display import to_display
from .person_names import PARTICLE, name_parts

__all__ = ["bbt_key", "BBTKeys", "pinned_key"]

#: Better BibTeX's default `skipWords`: words `shorttitle` leaves out.
SKIP_WORDS = frozenset(
    """a ab aboard about above across after against al along amid among an and anti around as at before behind
    below beneath beside besides between beyond but by d da das de del dell dello dei degli della delle dem den der
    des despite die do down du during ein eine einem einen einer eines el en et except for from gli i il in inside
    into is l la las le les like lo los near nor of off on onto or over past per plus round save since so some sur
    than the through to toward towards under underneath un una unas une unlike uno unos until up upon versus via
    von while with within without yet zu zum""".split()
)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_PINNED = re.compile(r"^\s*(?:Citation Key|bibtex)\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
_MARKUP = re.compile(r"<[^>]+>|[{}$\\]")


def _fold(text: str) -> str:
    return _NOT_ALNUM.sub("", ascii_fold(text))


def _family(author: str) -> str:
    parts = name_parts(author)
    family = parts.get("family") or parts.get("literal") or ""
    particle = parts.get(PARTICLE, "")
    return f"{particle}{family}" if particle and "literal" not in parts else family


def bbt_key(authors: Iterable[str], title: str, year: int | str | None) -> str:
    """The key Better BibTeX's default formula gives, before collisions are resolved.
    `authors` are BibTeX-style names (LaTeX or plain), `title` the title's text."""
    authors = tuple(authors)
    auth = _fold(_family(authors[0])).lower() if authors else ""
    if "\\" in title or "{" in title or "$" in title:
        title = to_display(title)  # LaTeX: the words as they read
    words = []
    # Hyphens and apostrophes join a word's pieces ("Pre-training" -> "Pretraining").
    for word in _MARKUP.sub(" ", title or "").replace("-", "").replace("'", "").replace("’", "").split():
        pieces = _WORD.findall(word)
        folded = _fold("".join(pieces))
        if not folded or "".join(pieces).lower() in SKIP_WORDS:
            continue
        words.append(folded[:1].upper() + folded[1:])
        if len(words) == 3:
            break
    match = re.search(r"\d{4}", str(year or ""))
    return f"{auth}{''.join(words)}{match.group(0) if match else ''}" or "unknown"


def pinned_key(text: str) -> str:
    """The key pinned in a Zotero `extra` or a note (`Citation Key: X`, or the older
    `bibtex: X`), "" when there is none."""
    match = _PINNED.search(text or "")
    return match.group(1) if match else ""


class BBTKeys:
    """Keys unique within one export: a user's key is kept when free, a made one gets
    Better BibTeX's `a`, `b`... suffix (case-insensitively, as BibTeX compares keys)."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def claim(self, key: str) -> bool:
        """Take `key` if it is free; False when it was taken already."""
        if key.lower() in self._taken:
            return False
        self._taken.add(key.lower())
        return True

    def make(self, authors: Iterable[str], title: str, year: int | str | None) -> str:
        key = first_free_key(bbt_key(authors, title, year), self._taken)
        self._taken.add(key.lower())
        return key
