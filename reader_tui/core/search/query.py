"""The search box's little language: free words, `"phrases"`, `-exclusions` and `field:value`.

    attention "linear attention" -softmax tag:llm -status:read year:2024..2026 venue:iclr is:marked
    rating:>=6 rating:4..6 reviews:>=3 spread:>=4 area:interpretability decision:oral -is:withdrawn
    is:moved moved:>=1 moved:<=-0.5

`parse_query` turns the text into a frozen `Query`; `core.search.SearchIndex` runs it.
Errors are `QueryError`s with a one-line message and the offending position, gentle
enough to show in a status line while the user is still typing. Deliberate leniencies,
because the search runs per keystroke:

* `tag:` with nothing after it yet is ignored rather than an error;
* `word:` with nothing after it ("GeoPurify: A Data-Efficient ...", a pasted title) is
  just a free word; only `name:value` with an alphabetic `name` is a field, and URLs
  (`https://...`) are free text;
* a lone `-` is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import DECISIONS, Status

#: Field names the parser accepts, in the order the help text lists them.
FIELDS = ("tag", "status", "is", "year", "venue", "rating", "reviews", "spread", "moved", "area", "decision", "by", "group")

#: Fields whose value is a number or a range of numbers (`>=6`, `4..6`, `5.5`), on a
#: paper's `Scores`: the mean rating, the number of reviews, highest minus lowest rating,
#: how far the mean rating moved since the snapshot before (`moved:>=1` rose by a point
#: or more, `moved:<=-1` fell as much; papers that never moved have no value).
NUMBER_FIELDS = ("rating", "reviews", "spread", "moved", "group")

#: Values of `is:`: marked (the list's selection), tagged (any tag), noted (any notes),
#: withdrawn (a withdrawn submission), reviewed (has reviews), moved (its mean rating moved
#: since the snapshot before, either way), conflict (a note a sync
#: kept both versions of, marked); group-to-read, group-reading, group-read: another
#: member of a reading group gave it that status (`by:NAME` one member's papers,
#: `group:>=2` papers that many members, you included, gave a status).
IS_VALUES = ("marked", "tagged", "noted", "withdrawn", "reviewed", "moved", "conflict", "group-to-read", "group-reading", "group-read")

_FIELD_RE = re.compile(r"([A-Za-z]+):(.*)\Z", re.S)
_YEAR_RE = re.compile(r"(?:(\d{4})?\.\.(\d{4})?|(>=|<=|>|<)?(\d{4}))\Z")
_NUM = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_NUMBER_RE = re.compile(rf"(?:({_NUM})?\.\.({_NUM})?|(>=|<=|>|<|=)?({_NUM}))\Z")


class QueryError(ValueError):
    """A query the parser cannot read: `message` is one line for the status bar and
    `position` the 0-based index in the query text where the trouble starts."""

    def __init__(self, message: str, position: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


@dataclass(frozen=True, slots=True)
class Filter:
    """One `field:value` condition. `value` is normalised: lower case, a status's
    canonical name (`to-read`), a year or year range as typed (`2024..2026`)."""

    field: str
    value: str
    negated: bool = False

    def __str__(self) -> str:
        value = f'"{self.value}"' if " " in self.value else self.value
        return f"{'-' if self.negated else ''}{self.field}:{value}"


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query. Everything must hold at once (AND):

    `terms` are free words (matched fuzzily, see `core.search`), `phrases` are exact
    substrings, `excluded` / `excluded_phrases` must not occur, `filters` are field
    conditions (`Filter.negated` for `-field:value`). `text` is what was typed.
    """

    terms: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    excluded_phrases: tuple[str, ...] = ()
    filters: tuple[Filter, ...] = ()
    text: str = ""

    @property
    def is_empty(self) -> bool:
        """True when the query selects every paper (nothing, or only blanks, was typed)."""
        return not (self.terms or self.phrases or self.excluded or self.excluded_phrases or self.filters)

    @property
    def has_text(self) -> bool:
        """True when the query ranks papers (free words or phrases), not only filters them."""
        return bool(self.terms or self.phrases)

    def __str__(self) -> str:
        """The query in canonical form; parsing it again gives an equal query (but `text`)."""
        parts = list(self.terms)
        parts += [f'"{p}"' for p in self.phrases]
        parts += [f"-{w}" for w in self.excluded]
        parts += [f'-"{p}"' for p in self.excluded_phrases]
        parts += [str(f) for f in self.filters]
        return " ".join(parts)

    def describe(self) -> str:
        """A short status-line summary: `search: muon optimizer · filter: tag:llm · without: softmax`."""
        pieces = []
        words = list(self.terms) + [f'"{p}"' for p in self.phrases]
        if words:
            pieces.append("search: " + " ".join(words))
        if self.filters:
            pieces.append("filter: " + " ".join(str(f) for f in self.filters))
        without = list(self.excluded) + [f'"{p}"' for p in self.excluded_phrases]
        if without:
            pieces.append("without: " + " ".join(without))
        return " · ".join(pieces) if pieces else "all papers"


def year_bounds(value: str) -> tuple[int, int]:
    """The inclusive year range a `year:` value names: `2026`, `2024..2026`, `..2020`,
    `>=2024`, `<2020`. The parser has validated `value`, so this never fails on its output."""
    m = _YEAR_RE.match(value)
    if m is None:
        raise ValueError(f"not a year or year range: {value!r}")
    lo, hi, op, year = m.groups()
    if year is None:
        return (int(lo) if lo else 0, int(hi) if hi else 9999)
    y = int(year)
    return {
        None: (y, y),
        ">=": (y, 9999),
        ">": (y + 1, 9999),
        "<=": (0, y),
        "<": (0, y - 1),
    }[op]


