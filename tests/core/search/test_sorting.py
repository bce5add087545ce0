"""Sorting the list: each field, reversing, ties and papers without dates."""

from __future__ import annotations

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.search.sorting import SORT_FIELDS, SortKey, sort_views


def view(pid: str, title: str, *, status: Status = Status.UNREAD, added: str = "", changed: str = "",
         override: str = "") -> PaperView:
    ann = Annotation(status=status, changed={"status": changed} if changed else {},
                     overrides={"title": override} if override else {})
    return PaperView(Paper(id=pid, title=title, added=added), ann)


def ids(views: list[PaperView]) -> list[str]:
    return [v.id for v in views]


def test_title_ignores_case_and_leading_punctuation_and_uses_overrides() -> None:
    views = [view("a", "zeta"), view("b", "Alpha"), view("c", '"Beta" rules'), view("d", "{GAMMA}"),
             view("e", "omega", override="aardvark")]
    assert ids(sort_views(views, SortKey("title"))) == ["e", "b", "c", "d", "a"]
    assert ids(sort_views(views, SortKey("title", reverse=True))) == ["a", "d", "c", "b", "e"]


def test_status_follows_the_reading_order_and_ties_go_by_title() -> None:
    views = [view("r", "b", status=Status.READ), view("u2", "z"), view("u1", "a"),
             view("t", "c", status=Status.TO_READ), view("s", "d", status=Status.SKIPPED)]
    assert ids(sort_views(views, SortKey("status"))) == ["u1", "u2", "t", "r", "s"]
    assert ids(sort_views(views, SortKey("status", reverse=True))) == ["s", "r", "t", "u1", "u2"]


def test_dates_sort_newest_first_and_undated_papers_stay_last_both_ways() -> None:
    views = [view("new", "x", added="2026-02-01T00:00:00+00:00"), view("none", "y"),
             view("old", "z", added="2025-01-01T00:00:00+00:00")]
    assert ids(sort_views(views, SortKey("added"))) == ["new", "old", "none"]
    assert ids(sort_views(views, SortKey("added", reverse=True))) == ["old", "new", "none"]


def test_last_changed_puts_the_latest_change_first() -> None:
    views = [view("a", "a", changed="2026-01-02T00:00:00+00:00"), view("b", "b"),
             view("c", "c", changed="2026-01-03T00:00:00+00:00")]
    assert ids(sort_views(views, SortKey("changed"))) == ["c", "a", "b"]
    assert ids(sort_views(views, SortKey("changed", reverse=True))) == ["a", "c", "b"]


def test_titles_sort_as_they_read_not_by_their_markup() -> None:
    views = [view("b", "Bayesian nets"), view("n", "**Name**: a method"), view("a", "An atlas"),
             view("m", "$\\mu$-Law"), view("z", "_Zeta_ functions")]
    assert ids(sort_views(views, SortKey("title"))) == ["a", "b", "n", "z", "m"]


def test_equal_keys_keep_the_given_order() -> None:
    views = [view(str(i), "same", added="2026-01-01T00:00:00+00:00") for i in range(5)]
    assert ids(sort_views(views, SortKey("added"))) == ["0", "1", "2", "3", "4"]
    assert ids(sort_views(views, SortKey("added", reverse=True))) == ["0", "1", "2", "3", "4"]


def test_returns_a_new_list_and_accepts_any_iterable() -> None:
    views = [view("b", "b"), view("a", "a")]
    result = sort_views(iter(views), SortKey())
    assert ids(result) == ["a", "b"] and ids(views) == ["b", "a"]


def test_unknown_field_is_refused_and_labels_read_well() -> None:
    with pytest.raises(ValueError, match="unknown sort field"):
        SortKey("colour")
    assert SortKey("changed", reverse=True).label == "last changed ↓"
    assert list(SORT_FIELDS) == ["title", "status", "added", "changed"]


def test_a_tag_names_its_model_and_goes_only_with_a_model_sort() -> None:
    assert SortKey("for-you").label == "for you"
    assert SortKey("for-you", tag="llm").label == "more like tag:llm"
    assert SortKey("for-you", True, tag="llm").label == "more like tag:llm (least likely first)"
    assert SortKey("for-you", tag="llm") != SortKey("for-you")
    with pytest.raises(ValueError, match="a tag orders only a model's sort"):
        SortKey("title", tag="llm")


@pytest.mark.parametrize("field", list(SORT_FIELDS))
@pytest.mark.parametrize("reverse", [False, True])
def test_a_changed_paper_put_back_in_place_lands_where_a_full_sort_puts_it(field, reverse) -> None:
    import random

    from reader_tui.core.search.sorting import order_key, reposition

    rng = random.Random(7)
    statuses = list(Status)
    views = {f"p{i}": view(f"p{i}", f"title {rng.randrange(1000):04}", status=rng.choice(statuses),
                           added=f"2026-01-{rng.randrange(1, 28):02}T00:00:00+00:00" if i % 5 else "",
                           changed=f"2026-02-{rng.randrange(1, 28):02}T00:00:{i % 60:02}+00:00" if i % 3 else "")
             for i in range(300)}
    key = SortKey(field, reverse)
    ids = [v.id for v in sort_views(views.values(), key)]
    for pid in ("p4", "p150", "p299"):  # each changes its status, title and dates
        views[pid] = view(pid, "title 0500", status=Status.SKIPPED, added="2026-01-15T00:00:00+00:00",
                          changed="2026-03-01T00:00:00+00:00")
    ids_of = reposition(ids, {"p4", "p150", "p299"}, lambda pid: order_key(key)(views[pid]))
    full = [v.id for v in sort_views(views.values(), key)]
    position = {pid: n for n, pid in enumerate(full)}
    # equal keys may keep another order; every paper's key is where the full sort has it
    assert [order_key(key)(views[pid]) for pid in ids_of] == [order_key(key)(views[pid]) for pid in full]
    assert sorted(ids_of, key=position.get) == full
