"""The sort dialog: order the list by title, status, date added or last change; in a
library with reviews, by mean rating, rating spread (controversial papers first) or
confidence-weighted rating; or "for you" (a model of the user's decisions, offered when
the browser has one), or "more like tag:X" (a model of one tag's papers, once the
library has tags: `l` asks which tag, with `dialogs.tag_picker`).

A letter picks a field and applies at once (t, s, a, c; m, d, w; y, l); r flips the
direction. The app sorts, with `reader_tui.core.search.sorting.sort_views`. Under "for
you" a line says what the model learned from, or how many more decisions it needs.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, OptionList, Static
from textual.widgets.option_list import Option

from ...core.paths import styles_dir
from ...core.search.sorting import MODEL_FIELDS, SCORE_FIELDS, SORT_FIELDS, SortKey
from ...core.text.display import one_line, visible_controls
from ..widgets.marked_toggles import MarkedCheckbox

#: The key that picks each field.
FIELD_KEYS = {
    "title": "t", "status": "s", "added": "a", "changed": "c",
    "rating": "m", "spread": "d", "weighted": "w",
    "for-you": "y",
    "tag": "l",
}
#: The row that asks for a tag: "for you" with a tag's papers as what is wanted.
TAG_ROW = "tag"
#: How the dialog names the score fields (highest first: the spread sort is "controversial first").
SCORE_LABELS = {
    "rating": "mean rating, best first",
    "spread": "rating spread, controversial first",
    "weighted": "confidence-weighted rating, best first",
}


class SortDialog(ModalScreen[SortKey | None]):
    """Choose the list order; dismisses with a `SortKey`, or None when cancelled."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="sort.cancel"),
        Binding("r", "toggle_reverse", "Reverse", id="sort.reverse"),
        *(
            Binding(key, f"pick('{name}')", f"By {label}", show=False, id=f"sort.{name}")
            for name, label in {**SORT_FIELDS, **SCORE_FIELDS, **MODEL_FIELDS}.items()
            for key in [FIELD_KEYS[name]]
        ),
        Binding(FIELD_KEYS[TAG_ROW], f"pick('{TAG_ROW}')", "More like a tag", show=False, id="sort.more_like_tag"),
    ]

    def __init__(
        self,
        current: SortKey = SortKey(),
        *,
        scores: bool = False,
        for_you: tuple[bool, str] | None = None,
        tags: Mapping[str, int] | None = None,
    ) -> None:
        """`scores`: offer the orders by reviews (the library has some). `for_you`:
        whether "for you" can be chosen now and the line that says what it learned from
        or what it still needs (None: not offered). `tags`: the library's tags with their
        counts, for "more like tag:X" (offered with "for you", when there are some)."""
        super().__init__()
        self.current = current
        self.for_you = for_you
        self.tags = dict(tags or {}) if for_you is not None else {}
        shown = one_line(visible_controls(current.tag), 20) if current.tag else ""
        tag_row = {TAG_ROW: f"more like tag:{shown}…" if current.tag else "more like a tag…"}
        self.labels = {
            **SORT_FIELDS,
            **(SCORE_LABELS if scores or current.field in SCORE_FIELDS else {}),
            **(MODEL_FIELDS if for_you is not None else {}),
            **(tag_row if self.tags else {}),
        }
        self._fields = list(self.labels)

    def compose(self) -> ComposeResult:
        with Vertical(id="sort-dialog", classes="dialog"):
            yield Static("Sort by", classes="dialog-title", markup=False)
            yield OptionList(
                *(Option(Content(f"{FIELD_KEYS[name]}  {label}")) for name, label in self.labels.items()),
                id="sort-fields",
            )
            if self.for_you is not None:
                yield Static(self.for_you[1], id="sort-for-you", markup=False)
            scored = any(name in self.labels for name in SCORE_FIELDS)
            reverse = "Z to A, oldest, lowest first" if scored else "Z to A; dates oldest first"
            yield MarkedCheckbox(f"reverse ({reverse})", self.current.reverse, id="sort-reverse")
            yield Static("letter or enter apply · r reverse", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        fields = self.query_one("#sort-fields", OptionList)
        field = TAG_ROW if self.current.tag is not None else self.current.field
        fields.highlighted = self._fields.index(field) if field in self._fields else 0
        fields.focus()

    @property
    def key(self) -> SortKey:
        """The order highlighted now (the tag row: the tag shown now, if any)."""
        index = self.query_one("#sort-fields", OptionList).highlighted or 0
        reverse = self.query_one("#sort-reverse", Checkbox).value
        if self._fields[index] == TAG_ROW:
            return SortKey("for-you", reverse, tag=self.current.tag)
        return SortKey(self._fields[index], reverse)

    @on(OptionList.OptionSelected, "#sort-fields")
    def _apply(self) -> None:
        self._dismiss_if_possible()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the score and model letters only where those orders are offered
        return action != "pick" or parameters[0] in self.labels

    def action_pick(self, name: str) -> None:
        if name not in self._fields:
            return
        self.query_one("#sort-fields", OptionList).highlighted = self._fields.index(name)
        self._dismiss_if_possible()

    def _dismiss_if_possible(self) -> None:
        index = self.query_one("#sort-fields", OptionList).highlighted or 0
        if self._fields[index] == TAG_ROW:
            self._ask_tag()
            return
        key = self.key
        if key.field in MODEL_FIELDS and self.for_you is not None and not self.for_you[0]:
            # nothing kept yet: the model has nothing to learn from; the line says what it needs
            self.query_one("#sort-for-you", Static).add_class("-error")
            self.app.bell()
            return
        self.dismiss(key)

    def _ask_tag(self) -> None:
        """Which tag's papers the list should find more like (escape: back to this dialog)."""
        from reader_tui.tui.dialogs.tag_picker import TagPicker

        reverse = self.query_one("#sort-reverse", Checkbox).value

        def picked(tag: str | None) -> None:
            if tag is not None:
                self.dismiss(SortKey("for-you", reverse, tag=tag))

        self.app.push_screen(TagPicker(self.tags, self.current.tag), picked)

    def action_toggle_reverse(self) -> None:
        self.query_one("#sort-reverse", Checkbox).toggle()

    def action_cancel(self) -> None:
        self.dismiss(None)
