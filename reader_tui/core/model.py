"""The domain records: a catalog `Paper`, the user's `Annotation` of it, and `Status`.

`Paper` is what an importer produced (read-mostly, shared by everyone who imports the
same list). `Annotation` is what the user did with it (small, written often). They are
stored apart (see `library/library.py`) and joined into a `PaperView` for display and export.

Both convert to and from plain JSON-able dicts (`to_dict` / `from_dict`): that is the
on-disk shape, so renaming a field here is a store format change.
"""

from __future__ import annotations

import enum
import sys
import threading
from array import array
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from functools import partial
from itertools import accumulate
from typing import Any


class Status(str, enum.Enum):
    """Where a paper stands in the user's reading. `UNREAD` is the default."""

    UNREAD = "unread"
    TO_READ = "to-read"
    READING = "reading"
    READ = "read"
    SKIPPED = "skipped"

    @classmethod
    def parse(cls, text: str) -> Status:
        """The status named by `text` (case-insensitive, `_` or space for `-`).

        Raises ValueError with the accepted names when `text` names none.
        """
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        for status in cls:
            if status.value == key:
                return status
        if key == "toread":
            return cls.TO_READ
        names = ", ".join(s.value for s in cls)
        raise ValueError(f"unknown status {text!r} (expected one of: {names})")

    @property
    def mark(self) -> str:
        """A one-cell symbol for lists."""
        return _STATUS_MARKS[self]


_STATUS_MARKS = {
    Status.UNREAD: "·",
    Status.TO_READ: "○",
    Status.READING: "◐",
    Status.READ: "●",
    Status.SKIPPED: "✗",
}

NOTES_MARK = "✎"
"""The one-cell mark of a paper with notes (list rows, the legend in help)."""

#: The first line of a block of a note that both sides of a sync changed (both versions
#: kept, see `core.library.sync_merge`); `is:conflict` finds the notes that hold one.
CONFLICT_START = "<<<<<<< "
CONFLICT_MIDDLE = "======="
CONFLICT_END = ">>>>>>> "


def has_conflict(notes: str) -> bool:
    """True when a note holds a block a sync marked as changed on both sides (also for the
    search index's folded copy of a note: the marks survive folding)."""
    return CONFLICT_START.strip() in notes and CONFLICT_MIDDLE in notes and CONFLICT_END.strip() in notes


#: Fields of a paper the user may override by hand (`reader-tui edit`).
EDITABLE_FIELDS = ("title", "authors", "url", "citekey")


def now_iso() -> str:
    """The current time as an ISO 8601 UTC string with seconds (what the store records)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


#: Decision tiers, best first: what `decision:` matches and lists show.
DECISIONS = ("oral", "spotlight", "poster", "accept", "reject")

# Score tuples repeat from paper to paper (a few hundred distinct ones among 20,000
# papers): each distinct tuple is kept once.
_shared_tuples: dict[tuple[int, ...], tuple[int, ...]] = {}
#: a column as the catalog writes it (b"4,6,8", canonical: what `_column_text` makes) ->
#: its shared tuple
_columns: dict[bytes, tuple[int, ...]] = {b"": ()}
_decisions: dict[bytes, str] = {b"": ""}
_new_bytes = bytes.__new__
_BAR = b"|"


def _ints(value: Any, pid: str, name: str) -> tuple[int, ...]:
    if type(value) is not list or not all(type(v) is int for v in value):
        raise ValueError(f"paper {pid}: scores.{name} must be a list of integers")
    items = tuple(value)
    return _shared_tuples.setdefault(items, items)


def _mean(values: tuple[int, ...]) -> float | None:
    return sum(values) / len(values) if values else None


def _column(text: bytes) -> tuple[int, ...]:
    """The shared tuple of a canonical column text."""
    found = _columns.get(text)
    if found is None:
        items = tuple(int(x) for x in text.split(b","))
        found = _columns[text] = _shared_tuples.setdefault(items, items)
    return found


def _column_text(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def _decision(text: bytes) -> str:
    found = _decisions.get(text)
    if found is None:
        found = _decisions[text] = sys.intern(text.decode("utf-8", "surrogatepass"))
    return found


# What sorts read of each paper, by the text it is made from (a few thousand distinct
# among 20,000 papers): looking it up costs less than summing every paper's ratings.
class ScoreFigures(dict):
    """One sort's figure of a paper's `Scores` (None without ratings), by the part of
    its text the figure is made from: `figures.head(scores)` is that part, `figures[head]`
    the figure (made on the first miss). "rating" and "spread" are made from the
    ratings, "weighted" (`Scores.weighted_rating`) from the ratings and confidences."""

    def __init__(self, field: str) -> None:
        super().__init__()
        self.fields = 1 if field in ("rating", "spread") else 2
        self.field = field

    def head(self, scores: Scores) -> bytes:
        end = scores.find(_BAR)
        if self.fields == 2:
            end = scores.find(_BAR, end + 1)
        return scores[:end]

    def __missing__(self, head: bytes) -> float | None:
        scores = Scores(head + _BAR * (10 - self.fields))
        value = scores.rating if self.field == "rating" else scores.spread if self.field == "spread" else scores.weighted_rating
        self[head] = value
        return value


_score_figures: dict[str, ScoreFigures] = {}


def score_figures(field: str) -> ScoreFigures:
    """The shared table of `field`'s figures ("rating", "spread" or "weighted")."""
    table = _score_figures.get(field)
    if table is None:
        table = _score_figures.setdefault(field, ScoreFigures(field))
    return table


