"""Where the list has been: a small jump list, like vim's (`ctrl+o` back, `ctrl+i` forward).

A `Place` is what the list shows (filter, search, "more like this") and the paper under
the cursor. The browser records the place it leaves at every jump (a search entered or
left, "more like this" and its escape, a filter set or cleared, a jump to a related
paper); `History` walks those places back and forth. No widgets here: the browser
applies a place.
"""

from __future__ import annotations

from dataclasses import dataclass

from reader_tui.core.search.filters import ListFilter


@dataclass(frozen=True, slots=True)
class MoreLike:
    """A "more like this" list: the papers similar to `source`, and how the status line names it."""

    source: str
    ids: tuple[str, ...]
    note: str


@dataclass(frozen=True, slots=True)
class Place:
    """What the list shows and the paper under its cursor."""

    list_filter: ListFilter
    search: str = ""
    more_like: MoreLike | None = None
    paper_id: str | None = None


class History:
    """Places left behind (`back`) and places come back from (`forward`)."""

    LIMIT = 100

    def __init__(self) -> None:
        self._back: list[Place] = []
        self._forward: list[Place] = []

    @property
    def can_go_back(self) -> bool:
        return bool(self._back)

    @property
    def can_go_forward(self) -> bool:
        return bool(self._forward)

    def left(self, place: Place) -> None:
        """The list is about to leave `place` for another: remember it, and forget the
        places gone back from (a new jump starts a new way forward, as in vim)."""
        if not self._back or self._back[-1] != place:
            self._back.append(place)
            del self._back[: -self.LIMIT]
        self._forward.clear()

    def back(self, here: Place) -> Place | None:
        """The place before `here` (None: none), `here` kept for `forward`."""
        return self._step(self._back, self._forward, here)

    def forward(self, here: Place) -> Place | None:
        """The place gone back from last (None: none), `here` kept for `back`."""
        return self._step(self._forward, self._back, here)

    @staticmethod
    def _step(source: list[Place], target: list[Place], here: Place) -> Place | None:
        # As vim does: the place the user is at is kept once, at the end it is left
        # from, so going back from a place visited twice does not stop there again.
        source[:] = [place for place in source if place != here]
        if not source:
            return None
        target[:] = [place for place in target if place != here]
        target.append(here)
        return source.pop()
