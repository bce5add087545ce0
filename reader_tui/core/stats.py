"""Reading statistics: status and tag counts, papers read per day, triage progress.

Pure functions of views and annotations (no store access). `numbers_for` is the one source of
the stats screen's and `reader-tui stats`'s figures, and `tag_counts` the one tag counter
(`Library.all_tags` too), so they cannot disagree. Days are calendar
days in the local time zone by default (the store records UTC times); `today` and `tz`
are injectable so tests do not depend on the clock or the machine's zone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from .model import Annotation, Paper, PaperView, Status

DAYS = 28


class Numbers(NamedTuple):
    """The figures for a set of papers: how many, per status (every status, in Status
    order), per tag (most used first) and read per day (oldest first)."""

    papers: int
    status: dict[str, int]
    tags: dict[str, int]
    per_day: list[tuple[date, int]]


class _Row(NamedTuple):  # what library_numbers reads of a view, without building Papers
    status: Status
    tags: tuple[str, ...]


def numbers_for(
    ids: Iterable[str],
    annotations: Mapping[str, Annotation],
    days: int = DAYS,
    today: date | None = None,
    tz: tzinfo | None = None,
) -> Numbers:
    """The figures for the papers `ids` (e.g. `Library.papers`, or the ids a filter shows),
    given every paper's annotation (`Library.annotations`; a paper without one is unread
    and untagged). Annotations of papers not in `ids` (kept for papers no longer in the
    catalog) count nowhere."""
    default = Annotation()
    chosen = [annotations.get(pid, default) for pid in ids]
    counts = library_numbers(_Row(a.status, a.tags) for a in chosen)
    return Numbers(counts["papers"], counts["status"], counts["tags"], reads_per_day(chosen, days, today, tz))


def tag_counts(tag_lists: Iterable[Iterable[str]]) -> dict[str, int]:
    """Tag -> how many of the lists carry it, most used first, ties by name.

    Tags count case-insensitively under their first spelling ("ML" and "ml" are one tag).
    """
    tags: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    for tag_list in tag_lists:
        for tag in tag_list:
            tags[spelled.setdefault(tag.casefold(), tag)] += 1
    return dict(sorted(tags.items(), key=lambda item: (-item[1], item[0].casefold())))


def library_numbers(views: Iterable[PaperView]) -> dict[str, Any]:
    """Counts for the stats screen: {"papers": n, "status": {value: n} in Status order
    (every status, zeros included), "tags": {tag: n} most used first}.

    Tags are counted by `tag_counts`.
    """
    status: Counter[Status] = Counter()
    tag_lists = []
    for view in views:
        status[view.status] += 1
        tag_lists.append(view.tags)
    return {
        "papers": len(tag_lists),
        "status": {s.value: status[s] for s in Status},
        "tags": tag_counts(tag_lists),
    }


def triage_progress(views: Iterable[PaperView]) -> tuple[int, int]:
    """(decided, total): a paper is decided once its status is anything but unread."""
    decided = total = 0
    for view in views:
        total += 1
        if view.status is not Status.UNREAD:
            decided += 1
    return decided, total


def read_date(annotation: Annotation, tz: tzinfo | None = None) -> date | None:
    """The day the paper last became read, or None when it is not read now.

    A paper read, un-read and read again counts on the last of those days; the start of
    the final run of "read" entries is used, so re-recording "read" does not move it.
    """
    if annotation.status is not Status.READ:
        return None
    when = None
    for time, status in reversed(annotation.history):
        if status != Status.READ.value:
            break
        when = time
    return None if when is None else _day(when, tz)


def reads_per_day(
    annotations: Iterable[Annotation] | Mapping[str, Annotation],
    days: int = 28,
    today: date | None = None,
    tz: tzinfo | None = None,
) -> list[tuple[date, int]]:
    """Papers read on each of the last `days` days, oldest first, ending `today`.

    Only papers whose status is read now count, each once, on the day it last became read
    (from `Annotation.history`). Every day appears, zeros included, for the sparkline.
    """
    per_day: Counter[date] = Counter()
    for annotation in _values(annotations):
        day = read_date(annotation, tz)
        if day is not None:
            per_day[day] += 1
    return _series(per_day, days, today, tz)


def status_changes_per_day(
    annotations: Iterable[Annotation] | Mapping[str, Annotation],
    days: int = 28,
    today: date | None = None,
    tz: tzinfo | None = None,
) -> list[tuple[date, int]]:
    """Status changes (every decision, undo included) on each of the last `days` days."""
    per_day: Counter[date] = Counter()
    for annotation in _values(annotations):
        for time, _status in annotation.history:
            day = _day(time, tz)
            if day is not None:
                per_day[day] += 1
    return _series(per_day, days, today, tz)


def decisions_since(annotations: Iterable[Annotation] | Mapping[str, Annotation], since: datetime) -> int:
    """How many status changes happened at or after `since` (an aware datetime): the
    triage screen's pace is this over the minutes since it opened."""
    count = 0
    for annotation in _values(annotations):
        for time, _status in annotation.history:
            moment = _parse(time)
            if moment is not None and moment >= since:
                count += 1
    return count


def _values(annotations: Iterable[Annotation] | Mapping[str, Annotation]) -> Iterable[Annotation]:
    return annotations.values() if isinstance(annotations, Mapping) else annotations


def _series(per_day: Counter[date], days: int, today: date | None, tz: tzinfo | None) -> list[tuple[date, int]]:
    if today is None:
        today = datetime.now(tz).date() if tz else date.today()
    first = today - timedelta(days=days - 1)
    return [(first + timedelta(days=n), per_day[first + timedelta(days=n)]) for n in range(max(days, 0))]


def _parse(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None  # a hand-edited or foreign history entry: skip it, never crash the stats
    # The store writes UTC with an offset; a naive time can only have come from elsewhere,
    # and UTC is the store's convention.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _day(text: str, tz: tzinfo | None) -> date | None:
    moment = _parse(text)
    return None if moment is None else moment.astimezone(tz).date()


class RatingNumbers(NamedTuple):
    """The rating distribution of a set of papers (withdrawn submissions left out and
    counted apart): how many have ratings, the histogram of their mean ratings in whole
    steps (`histogram[i]`: papers whose mean is at least i and below i + 1; 10 counts in
    9), the mean of the means, and per primary area (most papers first): (area, papers
    with ratings, mean of their means, how many have a mean of 6 or more)."""

    rated: int
    withdrawn: int
    unrated: int
    histogram: list[int]
    mean: float | None
    per_area: list[tuple[str, int, float, int]]


def rating_numbers(papers: Iterable[Paper]) -> RatingNumbers:
    """`RatingNumbers` of `papers` (e.g. `Library.papers.values()`, or a filter's)."""
    histogram = [0] * 10
    withdrawn = unrated = 0
    means: list[float] = []
    areas: dict[str, list[float]] = {}
    for paper in papers:
        if paper.withdrawn:
            withdrawn += 1
            continue
        scores = paper.scores
        if scores is None or not scores.ratings:
            unrated += 1
            continue
        mean = sum(scores.ratings) / len(scores.ratings)
        means.append(mean)
        histogram[min(9, max(0, int(mean)))] += 1
        areas.setdefault(paper.area or "(no area)", []).append(mean)
    per_area = sorted(
        ((area, len(xs), sum(xs) / len(xs), sum(1 for x in xs if x >= 6)) for area, xs in areas.items()),
        key=lambda row: (-row[1], row[0]),
    )
    return RatingNumbers(len(means), withdrawn, unrated, histogram, sum(means) / len(means) if means else None, per_area)
