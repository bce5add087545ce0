"""An invisible widget for a search as it is typed: when typing pauses, and the keys that
reach the list before the search bar has focus.

The browser owns the search text and what the list shows; this owns the typing. Each
change of the text restarts a short timer (`SEARCH_DELAY`), so a word typed fast is
searched once; when it runs out, `SearchTyping.Paused` goes up to the browser. A fast
"/attention" is queued at the list before the bar can take focus: `keys_ahead` tells
the browser which of those keys are search text, not keys for the list's bindings.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

SEARCH_DELAY = 0.05
"""Seconds of no typing before the search runs."""


class SearchTyping(Widget):
    """The pause after typing, and the keys typed ahead of the search bar (nothing to show)."""

    DEFAULT_CSS = "SearchTyping { display: none; }"

    class Paused(Message):
        """Typing paused: search for the text typed."""

    class TypedAhead(Message):
        """Keys meant for the search bar reached the list before the bar had focus."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._timer: Timer | None = None
        self._opening = False  # "/" went by: printable keys are search text

    @property
    def pending(self) -> bool:
        """A change of the search text waits for typing to pause."""
        return self._timer is not None

    def typed(self) -> None:
        """The search text changed: search once typing pauses."""
        self.stop()
        self._timer = self.set_timer(SEARCH_DELAY, self._paused, name="search-debounce")

    def _paused(self) -> None:
        self._timer = None
        self.post_message(self.Paused())

    def stop(self) -> bool:
        """No search after the pause (the search is run now, or ends): True when one was due."""
        if self._timer is None:
            return False
        self._timer.stop()
        self._timer = None
        return True

    def keys_ahead(self, event: events.Key) -> str | None:
        """The text `event` (a key that bubbled up from the list) adds to the search
        before the bar has focus, or None when it is a key for the list."""
        if event.key == "slash" and not self._opening:
            self._opening = True
        elif self._opening and event.is_printable and event.character:
            return event.character
        else:
            self._opening = False
        return None

    def keys_at_bar(self) -> None:
        """The search bar (or any other pane) has the keys now: none typed ahead of it."""
        self._opening = False
