"""Where the list has been: a small jump list, like vim's (`ctrl+o` back, `ctrl+i` forward),
and the lists that escape goes back to.

A `Place` is what the list shows (filter, search, "more like this") and the paper under
the cursor. The browser records the place it leaves at every jump (a search entered or
left, "more like this" and its escape, a filter set or cleared, a jump to a related
paper); `History` walks those places back and forth. `Underneath` holds what lies under the
list shown: the "more like this" lists, each over a `Snapshot` of the list it covered,
and during a search the list as it was before `/`; `saved_cursor` and `keep_cursor` the
paper the list was left on last time. No widgets here: the browser applies a place or a
snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reader_tui.core.search.filters import ListFilter


@dataclass(frozen=True, slots=True)
class MoreLike:
    """A "more like this" list: the papers similar to `source`, and how the status line names it."""

    source: str
    ids: tuple[str, ...]
    note: str


#: What a list looked like (ids, current paper, scroll, matched words), to show it again at once.
Snapshot = tuple[list[str], "str | None", float, Mapping[str, frozenset[str]]]

#: "More like this" lists, each over the list it replaced (None: to be recomputed).
MoreStack = list[tuple[MoreLike, "Snapshot | None"]]


@dataclass(frozen=True, slots=True)
class Place:
    """What the list shows and the paper under its cursor."""

    list_filter: ListFilter
    search: str = ""
    more_like: MoreLike | None = None
    paper_id: str | None = None


CURSOR_SETTING = "cursor"
"""The library setting that keeps the paper the list was left on ({"paper": id})."""


def saved_cursor(library: Any) -> str | None:
    """The paper the list was left on last time, if it is still in the library."""
    saved = library.settings.get(CURSOR_SETTING)
    paper = saved.get("paper") if isinstance(saved, dict) else None
    return paper if isinstance(paper, str) and paper in library.papers else None


def keep_cursor(library: Any, paper_id: str | None) -> None:
    """Keep `paper_id` as the paper to reopen the list on (unless the library cannot write)."""
    saved = library.settings.get(CURSOR_SETTING)
    if paper_id is None or saved == {"paper": paper_id} or library.read_only or library.writes_failing:
        return
    library.set_setting(CURSOR_SETTING, {"paper": paper_id})


VIEW_SETTING = "view"
"""The library setting that keeps the list's filter, search and scroll position as they
were left ({"statuses", "tags", "any_tag", "search", "filter_search", "scroll"})."""


@dataclass(frozen=True, slots=True)
class SavedView:
    """The filter, search and scroll position the list was left with."""

    list_filter: Any
    search: str = ""
    scroll: int | None = None


def saved_view(library: Any) -> SavedView | None:
    """The filter, search and scroll the list was left with (None: nothing saved, or
    something that no longer reads as one)."""
    from reader_tui.core.model import Status
    from reader_tui.core.search.filters import ListFilter

    saved = library.settings.get(VIEW_SETTING)
    if not isinstance(saved, dict):
        return None
    try:
        statuses = frozenset(Status(value) for value in saved.get("statuses", ()))
        tags = tuple(str(tag) for tag in saved.get("tags", ()))
        list_filter = ListFilter(statuses, tags, bool(saved.get("any_tag")), search=str(saved.get("filter_search", "")))
        scroll = saved.get("scroll")
        return SavedView(list_filter, str(saved.get("search", "")), scroll if isinstance(scroll, int) else None)
    except (TypeError, ValueError):  # a hand-edited or older setting: start with the whole list
        return None


def keep_view(library: Any, list_filter: Any, search: str, scroll: int) -> None:
    """Keep the filter, search and scroll position to reopen the list with (unless the
    library cannot write). Marks are not kept: they live as long as the app."""
    setting = {
        "statuses": sorted(status.value for status in list_filter.statuses),
        "tags": list(list_filter.tags),
        "any_tag": list_filter.any_tag,
        "filter_search": list_filter.search,
        "search": search,
        "scroll": scroll,
    }
    if library.settings.get(VIEW_SETTING) == setting or library.read_only or library.writes_failing:
        return
    library.set_setting(VIEW_SETTING, setting)


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


class Underneath:
    """What escape goes back to, over the list that the filter, sort and search make."""

    def __init__(self) -> None:
        self.more: MoreStack = []
        """The "more like this" lists shown, the last on top."""
        self.before_search: tuple[Snapshot, MoreStack] | None = None
        """The list before `/` and the "more like this" lists it showed (None: no search open)."""
        self.place_before_search: Place | None = None
        """Where `ctrl+o` goes back to once the search is entered."""

    @property
    def more_like(self) -> MoreLike | None:
        """The "more like this" list shown (None: none)."""
        return self.more[-1][0] if self.more else None

    def covered_list_changed(self) -> bool:
        """The list under the "more like this" lists changed: it is recomputed on escape.
        True when such lists are shown (the list shown stays)."""
        if not self.more:
            return False
        self.more = [(more, None) for more, _ in self.more]
        return True

    def clear(self, more: MoreLike | None = None) -> None:
        """Forget every layer (a place shown anew); `more`: the one "more like this"
        list that place shows, over a list recomputed on escape."""
        self.more = [(more, None)] if more is not None else []
        self.before_search = self.place_before_search = None

    def open_search(self, snapshot: Snapshot, place: Place) -> None:
        """The search bar opens over the list `snapshot` at `place` (a search over a
        search keeps the first list and goes back to the first place)."""
        self.place_before_search = place
        if self.before_search is None:
            self.before_search = (snapshot, self.more)
            self.more = []  # the search is over the whole (filtered) list

    def close_search(self, *, keep_open: bool) -> Snapshot | None:
        """The list to show again as a search ends (None: none was kept, recompute it);
        with `keep_open` the search text was only emptied and escape still restores."""
        if self.before_search is None:
            return None
        snapshot, more = self.before_search
        if keep_open:
            self.more = []
        else:
            self.more, self.before_search, self.place_before_search = more, None, None
        return snapshot
