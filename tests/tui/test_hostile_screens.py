"""Hostile text from a user or a file on every screen that draws it: the edit dialog's
inputs, the tag editor, the detail pane, triage and statistics show control characters
as symbols (never a raw ESC), keep the text itself unchanged, and show names from their
LaTeX (issue 12, items 8 and 10)."""

from __future__ import annotations

from textual.widgets import Input

from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.edit_dialog import EditDialog
from reader_tui.tui.dialogs.tag_editor import TagEditor
from reader_tui.tui.screens.stats_screen import StatsScreen
from reader_tui.tui.screens.triage_screen import TriageScreen
from reader_tui.tui.widgets.paper_detail import header_content
from tui_support import ModalHarness, screen_text, settle

TITLE = "Evil \x1b]0;pwned\x07 title \x1b[2J with \x9b31m and \u202eevil"
SHOWN_TITLE = "Evil ␛]0;pwned␇ title ␛[2J with \ufffd31m and \ufffdevil"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def assert_no_raw_controls(text: str) -> None:
    for raw in RAW:
        assert raw not in text, (raw, text)


def hostile_view() -> PaperView:
    paper = Paper(id="p1", title=TITLE, authors=("M{\\\"u}ller, Hans", "Ada \x1b[31mLovelace"),
                  url="https://x.org/\x1b]8;;e\x07", citekey="key2020", venue="J. {\\\"O}sterreich", year=2020)
    return PaperView(paper, Annotation(tags=("a\\{b}", "\x1b]0;t\x07")))


async def test_the_edit_dialog_shows_a_hostile_title_visibly_and_keeps_it() -> None:
    app = ModalHarness(EditDialog(hostile_view()))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#edit-title", Input)
        assert title.value == TITLE  # the text itself, for saving
        text = screen_text(app)
        assert_no_raw_controls(text)
        assert "Evil ␛]0;pwned␇ title ␛[2J" in text
        assert "Ada ␛[31mLovelace" in text
        await pilot.press("enter")  # nothing edited: nothing changes, spaces and all
    assert app.result is None


async def test_an_edit_to_a_hostile_title_keeps_its_characters() -> None:
    app = ModalHarness(EditDialog(hostile_view()))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("end", "exclamation_mark")
        assert_no_raw_controls(screen_text(app))
        await pilot.press("ctrl+s")
    assert app.result == {"title": TITLE + "!"}


async def test_the_tag_editor_shows_tags_and_typed_text_visibly() -> None:
    app = ModalHarness(TagEditor([TITLE], ["a\\{b}", "\x1b]0;t\x07"], {"\x1b[2Jold": 3}))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        typed = app.screen.query_one("#tag-input", Input)
        typed.value = "\x1b[2J"
        await pilot.pause()
        text = screen_text(app)
        assert_no_raw_controls(text)
        assert " a\\{b} " in text and " ␛]0;t␇ " in text  # chips, as typed
        assert "␛[2Jold" in text  # the completion
        assert typed.render_line(0).text.startswith("␛[2J") and typed.value == "\x1b[2J"


def test_the_detail_pane_renders_authors_and_venue_from_latex() -> None:
    text = header_content(hostile_view()).plain
    assert "Müller, Hans; Ada ␛[31mLovelace" in text
    assert "J. Österreich 2020" in text
    assert "a\\{b}" in text and "https://x.org/␛]8;;e␇" in text
    assert_no_raw_controls(text)


def _hostile_library(library: Library) -> list[str]:
    library.import_papers([Paper(id="p-hostile", title=TITLE, authors=("V{\\'e}lez, Ana",), abstract="Body.")])
    library.set_tags("p-hostile", ["\x1b]0;tag\x07", "a\\{b}"])
    return ["p-hostile"]


async def test_triage_shows_a_hostile_paper_and_filter_visibly(library: Library) -> None:
    ids = _hostile_library(library)
    app = ModalHarness(TriageScreen(library, ids, filter_label="tag:\x1b]0;x\x07"))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert_no_raw_controls(text)
        assert SHOWN_TITLE in text and "Vélez, Ana" in text
        assert "in this list: tag:␛]0;x␇" in text


async def test_statistics_show_tags_as_typed_and_visibly(library: Library) -> None:
    _hostile_library(library)
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.push_screen(StatsScreen(library, ["p-hostile"], filter_label="tag:\x1b[2J"))
        await settle(app, pilot)
        text = screen_text(app)
        assert_no_raw_controls(text)
        assert "␛]0;tag␇" in text and "a\\{b}" in text
        assert "This list: tag:␛[2J" in text


async def test_fields_left_alone_are_not_rewritten_or_refused() -> None:
    # A file's title with doubled spaces and a form feed, and a url with a space: opening
    # the dialog and saving an author change must neither clean the title nor refuse the url.
    paper = Paper(id="p2", title="Two  spaces\x0cand a feed", authors=("Ada",), url="https://x.org/a b")
    app = ModalHarness(EditDialog(PaperView(paper, Annotation())))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert "Two  spaces␌and a feed" in screen_text(app)
        app.screen.query_one("#edit-authors", Input).value = "Ada and Grace"
        await pilot.press("ctrl+s")
    assert app.result == {"authors": ["Ada", "Grace"]}


def test_folded_search_words_highlight_the_accented_text() -> None:
    # search matched "velez" (accents folded); the pane marks "Vélez", as shown
    from textual.content import Content

    from reader_tui.tui.widgets.paper_detail import _highlight

    marked = _highlight(Content("Müller, Hans; Vélez, Ana"), ("velez", "muller"))
    spans = sorted((span.start, span.end) for span in marked.spans)
    assert [marked.plain[a:b] for a, b in spans] == ["Müller", "Vélez"]


async def test_notifications_draw_control_characters(library: Library) -> None:
    # Notifications name files the user typed ("Exported 3 papers to <path>") and the
    # library's notices: every one goes through App.notify, which must not send an ESC.
    app = create_app(library)
    async with app.run_test() as pilot:
        await settle(app, pilot)
        app.screen.notify("Exported 1 paper to /tmp/x\x1b[2J.bib", title="t\x07", markup=False)
        await pilot.pause()
        shown = [(n.title, n.message) for n in app._notifications]
        assert ("t\u2407", "Exported 1 paper to /tmp/x\u241b[2J.bib") in shown, shown
