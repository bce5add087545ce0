"""The help screen: every key, generated from the bindings themselves (Posting's way),
so it can never disagree with what the keys do."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ...core.paths import styles_dir

HelpEntry = tuple[str, str]
"""(keys as shown, what they do), e.g. ("j / down", "Move down")."""


def help_entries(screen: Screen) -> list[HelpEntry]:
    """The bindings active on `screen` (its focused widget, its containers, the screen and
    the app), one row per action: keys that do the same thing share a row.

    Bindings without a description are left out (Textual's own plumbing has none); hidden
    ones (`show=False`, kept out of the footer) are listed, since help is where they belong.
    """
    rows: dict[tuple[str, str], list[str]] = {}
    for active in screen.active_bindings.values():
        binding: Binding = active.binding
        if not binding.description:
            continue
        keys = rows.setdefault((binding.action, binding.description), [])
        shown = screen.app.get_key_display(binding)
        if shown not in keys:
            keys.append(shown)
    return [(" / ".join(keys), description) for (_, description), keys in rows.items()]


class HelpScreen(ModalScreen[None]):
    """Lists `entries`; without them, the bindings of the screen it was opened over."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close help", id="help.close"),
    ]

    def __init__(self, entries: Sequence[HelpEntry] | None = None, *, title: str = "Keys") -> None:
        super().__init__()
        self.entries = list(entries) if entries is not None else None
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="help-scroll"):
                yield Static(id="help-table")
            yield Static("escape, q or ? closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        if self.entries is None:
            stack = self.app.screen_stack
            below = stack[stack.index(self) - 1] if self in stack and stack.index(self) > 0 else None
            self.entries = help_entries(below) if below is not None else []
        self.query_one("#help-table", Static).update(self.table(self.entries))
        self.query_one("#help-scroll").focus()

    @staticmethod
    def table(entries: Sequence[HelpEntry]) -> Content:
        """Two aligned columns: keys in bold, then the description (both shown literally)."""
        if not entries:
            return Content.styled("no keys to show", "dim italic")
        width = min(max(len(keys) for keys, _ in entries), 24)
        lines = [
            Content.assemble((keys.ljust(width), "bold"), "  ", description) for keys, description in entries
        ]
        return Content("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)
