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

#: Fields of a paper the user may override by hand (`reader-tui edit`).
EDITABLE_FIELDS = ("title", "authors", "url", "citekey")


def now_iso() -> str:
    """The current time as an ISO 8601 UTC string with seconds (what the store records)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


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

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["authors"] = list(self.authors)
        data["keywords"] = list(self.keywords)
        data["extra_fields"] = dict(self.extra_fields)
        if self.aliases:
            data["aliases"] = list(self.aliases)
        else:
            del data["aliases"]  # most papers have none: the catalog stays as it was
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """Build a Paper from its stored dict; unknown keys are ignored.

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
        return data


_STR_FIELDS = (
    "abstract", "venue", "url", "citekey", "source", "doi", "short_name", "added", "entry_type",
)


def _all_str(items: Any) -> bool:
    return all(type(item) is str for item in items)
