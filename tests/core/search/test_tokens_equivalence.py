"""The tokeniser skips its accent and letter substitutions for a text with no accent or
letter command (one scan finds out: most abstracts with LaTeX only have math commands).
Property: it tokenises every text exactly as the two substitutions always run would,
whatever the text holds: LaTeX commands, accents and braces amid non-BMP characters,
right-to-left scripts, combining marks, CJK and control characters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.utils import default_process

from reader_tui.core.text import tokens as T


def always_substituted(text: str) -> list[str]:
    """`tokens` as it was before the check: both substitutions run on any backslash."""
    if "\\" in text:
        text = T._LATEX_ACCENT.sub("", text)
        text = T._LATEX_LETTER.sub(lambda m: T._LETTER_COMMANDS[m.group(1)], text)
        text = T._LATEX_COMMAND.sub(" ", text)
    if "{" in text:
        text = T._WORD_BRACES.sub(r"\1", text)
    return default_process(T.fold(text)).split()


LATEX = [
    "\\'e", '\\"{u}', "\\c c", "{\\c{c}}", "\\'{\\i}", '\\"\\i', "\\ss", "\\ss e", "\\o", "\\O", "\\l", "\\aa",
    "\\AE", "\\ij", "\\ng", "\\i", "\\j", "\\^o", "\\~n", "\\=a", "\\.z", "\\u{g}", "\\v s", "\\H o", "\\k a",
    "\\r a", "\\d s", "\\b b", "\\mathbb{R}", "\\alpha", "\\in", "\\\\", "\\", "\\textbf{Bold}", "\\ldots",
    "\\oe", "\\th", "\\dh", "\\oint", "\\lambda", "\\ell", "\\b", "\\'", "{", "}", "{B}ayesian", "V{\\'e}lez",
    "$x^2$", "\\'\\'e", "\\\\'e", "\\c\n c", "\\ss\t", "\\\\ss",
]
OTHER = [
    "Vélez", "Bjørn", "Łukasz", "Straße", "e\u0301", "\u05e9\u05b8\u05dc\u05d5\u05b9\u05dd", "\u0627\u064e\u0644",
    "\u202e", "\u200f", "中文 模型", "한국어", "ｆｕｌｌ", "𝒜𝒷𝒸", "😀", "\U00020000", "\x00", "\x1b[31m", "\x7f", "\u0085",
    "\u2028", "\ufeff", "\u00ad", "ﬁ", "Ⅻ", "²", "-", "'", " ", "\n", "word", "Log-Linear", "GRPO", "x86_64",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(LATEX), st.sampled_from(OTHER), st.text(max_size=6)), max_size=12))
def test_the_tokeniser_reads_every_text_as_with_both_substitutions(pieces):
    text = "".join(pieces)
    assert T.tokens(text) == always_substituted(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=40), st.sampled_from(LATEX))
def test_any_characters_around_a_command(text, command):
    for joined in (text + command, command + text, text[:5] + command + text[5:]):
        assert T.tokens(joined) == always_substituted(joined)
