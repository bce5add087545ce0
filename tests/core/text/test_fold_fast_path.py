"""`fold` looks only at a text's non-ASCII characters to decide whether there is anything
to fold (cut out of its UTF-8 bytes in C; the search build folds 5,800 abstracts, most
holding only punctuation). Property: it folds every text exactly as scanning the whole
decomposed text did, over every code point of Unicode (lone surrogates, non-BMP,
combining marks next to ASCII letters, Hangul, CJK compatibility ideographs)."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from reader_tui.core.text import tokens as T


def full_scan_fold(text: str) -> str:
    """`fold` as it was: the whole text decomposed and scanned."""
    if text.isascii():
        return text
    decomposed = text if unicodedata.is_normalized("NFD", text) else unicodedata.normalize("NFD", text)
    if not T._FOLDABLE.search(decomposed):
        return text
    if T._LATIN_LETTER.search(decomposed):
        decomposed = decomposed.translate(T._LATIN_TABLE)
    return unicodedata.normalize("NFC", T._COMBINING.sub("", decomposed))


PIECES = [
    "Vélez", "Bjørn", "Łukasz", "Straße", "e\u0301", "a\u0308\u0301", "\u0301", "\u05e9\u05b8", "\u0627\u064e",
    "“quoted”", "–", "’", "…", "中文", "한국어", "\u1100\u1161\u11a8", "\uf900", "\u212b", "Å", "ﬁ", "²",
    "\ud800", "\udfff", "\U0001d400", "\U00020000", "\x00", "\x7f", "\u0085", "\u2028", "\ufeff", "plain", " ",
]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(alphabet=st.characters(codec=None), max_size=6)),
                max_size=10))
def test_fold_is_the_full_scan_for_any_text(pieces):
    text = "".join(pieces)
    assert T.fold(text) == full_scan_fold(text)


def test_fold_is_the_full_scan_for_every_code_point():
    # 64 code points a text, each after an ASCII letter (a mark then has a letter to sit
    # on): a block with nothing to fold takes the quick way, the others the full one
    for start in range(0, sys.maxunicode + 1, 64):
        text = "".join("a" + chr(c) for c in range(start, min(start + 64, sys.maxunicode + 1)))
        assert T.fold(text) == full_scan_fold(text), hex(start)
    for c in range(0x80, 0x2000):  # the scripts with most marks and letters to fold, one by one
        assert T.fold("x" + chr(c)) == full_scan_fold("x" + chr(c)), hex(c)


def test_the_quick_way_still_folds_a_mark_among_ascii():
    assert T.fold("Ve\u0301lez “x”") == "Velez “x”"
    assert T.fold("Stra\u00dfe – ok") == "Strasse – ok"
    assert T.fold("“only punctuation”") == "“only punctuation”"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("{}{}ab_1 \\é\x00中\u0301"), max_size=30))
def test_braces_are_taken_off_as_the_template_did(text):
    assert T._WORD_BRACES.sub(T._BRACED_WORD, text) == T._WORD_BRACES.sub(r"\1", text)
