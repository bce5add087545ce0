"""`reader-tui stats`: counts by status and tag, and papers read per day.

Every figure comes from `core.stats.numbers_for`, the stats screen's source too.
"""

from __future__ import annotations

import argparse
from datetime import date

from ..core.library.library import Library
from ..core.stats import Numbers, RatingNumbers, numbers_for, rating_numbers
from ..core.text.words import counted
from .options import open_library
from .output import EXIT_OK


def print_stats(library: Library, *, as_json: bool = False, today: date | None = None) -> None:
    """Print the library's counts, as text or (`as_json`) one JSON object."""
    from ..core.text.display import safe_json, visible_controls

    figures = whole_library(library, today)
    ratings = rating_numbers(library.papers.values())
    if as_json:
        data = {"papers": figures.papers, "status": figures.status, "tags": figures.tags}
        if ratings.rated or ratings.withdrawn:
            data["ratings"] = {
                "rated": ratings.rated,
                "withdrawn": ratings.withdrawn,
                "unrated": ratings.unrated,
                "mean": None if ratings.mean is None else round(ratings.mean, 2),
                "histogram": {f"{i}-{i + 1}": n for i, n in enumerate(ratings.histogram)},
                "per_area": [
                    {"area": area, "rated": n, "mean": round(mean, 2), "rated_6_or_more": high}
                    for area, n, mean, high in ratings.per_area
                ],
            }
        print(safe_json(data))
        return
    print(counted(figures.papers, "paper"))
    for status, count in figures.status.items():
        print(f"  {status:<8} {count:>6}")
    if figures.tags:
        print("tags")
        for tag, count in figures.tags.items():
            print(f"  {visible_controls(tag):<20} {count:>6}")
    print(per_day_line(figures.per_day))
    if ratings.rated:
        for line in rating_lines(ratings):
            print(line)


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


def rating_lines(ratings: RatingNumbers, width: int = 40) -> list[str]:
    """The rating distribution as text: a bar per whole step of mean rating, then per
    primary area how many papers have ratings, their mean, and how many reach 6."""
    from ..core.text.display import one_line

    left_out = f"; {ratings.withdrawn} withdrawn left out" if ratings.withdrawn else ""
    lines = [f"mean rating per paper ({ratings.rated} papers with reviews{left_out}; mean {ratings.mean:.2f})"]
    most = max(ratings.histogram) or 1
    for step, count in enumerate(ratings.histogram):
        bar = "█" * round(count * width / most)
        upper = "10" if step == 9 else f"<{step + 1}"
        lines.append(f"  {step:>2}-{upper:<3} {bar:<{width}} {count:>6}")
    lines.append("per area                                             papers   mean  >=6")
    for area, count, mean, high in ratings.per_area:
        lines.append(f"  {one_line(area, 50):<50} {count:>6}  {mean:>5.2f}  {round(100 * high / count):>3}%")
    return lines


def cmd_stats(args: argparse.Namespace) -> int:
    print_stats(open_library(args), as_json=args.json)
    return EXIT_OK
