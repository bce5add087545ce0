"""Citation keys: short, readable, ASCII, unique within a library.

A key is `<stem><year>` with a letter suffix on clashes: `smith2024`, `socop2026`,
`socop2026a`. The stem is the first author's surname when one is known, else the
paper's short name ("SOCOP"), else the name its title leads with ("PG-Occ: ...") or two
or three significant words of its title (`loglinearattention2026`). Keys are
compared case-insensitively because BibTeX treats `Smith2024` and `smith2024` as the
same key (and complains about the mismatch).
"""

from __future__ import annotations

import itertools
import re
import string
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Protocol

from pylatexenc.latex2text import LatexNodes2Text

__all__ = ["make_citekey", "validate_citekey", "fits_entry_head", "citekey_base", "first_free_key", "CitekeyAllocator", "ascii_fold"]


class _Citable(Protocol):
    """What a key is made from: a `Paper` or a `PaperView` (with the user's overrides)."""

    title: str
    authors: tuple[str, ...]
    year: int | None
    short_name: str


# Title words that make poor keys. "learning" is here on purpose: a tenth of ML titles
# start with it ("Learning to ..."), so keeping it would make keys clash and say nothing.
STOP_WORDS = frozenset(
    """a an the on of in for to and or with from by via at as is are be do does can
    towards toward learning rethinking revisiting beyond into through about when what
    how why which who not no our we your its this that these those than vs versus
    novel new more most simple improved better efficient effective general unified fast
    robust scalable principled improving enhancing understanding exploring leveraging boosting
    unlocking enabling making using yet first both all each any""".split()
    # The adjectives: a key "novel2026" says nothing about which paper it is.
)

# Authors that name nobody: OpenReview lists hidden authors as "Anonymous".
_ANONYMOUS = frozenset({"anonymous", "anonymous authors", "anonymous author", "anon", "unknown", "n/a", "others"})

# Letters that NFKD does not decompose into an ASCII base letter.
_FOLD = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "æ": "ae", "Æ": "AE", "œ": "oe",
     "Œ": "OE", "đ": "d", "Đ": "D", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i"}
)

# Name suffixes that are not the surname in "First Last Jr." forms.
_NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d."})

_LATEX = LatexNodes2Text(math_mode="verbatim")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)", re.S)
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")

#: Characters BibTeX (or bibtexparser) cannot have in a key.
FORBIDDEN_KEY_CHARS = ',{}()=#%"\'\\~'
_BAD_KEY = re.compile(r"[^\x21-\x7e]|[" + re.escape(FORBIDDEN_KEY_CHARS) + "]")


@lru_cache(maxsize=4096)
def ascii_fold(text: str) -> str:
    """`text` as plain ASCII: LaTeX accents (`{\\'e}`) decoded, accents dropped, others removed."""
    if "\\" in text or "{" in text:
        try:
            text = _LATEX.latex_to_text(text)
        except Exception:  # pylatexenc is lenient, but a key must never fail to be made
            pass
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return text.encode("ascii", "ignore").decode("ascii")


def _slug(text: str) -> str:
    """Lowercase ASCII letters and digits only."""
    if text.isascii() and "\\" not in text and "{" not in text:
        return _NOT_ALNUM.sub("", text.lower())  # nothing to fold: skip the slow part
    return _NOT_ALNUM.sub("", ascii_fold(text).lower())


def _surname(author: str) -> str:
    """The surname of one author written "Last, First" or "First Last" ("" when unknown)."""
    author = " ".join(author.split())
    if not author or author.lower().strip(".") in _ANONYMOUS:
        return ""
    if "," in author:
        return author.split(",", 1)[0]
    words = author.split(" ")
    while len(words) > 1 and words[-1].lower() in _NAME_SUFFIXES:
        words.pop()
    return words[-1]


# "PG-Occ: Occupancy Prediction", "BNPO: Beta Normalization ...": the name before the colon.
_NAME_BEFORE_COLON = re.compile(r"^\s*([^\s:]{2,30}):\s")
# Words after which an "-ing" word is a verb ("for assessing"), not a noun ("training").
_VERB_BEFORE = frozenset("for by via of in through without with when after before while on from".split())
_RELATIVE = frozenset(("that", "which", "who", "where"))
#: A stem made of title words stops growing past this many characters.
STEM_WORDS_WIDTH = 24


