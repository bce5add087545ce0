"""CSL-JSON, the items pandoc's `--citeproc` and Zotero read: reader and writer.

An item has `id` and `citation-key` (the citation key), `type`, `title`, `author`
(family/given/particle/suffix, or a literal name), `issued` (`date-parts`),
`container-title`, `DOI`, `URL`, `abstract`, `note`, `keyword`, `annote` (the user's
notes), and the other variables a BibTeX field maps to (`volume`, `page`, `publisher`...).

Mapping, both ways (`FIELD_TO_CSL`): every BibTeX entry type has a CSL type
(`TYPE_TO_CSL`); the fields named there become their CSL variables. What CSL has no
variable for (an `eprint`, a `crossref`), the exact BibTeX entry type, and which BibTeX
field a shared variable came from (`publisher` from `organization`) go into the item's
`custom` object (CSL-JSON's place for data of one program: pandoc and Zotero ignore it),
under `reader-tui`, with the user's tags; so an export read back here loses nothing, and
`csl_losses` says what other programs will not see. Text is plain Unicode: a .bib's
LaTeX is rendered (`{\\'e}` -> é), and read back as plain text (see `formats.record`).

Keys: a paper is exported under the key reader-tui shows for it (a .bib's, typed here,
pinned in Zotero, or the one the library made: `activereading2026`), the same key as in
a BibTeX export, so that a note cites what the screen shows; only a paper with no key
at all gets Better BibTeX's default key (`text.bbt_keys`). On reading, `citation-key`,
else `id` when it is a key (not a Zotero URI or a number), else a key pinned in `note`
(`Citation Key: X`), else the Better BibTeX key, which the paper then keeps.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..model import PaperView
from ..text.bbt_keys import BBTKeys, pinned_key
from ..text.citekeys import fits_entry_head, validate_citekey
from .base import ImportFailure, ImportProblem, ImportResult, add_annotation, read_text_file
from .record import MONTHS, NAME_FIELDS, Record, month_number, paper_of, record_of, source_name

__all__ = ["export_csl_json", "read_csl_json", "csl_items", "csl_losses", "TYPE_TO_CSL", "FIELD_TO_CSL", "export_key"]

TYPE_TO_CSL = {
    "article": "article-journal", "inproceedings": "paper-conference", "conference": "paper-conference",
    "proceedings": "book", "mvproceedings": "book", "book": "book", "mvbook": "book", "collection": "book",
    "mvcollection": "book", "reference": "book", "inbook": "chapter", "incollection": "chapter",
    "bookinbook": "chapter", "suppbook": "chapter", "suppcollection": "chapter", "inreference": "entry-encyclopedia",
    "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report", "report": "report",
    "manual": "report", "unpublished": "manuscript", "online": "webpage", "www": "webpage", "electronic": "webpage",
    "patent": "patent", "dataset": "dataset", "software": "software", "booklet": "pamphlet", "periodical": "periodical",
    "suppperiodical": "article-journal", "misc": "document",
}
#: CSL type -> the BibTeX entry type an item of a file we did not write gets.
CSL_TO_TYPE = {
    "article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
    "paper-conference": "inproceedings", "book": "book", "chapter": "incollection", "thesis": "phdthesis",
    "report": "techreport", "manuscript": "unpublished", "webpage": "online", "post-weblog": "online",
    "post": "online", "patent": "patent", "dataset": "dataset", "software": "software", "pamphlet": "booklet",
    "periodical": "periodical", "entry-encyclopedia": "inreference", "entry-dictionary": "inreference",
    "article": "misc", "document": "misc",
}
#: BibTeX field -> CSL variable (the first field of an entry that names a variable wins it).
FIELD_TO_CSL = {
    "journal": "container-title", "journaltitle": "container-title", "booktitle": "container-title",
    "series": "collection-title", "volume": "volume", "number": "number", "issue": "issue", "pages": "page",
    "chapter": "chapter-number", "edition": "edition", "publisher": "publisher", "school": "publisher",
    "institution": "publisher", "organization": "publisher", "howpublished": "publisher", "address": "publisher-place",
    "location": "publisher-place", "isbn": "ISBN", "issn": "ISSN", "doi": "DOI", "url": "URL", "abstract": "abstract",
    "note": "note", "type": "genre", "language": "language", "shorttitle": "title-short", "pmid": "PMID",
    "pmcid": "PMCID", "urldate": "accessed", "version": "version", "numpages": "number-of-pages",
    "pagetotal": "number-of-pages",
}
#: CSL variable -> the BibTeX field it becomes in a file we did not write, by CSL type.
_CSL_TO_FIELD = {
    "collection-title": "series", "volume": "volume", "issue": "number", "page": "pages", "chapter-number": "chapter",
    "edition": "edition", "publisher-place": "address", "ISBN": "isbn", "ISSN": "issn", "DOI": "doi", "URL": "url",
    "abstract": "abstract", "note": "note", "genre": "type", "language": "language", "title-short": "shorttitle",
    "PMID": "pmid", "PMCID": "pmcid", "accessed": "urldate", "version": "version", "number-of-pages": "pagetotal",
}
_NAMES_CSL = {"author": "author", "editor": "editor", "translator": "translator"}
CUSTOM = "reader-tui"
_CSL_SOURCE = "csl-json"


#: A page range's dash as a .bib writes it (`--`) or as the screen shows it (`–`).
_PAGE_DASH = re.compile(r"\s*(?:-{2,3}|[–—])\s*")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|urn:|doi:", re.I)


def _is_key(value: Any) -> bool:
    """A key as a user's .bib may have it (`kumāra`, `baez/article`, `Kindersley:LS-27266/77`
    too): one that fits an entry's head and is not a URI (Zotero's ids are
    `http://zotero.org/users/../items/X`)."""
    return (isinstance(value, str) and bool(value) and (validate_citekey(value) is None or fits_entry_head(value))
            and not _URI.match(value))


def export_key(paper: PaperView) -> str:
    """The key `paper` is exported under when it is free: the one reader-tui shows (and
    the BibTeX export writes), or "" when it has none (then Better BibTeX's is made)."""
    return paper.citekey if paper.citekey and " " not in paper.citekey else ""


def keyed_records(papers: Iterable[PaperView]) -> list[Record]:
    """Each paper as a record with a key unique within the export (see the module docstring)."""
    keys = BBTKeys()
    papers = list(papers)
    own = [export_key(p) for p in papers]
    kept = [bool(key) and keys.claim(key) for key in own]  # the user's keys are claimed first
    out = []
    for paper, key, is_kept in zip(papers, own, kept):
        if not is_kept:
            record = record_of(paper, "")
            first = (record.names.get("author") or record.names.get("editor") or [{}])[0]
            family = first.get("family") or first.get("literal") or ""
            particle = first.get("non-dropping-particle", "")
            key = keys.make([f"{{{particle}{family}}}"] if family else [], record.title, record.fields.get("year"))
            record.key = key
        else:
            record = record_of(paper, key)
        out.append(record)
    return out


def _date(year: str, month: str = "", day: str = "") -> dict[str, Any]:
    if re.fullmatch(r"\d{4}", year.strip()):
        parts = [int(year)]
        if month_number(month):
            parts.append(month_number(month))
            if day.strip().isdigit():
                parts.append(int(day))
        return {"date-parts": [parts]}
    return {"literal": year}


def _iso_date(text: str) -> dict[str, Any]:
    match = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", text.strip())
    if not match:
        return {"literal": text}
    return {"date-parts": [[int(p) for p in match.groups() if p]]}


def item_of(record: Record) -> dict[str, Any]:
    """One CSL-JSON item for `record`."""
    item: dict[str, Any] = {"id": record.key, "citation-key": record.key, "type": TYPE_TO_CSL.get(record.entry_type, "document")}
    custom: dict[str, Any] = {"bibtex-type": record.entry_type}
    source: dict[str, str] = {}
    leftover: dict[str, str] = {}
    fields = dict(record.fields)
    if record.entry_type == "misc" and _is_preprint(fields):
        item["type"] = "article"  # CSL's preprint
    if record.title:
        item["title"] = record.title
    for name in NAME_FIELDS:
        if record.names.get(name):
            item[_NAMES_CSL[name]] = record.names[name]
    year = fields.pop("year", "")
    month = fields.pop("month", "")
    day = fields.pop("day", "")
    if year:
        item["issued"] = _date(year, month, day)
        if "literal" in item["issued"] and month:
            leftover["month"] = month
        elif month and not month_number(month):
            leftover["month"] = month
    elif month:
        leftover["month"] = month
    if day and "literal" in item.get("issued", {"literal": ""}):
        leftover["day"] = day
    for name, value in fields.items():
        variable = FIELD_TO_CSL.get(name)
        if name == "number" and record.entry_type in ("article", "periodical", "suppperiodical"):
            variable = "issue"
        if variable is None or variable in item:
            leftover[name] = value
            continue
        if variable == "page":
            value = _PAGE_DASH.sub("-", value)  # citeproc sets the range's dash itself
        item[variable] = _iso_date(value) if variable == "accessed" else value
        if name != _default_field(variable, record.entry_type):
            source[variable] = name
    if record.keywords:
        item["keyword"] = ", ".join(record.keywords)
    if record.notes.strip():
        item["annote"] = record.notes
    if source:
        custom["bibtex-fields"] = source
    if leftover:
        custom["fields"] = leftover
    if record.tags:
        custom["tags"] = list(record.tags)
    for variable, value in record.kept.items():
        item.setdefault(variable, value)
    if record.entry_type:
        item["custom"] = {**(item.get("custom") if isinstance(item.get("custom"), dict) else {}), CUSTOM: custom}
    return item


def _is_preprint(fields: dict[str, str]) -> bool:
    where = " ".join(fields.get(n, "") for n in ("howpublished", "journal", "archiveprefix", "eprinttype", "publisher"))
    return bool(re.search(r"\b(arxiv|corr|biorxiv|medrxiv|ssrn)\b", where, re.I))


def _default_field(variable: str, entry_type: str) -> str | None:
    """The BibTeX field a CSL variable becomes in an entry of `entry_type`."""
    if variable == "container-title":
        return _container_field(entry_type)
    if variable == "number":
        return "number"
    if variable == "publisher":
        return {"phdthesis": "school", "mastersthesis": "school", "techreport": "institution"}.get(entry_type, "publisher")
    return _CSL_TO_FIELD.get(variable)


def _container_field(entry_type: str) -> str:
    return "journal" if entry_type in ("article", "periodical", "suppperiodical") else "booktitle"


def csl_items(papers: Iterable[PaperView]) -> list[dict[str, Any]]:
    """The CSL-JSON items of `papers`, in order, with keys unique within them."""
    return [item_of(record) for record in keyed_records(papers)]


def export_csl_json(papers: Iterable[PaperView], *, memo: dict | None = None) -> str:
    """A CSL-JSON file (an array of items, UTF-8, one item per block) for `papers`."""
    items = csl_items(papers)
    if not items:
        return "[]\n"
    return "[\n" + ",\n".join(json.dumps(item, ensure_ascii=False, indent=2) for item in items) + "\n]\n"


def csl_losses(papers: Iterable[PaperView]) -> dict[str, int]:
    """What programs other than reader-tui will not see in a CSL-JSON export: {BibTeX
    field or "entry type X": how many papers}. reader-tui itself reads all of it back
    (from each item's `custom`)."""
    losses: dict[str, int] = {}
    for record in keyed_records(papers):
        item = item_of(record)
        custom = item.get("custom", {}).get(CUSTOM, {})
        for name in custom.get("fields", {}):
            losses[name] = losses.get(name, 0) + 1
        if record.entry_type and CSL_TO_TYPE.get(item["type"]) != record.entry_type:
            what = f"entry type @{record.entry_type} (as {item['type']})"
            losses[what] = losses.get(what, 0) + 1
    return losses


# -- reading ---------------------------------------------------------------------------

_LINE_OF_ITEM = re.compile(r"^\s*\{", re.M)


def read_csl_json(
    path: Path | str, *, venue: str | None = None, year: int | None = None, encoding: str | None = None
) -> ImportResult:
    """Read the CSL-JSON file at `path` (an array of items, or one item).

    An item that is not an object, or holds nothing (no title, name, id or field), is skipped with
    its number and line; the user's tags (from our own exports) and notes (`annote`) come
    back in `result.annotations`. Raises ImportFailure when the file is not JSON, not
    items, or holds none that can be used.
    """
    path = Path(path)
    problems: list[ImportProblem] = []
    text = read_text_file(path, encoding, problems)
    if not text.strip():
        raise ImportFailure(path, "is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportFailure(path, f"is not valid JSON ({error.msg})", error.lineno) from None
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]  # citeproc-js's {"items": [...]}
    elif isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ImportFailure(path, f"has the wrong shape for CSL-JSON: a {type(data).__name__}, not a list of items", 1)
    lines = _item_lines(text, len(data))
    result = ImportResult(path=path, problems=problems)
    keys = BBTKeys()
    for index, item in enumerate(data):
        line = lines[index] if index < len(lines) else None
        if not isinstance(item, dict):
            result.problems.append(ImportProblem(path, line, f"skipped item {index + 1}: not an object but a {type(item).__name__}"))
            continue
        record = record_from_item(item)
        if not record.title.strip() and not record.names and not record.fields and not _is_key(item.get("id")):
            result.problems.append(ImportProblem(path, line, f"skipped item {index + 1}: it has no title, name, id or field"))
            continue
        _key(record, item, keys)
        paper = paper_of(record, source=source_name(_CSL_SOURCE, path), default_venue=venue, default_year=year)
        result.papers.append(paper)
        result.lines.append(line)
        add_annotation(result.annotations, paper.id, record.tags, record.notes)
    return result.require_papers("item", "holds no CSL-JSON items")


def _item_lines(text: str, count: int) -> list[int]:
    """The line each top-level item of a JSON array starts on (best effort: by scanning
    the text for the values at depth one, objects or not)."""
    lines, depth, line, in_string, escaped, expect = [], 0, 1, False, False, False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if expect and not char.isspace() and char not in ",]":
            lines.append(line)  # the first character of an item at depth one
            expect = False
        if char == '"':
            in_string = True
        elif char in "[{":
            if depth == 0 and char == "{":
                lines.append(line)
            depth += 1
            expect = depth == 1 and char == "["
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 1:
            expect = True
        if len(lines) >= count and depth == 0:
            break
    return lines


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value if _text(v))
    return ""


