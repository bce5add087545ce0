"""Property: whatever the text (non-BMP, RTL, combining marks, CJK, zero-width and bidi
controls, C0/C1 controls, escape sequences, tabs, blank lines, line separators), nothing
the display functions return can act on a terminal, and `visible_controls` keeps every
index. `safe_json` parses back to exactly the data."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader_tui.core.text.display import names_line, one_line, safe_json, sanitize, to_display, visible_controls

PIECES = [
    "🎉", "𝔘", "שלום", "مرحبا", "e\u0301", "論文", "한국어", "\u200b", "\u200d", "\u202e", "\u2066", "\u2069",
    "\u200f", "\x00", "\x07", "\x08", "\x0b", "\x0c", "\r", "\r\n", "\x1b", "\x1b]0;title\x07", "\x1b[2J",
    "\x7f", "\x85", "\x9b", "\x9b2J", "\t", "\n", "\n\n", "\u2028", "\u2029", "\ufeff", "\\{", "}", "\\",
    "``how''", "d{\\'e}j{\\`a}", "$x$", "`code`", "**b**", "[bold]",
]
TEXT = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=14).map("".join),
)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def acts_on_a_terminal(ch: str, *, lines: bool) -> bool:
    code = ord(ch)
    if lines and ch in "\n\t":
        return False
    return code < 0x20 or 0x7F <= code < 0xA0 or ch in BIDI or 0xD800 <= code < 0xE000 or ch in "\u2028\u2029"


@FAST
@given(TEXT)
@example("\x1b]0;pwned\x07\x9b2J\u202e")
def test_nothing_shown_can_act_on_the_terminal(text: str) -> None:
    for shown, lines in ((sanitize(text), True), (to_display(text), True), (one_line(text), False),
                         (names_line([text, text]), False), (visible_controls(text), False)):
        assert not any(acts_on_a_terminal(ch, lines=lines) for ch in shown), repr(shown)


@FAST
@given(TEXT)
def test_visible_controls_changes_only_controls_one_for_one(text: str) -> None:
    shown = visible_controls(text)
    assert len(shown) == len(text)
    assert all(a == b or acts_on_a_terminal(a, lines=False) for a, b in zip(text, shown))


@FAST
@given(st.dictionaries(TEXT, st.one_of(TEXT, st.lists(TEXT, max_size=3)), max_size=4))
def test_safe_json_is_safe_and_exact(data: dict) -> None:
    text = safe_json(data)
    assert json.loads(text) == data
    assert not any(acts_on_a_terminal(ch, lines=True) for ch in text)
    text.encode("utf-8")  # no lone surrogate left to fail the print