#: The names of a Scores' stored figures, in the order its constructor takes them.
SCORE_FIELDS = (
    "ratings", "confidences", "soundness_scores", "presentation_scores", "contribution_scores",
    "decision", "decision_text", "captured", "previous", "previous_captured",
)


class Scores(bytes):
    """What reviewers (and, once out, the decision) said of a paper, as lists, sorts and
    filters need it: each official review's numbers, aligned by review (`ratings[i]`,
    `confidences[i]`... are review i's; a review that did not give one is left out of
    that tuple, so means are over the reviews that did), the decision tier when known
    (one of `DECISIONS`, "" when unknown) and its text ("Accept (Oral)"), and when the
    scores were captured (`captured`: the newest change OpenReview recorded in the
    paper's forum, ISO time). `previous` holds the ratings of the capture before, when a
    newer snapshot changed them (4 -> 6 during the rebuttal), captured at
    `previous_captured`. The review texts are not here: `Library.forum` reads them.

    Kept as one bytes object, the catalog's own text of them (`to_text`), each figure
    read from it when asked for: a tuple of ten fields and its capture time were two
    objects of 194 bytes a paper (19 MB at 100,000 papers); this is one of about 100.
    Built with the fields as keywords (or positionally, in `SCORE_FIELDS`' order); equal
    when every field is (the text is canonical).
    """

    __slots__ = ()
    _fields = SCORE_FIELDS

    def __new__(
        cls,
        ratings: tuple[int, ...] | bytes = (),
        confidences: tuple[int, ...] = (),
        soundness_scores: tuple[int, ...] = (),
        presentation_scores: tuple[int, ...] = (),
        contribution_scores: tuple[int, ...] = (),
        decision: str = "",
        decision_text: str = "",
        captured: str = "",
        previous: tuple[int, ...] = (),
        previous_captured: str = "",
    ) -> Scores:
        if type(ratings) is bytes:  # its text, as copy and pickle give it back
            return _new_bytes(cls, ratings)
        columns = (ratings, confidences, soundness_scores, presentation_scores, contribution_scores, previous)
        parts = [_column_text(column) for column in columns]
        parts += [captured, previous_captured, decision, decision_text]
        return _new_bytes(cls, "|".join(parts).encode("utf-8", "surrogatepass"))

    def __getnewargs__(self) -> tuple[bytes]:
        return (bytes(self),)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in SCORE_FIELDS)
        return f"Scores({inner})"

    __str__ = __repr__

    def _part(self, index: int) -> bytes:
        return self.split(_BAR, 9)[index]

    def _text_part(self, index: int) -> str:
        return self._part(index).decode("utf-8", "surrogatepass")

    @property
    def ratings(self) -> tuple[int, ...]:
        return _column(self[: self.find(_BAR)])

    @property
    def confidences(self) -> tuple[int, ...]:
        return _column(self.split(_BAR, 2)[1])

    @property
    def soundness_scores(self) -> tuple[int, ...]:
        return _column(self._part(2))

    @property
    def presentation_scores(self) -> tuple[int, ...]:
        return _column(self._part(3))

    @property
    def contribution_scores(self) -> tuple[int, ...]:
        return _column(self._part(4))

    @property
    def previous(self) -> tuple[int, ...]:
        return _column(self._part(5))

    @property
    def captured(self) -> str:
        return self._text_part(6)

    @property
    def previous_captured(self) -> str:
        return self._text_part(7)

    @property
    def decision(self) -> str:
        return _decision(self._part(8))

    @property
    def decision_text(self) -> str:
        return _decision(self._part(9))

    @property
    def reviews(self) -> int:
        """How many reviews gave a rating."""
        return len(self.ratings)

    @property
    def rating(self) -> float | None:
        """The mean rating, None without ratings."""
        return _mean(self.ratings)

    @property
    def rating_min(self) -> int | None:
        return min(self.ratings) if self.ratings else None

    @property
    def rating_max(self) -> int | None:
        return max(self.ratings) if self.ratings else None

    @property
    def spread(self) -> int | None:
        """Highest minus lowest rating: how much the reviewers disagree."""
        return max(self.ratings) - min(self.ratings) if self.ratings else None

    @property
    def confidence(self) -> float | None:
        return _mean(self.confidences)

    @property
    def soundness(self) -> float | None:
        return _mean(self.soundness_scores)

    @property
    def presentation(self) -> float | None:
        return _mean(self.presentation_scores)

    @property
    def contribution(self) -> float | None:
        return _mean(self.contribution_scores)

    @property
    def weighted_rating(self) -> float | None:
        """The ratings' mean weighted by each reviewer's confidence (the plain mean when
        the confidences do not line up with the ratings)."""
        ratings, weights = self.ratings, self.confidences
        if not ratings:
            return None
        if len(weights) != len(ratings) or not sum(weights):
            return sum(ratings) / len(ratings)
        return sum(r * w for r, w in zip(ratings, weights)) / sum(weights)

    @property
    def previous_rating(self) -> float | None:
        """The mean rating of the capture before, when it was different."""
        return _mean(self.previous)

    def summary(self) -> dict[str, Any]:
        """The figures as `list --json` and `show --json` give them (means rounded to 2)."""

        def r2(x: float | None) -> float | None:
            return None if x is None else round(x, 2)

        return {
            "rating": r2(self.rating),
            "rating_min": self.rating_min,
            "rating_max": self.rating_max,
            "ratings": list(self.ratings),
            "reviews": self.reviews,
            "confidence": r2(self.confidence),
            "weighted_rating": r2(self.weighted_rating),
            "soundness": r2(self.soundness),
            "presentation": r2(self.presentation),
            "contribution": r2(self.contribution),
            "decision": self.decision or None,
            "decision_text": self.decision_text or None,
            "captured": self.captured or None,
            "previous_ratings": list(self.previous) if self.previous_captured else None,
            "previous_rating": r2(self.previous_rating) if self.previous_captured else None,
            "previous_captured": self.previous_captured or None,
        }

    def to_text(self) -> str:
        """The catalog's form: one string, `|`-separated: the five score columns (each
        `,`-separated), the previous ratings, captured, previous captured, decision and
        decision text (last: it may hold a `|`). One string per paper instead of an object
        of lists keeps a conference's catalog 8 MB smaller and its parse lighter."""
        return self.decode("utf-8", "surrogatepass")

    @classmethod
    def from_text(cls, text: str, pid: str = "?") -> Scores:
        """Scores from `to_text`'s string. Raises ValueError on a bad one."""
        raw = text.encode("utf-8", "surrogatepass")
        parts = raw.split(_BAR, 9)
        if len(parts) != 10:
            raise ValueError(f"paper {pid}: scores {text[:40]!r} are not in the catalog's form")
        columns = _columns
        if all(part in columns for part in parts[:6]):  # the usual case: columns seen before
            return _new_bytes(cls, raw)
        values: list[Any] = []
        for part in parts[:6]:
            found = columns.get(part)
            if found is None:
                try:
                    items = tuple(int(x) for x in part.split(b",")) if part else ()
                except ValueError:
                    raise ValueError(f"paper {pid}: scores {text[:40]!r} hold a score that is not a number") from None
                found = _shared_tuples.setdefault(items, items)
                canonical = _column_text(found).encode()
                columns.setdefault(canonical, found)
            values.append(found)
        r, c, s, p, n, prev = values
        decode = partial(bytes.decode, encoding="utf-8", errors="surrogatepass")
        captured, previous_captured, decision, decision_text = map(decode, parts[6:])
        return cls(r, c, s, p, n, decision, decision_text, captured, prev, previous_captured)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in ("ratings", "confidences", "soundness_scores", "presentation_scores", "contribution_scores", "previous"):
            value = getattr(self, name)
            if value:
                data[name] = list(value)
        for name in ("decision", "decision_text", "captured", "previous_captured"):
            value = getattr(self, name)
            if value:
                data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: Any, pid: str = "?") -> Scores:
        """Scores from `to_dict`'s object or `to_text`'s string. Raises ValueError on a
        bad shape."""
        if type(data) is str:
            return cls.from_text(data, pid)
        if type(data) is not dict:
            raise ValueError(f"paper {pid}: scores must be an object")
        values: dict[str, Any] = {}
        for name in ("ratings", "confidences", "soundness_scores", "presentation_scores", "contribution_scores", "previous"):
            if name in data:
                values[name] = _ints(data[name], pid, name)
        for name in ("decision", "decision_text", "captured", "previous_captured"):
            value = data.get(name)
            if value is not None:
                if type(value) is not str:
                    raise ValueError(f"paper {pid}: scores.{name} must be a string")
                values[name] = sys.intern(value) if name.startswith("decision") else value
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Paper:
    """One catalog record, as imported.

    `title` and `abstract` keep their original text (LaTeX, markdown) for export;
    `core.text.to_display` turns them into plain unicode for the screen.
    `title_derived` says the title was made from the abstract (the seed list has no
    titles), so a real title from a richer source may replace it.
    `short_name` is the contribution's name when the abstract names one ("SOCOP").
    `added` is when the store first took the paper in (ISO time; importers leave it empty).
    `entry_type` is the BibTeX entry type the paper was imported with ("article", "book",
    "inbook"...; "" when it came from elsewhere), and `extra_fields` every BibTeX field of
    that entry the model has no attribute for (pages, volume, publisher, editor...), as
    (lowercase name, value) pairs in file order, the value as it reads with macros expanded
    and its outer braces or quotes taken off. Both exist so that a user's bibliography is
    exported as it came in.
    `tldr`, `area` (OpenReview's primary area), `pdf_url`, `withdrawn` and `scores` come
    from an OpenReview import with reviews (`scores` is None for a paper without them).

    A Paper built from a catalog record (`from_dict` with `texts`) keeps its `tldr` and
    `pdf_url` packed with other papers' in a `PaperTexts` block, and a `url` that holds
    its id as the shared text around the id: reading these attributes gives the same
    strings as ever (see `_deferred_fields` below).
    """

    id: str
    title: str
    abstract: str = ""
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    url: str = ""
    keywords: tuple[str, ...] = ()
    citekey: str = ""
    source: str = ""
    doi: str = ""
    title_derived: bool = False
    short_name: str = ""
    added: str = ""
    entry_type: str = ""
    extra_fields: tuple[tuple[str, str], ...] = ()
    aliases: tuple[str, ...] = ()
    """The ids of the records merged into this paper from other sources (the OpenReview
    id of a seed paper), so that the paper is found by those ids too."""
    tldr: str = ""
    area: str = ""
    pdf_url: str = ""
    withdrawn: bool = False
    scores: Scores | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _OPTIONAL_FIELDS}
        data["authors"] = list(self.authors)
        data["keywords"] = list(self.keywords)
        data["extra_fields"] = dict(self.extra_fields)
        if self.aliases:  # most papers have none: the catalog stays as it was
            data["aliases"] = list(self.aliases)
        # What a review import brings is written only when there is some: a catalog of
        # papers without reviews stays as it was, byte for byte.
        for name in ("tldr", "area", "pdf_url"):
            value = getattr(self, name)
            if value:
                data[name] = value
        if self.withdrawn:
            data["withdrawn"] = True
        if self.scores is not None:
            data["scores"] = self.scores.to_text()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], texts: PaperTexts | None = None) -> Paper:
        """Build a Paper from its stored dict; unknown keys are ignored. With `texts` (a
        catalog's, for the Papers it keeps), the TL;DR and pdf link are packed into it and
        a url holding the id is kept as the text around it (see `PaperTexts`).

        Raises ValueError (or TypeError) when a required field is missing or of the wrong type.
        """
        # Runs for every paper of a 20,000-paper catalog at start-up: checks are inlined.
        if not isinstance(data, dict):
            raise TypeError(f"a paper record must be an object, not {type(data).__name__}")
        pid = data.get("id")
        title = data.get("title")
        if type(pid) is not str or not pid:
            raise ValueError("paper record without an id")
        if type(title) is not str:
            raise ValueError(f"paper {pid} has no title")
        year = data.get("year")
        if year is not None and type(year) is not int:
            raise ValueError(f"paper {pid} has a non-integer year {year!r}")
        values: dict[str, Any] = {"id": pid, "title": title, "year": year}
        get = data.get
        for key in _STR_FIELDS:
            value = get(key)
            if value is None:
                value = ""
            elif type(value) is not str:
                raise ValueError(f"paper {pid}: {key} must be a string, not {type(value).__name__}")
            values[key] = value
        for key in ("authors", "keywords", "aliases"):
            items = get(key) or ()
            if type(items) is not list and items != () or not _all_str(items):
                raise ValueError(f"paper {pid}: {key} must be a list of strings")
            values[key] = tuple(items)
        values["title_derived"] = bool(get("title_derived", False))
        extra = get("extra_fields") or {}
        if type(extra) is not dict or not _all_str(extra) or not _all_str(extra.values()):
            raise ValueError(f"paper {pid}: extra_fields must be an object of strings")
        values["extra_fields"] = tuple(extra.items())
        for key in ("tldr", "area", "pdf_url"):
            value = get(key)
            if value:
                if type(value) is not str:
                    raise ValueError(f"paper {pid}: {key} must be a string, not {type(value).__name__}")
                # 21 primary areas repeat across 20,000 papers: each kept once
                values[key] = sys.intern(value) if key == "area" else value
        if get("withdrawn"):
            values["withdrawn"] = True
        scores = get("scores")
        if scores is not None:
            values["scores"] = Scores.from_dict(scores, pid)
        if texts is not None:  # last: a record refused above leaves nothing in `texts`
            if year is not None:
                values["year"] = _years.setdefault(year, year)
            if values["url"]:
                values["url"] = _id_link(values["url"], pid)
            tldr, pdf_url = values.get("tldr", ""), values.get("pdf_url", "")
            if tldr or pdf_url:
                values["tldr"], values["pdf_url"] = texts.add(tldr, pdf_url)
        return cls(**values)

    def evolve(self, **changes: Any) -> Paper:
        """A copy with `changes` applied."""
        return replace(self, **changes)


