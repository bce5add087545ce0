"""Counted nouns for messages: `counted(1, "entry")` is "1 entry", `counted(2, "entry")`
"2 entries"."""

from __future__ import annotations

_IRREGULAR = {"entry": "entries", "copy": "copies", "library": "libraries", "index": "indexes", "day": "days"}


def plural(noun: str) -> str:
    """The plural of an English `noun` of this program's messages."""
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def counted(count: int, noun: str, many: str | None = None) -> str:
    """`count` and `noun`, plural unless the count is one ("1 paper", "0 papers", "1,024 papers")."""
    return f"{count:,} {noun if count == 1 else many or plural(noun)}"
