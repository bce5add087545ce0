"""Pick one of the library's tags: for "more like tag:X", the list ranked by a model of
that tag's papers (from the sort dialog's `l`, or the palette's "More like tag…").

Typing narrows the tags (any part of the name, any case), up and down move, enter
picks the one highlighted, escape cancels. It only collects the tag: the caller orders
the list.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...core.paths import styles_dir
from ...core.text.display import one_line, visible_controls


class TagPicker(ModalScreen[str | None]):
    """Choose a tag; dismisses with it, or None when cancelled."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="tags.cancel"),
        Binding("down", "move(1)", "Next tag", show=False, id="tags.down"),
        Binding("up", "move(-1)", "Previous tag", show=False, id="tags.up"),
    ]

    def __init__(self, tags: Mapping[str, int], current: str | None = None, title: str = "More like tag") -> None:
        """`tags`: each tag with its number of papers (most first in the list)."""
        super().__init__()
        self.tags = sorted(tags, key=lambda tag: (-tags[tag], tag.casefold()))
        self.counts = dict(tags)
        self.current = current
        self.title_text = title
        self.shown: list[str] = list(self.tags)

    def compose(self) -> ComposeResult:
        with Vertical(id="tag-picker", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(
                "the list ranked by a model of the papers with the tag",
                classes="dialog-subtitle", markup=False,
            )
            yield Input(placeholder="type to narrow the tags", id="tag-picker-query")
            yield OptionList(id="tag-picker-tags")
            yield Static("enter picks · ↑ ↓ move · escape cancels", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self._show("")
        self.query_one("#tag-picker-query", Input).focus()

    def _show(self, text: str) -> None:
        wanted = text.strip().casefold()
        self.shown = [tag for tag in self.tags if wanted in tag.casefold()]
        options = self.query_one("#tag-picker-tags", OptionList)
        options.clear_options()
        options.add_options(
            Option(Content(f"{one_line(visible_controls(tag), 40)}  ({self.counts[tag]})")) for tag in self.shown
        )
        if self.shown:
            options.highlighted = self.shown.index(self.current) if self.current in self.shown and not wanted else 0

    @on(Input.Changed, "#tag-picker-query")
    def _narrow(self, event: Input.Changed) -> None:
        self._show(event.value)

    @on(Input.Submitted, "#tag-picker-query")
    def _submitted(self) -> None:
        self._pick(self.query_one("#tag-picker-tags", OptionList).highlighted)

    @on(OptionList.OptionSelected, "#tag-picker-tags")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._pick(event.option_index)

    def _pick(self, index: int | None) -> None:
        if index is None or not self.shown:
            self.app.bell()  # no tag matches what is typed
            return
        self.dismiss(self.shown[index])

    def action_move(self, step: int) -> None:
        options = self.query_one("#tag-picker-tags", OptionList)
        if self.shown:
            options.highlighted = ((options.highlighted or 0) + step) % len(self.shown)

    def action_cancel(self) -> None:
        self.dismiss(None)
