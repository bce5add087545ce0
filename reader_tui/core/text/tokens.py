"""The tokeniser every index and query shares, and the accent folding it applies."""

from __future__ import annotations

import re
import unicodedata
from operator import itemgetter

_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
# An accent command (\'e, \"{u}, \c c): only the letter counts once accents are folded.
# The letter may be a letter command (\"\i, \'{\i}), read next.
_LATEX_ACCENT = re.compile(r"""\\(?:[`'^"~=.]|[uvHckrdb](?![A-Za-z]))\s*(?=\{?\\?[A-Za-z])""")
# LaTeX's letter commands, as pylatexenc renders them (a test holds the two together);
# `fold` then reads the letter. A control word eats the spaces after it: Stra\ss e.
_LETTER_COMMANDS = {
    "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "ss": "ß", "aa": "å", "AA": "Å",
    "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ",
    "dj": "đ", "DJ": "Đ", "ng": "ŋ", "NG": "Ŋ", "ij": "ĳ", "IJ": "Ĳ",
}
_LATEX_LETTER = re.compile(r"\\(%s)(?![A-Za-z])\s*" % "|".join(sorted(_LETTER_COMMANDS, key=len, reverse=True)))
# Either of the two above, without what follows: one scan says whether a text has any
# accent or letter command at all, sparing it the two substitutions (41 of the 5,634
# ICLR 2026 abstracts and titles with a backslash have one; the others hold math:
# \mathbb, \alpha. Their tokenising took 10% less CPU).
_LATEX_ACCENT_OR_LETTER = re.compile(
    r"""\\(?:[`'^"~=.]|[uvHckrdb](?![A-Za-z])|(?:%s)(?![A-Za-z]))"""
    % "|".join(sorted(_LETTER_COMMANDS, key=len, reverse=True))
)
# Braces around part of a word ({B}ayesian, V{e}lez once the accent is gone) join it,
# nested ones too: DBLP writes Gon{\c{c}}alves, which is Gon{{c}}alves by then.
# Written `\{\{*`, not `\{+`: a literal first character lets `re` skip to each brace
# instead of trying a match at every character (abstracts with braces: 6 times faster).
_WORD_BRACES = re.compile(r"\{\{*(\w*)\}+")
# What replaces a match: its word, `m[1]` by a C-level callable (a template `\1` is
# expanded by a Python function per match in Python 3.11: twice the time, 0.015 s of the
# cold build's 5,500 matches)
_BRACED_WORD = itemgetter(1)
# Diacritics: Latin/Greek/Cyrillic accents, Hebrew points, Arabic harakat and the
# combining supplements. Not Indic or Thai vowel signs, which are part of the letter.
# Latin letters that carry their mark in the letter itself, so NFD does not take it
# off (ø, ł, đ) or that are ligatures (ß, æ, œ): folded to the letters a user types.
_LATIN_LETTERS = {
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "ı": "i",
    "ȷ": "j", "ħ": "h", "Ħ": "H", "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe",
    "Œ": "OE", "þ": "th", "Þ": "TH", "ŋ": "ng", "Ŋ": "NG", "ĳ": "ij", "Ĳ": "IJ",
}
_LATIN_LETTER = re.compile("[%s]" % "".join(_LATIN_LETTERS))
_LATIN_TABLE = str.maketrans(_LATIN_LETTERS)
_COMBINING = re.compile(
    "[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u064b-\u065f\u0670"
    "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
)
# One scan finds whether there is anything to fold at all.
_FOLDABLE = re.compile(_COMBINING.pattern[:-1] + "".join(_LATIN_LETTERS) + "]")
_ASCII_BYTES = bytes(range(128))


def fold(text: str) -> str:
    """`text` with its diacritics taken off (`Vélez` -> `Velez`, `e` + U+0301 -> `e`,
    Hebrew points, Arabic harakat) and Latin letters written plain (`Bjørn` -> `Bjorn`,
    `Łukasz` -> `Lukasz`, `Straße` -> `Strasse`); letters of other scripts are unchanged.

    Search folds the papers' text and the query alike, so `Velez` and `Vélez` find each
    other. Only diacritics go: Hangul, Indic vowel signs and the like are composed
    again as they were.
    """
    if text.isascii():
        return text
    # Most non-ASCII abstracts hold only punctuation (“ ” – ’): no marks or letters to
    # fold, nothing to do. Only the non-ASCII characters are looked at (ASCII has nothing
    # to fold, and NFD decomposes each character on its own): cut out of the UTF-8 bytes
    # by one C-level `translate`, they are a few dozen characters, where a regular
    # expression scanning the whole text for them cost 12 µs an abstract (the search
    # build's abstracts: 0.1 s -> 0.03 s; a test holds this to the full scan).
    rare = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    if not _FOLDABLE.search(unicodedata.normalize("NFD", rare)):
        return text
    decomposed = unicodedata.normalize("NFD", text)
    if _LATIN_LETTER.search(decomposed):  # rare: most texts are spared the translation
        decomposed = decomposed.translate(_LATIN_TABLE)
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


def tokens(text: str) -> list[str]:
    """Lower-case, accent-folded words of `text` (letters and digits; LaTeX command
    names dropped, LaTeX accents read as their letter).

    The same tokeniser serves papers and queries, so "Log-Linear" and "log-lin" agree,
    and so do "V{\\'e}lez", "Vélez" and "Velez". (`search.word_pairs` tokenises a whole
    field of a list at once into the same words: `prepared`, then rapidfuzz's
    `default_process`, then split at spaces.)
    """
    if text.isascii() and "\\" not in text and "{" not in text:
        return _default_process(text).split()  # what `prepared` leaves as it is (most titles): no call
    return _default_process(prepared(text)).split()


def _default_process(text: str) -> str:
    """rapidfuzz's `default_process`, imported at the first call: importing rapidfuzz
    costs 10-20 ms, and the TUI's first frame tokenises nothing (only searching does).
    The first call rebinds this name to rapidfuzz's function itself."""
    global _default_process
    from rapidfuzz.utils import default_process

    _default_process = default_process
    return default_process(text)


def prepared(text: str) -> str:
    """`text` as `tokens` reads it before lower-casing and splitting it: LaTeX accents
    and letters read, other LaTeX commands and braces inside words dropped, accents folded."""
    if "\\" in text:
        if _LATEX_ACCENT_OR_LETTER.search(text):  # else neither substitution would change it
            text = _LATEX_ACCENT.sub("", text)
            text = _LATEX_LETTER.sub(lambda m: _LETTER_COMMANDS[m.group(1)], text)
        text = _LATEX_COMMAND.sub(" ", text)
    if "{" in text:
        text = _WORD_BRACES.sub(_BRACED_WORD, text)
    return fold(text)


_FOLDED: dict[str, str] = {}


def fold_in_place(text: str) -> str:
    """`fold(text)` character by character, so every index still points at the same
    character: for finding folded search words in displayed text (highlighting)."""
    if text.isascii():
        return text
    out = []
    for char in text:
        folded = _FOLDED.get(char)
        if folded is None:
            folded = fold(char)
            folded = _FOLDED[char] = folded if len(folded) == 1 else char
        out.append(folded)
    return "".join(out)
