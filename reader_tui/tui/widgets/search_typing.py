"""An invisible widget for a search as it is typed: the keys that reach the list before
the search bar has focus.

The browser owns the search text and what the list shows (each change of the text is
searched at once: `ListingWorker` keeps a fast typist from queueing stale searches).
A fast "/attention" is queued at the list before the bar can take focus: `keys_ahead`
tells the browser which of those keys are search text, not keys for the list's bindings.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.widget import Widget

#: What `keys_ahead` gives for the `/` that opens the bar (as a binding, it would act only
#: once the key had bubbled up to the app, after the keys typed behind it) ...
OPEN = ""
#: ... and for an enter typed ahead of the bar (a line break is never search text: the
#: bar holds one line).
ENTER = "\n"


class SearchTyping(Widget):
    """The keys typed ahead of the search bar (nothing to show)."""

    DEFAULT_CSS = "SearchTyping { display: none; }"

    class TypedAhead(Message):
        """Keys meant for the search bar reached the list before the bar had focus."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._opening = False  # "/" went by: printable keys are search text

    def keys_ahead(self, event: events.Key) -> str | None:
        """The text `event` (a key that bubbled up from the list) adds to the search
        before the bar has focus (`OPEN`: it opens the bar; `ENTER`: it enters the search),
        or None when it is a key for the list."""
        if event.key == "slash" and not self._opening:
            self._opening = True
            return OPEN  # the bar opens in the same order as the keys typed after it
        elif self._opening and event.is_printable and event.character:
            return event.character
        elif self._opening and event.key == "enter":
            self._opening = False
            return ENTER  # "/graph⏎" typed ahead: the search is entered
        else:
            self._opening = False
        return None

    def keys_at_bar(self) -> None:
        """The search bar (or any other pane) has the keys now: none typed ahead of it."""
        self._opening = False
