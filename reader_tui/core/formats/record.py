"""A paper as plain-text bibliographic fields: the middle ground of CSL-JSON, RIS and Zotero.

Those formats hold plain text (Unicode), where a .bib holds LaTeX. `record_of` turns a
paper (any source) into a `Record`: its BibTeX entry type and fields with their text
as the screen shows it (`text.display.to_display`: `{\\'e}` -> é, `$\\alpha$` -> α), its
names split into parts as BibTeX splits them (`text.person_names`); `paper_of` makes a
`Paper` from a record read from such a file.

A paper read from a plain-text format keeps its text as written (a title with `&` or
`$5` is that title), with the entry type and fields a .bib would have, and the reserved
key `@text` = "plain" in `Paper.extra_fields`: the BibTeX exporter escapes its values
instead of writing them as LaTeX. What the file held that no BibTeX field names (a
CSL variable such as `container-title-short`) is kept under the reserved key
`@csl` (a JSON object), so that an export in that format writes it back.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..model import Paper, PaperView
from ..text.display import stable_id, to_display
from ..text.names import split_authors
from ..text.person_names import bibtex_name, name_parts
from .identifiers import fold, normalise_doi, openreview_forum_id

__all__ = ["Record", "record_of", "paper_of", "PLAIN", "is_plain", "MONTHS", "NAME_FIELDS"]

PLAIN = ("@text", "plain")
#: BibTeX fields that hold names, and so are lists of CSL name objects in a record.
NAME_FIELDS = ("author", "editor", "translator")
#: Fields a `Paper` holds as attributes (see `bibtex.reader`), never in `extra_fields`.
_MODELLED = frozenset({"title", "author", "year", "url", "doi", "abstract", "keywords", "annote"})
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ANONYMOUS = frozenset({"", "anonymous", "anonymous authors", "anonymous author", "anon"})
_PREPRINT = re.compile(r"\b(arxiv|corr)\b", re.I)
_YEAR = re.compile(r"^\s*(\d{4})\s*$")
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(\d{4})(?!\d)")


def is_plain(paper: Paper) -> bool:
    """Whether `paper`'s texts are plain text from CSL-JSON, RIS or Zotero (not LaTeX)."""
    return PLAIN in paper.extra_fields


@dataclass(slots=True)
class Record:
    """One paper in plain text. `fields` are BibTeX fields by lower-case name (`year`,
    `month`, `journal`, `booktitle`, `pages`, `doi`, `url`, `abstract`, `note`...),
    `names` the name fields (author, editor, translator) as CSL name objects."""

    entry_type: str
    key: str
    title: str
    names: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    keywords: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    notes: str = ""
    kept: dict = field(default_factory=dict)
    """What the file held that no BibTeX field names (CSL variables), written back by its format."""


def _plain(text: str) -> str:
    return text


def record_of(paper: PaperView, key: str) -> Record:
    """`paper` (with the user's edits, tags and notes) as a plain-text record keyed `key`."""
    catalog = getattr(paper, "paper", paper)
    plain = is_plain(catalog)
    text = _plain if plain else to_display
    part = (lambda value: value.replace("{", "").replace("}", "")) if plain else to_display
    extra = {name.lower(): value for name, value in catalog.extra_fields}
    fields: dict[str, str] = {}
    names: dict[str, list[dict[str, str]]] = {}
    authors = [a for a in paper.authors if a.lower().strip(". ") not in _ANONYMOUS]
    if authors:
        names["author"] = [p for p in (name_parts(a, part) for a in authors) if p]
    entry_type = catalog.entry_type
    if entry_type:
        for name, value in catalog.extra_fields:
            name = name.lower()
            if name.startswith("@") or name in _MODELLED or not value.strip():
                continue
            if name in NAME_FIELDS:
                names[name] = [p for p in (name_parts(a, part) for a in split_authors(value)) if p]
            else:
                fields[name] = text(value)
        venue = catalog.venue or ""
        if venue and "journal" not in extra and "booktitle" not in extra:
            fields["journal" if entry_type == "article" else "booktitle"] = text(venue)
        year = extra.get("year") or (str(catalog.year) if catalog.year is not None else "")
    else:
        venue = " ".join((catalog.venue or "").split())
        if _PREPRINT.search(venue):
            entry_type, fields["howpublished"] = "misc", text(venue)
        elif venue:
            from .bibtex.writer import booktitle_for

            entry_type, fields["booktitle"] = "inproceedings", booktitle_for(venue, catalog.year)
        else:
            entry_type = "misc"
        year = str(catalog.year) if catalog.year is not None else ""
    if year:
        fields["year"] = text(year)
    for name, value in (("doi", catalog.doi), ("url", paper.url), ("abstract", catalog.abstract)):
        if value and value.strip():
            fields[name] = value.strip() if name != "abstract" else text(value)
    title = paper.title
    if catalog.title_derived and title == catalog.title:
        title = extra.get("title", "") if catalog.entry_type else title  # a stand-in is no title
    kept = {}
    if "@csl" in extra:
        try:
            kept = json.loads(extra["@csl"])
        except ValueError:
            kept = {}
    return Record(
        entry_type=entry_type,
        key=key,
        title=text(title) if title else "",
        names=names,
        fields=fields,
        keywords=tuple(text(k) for k in catalog.keywords),
        tags=tuple(getattr(paper, "tags", ()) or ()),
        notes=getattr(paper, "notes", "") or "",
        kept=kept if isinstance(kept, dict) else {},
    )