def _title_words(title: str) -> str:
    """A stem from a title: the name before its colon when it has one ("PG-Occ: ..." ->
    "pgocc"), else its first two significant words, three when those are short
    ("Geometry of Attention" -> "geometryattention"); the first word if all are stop words.

    One word alone ("reasoning", "scaling") is shared by hundreds of anonymous papers of
    a conference list and tells none of them apart: `reasoning2026aq`.
    """
    named = _NAME_BEFORE_COLON.match(title)
    if named and any(c.isupper() or c.isdigit() for c in named.group(1)[1:]):
        stem = _slug(named.group(1))
        if len(stem) >= 2:
            return stem
    first = previous = ""
    words: list[str] = []
    for raw in _MATH.sub(" ", title).split():
        word, before = _slug(raw), previous
        first, previous = first or word, word
        if not word or word in STOP_WORDS or word.isdigit():
            continue
        if words and (before in _VERB_BEFORE and word.endswith("ing") or before in _RELATIVE):
            continue  # "metric for assessing layer relevance", "framework that combines": a verb
        if words and (len(words) == 3 or len(words) == 2 and len("".join(words)) >= 12):
            break
        if words and len("".join(words)) + len(word) > STEM_WORDS_WIDTH:
            break
        words.append(word)
    return "".join(words) or first


def _stem(paper: _Citable) -> str:
    authors = tuple(getattr(paper, "authors", ()) or ())
    if authors:
        stem = _slug(_surname(authors[0]))
        if stem:
            return stem
    stem = _slug(getattr(paper, "short_name", "") or "")
    if stem:
        return stem
    return _title_words(getattr(paper, "title", "") or "") or "paper"


def _suffixes():
    """"", a..z, aa..zz, aaa...: enough for any number of clashes."""
    yield ""
    for length in itertools.count(1):
        for letters in itertools.product(string.ascii_lowercase, repeat=length):
            yield "".join(letters)


def citekey_base(paper: _Citable) -> str:
    """The key `paper` gets when nothing clashes: stem plus year (`smith2024`, `socop2026`)."""
    year = getattr(paper, "year", None)
    return _stem(paper) + (str(year) if isinstance(year, int) else "")


def first_free_key(base: str, taken_lower: set[str]) -> str:
    """`base` with the first suffix ("", a, b, ..., aa, ...) whose lowercase form is not taken.

    `taken_lower` must hold lowercase keys; exporters keep such a set so that making
    20,000 keys stays linear.
    """
    if base.lower() not in taken_lower:
        return base
    for suffix in _suffixes():
        key = base + suffix
        if key.lower() not in taken_lower:
            return key
    raise AssertionError("unreachable: the suffixes never run out")


class CitekeyAllocator:
    """Hands out unique keys for many papers in linear time.

    Keeps the lowercase keys in use and, per base, where its suffix search stopped, so the
    300th `large2026` does not try the 299 suffixes before it again.
    """

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.taken_lower: set[str] = {key.lower() for key in taken}
        self._suffixes: dict[str, Iterator[str]] = {}

    def claim(self, key: str) -> bool:
        """Take `key` as it is; False (and nothing taken) when it is already in use."""
        lowered = key.lower()
        if lowered in self.taken_lower:
            return False
        self.taken_lower.add(lowered)
        return True

    def make(self, paper: _Citable) -> str:
        """A new key for `paper` (`citekey_base` plus the first free suffix), taken."""
        base = citekey_base(paper)
        suffixes = self._suffixes.setdefault(base, _suffixes())
        for suffix in suffixes:
            key = base + suffix
            if self.claim(key):
                return key
        raise AssertionError("unreachable: the suffixes never run out")


def make_citekey(paper: _Citable, taken: set[str]) -> str:
    """A new citation key for `paper` that is not in `taken` (compared case-insensitively).

    `paper` is a `Paper` or a `PaperView`. The caller adds the result to `taken`.
    This lowercases `taken` on every call; in a loop, use `citekey_base` and
    `first_free_key` with a lowercase set instead.
    """
    return first_free_key(citekey_base(paper), {key.lower() for key in taken})


def fits_entry_head(key: str) -> bool:
    """Whether `key` can stand in `@type{key,` as it is: the rule for a key read from the
    user's own .bib file, which is kept whatever else it holds (non-ASCII letters, `:`)."""
    return bool(key) and key.isprintable() and not any(ch.isspace() or ch in ",{}" for ch in key)


def validate_citekey(key: str) -> str | None:
    """Why BibTeX cannot use `key` as an entry key, or None when it can."""
    if key and key.isascii() and not _BAD_KEY.search(key):
        return None
    if not key:
        return "a citation key cannot be empty"
    if any(ch.isspace() for ch in key):
        return "a citation key cannot contain whitespace"
    bad = sorted({ch for ch in key if ch in FORBIDDEN_KEY_CHARS})
    if bad:
        return f"a citation key cannot contain {' '.join(bad)}"
    if not key.isascii():
        return "a citation key must be ASCII (no accents or symbols)"
    if not key.isprintable():
        return "a citation key cannot contain control characters"
    return None
