"""Read a BibTeX file (bibtexparser v2) into `Paper` records.

bibtexparser only splits the file into blocks here: its default middlewares resolve a
`@string` macro only when it is a field's whole value, so `iclr # " 2020"` would stay raw.
We evaluate values ourselves (`_evaluate`): `{...}` and `"..."` pieces, numbers, macros
(defined earlier in the file, plus the month names) and `#` concatenation.

Titles and abstracts keep their LaTeX (the exporter writes it back; the screen uses
`text.display.to_display`), with runs of whitespace collapsed since BibTeX values wrap freely.

The user's own reading comes back as `ImportResult.annotations`: `annote` (BibTeX's field
for a reader's notes) is the paper's notes in any file, line breaks kept; in a file
reader-tui exported (its `HEADER` first), the `tags` field holds the user's tags, and
`keywords` that repeat it are those tags written for other tools, not the paper's own.
A file of an earlier version (the HEADER's first line alone) kept the tags in
`keywords` unless the entry had a `tags` field. Both are user text, written in one
exact encoding (`bibtex.user_text`) and decoded here.

Paper ids, stable across re-imports of the same file:
1. the OpenReview forum id when the url points at OpenReview (the same id the OpenReview
   importer uses, so both sources agree without fuzzy matching);
2. else `stable_id("doi:" + doi)`, the DOI in its comparable form: a DOI survives a
   corrected title;
3. else `stable_id` of the citation key and the title. The key tells apart entries that
   share a title and year (two chapters of one book); the title tells apart two files that
   happen to use one key for different papers. Entries with different keys are different
   papers unless a DOI or url says otherwise (see `library.same_paper.match_papers`).
The citation key is kept as `Paper.citekey`.

Every entry with a key gets in, so that it can be written back as it came
(`Paper.entry_type`, `Paper.extra_fields`); the exporter follows these rules:
- `entry_type` is the entry's type in lower case (`@ARTICLE` -> "article").
- `title`, `author`, `year`, `url`, `doi`, `abstract` and `keywords` go to the paper's own
  attributes (the DOI as written) and `annote` to the user's notes; none of them is in
  `extra_fields`, but where the model cannot hold the value as written:
  - a `year` that is not a plain year ("1985/1986", "535 BCE") is kept in
    `extra_fields`; `Paper.year` is the four-digit year it holds, if any (for sorting);
  - an entry without a title (or with an empty one) gets a stand-in title made from
    what it has (`_stand_in_title`) and `title_derived`; an empty `title` is kept in
    `extra_fields`, and no title is written back;
  - a field the file has empty (`doi = {}`) is kept in `extra_fields`, empty;
  - an author list whose separators are not " and " as written (`AND`) is kept under
    the reserved key `@author`, keywords not separated by ", " (`;`) under `@keywords`;
  - in a file reader-tui exported, an `author = {Anonymous}` means no author.
- Every other field is in `extra_fields`, in file order, under its lower-case name, its
  value with macros expanded and `#` joined, outer braces or quotes taken off, runs of
  whitespace made one space, and the text otherwise as written (LaTeX kept).
- That includes `journal` and `booktitle`, as written: `Paper.venue` is a copy of the
  `booktitle` if the entry has one, else of its `journal` (else the `--venue` default),
  for display and search. A paper that was already in the library keeps its venue when
  a `.bib` entry is merged into it (see `library.same_paper.merge_paper`), so the two may differ.
  To write the entry back: write `extra_fields` in order, `journal`/`booktitle` as they
  are; when neither is there and the paper has a venue, write it as `journal` for an
  `article` and as `booktitle` otherwise.
- A `month` given as a bare month macro (`month = jan`) keeps the macro's name as its
  value ("jan", not "January"), and the reserved key `@bare` (value "month") says to
  write it back bare; every style defines the month macros.
- Reserved keys, which start with `@` (no BibTeX field name can) and are never written
  as fields: `@bare` (above); `@author` (above); `@keywords`, the `keywords` field as
  written when its separators are not ", " (`;`); `@annote`, the entry's `annote` text as written (macros
  expanded, ends trimmed), which is written back verbatim while the paper's notes are
  still what was read from it; and `@preamble`, one per `@preamble{...}` of the file,
  its raw value (quotes or braces included), the second and later under `@preamble 2`,
  `@preamble 3`..., on every paper of that file (a preamble
  is the file's, not an entry's), in file order: the export writes each distinct
  preamble once at its top, before the entries.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import bibtexparser
from bibtexparser import model as bib

from ...model import Paper
from ...text.display import stable_id
from ...text.names import join_authors, split_authors
from ..base import ImportFailure, ImportProblem, ImportResult, add_annotation, read_text_file
from ..identifiers import BIBTEX_SOURCE, OWN_EXPORT_SOURCE, fold, normalise_doi, openreview_forum_id
from .user_text import decode_user_text, split_keywords
from .writer import HEADER

_MONTHS = {
    m[:3]: m
    for m in (
        "January February March April May June July August September October November December"
    ).split()
}
_MONTH_MACROS = {k.lower(): v for k, v in _MONTHS.items()}

#: The reserved key of a file's preambles (see the module docstring).
PREAMBLE_KEY = "@preamble"

_WS = re.compile(r"\s+")
_YEAR = re.compile(r"^\s*\{?\s*(\d{4})\s*\}?\s*$")
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_KEYWORD_SPLIT = re.compile(r"[;,]")
_BLOCK_HEAD = re.compile(r"@\s*(\w+)\s*[{(]\s*([^,\s{}()]*)")

# Fields that go to the paper's own attributes or to the user's notes, never to
# `extra_fields` (see the module docstring; a `year` that is not a plain number is kept there).
_MODELLED = frozenset({"title", "author", "year", "url", "doi", "abstract", "keywords", "annote"})


def read_bibtex(
    path: Path | str, *, venue: str | None = None, year: int | None = None, encoding: str | None = None
) -> ImportResult:
    """Read every entry of the BibTeX file at `path` that can be parsed.

    `venue` and `year` fill in entries that have no booktitle/journal or year.
    Entries that cannot be parsed or repeat an earlier key are skipped and reported with
    their line; a year with no four-digit year in it or a repeated field is a warning
    (the entry gets in). `result.lines` gives each paper's line. Raises ImportFailure
    when the file is unreadable, empty, or holds no usable entry. `encoding`: see
    `base.read_text_file`.
    """
    path = Path(path)
    problems: list[ImportProblem] = []  # what decoding the file warns of comes first
    text = read_text_file(path, encoding, problems)
    if not text.strip():
        raise ImportFailure(path, "is empty")
    with _quiet_bibtexparser():
        try:
            library = bibtexparser.parse_string(text, parse_stack=[])
        except Exception as error:  # the splitter is not ours: never show its traceback
            raise ImportFailure(path, f"cannot be read as BibTeX ({_one_line(str(error))})") from None

    result = ImportResult(path=path, problems=problems)
    decoding = len(problems)
    ours = _exported_by_us(text)  # 0, or the version of our format
    macros: dict[str, str] = dict(_MONTH_MACROS)
    source = f"{OWN_EXPORT_SOURCE if ours else BIBTEX_SOURCE}{path.name}"
    entries_seen = 0
    preambles: list[str] = []
    read: list[_ReadEntry] = []
    for block in library.blocks:
        line = block.start_line + 1  # bibtexparser counts lines from 0
        if isinstance(block, bib.String):
            macros[block.key.lower()] = _evaluate(block.value, macros)
        elif isinstance(block, bib.Entry):
            entries_seen += 1
            read.append(_read_entry(block, line, macros, ours))
        elif isinstance(block, bib.DuplicateBlockKeyBlock):
            entries_seen += 1
            first = block.previous_block.start_line + 1
            result.problems.append(
                ImportProblem(path, line, f"skipped entry '{block.key}': the key was already used at line {first}")
            )
        elif isinstance(block, bib.DuplicateFieldKeyBlock):
            # Two `title = ` in one entry: the entry is still usable, take the first of each.
            entries_seen += 1
            entry = _first_fields(block)
            if entry is not None:
                keys = ", ".join(sorted(block.duplicate_keys))
                result.problems.append(
                    ImportProblem(path, line, f"entry '{entry.key}' repeats {keys}: kept the first", "warning")
                )
                read.append(_read_entry(entry, line, macros, ours))
        elif isinstance(block, bib.ParsingFailedBlock):
            entries_seen += 1
            result.problems.append(ImportProblem(path, line, _failure_message(block)))
        elif isinstance(block, bib.Preamble):
            # `\noopsort` and friends: the entries need them to compile (module docstring).
            value = block.value.strip()
            if value and value not in preambles:
                preambles.append(value)
        # Comments carry no papers.

    # A crossref or xref parent may come after its children: papers are made once every
    # entry is known, so that an entry without a title can show its parent's.
    by_key = {entry.entry.key.lower(): entry.values for entry in read}
    for entry in read:
        _add(result, entry, _paper(entry, by_key, path, source, venue, year, result.problems, ours))

    # In file order, after what decoding warned of: the skipped blocks were met while
    # reading, the warnings while making papers.
    result.problems[decoding:] = sorted(result.problems[decoding:], key=lambda problem: problem.line or 0)
    if preambles:
        # One reserved key each ("@preamble", "@preamble 2", ...): the catalog stores the
        # fields as an object, which holds a name once.
        kept = tuple((PREAMBLE_KEY if i == 0 else f"{PREAMBLE_KEY} {i + 1}", value) for i, value in enumerate(preambles))
        result.papers = [paper.evolve(extra_fields=paper.extra_fields + kept) for paper in result.papers]
    return result.require_papers("entry", "holds no BibTeX entries (@article{...}, @inproceedings{...})")


_HEADER_LINES = HEADER.splitlines()


def _exported_by_us(text: str) -> int:
    """Which of our formats `text` is in (a BOM is already gone): 2 when it starts with
    the exporter's HEADER (tags in `tags` fields), 1 for its first line alone (earlier
    files, whose `keywords` hold the tags unless an entry has a `tags` field), else 0."""
    lines = text.split("\n", 2)
    if lines[0].rstrip() != _HEADER_LINES[0]:
        return 0
    return 2 if len(lines) > 1 and lines[1].rstrip() == _HEADER_LINES[1] else 1


@dataclass(frozen=True, slots=True)
class _ReadEntry:
    """One entry as read, before it becomes a paper: its fields evaluated with the macros
    defined above it, and what it says of the user's reading."""

    entry: bib.Entry
    line: int
    values: dict[str, str]
    """Field name (lower case) -> value, macros expanded, whitespace runs made one space;
    the first of a repeated field; file order."""
    bare_month: bool
    annote: str | None
    tags: tuple[str, ...]
    notes: str


