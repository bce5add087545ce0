"""The help screen: every key, generated from the bindings themselves (Posting's way),
so it can never disagree with what the keys do."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ...core.paths import styles_dir
from ..keys import SEARCH_SYNTAX, grouped, legend
from ..widgets.key_scroll import KeyScroll

HelpEntry = tuple[str, str]
"""(keys as shown, what they do), e.g. ("j / ↓", "Down")."""
HelpSection = tuple[str, list[HelpEntry]]
"""(heading, its rows)."""


def _key_sections(screen: Screen) -> list[HelpSection]:
    return grouped(screen.app, [active.binding for active in screen.active_bindings.values()])


def help_sections(screen: Screen) -> list[HelpSection]:
    """The app's own bindings active on `screen` (its focused widget, its containers, the
    screen and the app), grouped as `tui.keys` says, one row per action.

    Textual's inherited bindings (they have no id) are left out; hidden ones (`show=False`,
    kept out of the footer) are listed, since help is where they belong. Over a screen
    that shows the paper list, the legend of its glyphs and the search syntax follow.
    """
    sections = _key_sections(screen)
    if screen.query("PaperList"):
        sections.append(("Marks at the start of a row", legend()))
        sections.append(("Search syntax (/; enter keeps the results, escape restores)", list(SEARCH_SYNTAX)))
    return sections


def help_entries(screen: Screen) -> list[HelpEntry]:
    """The key rows of `help_sections(screen)`, in order."""
    return [row for _, rows in _key_sections(screen) for row in rows]


class HelpScreen(ModalScreen[None]):
    """Lists `entries` (rows, or sections of rows); without them, the keys of the screen
    it was opened over, grouped, with the glyph legend and search syntax of the main
    screen."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close help", id="help.close"),
    ]

    def __init__(
        self, entries: Sequence[HelpEntry] | Sequence[HelpSection] | None = None, *, title: str = "Keys"
    ) -> None:
        super().__init__()
        self.sections: list[HelpSection] | None = None
        if entries is not None:
            rows = list(entries)
            is_sections = bool(rows) and isinstance(rows[0][1], list)
            self.sections = rows if is_sections else [("", rows)]  # type: ignore[list-item]
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with KeyScroll(id="help-scroll"):
                yield Static(id="help-table")
            yield Static("escape, q or ? closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        if self.sections is None:
            stack = self.app.screen_stack
            below = stack[stack.index(self) - 1] if self in stack and stack.index(self) > 0 else None
            self.sections = help_sections(below) if below is not None else []
        self.query_one("#help-table", Static).update(self.table(self.sections))
        self.query_one("#help-scroll").focus()

    @staticmethod
    def table(sections: Sequence[HelpSection]) -> Content:
        """Each section's heading, then two aligned columns: keys in bold, then the
        description (both shown literally)."""
        rows = [row for _, section in sections for row in section]
        if not rows:
            return Content.styled("no keys to show", "dim italic")
        width = min(max(len(keys) for keys, _ in rows), 18)
        lines: list[Content] = []
        for heading, section in sections:
            if heading:
                if lines:
                    lines.append(Content(""))
                lines.append(Content.styled(heading, "bold $text-primary"))
            lines += [Content.assemble((keys.ljust(width), "bold"), "  ", text) for keys, text in section]
        return Content("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)
