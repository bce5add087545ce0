"""RIS, the tagged format every reference manager exchanges: reader and writer.

A record is lines `TY  - JOUR` ... `ER  - `: TY (type), ID (the citation key), AU (one
per author, "Family, Given, Suffix"), A2/ED (editors), TI, T2 (journal or book title),
T3 (series), PY (year), DA (date), VL, IS, SP/EP (pages), PB, CY, SN, DO, UR, AB, KW
(one per keyword, then one per tag), N1 (the user's notes), ET (edition), M3 (type
of work), ER. Text is plain (see `formats.record`). Keys as in CSL-JSON: the one
reader-tui shows, else Better BibTeX's; read back from ID, else a `Citation Key: X` in N1.

What RIS cannot hold (`ris_losses` counts it, the CLI says it): the exact BibTeX
entry type where two share a RIS type, BibTeX fields with no tag (`crossref`, `eprint`,
`note`...), the difference between keywords and tags (both are KW: read back, they
are keywords), a name with a comma inside one part (`{Dyer, Esquire}`, an
organisation "Association, Task Force"): RIS separates a name's parts by commas, and a
particle with a capital ("Van de Graaff"), which reads back as part of the family.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ..model import PaperView
from ..text.bbt_keys import BBTKeys, pinned_key
from ..text.citekeys import fits_entry_head, validate_citekey
from ..text.person_names import PARTICLE
from .base import ImportFailure, ImportProblem, ImportResult, add_annotation, read_text_file
from .csl_json import keyed_records
from .record import MONTHS, Record, month_number, paper_of, source_name

__all__ = ["export_ris", "read_ris", "ris_losses", "TYPE_TO_RIS"]

TYPE_TO_RIS = {
    "article": "JOUR", "inproceedings": "CPAPER", "conference": "CPAPER", "proceedings": "CONF", "book": "BOOK",
    "mvbook": "BOOK", "collection": "EDBOOK", "inbook": "CHAP", "incollection": "CHAP", "phdthesis": "THES",
    "mastersthesis": "THES", "thesis": "THES", "techreport": "RPRT", "report": "RPRT", "unpublished": "UNPB",
    "online": "ELEC", "www": "ELEC", "electronic": "ELEC", "patent": "PAT", "dataset": "DATA", "software": "COMP",
    "manual": "GEN", "booklet": "PAMP", "misc": "GEN", "periodical": "JFULL",
}
RIS_TO_TYPE = {
    "JOUR": "article", "JFULL": "periodical", "MGZN": "article", "NEWS": "article", "EJOUR": "article",
    "CPAPER": "inproceedings", "CONF": "proceedings", "BOOK": "book", "EBOOK": "book", "EDBOOK": "collection",
    "CHAP": "incollection", "ECHAP": "incollection", "THES": "phdthesis", "RPRT": "techreport", "UNPB": "unpublished",
    "MANSCPT": "unpublished", "ELEC": "online", "WEB": "online", "BLOG": "online", "PAT": "patent", "DATA": "dataset",
    "COMP": "software", "PAMP": "booklet", "GEN": "misc", "STD": "misc",
}
#: BibTeX field -> RIS tag (one value each).
FIELD_TO_TAG = {
    "series": "T3", "volume": "VL", "edition": "ET", "publisher": "PB", "school": "PB", "institution": "PB",
    "organization": "PB", "address": "CY", "location": "CY", "isbn": "SN", "issn": "SN", "doi": "DO", "url": "UR",
    "abstract": "AB", "type": "M3", "language": "LA", "number": "IS", "urldate": "Y2", "shorttitle": "ST",
}
_TAG_TO_FIELD = {
    "T3": "series", "VL": "volume", "ET": "edition", "CY": "address", "DO": "doi", "UR": "url", "AB": "abstract",
    "N2": "abstract", "M3": "type", "LA": "language", "IS": "number", "Y2": "urldate", "ST": "shorttitle",
}
_LINE = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")
_RIS_SOURCE = "ris"


def _line(tag: str, value: str) -> str:
    # A value is one line: RIS readers take a line without a tag as the previous value's
    # continuation, but not alike, so line breaks become spaces.
    return f"{tag}  - {' '.join(value.split())}"


def _name(parts: dict[str, str]) -> str:
    """One RIS name: a person "Family, Given, Suffix" (always with a comma, "Plato,"
    too), an organisation as written, without one (see `_ris_name`)."""
    if "literal" in parts:
        return parts["literal"]
    family = " ".join(p for p in (parts.get("non-dropping-particle", ""), parts.get("family", "")) if p)
    given, suffix = parts.get("given", ""), parts.get("suffix", "")
    if suffix:
        return f"{family}, {given}, {suffix}"
    return f"{family}, {given}" if given else f"{family},"


def _name_lost(parts: dict[str, str]) -> bool:
    """Whether RIS cannot hold `parts`: a comma inside one part splits it on reading."""
    return any("," in str(value) for value in parts.values())


def _particle_lost(parts: dict[str, str]) -> bool:
    """Whether RIS cannot hold `parts`' particle: one with a capital ("Van de Graaff")
    reads back as part of the family name (see `_ris_name`)."""
    particle = parts.get(PARTICLE, "")
    return bool(particle) and not particle[:1].islower()


def _record_lines(record: Record) -> list[str]:
    fields = dict(record.fields)
    lines = [_line("TY", TYPE_TO_RIS.get(record.entry_type, "GEN")), _line("ID", record.key)]
    if record.title:
        lines.append(_line("TI", record.title))
    lines += [_line("AU", _name(n)) for n in record.names.get("author", [])]
    lines += [_line("A2", _name(n)) for n in record.names.get("editor", [])]
    lines += [_line("A4", _name(n)) for n in record.names.get("translator", [])]
    container = fields.pop("journal", "") or fields.pop("journaltitle", "") or fields.pop("booktitle", "")
    if container:
        lines.append(_line("T2", container))
    year, month, day = fields.pop("year", ""), fields.pop("month", ""), fields.pop("day", "")
    if year:
        lines.append(_line("PY", year))
        number = month_number(month) if month else None
        if re.fullmatch(r"\d{4}", year) and number:
            lines.append(_line("DA", f"{year}/{number:02d}/{int(day):02d}/" if day.isdigit() else f"{year}/{number:02d}/"))
    pages = fields.pop("pages", "")
    if pages:
        first, _, last = re.sub(r"\s*(?:-{1,3}|[–—])\s*", "-", pages).partition("-")
        lines.append(_line("SP", first))
        if last:
            lines.append(_line("EP", last))
    used: set[str] = set()
    for name, value in fields.items():
        tag = FIELD_TO_TAG.get(name)
        if tag and tag not in used:
            used.add(tag)
            lines.append(_line(tag, value))
    lines += [_line("KW", k) for k in record.keywords]
    lines += [_line("KW", t) for t in record.tags if t not in record.keywords]
    if record.notes.strip():
        lines.append(_line("N1", record.notes))
    lines.append("ER  - ")
    return lines


def export_ris(papers: Iterable[PaperView], *, memo: dict | None = None) -> str:
    """A RIS file (UTF-8, records separated by a blank line) for `papers`."""
    return "".join("\n".join(_record_lines(record)) + "\n\n" for record in keyed_records(papers))


def ris_losses(papers: Iterable[PaperView]) -> dict[str, int]:
    """What a RIS export cannot hold: {BibTeX field, or what else: how many papers}."""
    losses: dict[str, int] = {}

    def lose(what: str) -> None:
        losses[what] = losses.get(what, 0) + 1

    for record in keyed_records(papers):
        fields = dict(record.fields)
        container = next((n for n in ("journal", "journaltitle", "booktitle") if n in fields), None)
        for name in (container, "year", "month", "day", "pages"):
            fields.pop(name, None)
        used: set[str] = set()
        for name in fields:
            tag = FIELD_TO_TAG.get(name)
            if tag is None or tag in used:
                lose(name)
            else:
                used.add(tag)
        if record.entry_type and RIS_TO_TYPE.get(TYPE_TO_RIS.get(record.entry_type, "GEN")) != record.entry_type:
            lose(f"entry type @{record.entry_type} (as {TYPE_TO_RIS.get(record.entry_type, 'GEN')})")
        if record.tags:
            lose("tags (read back as keywords)")
        if record.kept:
            lose("CSL-JSON variables with no RIS tag")
        if any(_name_lost(n) for names in record.names.values() for n in names):
            lose("names with a comma inside one part (read back split at it)")
        if any(_particle_lost(n) for names in record.names.values() for n in names):
            lose("names with a capitalised particle (read back in the family name)")
    return losses


def read_ris(path: Path | str, *, venue: str | None = None, year: int | None = None, encoding: str | None = None) -> ImportResult:
    """Read every record of the RIS file at `path`.

    A record cut off by the end of the file, or a line that is not `XX  - value` inside a
    record, is a problem naming its line (the record is skipped, or the line is taken as
    the previous value's continuation, as RIS writers wrap long abstracts). Raises
    ImportFailure when the file holds no usable record.
    """
    path = Path(path)
    problems: list[ImportProblem] = []
    text = read_text_file(path, encoding, problems)
    if not text.strip():
        raise ImportFailure(path, "is empty")
    result = ImportResult(path=path, problems=problems)
    keys = BBTKeys()
    tags: list[tuple[str, str]] = []
    start: int | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip()
        match = _LINE.match(line)
        if match is None:
            if not line.strip():
                continue
            if start is not None and tags:
                tags[-1] = (tags[-1][0], f"{tags[-1][1]} {line.strip()}")  # a wrapped value
                continue
            result.problems.append(ImportProblem(path, number, f"skipped a line outside any record (no TY before it): {line.strip()[:40]!r}"))
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            if start is not None:
                result.problems.append(ImportProblem(path, start, "skipped a record with no ER line before the next TY"))
            start, tags = number, [(tag, value)]
        elif start is None:
            result.problems.append(ImportProblem(path, number, f"skipped a {tag} line outside any record (no TY before it)"))
        elif tag == "ER":
            _add(result, tags, start, keys, path, venue, year)
            start, tags = None, []
        else:
            tags.append((tag, value))
    if start is not None:
        result.problems.append(ImportProblem(path, start, "skipped a record cut off by the end of the file (no ER line)"))
    return result.require_papers("record", "holds no RIS records (TY  - ... ER  - )")


def _add(result: ImportResult, tags: list[tuple[str, str]], line: int, keys: BBTKeys, path: Path, venue, year) -> None:
    record = record_from_tags(tags)
    key = record.key
    if not (key and (validate_citekey(key) is None or fits_entry_head(key)) and keys.claim(key)):
        first = (record.names.get("author") or record.names.get("editor") or [{}])[0]
        family = first.get("family") or first.get("literal") or ""
        record.key = keys.make([f"{{{family}}}"] if family else [], record.title, record.fields.get("year"))
    paper = paper_of(record, source=source_name(_RIS_SOURCE, path), default_venue=venue, default_year=year)
    result.papers.append(paper)
    result.lines.append(line)
    add_annotation(result.annotations, paper.id, notes=record.notes)


def _ris_name(value: str) -> dict[str, str]:
    """RIS writes a person "Family, Given[, Suffix]"; a name with no comma is one whole
    name (an organisation, "World Health Organization"), not split at its spaces. The
    family part's leading lower-case words are its particle ("van Beethoven")."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) == 1:
        return {"literal": value.strip()}
    words = parts[0].split()
    lead = 0
    while lead < len(words) - 1 and words[lead][:1].islower():
        lead += 1
    found = {"family": " ".join(words[lead:]), "given": parts[1], PARTICLE: " ".join(words[:lead])}
    if len(parts) > 2:
        found["suffix"] = ", ".join(p for p in parts[2:] if p)
    return {k: v for k, v in found.items() if v}


def record_from_tags(tags: list[tuple[str, str]]) -> Record:
    """A record from one RIS record's (tag, value) lines, its key as written (or "")."""
    entry_type = RIS_TO_TYPE.get(tags[0][1].upper(), "misc") if tags else "misc"
    fields: dict[str, str] = {}
    names: dict[str, list[dict[str, str]]] = {}
    keywords: list[str] = []
    notes: list[str] = []
    title = key = ""
    start = end = ""
    for tag, value in tags[1:]:
        if not value:
            continue
        if tag in ("AU", "A1"):
            names.setdefault("author", []).append(_ris_name(value))
        elif tag in ("A2", "ED", "A3"):
            names.setdefault("editor", []).append(_ris_name(value))
        elif tag == "A4":
            names.setdefault("translator", []).append(_ris_name(value))
        elif tag in ("TI", "T1") and not title:
            title = value
        elif tag in ("T2", "JO", "JF", "BT", "JA", "J2") and "container" not in fields:
            fields["container"] = value
        elif tag in ("PY", "Y1"):
            year_match = re.match(r"(\d{4})(?:/(\d{1,2})?(?:/(\d{1,2}))?)?", value)
            fields["year"] = year_match.group(1) if year_match else value.strip("/")
            if year_match and year_match.group(2) and month_number(year_match.group(2)):
                fields.setdefault("month", MONTHS[int(year_match.group(2)) - 1])
        elif tag == "DA":
            date = re.match(r"(\d{4})?/(\d{1,2})?", value)
            if date and date.group(2) and month_number(date.group(2)):
                fields["month"] = MONTHS[int(date.group(2)) - 1]
        elif tag == "SP":
            start = value
        elif tag == "EP":
            end = value
        elif tag == "ID":
            key = value
        elif tag == "KW":
            keywords += [k.strip() for k in value.split(";") if k.strip()]
        elif tag == "N1":
            pinned = pinned_key(value)
            key = key or pinned
            if not pinned:
                notes.append(value)
        elif tag == "PB":
            fields.setdefault({"phdthesis": "school", "techreport": "institution"}.get(entry_type, "publisher"), value)
        elif tag == "SN":
            digits = re.sub(r"[^0-9Xx]", "", value)
            fields.setdefault("issn" if len(digits) == 8 else "isbn", value)
        elif tag in _TAG_TO_FIELD:
            fields.setdefault(_TAG_TO_FIELD[tag], value)
    if start:
        fields["pages"] = f"{start}--{end}" if end and end != start else start
    container = fields.pop("container", "")
    if container:
        fields["journal" if entry_type in ("article", "periodical") else "booktitle"] = container
    return Record(entry_type=entry_type, key=key, title=" ".join(title.split()), names=names, fields=fields,
                  keywords=tuple(dict.fromkeys(keywords)), notes="\n\n".join(notes))
