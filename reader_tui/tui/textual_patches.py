"""Every place reader-tui reaches into Textual's or Rich's private names, and only here.

Textual is pinned (pyproject), and each function or mixin below leans on a name Textual or
Rich may rename, change or drop in any release without notice. Each says why we need it
and what breaks if it changes; tests/tui/test_textual_patches.py holds one test per touch
that fails when the pinned name or behaviour changes, so a Textual upgrade starts there.
The rest of the TUI uses Textual's public API and these names.

What this module imports at its top is what the TUI's start loads anyway (tests/tui/
test_start_modules.py): the rest is imported where it is used.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich._wrap import divide_line  # (rich.text imports it too)
from rich.cells import cell_len, get_character_cell_size
from rich.console import RenderableType
from rich.text import Text
from textual._xterm_parser import XTermParser as XTermParser  # the base of our paste-safe parser
from textual.css.stylesheet import Stylesheet
from textual.geometry import Size

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.model import RuleSet
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import RadioButton, RadioSet, TextArea
    from textual.widgets.text_area import Document, EditResult


# -- the app -----------------------------------------------------------------------------------


def app_has_size(app: App, size: Size) -> bool:
    """True if `size` is the size the app already has (`App._size`; None before the first
    Resize). The app skips a Resize of its own size, which Textual would hand to every
    screen to lay out again. If `_size` goes, every resize is handled again (slower, not
    wrong)."""
    return app._size is not None and size == app._size


def repaint_at_most_every(seconds: float) -> None:
    """Screens made from now on repaint at most once every `seconds`
    (`textual.screen.UPDATE_PERIOD`, which each screen's repaint timer reads once, when it
    is made; Textual's default is 1/60 s, `TEXTUAL_FPS`). A repaint that comes due less
    than a period after the last one waits for the next tick of the timer: at 60 a second,
    a search's answer that lands just after the frame echoing the typed key waited up to
    17 ms on screen for nothing. Repaints still happen only when something changed. If the
    name goes, screens repaint at Textual's rate (slower answers, not wrong ones)."""
    import textual.screen

    textual.screen.UPDATE_PERIOD = seconds


class FatalErrorLine:
    """Mixin for an App (before `App` in its bases): an unexpected error ends the app with
    the renderable `fatal_error_line` gives, in place of Textual's screen of traceback
    (None keeps Textual's). It overrides `App._fatal_error` and uses `App._exception`
    (the error when it is no longer being handled), `App._exit_renderables` (printed
    once the screen is gone) and `App._close_messages_no_wait` (what Textual's own
    `_fatal_error` ends with). If these change, the user sees Textual's traceback again,
    or the app does not close after an error."""

    def fatal_error_line(self, error: BaseException) -> RenderableType | None:
        """What the terminal shows for `error` once the app has ended (None: Textual's traceback)."""
        return None

    def _fatal_error(self) -> None:
        app: Any = self
        error = sys.exc_info()[1] or app._exception
        line = None if error is None else self.fatal_error_line(error)
        if line is None:
            super()._fatal_error()  # type: ignore[misc]
            return
        app.bell()
        app._exit_renderables.append(line)
        app._close_messages_no_wait()


# -- the stylesheet ----------------------------------------------------------------------------


class ParsedRulesHook(Stylesheet):
    """A Stylesheet whose parse of one CSS source goes through `parse_source`: the place a
    cache of parsed rules hooks in. It overrides `Stylesheet._parse_rules`, which every
    source's parse passes through (with the arguments that make its key). If Textual
    renames it or changes its arguments, the cache is never asked (the start is slower)
    or the override fails."""

    def parse_source(self, key: tuple, parse: Callable[[], list[RuleSet]]) -> list[RuleSet]:
        """The rules of the source `key` (css, read_from, is_default_rules, tie_breaker,
        scope); `parse` parses it."""
        return parse()

    def _parse_rules(self, css: str, read_from: tuple[str, str], is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        parse = super()._parse_rules
        return self.parse_source((css, read_from, is_default_rules, tie_breaker, scope),
                                 lambda: parse(css, read_from, is_default_rules, tie_breaker, scope))


def stylesheet_variables(stylesheet: Stylesheet) -> dict[str, str]:
    """The CSS variables (the theme's) the stylesheet parses with (`Stylesheet._variables`):
    part of a parsed rule's cache key, and the same dict object until the theme changes.
    If it goes, the rules cache cannot tell themes apart."""
    return stylesheet._variables


# -- screens -----------------------------------------------------------------------------------


def styled_with_current_css(screen: Screen) -> bool:
    """True if `screen` was styled with the app's CSS as it is now (`Screen._css_update_count`
    against `App._css_update_count`, which Textual counts up at each CSS change: a theme).
    If they go, a screen is restyled in full each time it is shown again."""
    return screen._css_update_count == screen.app._css_update_count


def mark_styled_with_current_css(screen: Screen) -> None:
    """Record that `screen` is styled with the app's CSS as it is now: Textual then does
    not restyle it at its push (it compares the same two counts). If they go, the first
    push of a screen made ahead restyles it."""
    screen._css_update_count = screen.app._css_update_count


def lay_out_now(screen: Screen, size: Size) -> None:
    """Lay `screen` out at `size` now, shown or not (`Screen._refresh_layout`): Textual
    lays out only the screen on top, and a screen made ahead must know its rows before
    it is shown. If it goes, the screen made ahead is laid out only when shown."""
    screen._refresh_layout(size)


def lay_out_if_required(screen: Screen) -> None:
    """Lay an unshown `screen` out if a change asked for a layout (`Widget._layout_required`,
    which Textual clears once it has laid out) and mark it done. If it goes, the screen
    made ahead shows the rows of its previous layout until it is laid out on screen."""
    if screen._layout_required:
        screen._refresh_layout(screen.app.size)
        screen._layout_required = False


def start_screen_unshown(app: App, screen: Screen) -> None:
    """Start an installed `screen` as a first push does, without showing it: its CSS read
    (`App._load_screen_css`) and the screen registered (`App._register`), so it composes,
    mounts and styles off screen. If these change, the screen is made only at its first
    push (the first `R` takes twice as long) or this raises."""
    app._load_screen_css(screen)
    app._register(app, screen)


# -- widgets -----------------------------------------------------------------------------------


def update_scrollbars(widget: Widget, size: Size) -> None:
    """Update `widget`'s scrollbars for a new virtual `size` (`Widget._scroll_update`),
    without the relayout of the screen that setting `virtual_size` asks for. If it goes,
    the scrollbar keeps the old extent."""
    widget._scroll_update(size)


def content_style_getter(widget: Widget) -> Callable[[Any], Any]:
    """The function Textual's `Visual.to_strips` passes to `Content.render` as `parse_style`
    for `widget` (`Widget._get_style`): it resolves the widget's component classes and
    theme variables in a Content's styles. If it goes, styled text is drawn plain."""
    return widget._get_style


def highlighted_radio_button(radio_set: RadioSet) -> RadioButton | None:
    """The button the keyboard highlight is on (`RadioSet._selected`, its index), or None.
    If it goes, the arrows move the highlight without choosing the option."""
    from textual.widgets import RadioButton

    index = radio_set._selected
    if index is None:
        return None
    button = radio_set.children[index]
    return button if isinstance(button, RadioButton) else None


class DrawnValueInput:
    """Mixin for an Input (before `Input` in its bases): the value is drawn as `drawn(value)`,
    which must give one character for each character, so that the cursor, the selection
    and clicks keep their offsets into the real value. It overrides `Input._value` (the
    Text drawn), `Input._position_to_cell` and `Input._cell_offset_to_index`. If these
    change, control characters in a value reach the terminal or the cursor is drawn at
    the wrong cell."""

    def drawn(self, text: str) -> str:
        """What `text` (the value or a start of it) is drawn as, one character each."""
        return text

    @property
    def _value(self) -> Text:
        field: Any = self
        if field.password:
            return super()._value  # type: ignore[misc]
        text = Text(self.drawn(field.value), no_wrap=True, overflow="ignore", end="")
        return field.highlighter(text) if field.highlighter is not None else text

    def _position_to_cell(self, position: int) -> int:
        field: Any = self
        return cell_len(self.drawn(field.value[:position]))

    def _cell_offset_to_index(self, offset: int) -> int:
        field: Any = self
        cell_offset = 0
        offset += field.scroll_offset.x
        shown = self.drawn(field.value)
        for index, char in enumerate(shown):
            width = get_character_cell_size(char)
            if cell_offset <= offset < cell_offset + width:
                return index
            cell_offset += width
        return max(0, min(offset, len(shown)))


# -- the text area and its document --------------------------------------------------------


def markdown_highlighting_available() -> bool:
    """True if TextArea can highlight markdown here: tree-sitter and its markdown grammar
    installed (`textual._tree_sitter`). If it goes, the notes are plain text (this says
    False)."""
    try:
        from textual._tree_sitter import TREE_SITTER, get_language

        return bool(TREE_SITTER) and get_language("markdown") is not None
    except Exception:
        return False


def set_document_lines(document: Document, lines: list[str], newline: str = "\n") -> None:
    """Give a Document subclass its lines and line break without Document's __init__, which
    splits at every line break `str.splitlines` knows (`Document._lines`, `_newline`).
    If they change, the notes document is empty or cannot join its text."""
    document._newline = newline  # type: ignore[assignment]
    document._lines = lines


def document_lines(document: Document) -> list[str]:
    """The document's own list of lines, to edit in place (`Document._lines`). If it goes,
    an edit of the notes raises."""
    return document._lines


class ReplacesDocument:
    """Mixin for a TextArea (before `TextArea` in its bases): after TextArea makes its
    document from a text, `replacement_document` may give another in its place (None keeps
    TextArea's). It overrides `TextArea._set_document` and redoes what that does after
    making the document (`TextArea._build_highlight_map`,
    `TextArea._rewrap_and_refresh_virtual_size`). If these change, a note holding \\r,
    \\x0b or U+2028 changes merely by being shown, or loading a note raises."""

    def replacement_document(self, text: str, language: str | None) -> Document | None:
        """A document for `text` to use instead of TextArea's (None: TextArea's is right)."""
        return None

    def _set_document(self, text: str, language: str | None) -> None:
        from textual.widgets.text_area import DocumentNavigator, WrappedDocument

        area: Any = self
        super()._set_document(text, language)  # type: ignore[misc]
        document = self.replacement_document(text, language)
        if document is None:
            return
        area.document = document
        area.wrapped_document = WrappedDocument(document, tab_width=area.indent_width)
        area.navigator = DocumentNavigator(area.wrapped_document)
        area._build_highlight_map()
        area.move_cursor((0, 0))
        area._rewrap_and_refresh_virtual_size()


def restart_cursor_blink(area: TextArea) -> None:
    """Show the cursor now and blink from here, as a typed key does (`TextArea._restart_blink`).
    If it goes, the cursor may be hidden just after a key typed this way."""
    area._restart_blink()


def replace_as_typed(area: TextArea, text: str) -> EditResult | None:
    """Replace the selection with `text` as typing does: one undoable edit, the cursor after
    it, nothing done when read-only (`TextArea._replace_via_keyboard`). If it goes, the
    characters TextArea drops and pasted Windows line ends cannot be inserted."""
    return area._replace_via_keyboard(text, *area.selection)


# -- terminal input ------------------------------------------------------------------------


def use_input_parser(parser_class: type[XTermParser]) -> None:
    """Have Textual's Linux drivers read the terminal with `parser_class`: they make their
    parser from their module's `XTermParser` name when the app starts reading input. If
    that changes, pasted escapes are keys again (the paste-safe parser is not used)."""
    from textual.drivers import linux_driver, linux_inline_driver

    linux_driver.XTermParser = parser_class  # type: ignore[misc]
    linux_inline_driver.XTermParser = parser_class  # type: ignore[misc]


# -- Rich ----------------------------------------------------------------------------------


def line_starts(text: str, width: int) -> list[int]:
    """Where each wrapped row of `text` after the first starts at `width` cells, words
    folded when longer than a row: what Content.wrap breaks lines with
    (`rich._wrap.divide_line`). If it goes or breaks elsewhere, a long reviews line is
    wrapped whole (slower, same rows)."""
    return divide_line(text, width, fold=True)


__all__ = [
    "DrawnValueInput",
    "FatalErrorLine",
    "ParsedRulesHook",
    "ReplacesDocument",
    "XTermParser",
    "app_has_size",
    "content_style_getter",
    "document_lines",
    "highlighted_radio_button",
    "lay_out_if_required",
    "lay_out_now",
    "line_starts",
    "mark_styled_with_current_css",
    "markdown_highlighting_available",
    "replace_as_typed",
    "restart_cursor_blink",
    "set_document_lines",
    "start_screen_unshown",
    "styled_with_current_css",
    "stylesheet_variables",
    "update_scrollbars",
    "use_input_parser",
]

