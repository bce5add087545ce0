"""Real .bib files we did not write come back entry for entry (tests/fixtures/bib_corpus,
its README names each file's origin and licence).

Each file is imported into an empty library the way `reader-tui import` does it (the
importer, then `Library.import_papers`, so the same-paper merge runs), exported the way
`reader-tui export` does it, in the default "latex" mode and in "unicode", and both files
are read again with bibtexparser. The export must hold every entry bibtexparser found:
the same key byte for byte, the same type (case aside), and the same fields (names case
aside) with the same values. Values are compared as BibTeX means them: `@string` macros
(and the month names) expanded, `#` joined, the outer braces or quotes taken off, runs of
whitespace made one space; a bare macro may come back expanded (and a bare month macro
stay bare), nothing else may change, no value may come back as a macro it was not, and no
field may appear that was not there: no extra is allowed. Blocks bibtexparser cannot take (a syntax
error, a repeated key) must be reported by the importer as skipped, not lost silently.

The expected side is evaluated here, not by the importer's own code, so that a change of
the importer cannot move both sides at once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser import model as bib

from reader_tui.cli.options import select_views
from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.formats.detect import read_any
from reader_tui.core.library.library import Library

CORPUS = Path(__file__).parents[3] / "fixtures" / "bib_corpus"
FILES = sorted(CORPUS.glob("*.bib"))
MODES = ("latex", "unicode")

#: What every standard style defines, so a bare `month = jul` means "July" on both sides.
MONTHS = {
    name[:3].lower(): name
    for name in "January February March April May June July August September October November December".split()
}
#: How many differences the failure message lists, one a line.
SHOWN = 20
ABSENT = "(absent)"


@dataclass
class ParsedFile:
    """A .bib text as bibtexparser reads it: entries by key (type, {field: value}), with the
    line each starts on, and the blocks it could not take (line, what)."""

    entries: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    refused: list[tuple[int, str]] = field(default_factory=list)
    bare: dict[str, dict[str, str]] = field(default_factory=dict)
    """Key -> {field: macro name} for the fields whose whole value is one bare macro."""
    preambles: list[str] = field(default_factory=list)
    """Each distinct `@preamble` value, whitespace runs made one space, in file order."""


def split_concatenation(raw: str) -> list[str]:
    """The pieces of a raw value joined by `#` outside braces and quotes."""
    pieces, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(raw):
        if char == "{":  # BibTeX counts every brace, `\{` too
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            pieces.append(raw[start:i])
            start = i + 1
    pieces.append(raw[start:])
    return [piece.strip() for piece in pieces]


def evaluate(raw: str, macros: dict[str, str]) -> str:
    """What BibTeX makes of a raw value: delimiters off, macros expanded, `#` joined. An
    undefined macro is kept as its name (BibTeX warns and uses nothing; the name at least
    says what was there)."""
    out = []
    for piece in split_concatenation(raw):
        if len(piece) >= 2 and piece[0] == "{" and piece[-1] == "}":
            out.append(piece[1:-1])
        elif len(piece) >= 2 and piece[0] == '"' and piece[-1] == '"':
            out.append(piece[1:-1])
        elif piece.isdigit():
            out.append(piece)
        else:
            out.append(macros.get(piece.lower(), piece))
    return "".join(out)


def normalise(value: str) -> str:
    return " ".join(value.split())


def parse(text: str) -> ParsedFile:
    library = bibtexparser.parse_string(text, parse_stack=[])
    macros = dict(MONTHS)
    parsed = ParsedFile()
    for block in library.blocks:
        line = block.start_line + 1  # bibtexparser counts from 0, the importer from 1
        if isinstance(block, bib.String):
            macros[block.key.lower()] = evaluate(block.value, macros)
            continue
        entry = block
        if isinstance(block, bib.DuplicateFieldKeyBlock) and isinstance(block.ignore_error_block, bib.Entry):
            # BibTeX itself takes the first of a repeated field, and so does the importer.
            entry = block.ignore_error_block
        elif isinstance(block, bib.DuplicateBlockKeyBlock):
            parsed.refused.append((line, f"entry '{block.key}' repeats a key"))
            continue
        elif isinstance(block, bib.ParsingFailedBlock):
            head = re.match(r"\s*@\s*(\w+)\s*[{(]\s*([^,\s]*)", block.raw or "")
            parsed.refused.append((line, f"@{head[1]}{{{head[2]}" if head else "a block bibtexparser cannot read"))
            continue
        if isinstance(block, bib.Preamble):
            value = normalise(block.value)
            if value not in parsed.preambles:
                parsed.preambles.append(value)
            continue
        if not isinstance(entry, bib.Entry):
            continue  # @comment, text between entries
        values: dict[str, str] = {}
        for fld in entry.fields:
            name = fld.key.lower()
            if name not in values and re.fullmatch(r"\s*[^\s\d{}\"#][^\s{}\"#]*\s*", fld.value):
                parsed.bare.setdefault(entry.key, {})[name] = fld.value.strip().lower()
            values.setdefault(name, normalise(evaluate(fld.value, macros)))
        parsed.entries[entry.key] = (entry.entry_type.lower(), values)
        parsed.lines[entry.key] = line
    return parsed


@dataclass
class RoundTrip:
    exported: dict[str, str]  # mode -> the export's text
    skipped: dict[int, str]  # line -> why, for each entry the importer reported skipped
    failure: str | None  # the importer refused the whole file


def import_and_export(path: Path, folder: Path) -> RoundTrip:
    """What `reader-tui --no-seed import PATH` then `reader-tui export [--unicode]` do."""
    library = Library.open(folder)
    try:
        result = read_any(path)
    except ImportFailure as failure:
        return RoundTrip({mode: "" for mode in MODES}, {}, "file refused: " + str(failure).replace(str(path), path.name))
    try:
        summary = library.import_papers(result.papers, result.annotations, result.forums)
        summary.add_problems(result.problems)
        views = select_views(library, status=None, tags=(), search=None)
        exported = {mode: export_bibtex(views, mode=mode) for mode in MODES}
    finally:
        library.close()
    skipped = {p.line: p.message for p in summary.problems if p.kind == "skipped" and p.line is not None}
    return RoundTrip(exported, skipped, None)


def shown(value: str | None) -> str:
    if value is None:
        return ABSENT
    return repr(value if len(value) <= 90 else value[:87] + "...")


def compare(name: str, before: ParsedFile, after: ParsedFile, trip: RoundTrip) -> tuple[list[str], Counter, int, int]:
    """(differences as `file: key: field: before -> after`, their count by kind, entries
    kept under their key, refused blocks the importer reported)."""
    differences: list[str] = []
    kinds: Counter = Counter()

    def differ(key: str, what: str, old: str | None, new: str | None, kind: str) -> None:
        differences.append(f"{name}: {key}: {what}: {shown(old)} -> {shown(new)}")
        kinds[kind] += 1

    reported = 0
    for line, what in before.refused:
        if line in trip.skipped:
            reported += 1
        else:
            differ(f"line {line}", "(refused by bibtexparser)", what, "not reported as skipped", "unreported refusal")
    for preamble in before.preambles:
        if preamble not in after.preambles:
            differ("(file)", "@preamble", preamble, None, "preamble lost")
    for line, what in after.refused:
        differ(f"export line {line}", "(export unreadable)", what, None, "export unreadable")

    unclaimed = {key: values for key, values in after.entries.items() if key not in before.entries}
    kept = 0
    for key, (entry_type, fields) in before.entries.items():
        if key in after.entries:
            kept += 1
            got_key = key
            got_type, got = after.entries[key]
        else:
            # A rewritten key: the unclaimed exported entry with this title, when one has it.
            title = fields.get("title")
            renamed = [k for k, (_, v) in unclaimed.items() if title is not None and v.get("title") == title]
            if len(renamed) != 1:
                why = trip.failure or trip.skipped.get(before.lines[key])
                differ(key, "(entry)", "present", f"missing ({why})" if why else "missing", "entry missing")
                continue
            differ(key, "(key)", key, renamed[0], "key rewritten")
            got_key = renamed[0]
            got_type, got = unclaimed.pop(got_key)
        if got_type != entry_type:
            differ(key, "(type)", entry_type, got_type, "type changed")
        for fname in list(fields) + [f for f in got if f not in fields]:
            old, new = fields.get(fname), got.get(fname)
            macro = after.bare.get(got_key, {}).get(fname)
            if macro is not None and macro != before.bare.get(key, {}).get(fname):
                differ(key, fname, old, f"{new} (written as the bare macro {macro})", f"{fname}: made a macro")
                continue
            if old == new:
                continue
            kind = f"{fname}: added" if old is None else f"{fname}: dropped" if new is None else f"{fname}: changed"
            differ(key, fname, old, new, kind)
    for key in unclaimed:
        differ(key, "(entry)", None, "exported but not in the original", "entry invented")
    return differences, kinds, kept, reported


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], RoundTrip]:
    """Each file imported once (when a test first asks), into a library of its own, and
    exported in every mode."""
    done: dict[Path, RoundTrip] = {}

    def get(path: Path) -> RoundTrip:
        if path not in done:
            done[path] = import_and_export(path, tmp_path_factory.mktemp(path.stem))
        return done[path]

    return get


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 10, CORPUS
    assert sum(path.stat().st_size for path in FILES) < 600_000


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_entry_comes_back_unchanged(
    path: Path, mode: str, round_trip: Callable[[Path], RoundTrip], record_property: Callable[[str, object], None]
) -> None:
    trip = round_trip(path)
    before = parse(path.read_text(encoding="utf-8"))
    after = parse(trip.exported[mode])
    differences, kinds, kept, reported = compare(path.name, before, after, trip)
    line = (
        f"{path.name} [{mode}]: {len(before.entries)} entries, {kept} kept, {len(differences)} differences,"
        f" {reported} reported skipped"
    )
    record_property("corpus", line)  # printed at the end of the run (tests/conftest.py)
    assert not differences, "\n".join(
        [line, "by kind: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common())]
        + differences[:SHOWN]
        + ([f"... and {len(differences) - SHOWN} more"] if len(differences) > SHOWN else [])
    )
