"""The search line at the top: `/` opens it, escape takes it back, enter keeps the results.

`/` in the detail pane opens it to find in that paper instead (`finding`): the screen
hands what is typed to the detail pane rather than the list.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input

from .data_input import insert_typed_character


class FieldSuggester(Suggester):
    """Completes the search's field names as they are typed: `ar` -> `area:` (tab or →
    takes it), the word being typed being the query's last."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=False)

    async def get_suggestion(self, value: str) -> str | None:
        return self.complete(value)

    @staticmethod
    def complete(value: str) -> str | None:
        """`value` with its last word completed to a field name, None when none fits."""
        from reader_tui.core.search.query import FIELDS

        head, _, word = value.rpartition(" ")
        sign = word[:1] if word[:1] == "-" else ""
        word = word[len(sign):]
        if len(word) < 2 or ":" in word:
            return None
        for field in FIELDS:
            if field.startswith(word.casefold()) and field != word.casefold():
                return f"{head}{' ' if head or value.startswith(' ') else ''}{sign}{field}:"
        return None


class SearchBar(Input):
    """An Input that says when the user gives up on the search (escape)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel search", id="search.cancel"),
        Binding("tab", "complete", "Complete a field name", show=False, id="search.complete"),
    ]

    SEARCH_HINT = "search titles, abstracts, tags, notes  (tag:x status:read …)"
    REVIEWS_HINT = "search titles, abstracts, tags, notes  (tag:x status:read area:rl rating:>=6 …)"
    FIND_HINT = "find in this paper: enter keeps it, then n / N next / previous; escape ends it"

    class Cancelled(Message):
        """Escape: restore the list as it was before the search."""

    def __init__(self, **kwargs) -> None:
        super().__init__(placeholder=self.SEARCH_HINT, suggester=FieldSuggester(), **kwargs)
        self.finding = False
        """True while the bar finds in the detail pane, not the list."""
        self.reviews = False
        """The library holds reviews: the hint names their fields (area:, rating:)."""
        self.keys_after: Widget | None = None
        """What has the keys once enter or escape closes the bar: the list, or the detail
        pane it finds in."""
        self._keys_handed_on = False

    @property
    def search_hint(self) -> str:
        return self.REVIEWS_HINT if self.reviews else self.SEARCH_HINT

    def on_key(self, event: events.Key) -> None:
        # A busy app hands a fast typist's keys to the focused widget all at once, so
        # "⎋/diffusion" all reach this bar; as bindings, enter and escape would act only
        # once their key had bubbled up to the app, after the keys behind them. So they act
        # here, as they arrive, the keys go to `keys_after` at once (`focus()` would move
        # them after the keys already queued), and the keys that reached this bar behind
        # them go back to the app, which hands them on to where they were meant to go.
        if self._keys_handed_on and self.screen.focused is not self:
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
        elif event.key in ("escape", "enter") and self.keys_after is not None:
            event.stop()
            event.prevent_default()
            self._keys_handed_on = True
            self.screen.set_focus(self.keys_after)
            closing = self.Cancelled() if event.key == "escape" else self.Submitted(self, self.value)
            self.post_message(closing)
        else:
            # An ideographic space (U+3000) separates words too: Input alone drops it.
            insert_typed_character(self, event)

    def show_search(self, text: str) -> None:
        """Hold the list's search `text` (shown when there is one), as a search bar."""
        self.finding = False
        self.placeholder = self.search_hint
        with self.prevent(Input.Changed):
            self.value = text
        self.display = bool(text)

    def open_find(self, text: str, keys_after: Widget) -> None:
        """Open to find `text` in `keys_after`, the detail pane (typing changes it)."""
        self.keys_after, self._keys_handed_on = keys_after, False
        self.finding = True
        self.placeholder = self.FIND_HINT
        with self.prevent(Input.Changed):
            self.value = text
        self.display = True
        self.focus()

    def open_search(self, keys_after: Widget) -> None:
        """Open to search the list, `keys_after` (typing searches)."""
        self.keys_after, self._keys_handed_on = keys_after, False
        self.placeholder = self.search_hint
        self.display = True
        self.focus()

    def action_complete(self) -> None:
        """Tab: complete the field name being typed (`ar` -> `area:`), else the next widget."""
        completed = FieldSuggester.complete(self.value) if not self.finding and self.cursor_at_end else None
        if completed is None:
            self.screen.focus_next()
            return
        self.value = completed
        self.cursor_position = len(completed)

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
