"""tui.textual_patches: one test per touch of a Textual or Rich private name. Each fails
when the pinned name goes, changes its arguments or stops doing what the patch relies
on: after a Textual upgrade, start here."""

from __future__ import annotations

import inspect

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.css.stylesheet import Stylesheet
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widgets import Input, RadioButton, RadioSet, Static, TextArea
from textual.widgets.text_area import Document

from reader_tui.tui import textual_patches as patches


def params(function) -> list[str]:
    return list(inspect.signature(function).parameters)


class OneWidget(App[None]):
    def __init__(self, widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget() if callable(self.widget) else self.widget  # (a maker: made in the app)


# -- the app -----------------------------------------------------------------------------------


async def test_app_has_size_reads_the_size_of_the_last_resize() -> None:
    app = App()
    assert not patches.app_has_size(app, Size(80, 24))  # no Resize yet: `_size` is None
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert patches.app_has_size(app, Size(70, 20))
        assert not patches.app_has_size(app, Size(71, 20))


async def test_repaint_at_most_every_sets_the_repaint_timer_of_screens_made_after() -> None:
    import textual.screen

    before = textual.screen.UPDATE_PERIOD  # (a ReaderApp made earlier in this process set it)
    try:
        for rate in (60, 240):
            patches.repaint_at_most_every(1 / rate)
            app = App()
            async with app.run_test() as pilot:
                await pilot.pause()
                assert app.screen._update_timer._interval == pytest.approx(1 / rate)
    finally:
        textual.screen.UPDATE_PERIOD = before


async def test_fatal_error_line_replaces_textuals_traceback() -> None:
    assert params(App._fatal_error) == ["self"]
    assert params(App._close_messages_no_wait) == ["self"]

    class Breaks(patches.FatalErrorLine, App[None]):
        def fatal_error_line(self, error: BaseException) -> Text:
            return Text(f"one line: {error}")

        def on_mount(self) -> None:
            raise RuntimeError("broke")

    app = Breaks()
    assert app._exception is None and app._exit_renderables == []
    with pytest.raises(RuntimeError, match="broke"):
        async with app.run_test():
            pass
    assert isinstance(app._exception, RuntimeError)  # what the patch reads when no error is being handled
    assert app.return_code == 1


def test_fatal_error_line_ends_with_the_line_and_closes(monkeypatch) -> None:
    class Breaks(patches.FatalErrorLine, App[None]):
        def fatal_error_line(self, error: BaseException) -> Text:
            return Text(f"one line: {error}")

    app = Breaks()
    closed = []
    monkeypatch.setattr(app, "_close_messages_no_wait", lambda: closed.append(True))
    app._exception = RuntimeError("broke")
    app._fatal_error()
    assert [str(line) for line in app._exit_renderables] == ["one line: broke"] and closed == [True]


# -- the stylesheet ----------------------------------------------------------------------------


def test_parsed_rules_hook_sees_every_source_parse() -> None:
    assert params(Stylesheet._parse_rules) == ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
    seen = []

    class Hooked(patches.ParsedRulesHook):
        def parse_source(self, key, parse):
            rules = parse()
            seen.append((key, rules))
            return rules

    sheet = Hooked()
    sheet.add_source("Static { color: red; }", read_from=("here.tcss", ""))
    sheet.parse()
    (key, rules), = seen
    assert key == ("Static { color: red; }", ("here.tcss", ""), False, 0, "")
    assert rules and rules[0].selector_names == {"Static"}


def test_stylesheet_variables_is_the_dict_given_until_set_again() -> None:
    variables = {"primary": "red"}
    sheet = Stylesheet(variables=variables)
    assert patches.stylesheet_variables(sheet) is variables
    other = {"primary": "blue"}
    sheet.set_variables(other)
    assert patches.stylesheet_variables(sheet) is other


# -- screens -----------------------------------------------------------------------------------


class Ahead(Screen):
    def compose(self) -> ComposeResult:
        yield Static("ahead", id="ahead-line")


async def test_a_screen_styled_with_the_current_css_until_the_css_changes() -> None:
    app = App()
    async with app.run_test() as pilot:
        screen = app.screen
        patches.mark_styled_with_current_css(screen)
        assert patches.styled_with_current_css(screen)
        before = app._css_update_count
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        assert app._css_update_count > before  # a theme change counts as a CSS change
        assert not patches.styled_with_current_css(screen)  # (until Textual restyles it)
        await pilot.pause()


async def test_a_screen_started_unshown_composes_and_mounts() -> None:
    app = App()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = Ahead()
        app.install_screen(screen, "ahead")
        patches.start_screen_unshown(app, screen)
        await pilot.pause()
        assert screen.is_mounted and screen not in app.screen_stack
        assert screen.query_one("#ahead-line").is_mounted


async def test_lay_out_now_lays_out_an_unshown_screen() -> None:
    app = App()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = Ahead()
        app.install_screen(screen, "ahead")
        patches.start_screen_unshown(app, screen)
        await pilot.pause()
        patches.lay_out_now(screen, app.size)
        assert screen.size == Size(60, 20)
        assert screen.query_one("#ahead-line").region.width == 60


async def test_lay_out_if_required_lays_out_and_clears_the_request(monkeypatch) -> None:
    app = App()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = Ahead()
        app.install_screen(screen, "ahead")
        patches.start_screen_unshown(app, screen)
        await pilot.pause()
        laid_out = []
        monkeypatch.setattr(screen, "_refresh_layout", lambda size: laid_out.append(size))
        screen._layout_required = False
        patches.lay_out_if_required(screen)  # nothing asked for a layout: none
        assert laid_out == []
        screen.refresh(layout=True)  # what a header of another height comes to
        assert screen._layout_required
        patches.lay_out_if_required(screen)
        assert laid_out == [Size(60, 20)] and not screen._layout_required


# -- widgets -----------------------------------------------------------------------------------


async def test_update_scrollbars_takes_a_new_virtual_size() -> None:
    assert params(ScrollView._scroll_update) == ["self", "virtual_size"]
    view = ScrollView()
    async with OneWidget(view).run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        view.set_reactive(ScrollView.virtual_size, Size(40, 100))
        patches.update_scrollbars(view, Size(40, 100))
        assert view.show_vertical_scrollbar
        assert view.vertical_scrollbar.window_virtual_size == 100


async def test_content_style_getter_resolves_a_contents_styles() -> None:
    static = Static()
    async with OneWidget(static).run_test() as pilot:
        await pilot.pause()
        get_style = patches.content_style_getter(static)
        assert get_style("bold").bold
        segments = list(Content.styled("x", "bold").render(static.visual_style, parse_style=get_style))
        assert any(style is not None and style.bold for _, style in segments)


async def test_highlighted_radio_button_follows_the_keyboard() -> None:
    radios = RadioSet(RadioButton("one"), RadioButton("two"))
    async with OneWidget(radios).run_test() as pilot:
        radios.focus()
        await pilot.pause()
        await pilot.press("down")
        button = patches.highlighted_radio_button(radios)
        assert isinstance(button, RadioButton) and str(button.label) == "two"
        assert radios._selected == 1


async def test_drawn_value_input_draws_and_places_the_cursor_by_the_drawn_text() -> None:
    assert isinstance(inspect.getattr_static(Input, "_value"), property)
    assert params(Input._position_to_cell) == ["self", "position"]
    assert params(Input._cell_offset_to_index) == ["self", "offset"]

    class Shouting(patches.DrawnValueInput, Input):
        def drawn(self, text: str) -> str:
            return text.replace("a", "Ａ")  # one character each, two cells wide

    async with OneWidget(lambda: Shouting(value="abc")).run_test() as pilot:
        await pilot.pause()
        field = pilot.app.query_one(Shouting)
        assert field._value.plain == "Ａbc"
        assert field._position_to_cell(1) == 2  # after the wide character
        assert field._cell_offset_to_index(2) == 1
        assert "Ａbc" in "".join(segment.text for segment in field.render_line(0))


# -- the text area and its document --------------------------------------------------------


def test_markdown_highlighting_availability_comes_from_textuals_tree_sitter() -> None:
    from textual._tree_sitter import TREE_SITTER, get_language

    assert isinstance(TREE_SITTER, bool) and callable(get_language)
    assert patches.markdown_highlighting_available() == (TREE_SITTER and get_language("markdown") is not None)


def test_a_documents_lines_and_line_break_are_its_private_fields() -> None:
    document = Document("a\r\nb")
    assert patches.document_lines(document) is document.lines and document._newline == "\r\n"

    class Given(Document):
        def __init__(self, lines: list[str]) -> None:
            patches.set_document_lines(self, lines)

    lines = ["x\ry", "z"]
    given = Given(lines)
    assert given.text == "x\ry\nz" and given.newline == "\n" and given.line_count == 2
    assert patches.document_lines(given) is lines


async def test_replaces_document_puts_its_document_in_textareas_place() -> None:
    assert params(TextArea._set_document) == ["self", "text", "language"]

    class Keeps(Document):
        pass

    class Area(patches.ReplacesDocument, TextArea):
        def replacement_document(self, text, language):
            return Keeps(text)

    area = Area()
    async with OneWidget(area).run_test() as pilot:
        area.load_text("one\ntwo\nthree")
        await pilot.pause()
        assert type(area.document) is Keeps
        assert area.wrapped_document.document is area.document
        assert area.cursor_location == (0, 0) and area.virtual_size.height == 3


async def test_replace_as_typed_inserts_as_a_key_does() -> None:
    assert params(TextArea._restart_blink) == ["self"]
    assert params(TextArea._replace_via_keyboard) == ["self", "insert", "start", "end"]
    area = TextArea("ab")
    async with OneWidget(area).run_test() as pilot:
        area.focus()
        area.move_cursor((0, 1))
        patches.restart_cursor_blink(area)
        result = patches.replace_as_typed(area, "\u3000")
        await pilot.pause()
        assert area.text == "a\u3000b" and result is not None and result.end_location == (0, 2)
        area.undo()
        assert area.text == "ab"  # one undoable edit
        area.read_only = True
        assert patches.replace_as_typed(area, "x") is None and area.text == "ab"


# -- terminal input ------------------------------------------------------------------------


def test_the_linux_drivers_make_their_parser_from_their_modules_name(monkeypatch) -> None:
    from textual.drivers import linux_driver, linux_inline_driver

    for module in (linux_driver, linux_inline_driver):
        assert module.XTermParser is patches.XTermParser or issubclass(module.XTermParser, patches.XTermParser)
        assert "XTermParser(self._debug)" in inspect.getsource(module)
        monkeypatch.setattr(module, "XTermParser", module.XTermParser)  # restored after the test

    class Mine(patches.XTermParser):
        pass

    patches.use_input_parser(Mine)
    assert linux_driver.XTermParser is Mine and linux_inline_driver.XTermParser is Mine
    assert params(patches.XTermParser.feed) == ["self", "data"]


# -- Rich ----------------------------------------------------------------------------------


def test_line_starts_are_where_contents_wrap_starts_its_rows() -> None:
    text = "a few words that wrap over rows, and averyveryverylongwordfoldedover"
    for width in (7, 10, 16):
        rows = Content(text).wrap(width)
        starts = patches.line_starts(text, width)  # the rows after the first
        assert len(starts) == len(rows) - 1
        assert all(text[start:].startswith(row.plain.strip()) for start, row in zip(starts, rows[1:]))


def test_the_app_repaints_up_to_its_own_rate_unless_textual_fps_is_set(tmp_path, monkeypatch) -> None:
    import textual.screen

    from reader_tui.tui.app import REPAINTS_PER_SECOND, create_app
    from tui_support import make_library

    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    library = make_library(tmp_path / "lib")
    try:
        monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 1 / 60)
        monkeypatch.delenv("TEXTUAL_FPS", raising=False)
        create_app(library)
        assert textual.screen.UPDATE_PERIOD == pytest.approx(1 / REPAINTS_PER_SECOND)
        monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 1 / 60)
        monkeypatch.setenv("TEXTUAL_FPS", "30")  # the user's choice, which Textual read at its import
        create_app(library)
        assert textual.screen.UPDATE_PERIOD == pytest.approx(1 / 60)
    finally:
        library.close()
