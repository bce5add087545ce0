"""Related papers under the detail pane: the five papers most like the current one.

The screen hands down (id, title, score) rows; enter on a row posts `RelatedList.Chosen`
and the screen moves the list's cursor there. Titles are data: each row is a `Content`.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader_tui.core.text.display import one_line

COMPUTING = "related: computing…"


class RelatedList(OptionList):
    """Up to five related papers; `]` / `[` on the main screen walk them, enter jumps."""

    BINDINGS = [
        Binding("enter", "select", "Go to related paper", id="related.open"),
        Binding("j", "cursor_down", "Down", show=False, id="related.down"),
        Binding("k", "cursor_up", "Up", show=False, id="related.up"),
    ]

    class Chosen(Message):
        """The user picked the related paper `paper_id`."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # Out of the tab order (tab / shift+tab stay list, detail, notes): `]` and `[`
        # make it focusable while they walk it.
        self.can_focus = False
        self.border_title = "related"
        self.paper_ids: list[str] = []
        self.state = "computing"

    @property
    def text(self) -> str:
        """The rows as plain text (for tests)."""
        return "\n".join(getattr(o.prompt, "plain", str(o.prompt)) for o in self.options)

    def show_computing(self) -> None:
        """The related-papers index is still being built."""
        self._set_rows("computing", [], COMPUTING)

    def show_papers(self, rows: Sequence[tuple[str, str, float]]) -> None:
        """Show `rows` of (paper id, title, cosine score), best first."""
        self._set_rows("ready", rows, "no related papers")

    def _set_rows(self, state: str, rows: Sequence[tuple[str, str, float]], empty: str) -> None:
        ids = [pid for pid, _title, _score in rows]
        if state == self.state and ids == self.paper_ids and rows:
            return
        self.state = state
        self.paper_ids = ids
        if not rows:
            self.set_options([Option(Content.styled(empty, "$text-muted italic"), disabled=True)])
            return
        options = []
        for n, (pid, title, _score) in enumerate(rows, 1):
            # the score stays out of the row: at the end a long title's ellipsis would hide it
            prompt = Content.assemble((f"{n} ", "$text-muted"), one_line(title))
            options.append(Option(prompt, id=pid))
        self.set_options(options)
        self.highlighted = None if not self.has_focus else 0

    def step(self, delta: int) -> None:
        """Focus the list and move the highlight by `delta`, wrapping around (`]` / `[`)."""
        if not self.paper_ids:
            return
        self.can_focus = True
        self.focus()
        count = len(self.paper_ids)
        if self.highlighted is None:
            self.highlighted = 0 if delta > 0 else count - 1
        else:
            self.highlighted = (self.highlighted + delta) % count

    def _on_blur(self, event) -> None:
        self.can_focus = False

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))
