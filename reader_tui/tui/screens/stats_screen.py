"""The stats screen: reading progress for the library and for the current filter.

Papers per status as bars, triage progress, papers read per day over the last four weeks
as a Sparkline, the total read in big Digits, and the fifteen most used tags as a bar
chart; in a library with reviews, the distribution of the papers' mean ratings and, per
primary area, how many papers have ratings, their mean and how many reach 6. The
numbers come from `core.stats` (the same as `reader-tui stats`), computed in a thread
worker and handed to the widgets in one message.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from rich.cells import cell_len, set_cell_size
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Digits, Footer, ProgressBar, Sparkline, Static

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.stats import DAYS, Numbers, RatingNumbers, numbers_for, rating_numbers
from reader_tui.core.text.display import visible_controls

from ..widgets.key_scroll import KeyScroll

TOP_TAGS = 15
BAR = 24
_EIGHTHS = " ▏▎▍▌▋▊▉"
STATUS_STYLES = {
    Status.UNREAD.value: "$foreground-darken-3",
    Status.TO_READ.value: "$text-primary",
    Status.READING.value: "$text-warning",
    Status.READ.value: "$text-success",
    Status.SKIPPED.value: "$text-secondary",
}


def compute_numbers(library: Library, ids: Sequence[str] | None, today: date | None = None) -> Numbers:
    """The numbers for `ids` (None: every paper), from `core.stats.numbers_for` like the CLI's."""
    return numbers_for(library.papers if ids is None else ids, library.annotations, DAYS, today)


