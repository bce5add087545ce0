"""`tokens` reads a plain text (ASCII, no backslash, no brace: most titles and queries)
without `prepared`: the same words as through it, for any ASCII text and every ASCII
character, and texts that are not plain still go through it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.utils import default_process

from reader_tui.core.text import tokens as T


def slow(text: str) -> list[str]:
    return default_process(T.prepared(text)).split()


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40)
       | st.text(alphabet=st.sampled_from("aZ9 -_{}\\'\"é\u0301ø\t\n"), max_size=20))
def test_plain_texts_read_as_through_prepared(text):
    assert T.tokens(text) == slow(text)


def test_every_ascii_character_between_words():
    for code in range(128):
        text = f"Ab{chr(code)}cD {chr(code)}x"
        assert T.tokens(text) == slow(text)


def test_a_text_that_is_not_plain_is_prepared(monkeypatch):
    seen = []
    prepared = T.prepared
    monkeypatch.setattr(T, "prepared", lambda text: seen.append(text) or prepared(text))
    assert T.tokens("Plain Title: a Study") == ["plain", "title", "a", "study"] and seen == []
    assert T.tokens("V{\\'e}lez") == ["velez"] and T.tokens("Vélez") == ["velez"] and T.tokens("{B}ayes") == ["bayes"]
    assert seen == ["V{\\'e}lez", "Vélez", "{B}ayes"]
