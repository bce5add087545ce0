"""The saved-searches side list: each saved search with how many papers it finds now.

Hidden by default (`b` shows it) and at narrow widths. The screen hands down the rows
and recounts them off the UI thread when the library changes; enter on a row posts
`SavedSearchList.Chosen` and the screen runs that search.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader_tui.core.library.saved_searches import SavedSearch
from reader_tui.core.text.display import visible_controls

NAME_WIDTH = 40


class SavedSearchList(OptionList):
    """Saved searches with live counts (None: still counting)."""

    BINDINGS = [
        Binding("enter", "select", "Run saved search", id="saved.run"),
        Binding("j", "cursor_down", "Down", show=False, id="saved.down"),
        Binding("k", "cursor_up", "Up", show=False, id="saved.up"),
    ]

    class Chosen(Message):
        """The user picked the saved search `search`."""

        def __init__(self, search: SavedSearch) -> None:
            super().__init__()
            self.search = search

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "saved searches"
        self.searches: list[SavedSearch] = []
        self.counts: dict[str, int | None] = {}

    @property
    def shown(self) -> bool:
        """Asked for with `b` (CSS still hides it on narrow terminals)."""
        return self.has_class("-shown")

    @property
    def text(self) -> str:
        """The rows as plain text (for tests)."""
        return "\n".join(getattr(o.prompt, "plain", str(o.prompt)) for o in self.options)

    def show(self, searches: Sequence[SavedSearch], counts: Mapping[str, int | None]) -> None:
        """Show `searches`, each with its count in `counts` (by name; None: counting)."""
        self.searches = list(searches)
        self.counts = dict(counts)
        highlighted = self.highlighted
        if not self.searches:
            hint = "none yet: ctrl+p, “Save this search…”"
            self.set_options([Option(Content.styled(hint, "$text-muted italic"), disabled=True)])
            return
        options = []
        for search in self.searches:
            count = self.counts.get(search.name)
            shown = "…" if count is None else f"{count:,}"
            # The name is the user's own text: shown as typed, not as LaTeX or markup.
            name = visible_controls(search.name)
            if len(name) > NAME_WIDTH:
                name = name[: NAME_WIDTH - 1] + "…"
            prompt = Content.assemble(Content(name), "  ", (shown, "$text-muted"))
            options.append(Option(prompt))
        self.set_options(options)
        if highlighted is not None or self.has_focus:
            self.highlighted = min(highlighted or 0, len(options) - 1)

    def _on_focus(self, event) -> None:
        if self.highlighted is None and self.searches:
            self.highlighted = 0

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.searches):
            self.post_message(self.Chosen(self.searches[event.option_index]))
