"""The seed list format: an optional header line, then one abstract per paragraph.

    ICLR 2026 论文列表

    LLMs are known to store vast amounts of knowledge ... we propose Active Reading: ...

    Krotov and Hopfield (2021) proposed ...

The header names the list ("ICLR 2026 ..." -> venue ICLR, year 2026). Papers have no
title, authors or id: the id is a hash of the abstract (`text.display.stable_id`), so the same
abstract gets the same id on every import, and the title is derived from it.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..model import Paper
from ..text.display import stable_id
from ..text.titles import derive_title, unique_titles
from .base import ImportFailure, ImportProblem, ImportResult, read_text_file

_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_SENTENCE_END = re.compile(r"[.!?]\s*$")
HEADER_MAX = 80


def _paragraphs(text: str) -> list[tuple[int, int, str]]:
    """(first line number, line count, paragraph) triples; lines inside a paragraph are
    joined by a space."""
    found: list[tuple[int, int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip()
        if line.strip():
            if not current:
                start = number
            current.append(line.strip() if current else line.lstrip())
        elif current:
            found.append((start, len(current), " ".join(current)))
            current = []
    if current:
        found.append((start, len(current), " ".join(current)))
    return found


def parse_header(line: str) -> tuple[str, int | None] | None:
    """(venue, year) when `line` looks like a list header ("ICLR 2026 论文列表"), else None.

    A header is one short line without a sentence-ending period; the venue is the
    words before the 4-digit year ("" when the year comes first).
    """
    if len(line) > HEADER_MAX or _SENTENCE_END.search(line):
        return None
    year = _YEAR.search(line)
    if year is None:
        return (line.strip(), None) if len(line.split()) <= 6 else None
    return line[: year.start()].strip(" -–—:,"), int(year.group(1))


def read_seed(
    path: Path | str,
    *,
    venue: str | None = None,
    year: int | None = None,
    source: str | None = None,
    encoding: str | None = None,
) -> ImportResult:
    """Read a seed list: one paper per paragraph, titles derived from the abstracts.

    `venue` and `year` override what the header says (and fill in when there is no
    header). A repeated abstract is kept once and reported as a problem with its line.
    Raises ImportFailure when the file is unreadable or holds no papers. `encoding`: see
    `base.read_text_file`.
    """
    path = Path(path)
    problems: list[ImportProblem] = []  # what decoding the file warns of comes first
    paragraphs = _paragraphs(read_text_file(path, encoding, problems))
    head_venue, head_year = "", None
    if paragraphs and paragraphs[0][1] == 1:
        header = parse_header(paragraphs[0][2])
        # A short first line followed by abstracts is a header. Alone, it is a header
        # only when it names a year ("ICLR 2026": a list with no papers yet); otherwise
        # it is more likely a short abstract.
        if header is not None and (len(paragraphs) > 1 or header[1] is not None):
            head_venue, head_year = header
            paragraphs = paragraphs[1:]
    if not paragraphs:
        raise ImportFailure(path, "no papers found (expected one abstract per paragraph)")

    result = ImportResult(path=path, problems=problems)
    seen: dict[str, int] = {}
    kept: list[tuple[str, str, str]] = []  # (id, abstract, short_name) in file order
    titles: list[str] = []
    for line, _, abstract in paragraphs:
        pid = stable_id(abstract)
        if pid in seen:
            result.problems.append(
                ImportProblem(path, line, f"same abstract as line {seen[pid]}: kept once")
            )
            continue
        seen[pid] = line
        derived = derive_title(abstract)
        kept.append((pid, abstract, derived.short_name))
        titles.append(derived.title)

    the_venue = venue if venue is not None else head_venue
    the_year = year if year is not None else head_year
    the_source = source if source is not None else f"seed:{path.name}"
    for (pid, abstract, short_name), title in zip(kept, unique_titles(titles)):
        result.papers.append(
            Paper(
                id=pid,
                title=title,
                abstract=abstract,
                venue=the_venue,
                year=the_year,
                source=the_source,
                title_derived=True,
                short_name=short_name,
            )
        )
    return result