# -- what a catalog's Papers keep of their TL;DR, pdf link and url ----------------------
#
# At 100,000 papers with reviews, the TL;DRs and pdf links held as strings took 21 MB and
# the urls 9 MB: nothing lists, sorts or filters by them, and only the detail pane, `p`,
# `o` and exports read them, a paper at a time. A catalog's Papers keep them packed
# (`PaperTexts`): the slots `tldr` and `pdf_url` then hold a block of texts and the
# paper's place in it, the slot `url` the text around the paper's id when the url holds
# it (`https://openreview.net/forum?id=` + id). The attributes of these names are
# properties over the slots that give the strings back, so that everything else
# (equality, `to_dict`, `evolve`, repr) reads them as before.


class _TextBlock:
    """The TL;DRs and pdf links of up to `PaperTexts.BLOCK` papers: a list of strings
    while the block fills, then one bytes object of their UTF-8 and the end of each."""

    __slots__ = ("data", "ends", "filling")

    def __init__(self) -> None:
        self.filling: list[str] | None = []  # tldr, pdf link of place 0, of place 1...
        self.data = b""
        self.ends: array | None = None

    def text(self, place: int, column: int) -> str:
        """The TL;DR (`column` 0) or pdf link (1) of the paper at `place`."""
        item = 2 * place + column
        filling = self.filling
        if filling is not None:
            return filling[item]
        ends = self.ends
        start = ends[item - 1] if item else 0  # type: ignore[index]
        return self.data[start : ends[item]].decode("utf-8", "surrogatepass")  # type: ignore[index]

    def pack(self) -> None:
        """Make the strings one bytes object (the block is full: nothing is added after)."""
        texts = self.filling or []
        ends = list(accumulate(len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass")) for t in texts))
        # the data and its ends first: a reader that finds `filling` None reads them
        self.ends = array("H" if not ends or ends[-1] < 1 << 16 else "I", ends)
        self.data = "".join(texts).encode("utf-8", "surrogatepass")
        self.filling = None


class PaperTexts:
    """Where a catalog's Papers keep their TL;DRs and pdf links: blocks of
    `BLOCK` papers, each one bytes object once full (a string is 49 bytes more than its
    text: 21 MB of strings at 100,000 papers are 13 MB here). Reading one is a slice and a
    decode. A paper's place in its block is a small int, which Python keeps once for
    all. Several threads may add at once (the TUI's list worker and index thread)."""

    #: papers per block: places 0-255 are ints Python never allocates
    BLOCK = 256

    def __init__(self) -> None:
        self._block = _TextBlock()
        self._count = 0
        self._lock = threading.Lock()

    def add(self, tldr: str, pdf_url: str) -> tuple[_TextBlock, int]:
        """Keep a paper's texts: its block and place, for its `tldr` and `pdf_url` slots."""
        with self._lock:
            block, place = self._block, self._count
            block.filling.append(tldr)  # type: ignore[union-attr]
            block.filling.append(pdf_url)  # type: ignore[union-attr]
            self._count += 1
            if self._count == self.BLOCK:
                block.pack()
                self._block, self._count = _TextBlock(), 0
        return block, place


# A paper's year, as the parser gives it, is an int object of its own (28 bytes): the few
# distinct ones are kept once.
_years: dict[int, int] = {}
# (text before the id, text after) -> itself: a url holding the paper's id kept as these
# (a few per library: OpenReview's forum links, arXiv's...); past `_MAX_LINKS` distinct
# ones, urls are kept as they are.
_links: dict[tuple[str, str], tuple[str, str]] = {}
_MAX_LINKS = 1024


def _id_link(url: str, pid: str) -> str | tuple[str, str]:
    head, found, tail = url.partition(pid)
    if not found:
        return url
    key = (head, tail)
    link = _links.get(key)
    if link is None:
        if len(_links) >= _MAX_LINKS:
            return url
        link = _links.setdefault(key, key)
    return link


def _deferred_fields(cls: type) -> None:
    """Make `tldr`, `pdf_url` and `url` properties over their slots, which hold either
    the string or what `from_dict(..., texts)` kept of it."""
    slot = {name: cls.__dict__[name] for name in ("id", "tldr", "pdf_url", "url")}
    get_id, get_tldr, get_pdf, get_url = (slot[name].__get__ for name in ("id", "tldr", "pdf_url", "url"))

    def tldr(self: Paper) -> str:
        value = get_tldr(self)
        return value if type(value) is str else value.text(get_pdf(self), 0)

    def pdf_url(self: Paper) -> str:
        value = get_pdf(self)
        return value if type(value) is str else get_tldr(self).text(value, 1)

    def url(self: Paper) -> str:
        value = get_url(self)
        return value if type(value) is str else value[0] + get_id(self) + value[1]

    for name, getter in (("tldr", tldr), ("pdf_url", pdf_url), ("url", url)):
        getter.__doc__ = f"The paper's {name} (a string, however it is kept)."
        # the dataclass's __init__ sets the slot through the property
        setattr(cls, name, property(getter, slot[name].__set__))


_deferred_fields(Paper)


@dataclass(slots=True)
class Annotation:
    """What the user did with one paper.

    `changed` maps "status", "tags", "notes" and edited field names to the ISO time of
    their last change (the later change wins when two processes touch the same field).
    `history` lists `[time, status]` pairs, one per status change, for reading stats.
    `overrides` holds the user's own title/authors/url/citekey, which win over the catalog
    and survive re-imports.
    """

    status: Status = Status.UNREAD
    tags: tuple[str, ...] = ()
    notes: str = ""
    changed: dict[str, str] = field(default_factory=dict)
    history: list[list[str]] = field(default_factory=list)
    overrides: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Annotation:
        return Annotation(
            status=self.status,
            tags=self.tags,
            notes=self.notes,
            changed=dict(self.changed),
            history=[list(h) for h in self.history],
            overrides=dict(self.overrides),
        )

    @property
    def is_default(self) -> bool:
        """True when the user has not touched this paper (nothing worth storing)."""
        return (
            self.status is Status.UNREAD
            and not self.tags
            and not self.notes
            and not self.overrides
            and not self.history
        )

    def last_changed(self) -> str:
        """The ISO time of the latest change of anything, or "" when never changed."""
        return max(self.changed.values(), default="")

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "tags": list(self.tags),
            "notes": self.notes,
            "changed": dict(self.changed),
            "history": [list(h) for h in self.history],
            "overrides": dict(self.overrides),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Annotation:
        """Build an Annotation from its stored dict. Raises ValueError on a bad shape."""
        if not isinstance(data, dict):
            raise TypeError(f"an annotation must be an object, not {type(data).__name__}")
        tags = data.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ValueError("tags must be a list of strings")
        notes = data.get("notes", "")
        if not isinstance(notes, str):
            raise ValueError("notes must be a string")
        changed = data.get("changed", {})
        history = data.get("history", [])
        overrides = data.get("overrides", {})
        if not isinstance(changed, dict) or not isinstance(history, list) or not isinstance(overrides, dict):
            raise ValueError("changed, history and overrides must be an object, a list and an object")
        return cls(
            status=Status.parse(str(data.get("status", "unread"))),
            tags=tuple(tags),
            notes=notes,
            changed={str(k): str(v) for k, v in changed.items()},
            history=[[str(x) for x in h] for h in history if isinstance(h, list)],
            overrides={k: v for k, v in overrides.items() if k in EDITABLE_FIELDS},
        )


@dataclass(frozen=True, slots=True)
class PaperView:
    """A paper as the user sees it: the catalog record with the user's overrides applied,
    together with its annotation. This is what lists, the detail pane and exporters use."""

    paper: Paper
    annotation: Annotation

    @property
    def id(self) -> str:
        return self.paper.id

    @property
    def title(self) -> str:
        return self.annotation.overrides.get("title") or self.paper.title

    @property
    def authors(self) -> tuple[str, ...]:
        value = self.annotation.overrides.get("authors")
        return tuple(value) if value else self.paper.authors

    @property
    def url(self) -> str:
        return self.annotation.overrides.get("url") or self.paper.url

    @property
    def citekey(self) -> str:
        return self.annotation.overrides.get("citekey") or self.paper.citekey

    @property
    def status(self) -> Status:
        return self.annotation.status

    @property
    def tags(self) -> tuple[str, ...]:
        return self.annotation.tags

    @property
    def notes(self) -> str:
        return self.annotation.notes

    def __getattr__(self, name: str) -> Any:
        # abstract, venue, year, keywords, source, doi, short_name... come from the catalog.
        return getattr(self.paper, name)

    @property
    def last_changed(self) -> str:
        return self.annotation.last_changed() or self.paper.added

    def to_dict(self) -> dict[str, Any]:
        """The flat JSON shape of `reader-tui list --json` and `show --json`.

        `title`, `authors` and `venue` are as the user reads them (LaTeX and markdown
        rendered: `M{\\"u}ller` -> Müller, control characters shown as symbols);
        `title_source`, `authors_source` and `venue_source` hold them as stored, for
        scripts that want the LaTeX. Every other text field is as stored.
        """
        from .text.display import one_line  # not at module level: the CLI starts without pylatexenc

        data = self.paper.to_dict()
        data.update(
            title=one_line(self.title),
            title_source=self.title,
            authors=[one_line(a) for a in self.authors],
            authors_source=list(self.authors),
            venue=one_line(self.paper.venue),
            venue_source=self.paper.venue,
            url=self.url,
            citekey=self.citekey,
            status=self.status.value,
            tags=list(self.tags),
            notes=self.notes,
            changed=dict(self.annotation.changed),
        )
        paper = self.paper
        data.update(
            tldr=paper.tldr,
            area=paper.area,
            pdf_url=paper.pdf_url,
            withdrawn=paper.withdrawn,
            scores=paper.scores.summary() if paper.scores is not None else None,
        )
        return data


#: Paper fields written to the catalog only when set (see `Paper.to_dict`).
_OPTIONAL_FIELDS = frozenset({"aliases", "tldr", "area", "pdf_url", "withdrawn", "scores"})

_STR_FIELDS = (
    "abstract", "venue", "url", "citekey", "source", "doi", "short_name", "added", "entry_type",
)


def _all_str(items: Any) -> bool:
    return all(type(item) is str for item in items)