def _read_entry(entry: bib.Entry, line: int, macros: dict[str, str], ours: int) -> _ReadEntry:
    values: dict[str, str] = {}  # the first of a repeated field wins; dicts keep file order
    bare_month = False
    annote: str | None = None
    for fld in entry.fields:
        name = fld.key.lower()
        if name in values:
            continue
        if name == "month" and fld.value.strip().lower() in _MONTH_MACROS:
            values[name] = fld.value.strip()  # `month = jan` stays the macro (docstring)
            bare_month = True
            continue
        if name == "annote":
            annote = _evaluate(fld.value, macros).strip()  # as `_annotation` reads it
        values[name] = _WS.sub(" ", _evaluate(fld.value, macros)).strip()
    tags, notes = _annotation(entry, macros, ours)
    return _ReadEntry(entry, line, values, bare_month, annote, tags, notes)


def _add(result: ImportResult, read: _ReadEntry, paper: Paper) -> None:
    """Add `paper`, made from `read`, and what the entry says of the user's reading."""
    result.papers.append(paper)
    result.lines.append(read.line)
    add_annotation(result.annotations, paper.id, read.tags, read.notes)


def _annotation(entry: bib.Entry, macros: dict[str, str], ours: int) -> tuple[tuple[str, ...], str]:
    """(tags, notes) of `entry`: its `annote` always, its `keywords` only in our own files.

    Notes keep their line breaks (only the ends are trimmed): the exporter keeps them too.
    """
    raw = {fld.key.lower(): fld.value for fld in reversed(entry.fields)}  # the first wins
    # Trimmed before decoding: the exporter writes a note's own whitespace at its ends as
    # `\space{}`/`\char10{}`, so only a foreign file's layout is trimmed here.
    notes = decode_user_text(_evaluate(raw["annote"], macros).strip()) if "annote" in raw else ""
    tags: tuple[str, ...] = ()
    # Our files keep the tags in `tags`; earlier ones in `keywords`, unless the paper had
    # keywords of its own.
    tag_field = "tags" if "tags" in raw or ours == 2 else "keywords"
    if ours and tag_field in raw:
        # The exporter joins tags with ", " and writes a tag's own `,` `;` and edge
        # whitespace as `{,}` `{;}` `\space{}`: cut at the separators outside braces.
        parts = split_keywords(_evaluate(raw[tag_field], macros))
        tags = tuple(tag for tag in (decode_user_text(k) for k in parts) if tag)
    return tags, notes


