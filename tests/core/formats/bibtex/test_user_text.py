"""Notes and tags come back exactly through a BibTeX export and import, in every mode.

The guarantee, for all of Unicode (controls, lone surrogates, non-BMP, RTL, combining
marks, zero-width and bidi characters, whitespace at the ends, blank lines):
`import(export(notes, tags)) == (notes, tags)` for the notes and every non-empty tag, in
mode "latex" (the default), "unicode" and "ascii"; in "ascii" the file is pure ASCII too.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.user_text import MODES, decode_user_text, encode_user_text
from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.model import Annotation, Paper, PaperView

HOSTILE = [
    "🎉", "👩‍👩‍👧‍👦", "🏳️‍🌈", "𝔘", "שלום", "مرحبا", "한국어", "論文", "e\u0301", "é", "Å", "\u212b",
    "\u200b", "\u200d", "\u202e", "\u2066", "\ufeff", "\u2028", "\u2029", "\x85", "\xa0", "\u3000",
    "\\{", "\\}", "\\", "\\\\", "{", "}", "}{", "%", "% comment", "$x^2$", "\\textbf{x}", "{\\'e}",
    "\\char10{}", "\\space{}", "{@}", "{,}", "\t", "\n", "\n\n", "\r\n", "\r", " ", "  ", "\x00",
    "\x07", "\x1b[2J", "\x1b]0;title\x07", "\x7f", "\x9b", "@", "\n@misc{x,", ",", ";", "a, b; c",
    '"', "#", "&", "_", "^", "~", "<", ">", "|", "\ud800",
]
texts = st.one_of(
    st.text(),
    st.text(st.characters(codec=None, exclude_categories=())),  # surrogates too
    st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=4)), max_size=10).map("".join),
)
tags_st = st.lists(texts.filter(lambda t: t != ""), max_size=6)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _export_import(notes: str, tags: tuple[str, ...], mode: str) -> tuple[str, tuple[str, ...], str]:
    view = PaperView(Paper(id="p1", title="A paper", year=2024), Annotation(tags=tags, notes=notes))
    bib = export_bibtex([view], mode=mode)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.bib"
        path.write_bytes(bib.encode("utf-8", "surrogatepass"))
        result = read_bibtex(path)
    got = result.annotations.get(result.papers[0].id, {"tags": (), "notes": ""})
    return got["notes"], tuple(got["tags"]), bib


# Every example in every mode (it was one test per mode, each drawing its own 150: as many
# examples per mode, drawn once: drawing them was most of the time, 3.6 s CPU -> 1.5 s).
@SETTINGS
@given(notes=texts, tags=tags_st)
@example(notes=" leading and trailing \n", tags=["🎉"])
@example(notes="\\{ x \\} \\", tags=["a,b", "c;d", " pad ", "\t"])
@example(notes="figure dash \u2012 and bar \u2015", tags=["\u2015"])
def test_notes_and_tags_come_back_exactly_in_every_mode(notes: str, tags: list[str]) -> None:
    for mode in MODES:
        _notes_and_tags_come_back_exactly(mode, notes, tags)


def _notes_and_tags_come_back_exactly(mode: str, notes: str, tags: list[str]) -> None:
    if any("\ud800" <= c <= "\udfff" for c in notes + "".join(tags)) and mode != "ascii":
        # Only ASCII mode can carry a lone surrogate: UTF-8 has no bytes for one.
        notes = "".join(c for c in notes if not "\ud800" <= c <= "\udfff")
        tags = [t for t in ("".join(c for c in t if not "\ud800" <= c <= "\udfff") for t in tags) if t]
    got_notes, got_tags, bib = _export_import(notes, tuple(tags), mode)
    assert got_notes == notes, mode
    assert got_tags == tuple(tags), mode
    if mode == "ascii":
        assert bib.isascii()
    library = bibtexparser.parse_string(bib)
    assert not library.failed_blocks and len(library.entries) == 1, mode


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", HOSTILE)
def test_each_hostile_text_alone(mode: str, text: str) -> None:
    if "\ud800" <= text[0] <= "\udfff" and mode != "ascii":
        pytest.skip("UTF-8 cannot hold a lone surrogate")
    assert _export_import(text, (text,), mode)[:2] == (text, (text,))


@given(text=texts)
@SETTINGS
def test_encoding_is_brace_balanced_and_decodes(text: str) -> None:
    for mode in MODES:
        for tag in (False, True):
            encoded = encode_user_text(text, mode=mode, tag=tag)
            assert decode_user_text(encoded) == text
            depth = 0
            for char in encoded:
                depth += {"{": 1, "}": -1}.get(char, 0)
                assert depth >= 0
            assert depth == 0
            assert "\\{" not in encoded and "\\}" not in encoded


def test_emoji_tag_and_cjk_note_stay_utf8_in_the_default_mode() -> None:
    notes, tags, bib = _export_import("論文 한국어 é", ("🎉",), "latex")
    assert (notes, tags) == ("論文 한국어 é", ("🎉",))
    assert "annote = {論文 한국어 {\\'e}}" in bib
    assert "keywords = {🎉}" in bib


def test_old_classic_forms_still_decode() -> None:
    assert decode_user_text("na{\\\"\\i}ve {\\'e}t{\\'e} 50\\% a\\_b") == "naïve été 50% a_b"


def test_every_character_with_a_latex_form_comes_back_in_every_mode() -> None:
    """The characters at risk are those written as a LaTeX form (U+2AFD's form nests its
    braces deeper than the decoder once read): each of them, alone and in a run."""
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    characters = [chr(code) for code in sorted(get_builtin_uni2latex_dict()) if code > 0x7F]
    for mode in ("latex", "ascii"):
        wrong = [ch for ch in characters if decode_user_text(encode_user_text(ch, mode=mode)) != ch]
        assert not wrong, (mode, [f"U+{ord(ch):04X}" for ch in wrong[:10]])
        run = "".join(characters)
        assert decode_user_text(encode_user_text(run, mode=mode)) == run