def _names(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        return []
    names = []
    for name in value:
        if isinstance(name, dict):
            kept = {k: _text(v) for k, v in name.items() if _text(v)}
            if kept:
                names.append(kept)
        elif isinstance(name, str) and name.strip():
            names.append({"literal": name.strip()})
    return names


def _date_fields(value: Any) -> dict[str, str]:
    """`year`, `month`, `day` of a CSL date (date-parts, raw, literal)."""
    if not isinstance(value, dict):
        return {"year": _text(value)} if _text(value) else {}
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = [_text(p) for p in parts[0]]
        found = {"year": first[0]}
        if len(first) > 1 and month_number(first[1]):
            found["month"] = MONTHS[month_number(first[1]) - 1]
        if len(first) > 2 and first[2]:
            found["day"] = first[2]
        return found
    raw = _text(value.get("raw") or value.get("literal"))
    match = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", raw.strip())
    if match:
        found = {"year": match.group(1)}
        if match.group(2) and month_number(match.group(2)):
            found["month"] = MONTHS[int(match.group(2)) - 1]
        return found
    return {"year": raw} if raw else {}


def record_from_item(item: dict[str, Any]) -> Record:
    """A record from one CSL-JSON item (its key not decided yet)."""
    custom = item.get("custom") if isinstance(item.get("custom"), dict) else {}
    ours = custom.get(CUSTOM) if isinstance(custom.get(CUSTOM), dict) else {}
    csl_type = _text(item.get("type"))
    entry_type = _text(ours.get("bibtex-type")) or CSL_TO_TYPE.get(csl_type, "misc")
    if entry_type == "phdthesis" and re.search(r"master", _text(item.get("genre")), re.I) and not ours:
        entry_type = "mastersthesis"
    source = ours.get("bibtex-fields") if isinstance(ours.get("bibtex-fields"), dict) else {}
    fields: dict[str, str] = {}
    kept: dict[str, Any] = {}
    names: dict[str, list[dict[str, str]]] = {}
    handled = {"id", "citation-key", "type", "title", "author", "editor", "translator", "issued", "keyword", "annote", "custom"}
    for variable, value in item.items():
        if variable in handled:
            continue
        name = _text(source.get(variable)) or _default_field(variable, entry_type)
        if name is None or name in fields:
            kept[variable] = value  # written back as it came by a CSL-JSON export
            continue
        if variable == "accessed":
            date = _date_fields(value)
            text = "-".join(filter(None, (date.get("year"), _two(date.get("month")), _two(date.get("day")))))
        else:
            text = _text(value)
        if variable == "note":
            text = _without_pinned_key(text)
        if not isinstance(value, (str, int, float, list, dict)) or (isinstance(value, (list, dict)) and variable != "accessed"):
            kept[variable] = value
            continue
        if text.strip():
            fields[name] = text
    fields.update(_date_fields(item.get("issued")) if "issued" in item else {})
    leftover = ours.get("fields") if isinstance(ours.get("fields"), dict) else {}
    fields.update({str(k): _text(v) for k, v in leftover.items() if _text(v)})
    for name in NAME_FIELDS:
        if name in item:
            names[name] = _names(item[name])
    keywords = tuple(k.strip() for k in re.split(r"[,;]", _text(item.get("keyword"))) if k.strip())
    tags = tuple(_text(t) for t in ours.get("tags", ()) if _text(t)) if isinstance(ours.get("tags"), list) else ()
    other_custom = {k: v for k, v in custom.items() if k != CUSTOM}
    if other_custom:
        kept["custom"] = other_custom
    return Record(
        entry_type=entry_type,
        key="",
        title=" ".join(_text(item.get("title")).split()),
        names=names,
        fields=fields,
        keywords=keywords,
        tags=tags,
        notes=_text(item.get("annote")).strip(),
        kept=kept,
    )


def _two(value: str | None) -> str:
    if not value:
        return ""
    number = month_number(value) if not value.isdigit() else int(value)
    return f"{number:02d}" if number else ""


def _without_pinned_key(note: str) -> str:
    return "\n".join(line for line in note.split("\n") if not pinned_key(line)).strip()


def _key(record: Record, item: dict[str, Any], keys: BBTKeys) -> None:
    """The record's key: see the module docstring."""
    for candidate in (item.get("citation-key"), item.get("id"), pinned_key(_text(item.get("note")))):
        if isinstance(candidate, str) and _is_key(candidate) and not candidate.isdigit() and keys.claim(candidate):
            record.key = candidate
            return
    first = (record.names.get("author") or record.names.get("editor") or [{}])[0]
    family = first.get("family") or first.get("literal") or ""
    particle = first.get("non-dropping-particle", "")
    record.key = keys.make([f"{{{particle}{family}}}"] if family else [], record.title, record.fields.get("year"))
