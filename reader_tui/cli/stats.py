"""`reader-tui stats`: counts by status and tag, and papers read per day.

Every figure comes from `core.stats.numbers_for`, the stats screen's source too.
"""

from __future__ import annotations

import argparse
from datetime import date

from ..core.library.library import Library
from ..core.stats import Numbers, numbers_for
from ..core.text.words import counted
from .options import open_library
from .output import EXIT_OK


def print_stats(library: Library, *, as_json: bool = False, today: date | None = None) -> None:
    """Print the library's counts, as text or (`as_json`) one JSON object."""
    from ..core.text.display import safe_json, visible_controls

    figures = whole_library(library, today)
    if as_json:
        print(safe_json({"papers": figures.papers, "status": figures.status, "tags": figures.tags}))
        return
    print(counted(figures.papers, "paper"))
    for status, count in figures.status.items():
        print(f"  {status:<8} {count:>6}")
    if figures.tags:
        print("tags")
        for tag, count in figures.tags.items():
            print(f"  {visible_controls(tag):<20} {count:>6}")
    print(per_day_line(figures.per_day))


def whole_library(library: Library, today: date | None = None) -> Numbers:
    """The whole library's figures, as the stats screen's "Library" column shows them."""
    return numbers_for(library.papers, library.annotations, today=today)


def reads_line(library: Library, today: date | None = None) -> str:
    """Papers read per day over the last 28 days as one line of block characters."""
    return per_day_line(whole_library(library, today).per_day)


def per_day_line(days: list[tuple[date, int]]) -> str:
    """`days` (from `Numbers.per_day`) as one line of block characters and a total."""
    most = max((count for _day, count in days), default=0)
    bars = "".join("·" if not count else "▁▂▃▄▅▆▇█"[min(7, (count * 8 - 1) // most)] for _day, count in days)
    total = sum(count for _day, count in days)
    return f"read per day {days[0][0]:%b %d} {bars} {days[-1][0]:%b %d}: {total} in {len(days)} days"


def cmd_stats(args: argparse.Namespace) -> int:
    print_stats(open_library(args), as_json=args.json)
    return EXIT_OK
