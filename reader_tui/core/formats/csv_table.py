"""Read a spreadsheet-exported CSV (or TSV) table of papers into `Paper` records.

The first row names the columns, case-insensitively, with a few aliases ("Paper Title",
"Author", "Link", "Conference"...); unknown columns are ignored. Any subset works as long
as there is a title or an abstract column. Spreadsheets write a BOM, CRLF, `;` as the
delimiter in some locales, and quoted cells spanning lines: all handled.

Authors split on ";" or " and " (and on "," when every piece is a full name, "A. Smith,
B. Jones", but not "Smith, John"); keywords on ";" or ",". A row with only an abstract
gets a title derived from it. Paper id: the `id` column, else the OpenReview forum id of
the url, else `stable_id(abstract or title)`.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..model import Paper
from ..text.display import stable_id
from ..text.names import split_authors as bibtex_names
from ..text.titles import derive_title
from .base import ImportFailure, ImportProblem, ImportResult, read_text_file
from .identifiers import normalise_doi, openreview_forum_id

_ALIASES = {
    "title": ("title", "paper title", "paper", "name"),
    "abstract": ("abstract", "summary", "paper abstract"),
    "authors": ("authors", "author", "author names", "authors list"),
    "year": ("year", "publication year", "pub year"),
    "venue": ("venue", "conference", "booktitle", "journal", "published in"),
    "url": ("url", "link", "paper url", "openreview", "openreview url"),
    "keywords": ("keywords", "keyword", "topics"),
    "id": ("id", "paper id", "forum", "forum id", "openreview id"),
    "doi": ("doi",),
}
_COLUMN = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}
_YEAR = re.compile(r"^\s*(\d{4})(?:\.0+)?\s*$")  # spreadsheets like "2024.0"
_KEYWORD_SPLIT = re.compile(r"[;,]")
_DELIMITERS = ",;\t|"


def read_csv(
    path: Path | str, *, venue: str | None = None, year: int | None = None, encoding: str | None = None
) -> ImportResult:
    """Read the papers of the CSV/TSV table at `path`.

    `venue` and `year` fill in rows that have none. Rows without title and abstract are
    skipped and reported with their line; a junk year is dropped and reported. Raises
    ImportFailure naming the file (and line) when it is unreadable, empty, has no
    title/abstract column, holds no usable row, or breaks CSV quoting. `encoding`: see
    `base.read_text_file`.
    """
    path = Path(path)
    problems: list[ImportProblem] = []  # what decoding the file warns of comes first
    text = read_text_file(path, encoding, problems)
    if not text.strip():
        raise ImportFailure(path, "is empty")
    delimiter = _delimiter(text, path)
    # strict: a quote left open (a file cut off mid-cell) is an error, not one huge cell.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    result = ImportResult(path=path, problems=problems)
    source = f"csv:{path.name}"
    columns: dict[str, int] = {}
    width = 0
    last_line = 0
    try:
        for row in reader:
            line = last_line + 1  # where this row starts: cells may span lines
            last_line = reader.line_num
            if not columns:
                if not any(cell.strip() for cell in row):
                    continue
                columns = _columns(row, path, line)
                width = len(row)
                continue
            if not any(cell.strip() for cell in row):
                continue
            if any(cell.strip() for cell in row[width:]):
                # A comma left unquoted in a cell shifts every cell after it: said, not
                # taken silently (the row still gets in, its extra cells ignored).
                result.problems.append(ImportProblem(
                    path, line, f"has {len(row)} cells where the header has {width}: the extra cells were"
                    " ignored (a comma inside a cell that is not quoted?)", "warning"))
            cells = {name: row[i].strip() if i < len(row) else "" for name, i in columns.items()}
            paper = _paper(cells, path, line, source, venue, year, result.problems)
            if paper is not None:
                result.papers.append(paper)
    except csv.Error as error:
        reason = "a quoted cell is never closed (is the file cut off?)" if "end of data" in str(error) else str(error)
        raise ImportFailure(path, f"is not valid CSV: {reason}", last_line + 1) from None
    if not columns:
        raise ImportFailure(path, "is empty")
    return result.require_papers("row", "has a header row but no papers")


def _delimiter(text: str, path: Path) -> str:
    """The delimiter: csv.Sniffer on the header line, checked; else the most common one."""
    if path.suffix.lower() == ".tsv":
        return "\t"
    header = text.lstrip("\n").split("\n", 1)[0]
    try:
        found = csv.Sniffer().sniff(header, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        found = ""
    # The Sniffer guesses wrong on one-column headers ("title" -> "t"?): it must split
    # the header into known names to be trusted.
    if found and any(_key(cell) in _COLUMN for cell in header.split(found)) and header.count(found):
        return found
    counts = {d: header.count(d) for d in _DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _key(cell: str) -> str:
    return " ".join(cell.strip().strip('"').lower().replace("_", " ").replace("-", " ").split())


def _columns(header: list[str], path: Path, line: int) -> dict[str, int]:
    columns: dict[str, int] = {}
    for position, cell in enumerate(header):
        name = _COLUMN.get(_key(cell))
        if name is not None and name not in columns:
            columns[name] = position
    if "title" not in columns and "abstract" not in columns:
        found = ", ".join(repr(c.strip()) for c in header[:8] if c.strip()) or "none"
        raise ImportFailure(path, f"has no title or abstract column in its header (found: {found})", line)
    return columns


def _paper(
    cells: dict[str, str],
    path: Path,
    line: int,
    source: str,
    default_venue: str | None,
    default_year: int | None,
    problems: list[ImportProblem],
) -> Paper | None:
    title = " ".join(cells.get("title", "").split())
    abstract = cells.get("abstract", "")
    if not title and not abstract:
        problems.append(ImportProblem(path, line, "skipped a row with neither title nor abstract"))
        return None
    derived, short_name = False, ""
    if not title:
        made = derive_title(abstract)
        title, short_name, derived = made.title, made.short_name, True

    year = default_year
    raw_year = cells.get("year", "")
    if raw_year:
        match = _YEAR.match(raw_year)
        if match:
            year = int(match.group(1))
        else:
            problems.append(ImportProblem(path, line, f"ignored the year {raw_year!r}", "warning"))

    url = cells.get("url", "")
    pid = cells.get("id", "") or openreview_forum_id(url) or stable_id(abstract or title)
    return Paper(
        id=pid,
        title=title,
        abstract=abstract,
        authors=split_authors(cells.get("authors", "")),
        venue=" ".join(cells.get("venue", "").split()) or default_venue or "",
        year=year,
        url=url,
        keywords=tuple(k.strip() for k in _KEYWORD_SPLIT.split(cells.get("keywords", "")) if k.strip()),
        source=source,
        doi=normalise_doi(cells.get("doi", "")),
        title_derived=derived,
        short_name=short_name,
    )


def split_authors(text: str) -> tuple[str, ...]:
    """Authors from a cell: split on ";" and on " and " (BibTeX's rule, `names`); on ","
    only when every piece has two or more words ("A. Smith, B. Jones"), since "Smith, John"
    is one name."""
    text = " ".join(text.split())
    if ";" in text or len(names := bibtex_names(text)) > 1:
        names = tuple(n for piece in text.split(";") for n in bibtex_names(piece))
    elif len(pieces := [p.strip() for p in text.split(",")]) > 1 and all(len(p.split()) >= 2 for p in pieces):
        names = tuple(pieces)
    return tuple(n for n in (name.strip(",").strip() for name in names) if n)
