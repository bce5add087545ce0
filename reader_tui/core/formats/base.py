"""What every importer returns, and how it says a file is unusable.

An importer reads one file and returns an `ImportResult`: the papers it could read and
the problems it skipped over (an entry it could not parse, with its line). A file that
cannot be used at all (empty, binary, wrong encoding, wrong shape) raises
`ImportFailure`, whose message is one line naming the file and, where there is one,
the line: "refs.bib:12: unbalanced braces in entry 'smith2020'".

Importers never touch the store: the store merges their result in one atomic step.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import Paper
from .encoding import Undecodable, c1_as_windows_1252, c1_message, count_c1, decode_file, first_c1


class ImportFailure(Exception):
    """A file that cannot be imported at all. `str()` is the one-line message for the user."""

    def __init__(self, path: Path | str, message: str, line: int | None = None) -> None:
        self.path = Path(path)
        self.line = line
        self.reason = message
        where = f"{self.path}:{line}" if line is not None else f"{self.path}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """Something wrong with one entry while the rest of the file was read.

    `kind` is "skipped" when the entry did not get in, "warning" when it did but lost
    or changed something on the way (a year that is not a number).
    """

    path: Path
    line: int | None
    message: str
    kind: str = "skipped"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else f"{self.path}"
        return f"{where}: {self.message}"


@dataclass(slots=True)
class ImportResult:
    """The papers read from one file, in file order, and what was skipped.

    `annotations` carries what a file says of the user's own reading, by incoming paper
    id: `{"tags": (...), "notes": "..."}` (a BibTeX `annote`, the keywords of a file
    reader-tui exported). The store adds them to whatever the user already has.
    """

    path: Path
    papers: list[Paper] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    annotations: dict[str, dict[str, Any]] = field(default_factory=dict)
    lines: list[int | None] = field(default_factory=list)
    """The line each paper starts on, parallel to `papers` (empty when the importer has none)."""
    forums: dict[str, Any] = field(default_factory=dict)
    """Incoming paper id -> its forum (`core.reviews.ForumData`: reviews, comments,
    decision), for the reviews store; only from notes that carry their replies."""

    def require_papers(self, item: str, none: str) -> ImportResult:
        """`self` when it holds a paper. Else the file is refused in one line: the first
        skipped `item` says why, with its line ("refs.bib:3: no usable entry: ..."), or
        `none` when nothing was skipped ("holds no BibTeX entries")."""
        if self.papers:
            return self
        skipped = [problem for problem in self.problems if problem.kind == "skipped"]
        if skipped:
            raise ImportFailure(self.path, f"no usable {item}: {skipped[0].message}", skipped[0].line)
        raise ImportFailure(self.path, none)

    def label(self, index: int) -> str:
        """Where `papers[index]` came from, for a report: "refs.bib:12 entry 'smith2020'"
        (the line and key when the importer knows them, else the title)."""
        paper = self.papers[index]
        line = self.lines[index] if index < len(self.lines) else None
        where = f"{self.path}:{line}" if line is not None else f"{self.path}"
        if paper.citekey:
            return f"{where} entry '{paper.citekey}'"
        title = paper.title if len(paper.title) <= 60 else paper.title[:59] + "…"
        return f"{where} '{title}'"


def add_annotation(annotations: dict[str, dict[str, Any]], paper_id: str, tags: tuple[str, ...] = (), notes: str = "") -> None:
    """Add what a record says of the user's reading of `paper_id` to `annotations`
    (`ImportResult.annotations`' shape): one paper met twice (two entries of one DOI, two
    files) keeps what both say, each note once."""
    if not tags and not notes:
        return
    known = annotations.setdefault(paper_id, {"tags": (), "notes": ""})
    known["tags"] = tuple(known["tags"]) + tuple(tags)
    if notes and notes not in known["notes"]:
        known["notes"] = f"{known['notes']}\n\n{notes}" if known["notes"] else notes


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn the operating system's errors while opening or reading `path` into an
    ImportFailure naming the file ("refs.bib: no such file")."""
    try:
        yield
    except FileNotFoundError:
        raise ImportFailure(path, "no such file") from None
    except IsADirectoryError:
        raise ImportFailure(path, "is a folder, not a file") from None
    except PermissionError:
        raise ImportFailure(path, "permission denied") from None
    except OSError as error:
        raise ImportFailure(path, error.strerror or str(error)) from None


def read_text_file(path: Path, encoding: str | None = None, problems: list[ImportProblem] | None = None) -> str:
    """The text of `path` (a byte-order mark is dropped, CRLF/CR become LF), decoded as
    `formats.encoding.decode_file` says: UTF-8 unless a byte-order mark or `encoding`
    names another, and bytes that are not UTF-8 read as Windows-1252 with a warning,
    which is added to `problems`; C1 controls that stand for Windows-1252 punctuation
    (U+0096 for an en dash) become that punctuation, with a warning too.

    Raises ImportFailure naming the file when it is missing, a folder, binary, or not
    valid in the encoding its byte-order mark or `encoding` names.
    """
    path = Path(path)
    with reading(path):
        raw = path.read_bytes()
    try:
        text, fallback = decode_file(raw, encoding)
    except Undecodable as error:
        raise ImportFailure(path, str(error), error.line) from None
    warnings = [] if fallback is None else [ImportProblem(path, *fallback, kind="warning")]
    # Judged on the text, not the bytes: UTF-16 and UTF-32 hold NUL bytes, not NUL characters.
    if "\x00" in text[:65536]:
        raise ImportFailure(
            path, "looks like a binary file, not text (UTF-16 without a byte-order mark? then say --encoding utf-16-le)"
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    at = first_c1(text)
    if at is not None:
        message = c1_message(count_c1(text), text[at])
        warnings.append(ImportProblem(path, text.count("\n", 0, at) + 1, message, kind="warning"))
        text = c1_as_windows_1252(text)
    if problems is not None:
        problems.extend(warnings)
    # A BOM in the middle (files concatenated by hand) is not text either.
    return text.replace("\ufeff", "")