def _paper(
    read: _ReadEntry,
    by_key: dict[str, dict[str, str]],
    path: Path,
    source: str,
    default_venue: str | None,
    default_year: int | None,
    problems: list[ImportProblem],
    ours: int = 0,
) -> Paper:
    entry, values = read.entry, read.values
    modelled = _MODELLED | {"tags"} if ours else _MODELLED  # our `tags`: see `_annotation`
    extra = {name: value for name, value in values.items() if name not in modelled}
    if read.bare_month:
        extra["@bare"] = "month"
    if read.annote:
        extra["@annote"] = read.annote
    # A field the file has empty (`doi = {}`) is written back empty: the model holds none.
    extra.update((name, "") for name in modelled if values.get(name) == "" and name != "title")

    title = values.get("title", "")
    title_derived = not _strip_braces(title).strip()
    if title_derived:
        # Kept all the same: the entry is the user's. The list shows a stand-in, and the
        # export writes the entry as it came (an empty `title = {}` included).
        if "title" in values:
            extra["title"] = title
        title = _stand_in_title(entry.key, values, by_key)

    year = default_year
    raw_year = values.get("year", "")
    if raw_year:
        match = _YEAR.match(raw_year)
        if match:
            year = int(match.group(1))
        else:
            # Written back as it came; sorted and filtered by the year it names, if any.
            extra["year"] = raw_year
            named = _YEAR_IN_TEXT.search(raw_year)
            year = int(named.group(1)) if named else None
            if named is None:
                message = (
                    f"entry '{entry.key}': the year {raw_year!r} holds no four-digit year: "
                    "exported as written; sorted and filtered as having no year"
                )
                problems.append(ImportProblem(path, read.line, message, "warning"))

    url = values.get("url", "")
    doi = values.get("doi", "")  # as written: normalised only where papers are matched
    forum = openreview_forum_id(url)
    if forum:
        pid = forum
    elif normalise_doi(doi):
        pid = stable_id("doi:" + normalise_doi(doi))
    else:
        pid = stable_id(f"bibtex {entry.key} {fold(values.get('title', ''))}")
    authors = split_authors(values.get("author", ""))
    if "author" in values and join_authors(authors) != values["author"]:
        extra["@author"] = values["author"]  # its own `AND`s or spacing: written back so
    if ours and authors == ("Anonymous",):
        authors = ()  # what the exporter writes for a paper without authors, not a person
    keywords = _catalog_keywords(values, ours)
    if keywords and ", ".join(keywords) != values["keywords"]:
        extra["@keywords"] = values["keywords"]  # its own `;` or spacing: written back so
    return Paper(
        id=pid,
        title=title,
        abstract=values.get("abstract", ""),
        authors=authors,
        venue=values.get("booktitle") or values.get("journal") or default_venue or "",
        year=year,
        url=url,
        keywords=keywords,
        citekey=entry.key,
        source=source,
        doi=doi,
        title_derived=title_derived,
        entry_type=entry.entry_type.lower(),
        extra_fields=tuple(extra.items()),
    )


