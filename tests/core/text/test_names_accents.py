"""Accent commands at every position of every name part survive the split, the store and
the export, and the screen shows the accented letter (issue 30, item 2)."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.model import Annotation, PaperView
from reader_tui.core.text.display import one_line
from reader_tui.core.text.names import join_authors, split_authors

_SYMBOL_ACCENTS = "'`^\"~=."
_LETTER_ACCENTS = "uvHcdbkr"
_SPECIAL_LETTERS = ("aa", "AA", "ae", "AE", "oe", "OE", "o", "O", "l", "L", "ss", "i", "j")


def _accented(accent: str, letter: str, form: int) -> str:
    """`letter` under `accent` in one of the forms people write: `\\'E`, `\\'{E}`,
    `{\\'E}`, `{\\'{E}}` (a letter accent needs a brace or a space: `\\v C`)."""
    bare = f"\\{accent}{letter}" if accent in _SYMBOL_ACCENTS else f"\\{accent} {letter}"
    return (bare, f"\\{accent}{{{letter}}}", "{" + bare + "}", f"{{\\{accent}{{{letter}}}}}")[form]


_ACCENT = st.one_of(
    st.builds(_accented, st.sampled_from(_SYMBOL_ACCENTS + _LETTER_ACCENTS), st.sampled_from("EeCcOoUuSsAa"), st.integers(0, 3)),
    st.sampled_from(_SPECIAL_LETTERS).flatmap(lambda s: st.sampled_from((f"\\{s}{{}}", f"{{\\{s}}}"))),
)
_LETTERS = st.text(alphabet="bcdfghklmpstvwxyzéüß", min_size=0, max_size=4)


@st.composite
def _word(draw) -> str:
    """A word with accent commands at its start, inside it and at its end, each maybe."""
    pieces = [draw(_ACCENT) if draw(st.booleans()) else "", draw(_LETTERS)]
    pieces += [draw(_ACCENT) if draw(st.booleans()) else "", draw(_LETTERS)]
    pieces.append(draw(_ACCENT) if draw(st.booleans()) else "")
    word = "".join(pieces)
    return word or draw(_ACCENT)


_PART = st.lists(_word(), min_size=1, max_size=3).map(" ".join)


@st.composite
def _name(draw) -> str:
    """First von Last, Last, First, Last, Jr, First, or a braced corporate name."""
    first, von, last, jr = draw(_PART), draw(_PART), draw(_PART), draw(_PART)
    return draw(st.sampled_from((f"{first} {last}", f"{first} {von} {last}", f"{last}, {first}", f"{von} {last}, {jr}, {first}", "{" + f"{last} and {first}" + "}")))


_SEPARATOR = st.sampled_from((" and ", " AND ", "\n  and\t", " And  "))


@settings(max_examples=300, deadline=None)
@given(st.lists(_name(), min_size=1, max_size=4), _SEPARATOR)
def test_accents_anywhere_in_any_name_part_survive_the_split(names, separator):
    assert split_authors(separator.join(names)) == tuple(names)
    assert split_authors(join_authors(names)) == tuple(names)


@settings(max_examples=60, deadline=None)
@given(st.lists(_name(), min_size=1, max_size=3))
def test_accents_survive_import_and_export_and_are_shown_decoded(tmp_path_factory, names):
    path = tmp_path_factory.mktemp("names") / "names.bib"
    author = " and ".join(names)
    path.write_text("@article{k, title={T}, author={" + author + "}}\n", encoding="utf-8")
    (paper,) = read_bibtex(path).papers
    assert paper.authors == tuple(names)
    exported = export_bibtex([PaperView(paper, Annotation())], mode="unicode")
    assert "  author = {" + author + "},\n" in exported
    for name in paper.authors:
        shown = one_line(name)
        assert "\\" not in shown, (name, shown)  # every accent command rendered


def test_the_examples_that_were_lost():
    names = split_authors(r"Jon Kleinberg and \'{E}va Tardos and \v{C}ech, E. and \"Uber Mann and \c{C}elik, A. and \aa{}se, B.")
    assert names == ("Jon Kleinberg", r"\'{E}va Tardos", r"\v{C}ech, E.", r"\"Uber Mann", r"\c{C}elik, A.", r"\aa{}se, B.")
    shown = [unicodedata.normalize("NFC", one_line(name)) for name in names]
    assert shown == ["Jon Kleinberg", "Éva Tardos", "Čech, E.", "Über Mann", "Çelik, A.", "åse, B."]