def bar(value: int, most: int, width: int = BAR) -> str:
    """A horizontal bar of `value` out of `most`, `width` cells, in eighths of a cell."""
    if most <= 0 or value <= 0:
        return ""
    eighths = max(1, round(value / most * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def bar_lines(counts: dict[str, int], most: int, styles: dict[str, str] | None = None, label: int = 10) -> Content:
    """One line per entry: name, bar, count. Names are data (tags): never markup."""
    lines = []
    for name, count in counts.items():
        style = (styles or {}).get(name, "$text-accent")
        lines.append(
            Content.assemble(
                (fit_label(name, label), "bold" if styles else ""),
                " ",
                (bar(count, most).ljust(BAR), style),
                (f" {count:>6,}", "$text-muted"),
            )
        )
    return Content("\n").join(lines) if lines else Content.styled("no tags yet", "$text-muted italic")


def fit_label(text: str, width: int) -> str:
    """A tag or a filter as typed (not LaTeX; control characters shown as symbols) in
    exactly `width` cells: cut with "…" when longer, padded when shorter."""
    text = visible_controls(text)
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def date_axis(per_day: list[tuple[date, int]]) -> Content:
    """First and last day under a sparkline of one cell per day."""
    if not per_day:
        return Content("")
    first, last = per_day[0][0].strftime("%b %d"), per_day[-1][0].strftime("%b %d")
    gap = max(1, len(per_day) - len(first) - len(last))
    return Content.styled(f"{first}{' ' * gap}{last}", "$text-muted")


class StatsScreen(Screen[None]):
    """Numbers for the whole library and, when `ids` is given, for the current filter."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = [Binding("escape,q,S", "close", "Close", id="stats.close")]

    class Computed(Message):
        def __init__(self, numbers: list[Numbers], ratings: list[RatingNumbers]) -> None:
            super().__init__()
            self.numbers = numbers
            self.ratings = ratings

    def __init__(
        self, library: Library, ids: Sequence[str] | None = None, *, filter_label: str = "", today: date | None = None
    ) -> None:
        super().__init__()
        self.library = library
        self.ids = None if ids is None else list(ids)
        self.filter_label = filter_label
        self.today = today
        self.numbers: list[Numbers] = []
        self.ratings: list[RatingNumbers] = []

    def compose(self) -> ComposeResult:
        with KeyScroll(id="stats-scroll"):
            yield Static(Content.styled("Reading progress", "bold"), id="stats-title")
            with Horizontal(id="stats-columns"):
                yield from self._column("all", "Library")
                if self.ids is not None:
                    yield from self._column("filter", f"This list: {self.filter_label or 'the papers shown'}")
        yield Footer()

    def _column(self, key: str, heading: str) -> ComposeResult:
        with Vertical(classes="stats-column", id=f"stats-{key}"):
            yield Static(Content.styled(fit_label(heading, 60).rstrip(), "bold $text-primary"), classes="stats-heading")
            with Horizontal(classes="stats-read"):
                yield Digits("…", id=f"{key}-read")
                yield Static("", id=f"{key}-read-label", classes="stats-read-label")
            yield Static("triaged (not unread)", classes="stats-label")
            yield ProgressBar(show_eta=False, id=f"{key}-triaged")
            yield Static("papers per status", classes="stats-label")
            yield Static("", id=f"{key}-status")
            yield Static(f"papers read per day, last {DAYS} days", classes="stats-label")
            yield Sparkline([], id=f"{key}-spark", classes="stats-spark")
            yield Static("", id=f"{key}-days")
            yield Static("", id=f"{key}-per-day", classes="stats-note")
            yield Static(f"papers per tag, top {TOP_TAGS}", classes="stats-label")
            yield Static("", id=f"{key}-tags")
            # shown once there are ratings: a library without reviews looks as before
            with Vertical(id=f"{key}-reviews", classes="stats-reviews"):
                yield Static("mean rating per paper", classes="stats-label")
                yield Static("", id=f"{key}-ratings")
                yield Static("per primary area: rated papers, mean, how many ≥ 6", classes="stats-label")
                yield Static("", id=f"{key}-areas")

    def on_mount(self) -> None:
        self._compute()

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def _compute(self) -> None:
        numbers = [compute_numbers(self.library, None, self.today)]
        papers = self.library.papers
        ratings = [rating_numbers(papers.values())]
        if self.ids is not None:
            numbers.append(compute_numbers(self.library, self.ids, self.today))
            ratings.append(rating_numbers(papers[pid] for pid in self.ids if pid in papers))
        self.post_message(self.Computed(numbers, ratings))

    def on_stats_screen_computed(self, message: Computed) -> None:
        self.numbers = message.numbers
        self.ratings = message.ratings
        for key, numbers in zip(("all", "filter"), message.numbers):
            self._fill(key, numbers)
        scored = any(r.rated for r in message.ratings)
        for key, ratings in zip(("all", "filter"), message.ratings):
            self.query_one(f"#{key}-reviews").display = scored
            if scored:
                self._fill_ratings(key, ratings)

    def _fill_ratings(self, key: str, r: RatingNumbers) -> None:
        if not r.rated:
            self.query_one(f"#{key}-ratings", Static).update(Content.styled("no papers with ratings", "$text-muted italic"))
            self.query_one(f"#{key}-areas", Static).update("")
            return
        most = max(r.histogram) or 1
        steps = {f"{i}-{i + 1}": count for i, count in enumerate(r.histogram)}
        left_out = f" · {r.withdrawn:,} withdrawn left out" if r.withdrawn else ""
        note = Content.styled(f"{r.rated:,} papers with ratings, mean {r.mean:.2f}{left_out}", "$text-muted")
        self.query_one(f"#{key}-ratings", Static).update(Content("\n").join([bar_lines(steps, most, label=5), note]))
        lines = [
            Content.assemble(
                (fit_label(area, 30), "bold"),
                f" {mean:4.2f}",
                (f" {count:>6,} papers", "$text-muted"),
                (f" {high:>5,} ≥6", "$text-success"),
            )
            for area, count, mean, high in r.per_area
        ]
        self.query_one(f"#{key}-areas", Static).update(Content("\n").join(lines))

    def _fill(self, key: str, n: Numbers) -> None:
        read = n.status.get(Status.READ.value, 0)
        self.query_one(f"#{key}-read", Digits).update(f"{read:,}")
        noun = "paper" if n.papers == 1 else "papers"
        self.query_one(f"#{key}-read-label", Static).update(
            Content.assemble(("read", "bold"), f"\nof {n.papers:,} {noun}")
        )
        triaged = n.papers - n.status.get(Status.UNREAD.value, 0)
        self.query_one(f"#{key}-triaged", ProgressBar).update(total=max(n.papers, 1), progress=triaged)
        self.query_one(f"#{key}-status", Static).update(bar_lines(n.status, max(n.papers, 1), STATUS_STYLES))
        self.query_one(f"#{key}-spark", Sparkline).data = [count for _day, count in n.per_day]
        self.query_one(f"#{key}-days", Static).update(date_axis(n.per_day))
        total = sum(count for _day, count in n.per_day)
        best = max((count for _day, count in n.per_day), default=0)
        self.query_one(f"#{key}-per-day", Static).update(
            Content.styled(f"{total:,} read in {DAYS} days · best day {best:,}", "$text-muted")
        )
        top = dict(list(n.tags.items())[:TOP_TAGS])
        self.query_one(f"#{key}-tags", Static).update(bar_lines(top, max(top.values(), default=1), label=16))

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["StatsScreen", "Numbers", "compute_numbers", "bar", "bar_lines"]


