"""The jump list on its own: vim's rules for back and forward."""

from __future__ import annotations

from reader_tui.core.search.filters import ListFilter
from reader_tui.tui.navigation import History, Place

WHOLE = Place(ListFilter(), paper_id="a")
SEARCH = Place(ListFilter(), "graph", paper_id="b")
OTHER = Place(ListFilter(), "rl", paper_id="c")


def test_back_and_forward_retrace_the_places_left() -> None:
    history = History()
    assert history.back(WHOLE) is None
    history.left(WHOLE)
    history.left(SEARCH)
    assert history.back(OTHER) == SEARCH
    assert history.back(SEARCH) == WHOLE
    assert history.back(WHOLE) is None
    assert history.forward(WHOLE) == SEARCH
    assert history.forward(SEARCH) == OTHER
    assert history.forward(OTHER) is None


def test_a_place_visited_twice_is_kept_once_and_a_new_jump_drops_the_way_forward() -> None:
    history = History()
    for place in (WHOLE, SEARCH, OTHER):
        history.left(place)
    assert history.back(SEARCH) == OTHER  # at the search again: back goes to rl, then whole
    assert history.back(OTHER) == WHOLE
    history.left(WHOLE)  # a new jump from here
    assert not history.can_go_forward
