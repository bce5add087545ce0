"""Characters a keyboard or an input method types but `str.isprintable()` rejects reach
the text: the ideographic space of a CJK input method, a no-break space, the zero-width
joiner inside an emoji. Textual's Input and TextArea dropped them (found by hand: typing
"X　Y" in the notes saved "XY", and 👩‍🔬 was saved as 👩🔬)."""

from __future__ import annotations

from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.data_input import DataInput
from reader_tui.tui.widgets.search_bar import SearchBar
from tui_support import PAPERS, settle, wait_until

SIZE = (120, 40)
#: ideographic space, no-break space, zero-width joiner (in an emoji), right-to-left mark
TYPED = "X\u3000Y\xa0Z👩\u200d🔬\u200fW"


async def type_in(app: App, pilot, text: str) -> None:
    """`text` as a terminal sends it, turned into keys by Textual's own parser (the
    pilot's `press` gives these characters no `character`)."""
    for event in XTermParser().feed(text):
        app._driver.send_message(event)
        await pilot.pause()


class _Inputs(App[None]):
    def compose(self) -> ComposeResult:
        yield DataInput(id="data")
        yield SearchBar(id="search")


async def test_data_input_and_search_bar_keep_typed_spaces_and_joiners() -> None:
    app = _Inputs()
    async with app.run_test(size=SIZE) as pilot:
        for widget_id in ("data", "search"):
            widget = app.query_one(f"#{widget_id}")
            widget.display = True
            widget.focus()
            await type_in(app, pilot, TYPED)
            assert widget.value == TYPED, widget_id
            # a control character is still a key, never text
            await type_in(app, pilot, "\x01\x7f")  # ctrl+a (home), DEL (backspace)
            assert widget.value == TYPED


async def test_typed_spaces_and_joiners_are_saved_in_the_notes(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await type_in(app, pilot, TYPED)
        await pilot.press("escape")
        paper_id = PAPERS[0].id
        assert await wait_until(pilot, lambda: library.annotation(paper_id).notes == TYPED), (
            repr(library.annotation(paper_id).notes)
        )