def _stand_in_title(key: str, values: dict[str, str], by_key: dict[str, dict[str, str]]) -> str:
    """What the list shows for an entry without a title, from what it has: who wrote it
    and where it is (a crossref parent's title, its note), a set's members, else its key."""
    who = values.get("author") or values.get("editor") or ""
    parent = by_key.get((values.get("crossref") or values.get("xref") or "").lower(), {})
    inherited = _strip_braces(parent.get("title") or parent.get("booktitle") or "").strip()
    where = f"in {inherited}" if inherited else values.get("note") or values.get("howpublished") or ""
    if values.get("entryset"):
        where = f"set of {values['entryset']}"
    shown = ": ".join(part for part in (who, where) if part.strip())
    return shown or key


def _catalog_keywords(values: dict[str, str], ours: int) -> tuple[str, ...]:
    """The paper's own keywords. In our own files, `keywords` that repeat the `tags` field
    are the tags written for other tools (an entry that was ours, not the user's .bib),
    and in earlier ones `keywords` without a `tags` field are the tags (see `_annotation`)."""
    if ours == 2 and values.get("keywords") == values.get("tags"):
        return ()
    if ours == 1 and "tags" not in values:
        return ()
    return tuple(k.strip() for k in _KEYWORD_SPLIT.split(values.get("keywords", "")) if k.strip())