def month_number(value: str) -> int | None:
    """1-12 for a month written as a number, a name or its macro ("jun", "June", "6")."""
    value = value.strip().lower()
    if value.isdigit() and 1 <= int(value) <= 12:
        return int(value)
    return MONTHS.index(value[:3]) + 1 if value[:3] in MONTHS else None


def paper_of(record: Record, *, source: str, default_venue: str | None = None, default_year: int | None = None) -> Paper:
    """A `Paper` from a record read from a plain-text file (see the module docstring)."""
    fields = {name: value for name, value in record.fields.items() if value is not None}
    extra: list[tuple[str, str]] = []
    for name in NAME_FIELDS[1:]:
        if record.names.get(name):
            extra.append((name, " and ".join(n for n in map(bibtex_name, record.names[name]) if n)))
    year = default_year
    raw_year = fields.get("year", "").strip()
    if raw_year:
        match = _YEAR.match(raw_year)
        if match:
            year = int(match.group(1))
        else:
            named = _YEAR_IN_TEXT.search(raw_year)
            year = int(named.group(1)) if named else None
            extra.append(("year", raw_year))
    for name, value in fields.items():
        if name in _MODELLED or name in NAME_FIELDS or not str(value).strip():
            continue
        if name == "month" and month_number(value):
            extra += [("month", MONTHS[month_number(value) - 1]), ("@bare", "month")]
            continue
        extra.append((name, str(value)))
    extra.append(PLAIN)
    if record.kept:
        extra.append(("@csl", json.dumps(record.kept, ensure_ascii=False, sort_keys=True)))
    title = record.title
    url, doi = fields.get("url", "").strip(), fields.get("doi", "").strip()
    forum = openreview_forum_id(url)
    if forum:
        pid = forum
    elif normalise_doi(doi):
        pid = stable_id("doi:" + normalise_doi(doi))
    else:
        pid = stable_id(f"record {record.key} {fold(title)}")
    authors = tuple(n for n in map(bibtex_name, record.names.get("author", [])) if n)
    stand_in = not title.strip()
    if stand_in:
        title = " ".join(p for p in (", ".join(authors), fields.get("booktitle") or fields.get("journal") or "") if p)
        title = title or record.key
    return Paper(
        id=pid,
        title=title,
        abstract=fields.get("abstract", ""),
        authors=authors,
        venue=fields.get("booktitle") or fields.get("journal") or default_venue or "",
        year=year,
        url=url,
        keywords=tuple(k for k in record.keywords if k.strip()),
        citekey=record.key,
        source=source,
        doi=doi,
        title_derived=stand_in,
        entry_type=record.entry_type or "misc",
        extra_fields=tuple(extra),
    )


def source_name(kind: str, path: Path | str) -> str:
    """`Paper.source` of a record read from a file of `kind` ("csl-json:refs.json")."""
    return f"{kind}:{Path(path).name}"
