"""The search line at the top: `/` opens it, escape takes it back, enter keeps the results."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class SearchBar(Input):
    """An Input that says when the user gives up on the search (escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel search", id="search.cancel")]

    SEARCH_HINT = "search titles, abstracts, tags, notes  (tag:x status:read …)"
    FIND_HINT = "find in this paper: enter keeps it, then n / N next / previous; escape ends it"

    class Cancelled(Message):
        """Escape: restore the list as it was before the search."""

    def __init__(self, **kwargs) -> None:
        super().__init__(placeholder=self.SEARCH_HINT, **kwargs)

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