def _evaluate(raw: str, macros: dict[str, str]) -> str:
    """The text of a raw BibTeX value: `{..}`/`".."` pieces, numbers and macros joined by `#`.

    Never raises: an odd value comes back as written.
    """
    parts: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        while i < n and raw[i].isspace():
            i += 1
        if i >= n:
            break
        char = raw[i]
        if char == "{":
            end = _closing(raw, i + 1, "}")
            if end < 0:
                return raw.strip()
            parts.append(raw[i + 1 : end])
            i = end + 1
        elif char == '"':
            end = _closing(raw, i + 1, '"')
            if end < 0:
                return raw.strip()
            parts.append(raw[i + 1 : end])
            i = end + 1
        else:
            j = i
            while j < n and raw[j] != "#" and not raw[j].isspace():
                j += 1
            token = raw[i:j]
            # An undefined macro is kept by name: better a visible word than a lost value.
            parts.append(token if token.isdigit() else macros.get(token.lower(), token))
            i = j
        while i < n and raw[i].isspace():
            i += 1
        if i < n:
            if raw[i] != "#":
                return raw.strip()
            i += 1
    return "".join(parts)


def _closing(raw: str, start: int, closer: str) -> int:
    """Index of the `closer` ending a piece that starts at `start`, braces nested; -1 if none."""
    depth = 0
    i = start
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\":
            i += 2  # `\{`, `\"` are escaped: as in bibtexparser's splitter
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            if depth == 0:
                return i if closer == "}" else -1
            depth -= 1
        elif char == closer and depth == 0:
            return i
        i += 1
    return -1


def _strip_braces(text: str) -> str:
    return text.replace("{", "").replace("}", "")


def _first_fields(block: bib.DuplicateFieldKeyBlock) -> bib.Entry | None:
    entry = getattr(block, "ignore_error_block", None)
    if not isinstance(entry, bib.Entry):
        return None
    seen: set[str] = set()
    kept = []
    for fld in entry.fields:
        if fld.key.lower() not in seen:
            seen.add(fld.key.lower())
            kept.append(fld)
    return bib.Entry(entry.entry_type, entry.key, kept, start_line=entry.start_line, raw=entry.raw)


def _failure_message(block: bib.ParsingFailedBlock) -> str:
    head = _BLOCK_HEAD.match(block.raw or "")
    what = f"@{head.group(1)} entry '{head.group(2)}'" if head and head.group(2) else "an entry"
    reason = getattr(block.error, "abort_reason", None) or str(block.error) or "syntax error"
    if "end of file" in reason.lower():
        reason = "unbalanced braces or quotes: the file ends inside it"
    elif "block start" in reason.lower():
        reason = "unbalanced braces or quotes: the next @ entry starts inside it"
    return f"skipped {what}: {_one_line(reason)}"


def _one_line(text: str) -> str:
    return _WS.sub(" ", text).strip().rstrip(".")


@contextmanager
def _quiet_bibtexparser() -> Iterator[None]:
    # The splitter logs each failed block to stderr, which would scribble over the TUI;
    # we report those blocks ourselves.
    logger = logging.getLogger("bibtexparser")
    before = logger.disabled
    logger.disabled = True
    splitter = logging.getLogger("bibtexparser.splitter")
    before_splitter = splitter.disabled
    splitter.disabled = True
    try:
        yield
    finally:
        logger.disabled = before
        splitter.disabled = before_splitter