def number_bounds(value: str) -> tuple[float, float, bool, bool]:
    """The range a `rating:`/`reviews:`/`spread:` value names, as (low, high, low
    excluded, high excluded): `>=6` is (6, inf, False, False), `>6` (6, inf, True,
    False), `4..6` (4, 6, False, False), `6` (6, 6, ...). The parser has validated
    `value`, so this never fails on its output."""
    m = _NUMBER_RE.match(value)
    if m is None:
        raise ValueError(f"not a number or range: {value!r}")
    lo, hi, op, number = m.groups()
    inf = float("inf")
    if number is None:
        return (float(lo) if lo else -inf, float(hi) if hi else inf, False, False)
    n = float(number)
    return {
        None: (n, n, False, False),
        "=": (n, n, False, False),
        ">=": (n, inf, False, False),
        ">": (n, inf, True, False),
        "<=": (-inf, n, False, False),
        "<": (-inf, n, False, True),
    }[op]


def in_bounds(x: float, bounds: tuple[float, float, bool, bool]) -> bool:
    """True when `x` lies in the range `number_bounds` gave."""
    lo, hi, lo_open, hi_open = bounds
    return (x > lo if lo_open else x >= lo) and (x < hi if hi_open else x <= hi)


def parse_query(text: str) -> Query:
    """Parse what the user typed into a `Query`.

    Raises `QueryError` for an unclosed `"`, an unknown `field:value`, or a bad value of a
    known field (`status:done`, `year:soon`, `is:red`).
    """
    terms: list[str] = []
    phrases: list[str] = []
    excluded: list[str] = []
    excluded_phrases: list[str] = []
    filters: list[Filter] = []
    for pos, negated, chunk, quoted in _chunks(text):
        if quoted:
            if chunk.strip():
                (excluded_phrases if negated else phrases).append(" ".join(chunk.split()))
            continue
        m = _FIELD_RE.match(chunk)
        if m and not m.group(2).startswith("//"):
            name, value = m.group(1).lower(), m.group(2)
            if name in FIELDS:
                if value.startswith('"'):
                    value = value[1:-1] if len(value) > 1 and value.endswith('"') else value[1:]
                value = " ".join(value.split())
                if value:  # an empty value is a field still being typed: ignore it
                    filters.append(Filter(name, _field_value(name, value, pos), negated))
                continue
            if value:
                known = ", ".join(f"{f}:" for f in FIELDS)
                raise QueryError(
                    f'unknown field "{m.group(1)}:" (try {known}, or put the text in quotes)', pos
                )
            chunk = chunk[:-1]  # "GeoPurify:" is a word followed by a colon
        if negated:
            excluded.append(chunk)
        elif chunk:
            terms.append(chunk)
    return Query(
        terms=tuple(terms),
        phrases=tuple(phrases),
        excluded=tuple(excluded),
        excluded_phrases=tuple(excluded_phrases),
        filters=tuple(filters),
        text=text,
    )


def _chunks(text: str):
    """Yield `(position, negated, chunk, quoted)` for each whitespace-separated piece;
    a quoted phrase is one piece, and `field:"a b"` keeps its quotes inside the chunk."""
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start = i
        negated = text[i] == "-"
        if negated:
            i += 1
            if i == n or text[i].isspace():
                continue  # a lone "-"
        if text[i] == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise QueryError("unclosed quote: add a closing \"", i)
            yield start, negated, text[i + 1 : end], True
            i = end + 1
            continue
        j = i
        while j < n and not text[j].isspace():
            if text[j] == '"':
                # a quote inside a word only makes sense as field:"value with spaces"
                end = text.find('"', j + 1)
                if end < 0:
                    raise QueryError("unclosed quote: add a closing \"", j)
                j = end
            j += 1
        yield start, negated, text[i:j], False
        i = j


def _field_value(name: str, value: str, pos: int) -> str:
    """`value` of field `name` validated and normalised, or a QueryError at `pos`."""
    if name == "status":
        # status:read,to-read: any of them (the filter dialog's several statuses)
        parsed = []
        for one in value.split(","):
            if not one.strip():
                continue
            try:
                parsed.append(Status.parse(one.strip()).value)
            except ValueError:
                names = ", ".join(s.value for s in Status)
                raise QueryError(f'unknown status "{one.strip()}" (use one of: {names})', pos) from None
        if not parsed:
            raise QueryError(f'"status:{value}" names no status', pos)
        return ",".join(parsed)
    if name == "is":
        value = value.lower()
        if value not in IS_VALUES:
            raise QueryError(f'unknown "is:{value}" (use is:{", is:".join(IS_VALUES)})', pos)
        return value
    if name == "year":
        if not _YEAR_RE.match(value):
            raise QueryError(f'"year:{value}" is not a year (try year:2026 or year:2024..2026)', pos)
        return value
    if name in NUMBER_FIELDS:
        if not _NUMBER_RE.match(value) or (name != "moved" and "-" in value):
            raise QueryError(f'"{name}:{value}" is not a number or range (try {name}:>=6 or {name}:4..6)', pos)
        return value
    if name == "decision":
        value = value.lower()
        if value not in DECISIONS:
            raise QueryError(f'unknown "decision:{value}" (use decision:{", decision:".join(DECISIONS)})', pos)
        return value
    return value.lower()  # tag (tag:a,b: any of them), venue, area
