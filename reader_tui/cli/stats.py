"""`reader-tui stats`: counts by status and tag, and papers read per day."""

from __future__ import annotations

import argparse
from datetime import date

from ..core.library.library import Library
from ..core.model import Status
from .options import open_library
from .output import EXIT_OK


def print_stats(library: Library, *, as_json: bool = False) -> None:
    """Print the library's counts, as text or (`as_json`) one JSON object."""
    from ..core.text.display import safe_json, visible_controls

    stats = library_stats(library)
    if as_json:
        print(safe_json(stats))
        return
    print(f"{stats['papers']} papers")
    for status, count in stats["status"].items():
        print(f"  {status:<8} {count:>6}")
    if stats["tags"]:
        print("tags")
        for tag, count in stats["tags"].items():
            print(f"  {visible_controls(tag):<20} {count:>6}")
    print(reads_line(library))


def library_stats(library: Library) -> dict:
    """Counts by status and tag (tags most used first)."""
    counts = {s.value: 0 for s in Status}
    for pid in library.papers:
        counts[library.annotation(pid).status.value] += 1
    tags = sorted(library.all_tags().items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    return {"papers": len(library), "status": counts, "tags": dict(tags)}


def reads_line(library: Library, today: date | None = None) -> str:
    """Papers read per day over the last 28 days as one line of block characters."""
    from ..core.stats import reads_per_day

    days = reads_per_day(library.annotations, 28, today)
    most = max((count for _day, count in days), default=0)
    bars = "".join("·" if not count else "▁▂▃▄▅▆▇█"[min(7, (count * 8 - 1) // most)] for _day, count in days)
    total = sum(count for _day, count in days)
    return f"read per day {days[0][0]:%b %d} {bars} {days[-1][0]:%b %d}: {total} in 28 days"


def cmd_stats(args: argparse.Namespace) -> int:
    print_stats(open_library(args), as_json=args.json)
    return EXIT_OK
