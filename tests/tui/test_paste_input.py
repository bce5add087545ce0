"""A pasted ESC stays text. Textual's parser read an ESC inside a bracketed paste as the
start of a key sequence and sent what followed it on as keys (found by hand: pasting
coloured terminal output into the notes ran list commands). `PasteSafeParser` keeps the
paste whole, however the terminal's reads cut it, and changes nothing outside pastes."""

from __future__ import annotations

import random

import pytest
from textual import events
from textual._xterm_parser import XTermParser

from reader_tui.core.library.library import Library
from reader_tui.tui import paste_input
from reader_tui.tui.app import create_app
from reader_tui.tui.paste_input import PASTE_END, PASTE_START, PasteSafeParser
from tui_support import PAPERS, settle, wait_until

PASTES = [
    "pasted\x1b[31mred\x1b[0m\x07bell\ttab\x1b\x1bend 👩\u200d🔬 שלום",
    "ends in ESC\x1b",
    "\x1b[20",  # the first characters of the paste's end
    "\x1b[201",
    "holds a start \x1b[200~ inside",
    "plain",
]


def _events(parser_type: type[XTermParser], reads: list[str]) -> list[tuple[str, str]]:
    parser = parser_type()
    out: list[events.Event] = []
    for read in reads:
        if read:  # (the driver never gives an empty read but at the end)
            out += parser.feed(read)
    out += parser.feed("")
    return [(type(e).__name__, e.text if isinstance(e, events.Paste) else e.key) for e in out]


@pytest.mark.parametrize("paste", PASTES)
def test_a_paste_arrives_whole_and_exact_however_the_reads_cut_it(paste: str) -> None:
    data = f"j{PASTE_START}{paste}{PASTE_END}k\x1b[A"
    want = [("Key", "j"), ("Paste", paste), ("Key", "k"), ("Key", "up")]
    for first in range(len(data) + 1):
        for second in range(first, len(data) + 1):
            reads = [data[:first], data[first:second], data[second:]]
            assert _events(PasteSafeParser, reads) == want, reads


def test_outside_pastes_the_keys_are_textuals_own() -> None:
    rng = random.Random(7)
    pieces = ["a", "\x1b", "[", "A", "1", ";", "~", "\t", "\x7f", "é", "👩", "\x1b[B", "\x1b[1;5C", "\x1bO", "2", "0", "\r"]
    for _ in range(2000):
        data = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        if PASTE_START in data:
            continue
        assert _events(PasteSafeParser, [data]) == _events(XTermParser, [data]), repr(data)


def test_install_gives_textuals_linux_drivers_this_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.drivers import linux_driver, linux_inline_driver

    monkeypatch.setattr(linux_driver, "XTermParser", XTermParser)
    monkeypatch.setattr(linux_inline_driver, "XTermParser", XTermParser)
    paste_input.install()
    assert linux_driver.XTermParser is PasteSafeParser and linux_inline_driver.XTermParser is PasteSafeParser


async def test_a_paste_with_escapes_is_saved_in_the_notes_as_it_was(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        for event in PasteSafeParser().feed(f"{PASTE_START}{PASTES[0]}{PASTE_END}"):
            app._driver.send_message(event)
            await pilot.pause()
        assert app.focused is not None and app.focused.id == "notes"  # the tab in it was text
        await pilot.press("escape")
        paper_id = PAPERS[0].id
        assert await wait_until(pilot, lambda: library.annotation(paper_id).notes == PASTES[0]), (
            repr(library.annotation(paper_id).notes)
        )
