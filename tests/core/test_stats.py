"""Stats: status and tag counts, papers read per day from the status history, triage."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.stats import (
    decisions_since,
    library_numbers,
    read_date,
    reads_per_day,
    status_changes_per_day,
    triage_progress,
)

TODAY = date(2026, 3, 10)


def view(pid: str, status: Status = Status.UNREAD, tags: tuple[str, ...] = ()) -> PaperView:
    return PaperView(Paper(id=pid, title=pid), Annotation(status=status, tags=tags))


def read(*history: tuple[str, str]) -> Annotation:
    return Annotation(status=Status(history[-1][1]), history=[list(h) for h in history])


def test_library_numbers_counts_every_status_in_order_and_tags_by_use() -> None:
    views = [
        view("a", Status.READ, ("llm", "theory")),
        view("b", Status.READ, ("LLM",)),
        view("c", Status.TO_READ, ("rl",)),
        view("d", Status.SKIPPED, ("theory",)),
        view("e", tags=("llm", "agents")),
    ]
    numbers = library_numbers(views)
    assert numbers["papers"] == 5
    assert list(numbers["status"].items()) == [
        ("unread", 1), ("to-read", 1), ("reading", 0), ("read", 2), ("skipped", 1),
    ]  # fmt: skip
    # Case-insensitive under the first spelling; ties by name.
    assert list(numbers["tags"].items()) == [("llm", 3), ("theory", 2), ("agents", 1), ("rl", 1)]


def test_library_numbers_of_nothing() -> None:
    assert library_numbers([]) == {"papers": 0, "status": {s.value: 0 for s in Status}, "tags": {}}


def test_triage_progress_counts_every_decided_paper() -> None:
    views = [view("a"), view("b", Status.SKIPPED), view("c", Status.TO_READ), view("d")]
    assert triage_progress(views) == (2, 4)
    assert triage_progress([]) == (0, 0)


def test_a_paper_counts_on_the_day_it_last_became_read() -> None:
    annotations = {
        # read on the 8th
        "a": read(("2026-03-08T10:00:00+00:00", "read")),
        # read on the 1st, un-read on the 2nd, read again on the 9th: counts on the 9th only
        "b": read(
            ("2026-03-01T10:00:00+00:00", "read"),
            ("2026-03-02T10:00:00+00:00", "unread"),
            ("2026-03-09T10:00:00+00:00", "read"),
        ),
        # read, then un-read: does not count
        "c": read(("2026-03-09T10:00:00+00:00", "read"), ("2026-03-09T11:00:00+00:00", "unread")),
        # to-read then read today
        "d": read(("2026-03-05T10:00:00+00:00", "to-read"), ("2026-03-10T23:59:00+00:00", "read")),
        # read long ago: outside the window
        "e": read(("2025-12-01T10:00:00+00:00", "read")),
        # never touched
        "f": Annotation(),
    }
    series = reads_per_day(annotations, days=7, today=TODAY, tz=UTC)
    assert [d for d, _ in series] == [date(2026, 3, n) for n in range(4, 11)]
    assert dict(series) == {
        date(2026, 3, 4): 0, date(2026, 3, 5): 0, date(2026, 3, 6): 0, date(2026, 3, 7): 0,
        date(2026, 3, 8): 1, date(2026, 3, 9): 1, date(2026, 3, 10): 1,
    }  # fmt: skip
    # A list of annotations works as well as the store's dict.
    assert reads_per_day(list(annotations.values()), days=7, today=TODAY, tz=UTC) == series


def test_read_twice_in_a_row_counts_from_the_first() -> None:
    ann = read(("2026-03-03T10:00:00+00:00", "read"), ("2026-03-04T10:00:00+00:00", "read"))
    assert read_date(ann, UTC) == date(2026, 3, 3)


def test_days_follow_the_time_zone() -> None:
    ann = read(("2026-03-09T23:30:00+00:00", "read"))
    assert read_date(ann, UTC) == date(2026, 3, 9)
    assert read_date(ann, timezone(timedelta(hours=2))) == date(2026, 3, 10)


def test_bad_history_entries_are_skipped() -> None:
    ann = Annotation(status=Status.READ, history=[["yesterday", "read"]])
    assert read_date(ann, UTC) is None
    assert reads_per_day([ann], days=3, today=TODAY, tz=UTC) == [
        (date(2026, 3, 8), 0), (date(2026, 3, 9), 0), (date(2026, 3, 10), 0),
    ]  # fmt: skip
    # A naive time is taken as UTC, the store's convention.
    assert read_date(read(("2026-03-09T10:00:00", "read")), UTC) == date(2026, 3, 9)


def test_status_changes_and_decisions_count_every_change() -> None:
    annotations = [
        read(("2026-03-09T10:00:00+00:00", "read"), ("2026-03-09T11:00:00+00:00", "unread")),
        read(("2026-03-10T09:00:00+00:00", "skipped")),
    ]
    assert status_changes_per_day(annotations, days=2, today=TODAY, tz=UTC) == [
        (date(2026, 3, 9), 2), (date(2026, 3, 10), 1),
    ]  # fmt: skip
    assert decisions_since(annotations, datetime(2026, 3, 9, 10, 30, tzinfo=UTC)) == 2


def test_reads_per_day_from_a_real_store(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([Paper(id=f"p{n}", title=f"Paper {n}", abstract=f"About {n} things.") for n in range(4)])
    library.set_status(["p0", "p1"], Status.READ)
    library.toggle_read(["p1"])  # un-read again
    library.set_status(["p2"], Status.SKIPPED)
    today = datetime.now(UTC).date()
    assert reads_per_day(library.annotations, days=1, today=today, tz=UTC) == [(today, 1)]
    assert triage_progress(library.views()) == (2, 4)
    assert library_numbers(library.views())["status"]["read"] == 1
