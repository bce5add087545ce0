"""The domain records: a catalog `Paper`, the user's `Annotation` of it, and `Status`.

`Paper` is what an importer produced (read-mostly, shared by everyone who imports the
same list). `Annotation` is what the user did with it (small, written often). They are
stored apart (see `library/library.py`) and joined into a `PaperView` for display and export.

Both convert to and from plain JSON-able dicts (`to_dict` / `from_dict`): that is the
on-disk shape, so renaming a field here is a store format change.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
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
#: kept, see `core.library.sync.merge`); `is:conflict` finds the notes that hold one.
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

def _ints(value: Any, pid: str, name: str) -> tuple[int, ...]:
    if type(value) is not list or not all(type(v) is int for v in value):
        raise ValueError(f"paper {pid}: scores.{name} must be a list of integers")
    return tuple(value)


def _mean(values: tuple[int, ...]) -> float | None:
    return sum(values) / len(values) if values else None


def _column_text(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def parse_column(text: str, pid: str = "?") -> tuple[int, ...]:
    """One score column of `Scores.to_text`'s string ("4,6,8", "" for none) as its tuple.
    Raises ValueError on a score that is not a number."""
    if not text:
        return ()
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"paper {pid}: scores {text[:40]!r} hold a score that is not a number") from None


#: The names of a Scores' stored figures, in the order its constructor takes them.
SCORE_FIELDS = (
    "ratings", "confidences", "soundness_scores", "presentation_scores", "contribution_scores",
    "decision", "decision_text", "captured", "previous", "previous_captured",
)


@dataclass(frozen=True, slots=True)
class Scores:
    """What reviewers (and, once out, the decision) said of a paper, as lists, sorts and
    filters need it: each official review's numbers, aligned by review (`ratings[i]`,
    `confidences[i]`... are review i's; a review that did not give one is left out of
    that tuple, so means are over the reviews that did), the decision tier when known
    (one of `DECISIONS`, "" when unknown) and its text ("Accept (Oral)"), and when the
    scores were captured (`captured`: the newest change OpenReview recorded in the
    paper's forum, ISO time). `previous` holds the ratings of the capture before, when a
    newer snapshot changed them (4 -> 6 during the rebuttal), captured at
    `previous_captured`. The review texts are not here: `Library.forum` reads them.

    The fields are in `SCORE_FIELDS`' order; the means, spread and weighted rating are
    derived from them (properties). The catalog stores them as one string (`to_text`).
    """

    ratings: tuple[int, ...] = ()
    confidences: tuple[int, ...] = ()
    soundness_scores: tuple[int, ...] = ()
    presentation_scores: tuple[int, ...] = ()
    contribution_scores: tuple[int, ...] = ()
    decision: str = ""
    decision_text: str = ""
    captured: str = ""
    previous: tuple[int, ...] = ()
    previous_captured: str = ""

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
        columns = (
            self.ratings, self.confidences, self.soundness_scores, self.presentation_scores,
            self.contribution_scores, self.previous,
        )
        parts = [_column_text(column) for column in columns]
        parts += [self.captured, self.previous_captured, self.decision, self.decision_text]
        return "|".join(parts)

    @classmethod
    def from_text(cls, text: str, pid: str = "?") -> Scores:
        """Scores from `to_text`'s string. Raises ValueError on a bad one."""
        parts = text.split("|", 9)
        if len(parts) != 10:
            raise ValueError(f"paper {pid}: scores {text[:40]!r} are not in the catalog's form")
        r, c, s, p, n, prev = (parse_column(part, pid) for part in parts[:6])
        captured, previous_captured, decision, decision_text = parts[6:]
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
                values[name] = value
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
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """Build a Paper from its stored dict; unknown keys are ignored. `scores` may be
        `to_text`'s string, `Scores.to_dict`'s object or a `Scores` already.

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
                values[key] = value
        if get("withdrawn"):
            values["withdrawn"] = True
        scores = get("scores")
        if scores is not None:
            values["scores"] = scores if type(scores) is Scores else Scores.from_dict(scores, pid)
        return cls(**values)

    def evolve(self, **changes: Any) -> Paper:
        """A copy with `changes` applied."""
        return replace(self, **changes)


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
