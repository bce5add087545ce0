"""The search line at the top: `/` opens it, escape takes it back, enter keeps the results.

`/` in the detail pane opens it to find in that paper instead (`finding`): the screen
hands what is typed to the detail pane rather than the list.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from .data_input import insert_typed_character


class SearchBar(Input):
    """An Input that says when the user gives up on the search (escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel search", id="search.cancel")]

    SEARCH_HINT = "search titles, abstracts, tags, notes  (tag:x status:read …)"
    FIND_HINT = "find in this paper: enter keeps it, then n / N next / previous; escape ends it"

    class Cancelled(Message):
        """Escape: restore the list as it was before the search."""

    def __init__(self, **kwargs) -> None:
        super().__init__(placeholder=self.SEARCH_HINT, **kwargs)
        self.finding = False
        """True while the bar finds in the detail pane, not the list."""

    def on_key(self, event: events.Key) -> None:
        # An ideographic space (U+3000) separates words too: Input alone drops it.
        insert_typed_character(self, event)

    def show_search(self, text: str) -> None:
        """Hold the list's search `text` (shown when there is one), as a search bar."""
        self.finding = False
        self.placeholder = self.SEARCH_HINT
        with self.prevent(Input.Changed):
            self.value = text
        self.display = bool(text)

    def open_find(self, text: str) -> None:
        """Open to find `text` in the detail pane (typing changes it)."""
        self.finding = True
        self.placeholder = self.FIND_HINT
        with self.prevent(Input.Changed):
            self.value = text
        self.display = True
        self.focus()

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
