"""Tell what kind of paper list a file is, and read it with the right importer.

The extension decides when it says something (`.bib`, `.ris`, `.jsonl`, `.csv`,
`.tsv`, `.txt`, with or without `.gz`); otherwise the first 64 KB are sniffed:
JSON starts with `[` or `{` (CSL-JSON when it has CSL's own names, `issued`,
`container-title`, `citation-key`, a name's `family`, and none of OpenReview's; this is
how a `.json` is told too), BibTeX has an `@type{` line, RIS a `TY  - ` line, a CSV
header names a title or abstract column, and prose paragraphs are a seed list. The start is read as text first,
in the encoding a byte-order mark or the caller names (UTF-16 is no binary file).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO

from .base import ImportFailure, ImportResult, reading
from .encoding import bom_encoding, encoding_name

FORMATS = ("seed", "bibtex", "openreview", "csv", "csljson", "ris")

_EXTENSIONS = {
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".ris": "ris",
    ".jsonl": "openreview",
    ".ndjson": "openreview",
    ".csv": "csv",
    ".tsv": "csv",
    ".txt": "seed",
}
_BIB_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_CSL_NAMES = re.compile(r'"(issued|container-title|citation-key|date-parts|family|given)"\s*:')
_OPENREVIEW_NAMES = re.compile(r'"(forum|content|invitation|replyto|venueid)"\s*:')
_RIS_LINE = re.compile(r"^TY  - ", re.MULTILINE)
_CSV_HEADER = re.compile(r"\b(title|abstract)\b", re.IGNORECASE)
_SNIFF_BYTES = 65536


def detect_format(path: Path | str, encoding: str | None = None) -> str:
    """The format of the file at `path`: "seed", "bibtex", "openreview", "csv", "csljson" or "ris".
    `encoding` names the file's encoding when it is not UTF-8 and has no byte-order mark.

    Raises ImportFailure naming the file when it is missing, empty, binary, or of no
    known kind.
    """
    path = Path(path)
    suffixes = [s.lower() for s in path.suffixes[-2:]]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    if suffixes and suffixes[-1] in _EXTENSIONS:
        return _EXTENSIONS[suffixes[-1]]
    if suffixes and suffixes[-1] == ".json":
        return "csljson" if _is_csl_json(path, encoding) else "openreview"
    return _sniff(path, _head(path), encoding)


def read_any(
    path: Path | str,
    *,
    format: str | None = None,
    venue: str | None = None,
    year: int | None = None,
    encoding: str | None = None,
    on_open: Callable[[IO[bytes]], object] | None = None,
) -> ImportResult:
    """Read `path` with the importer for `format` (detected when None). `encoding` names
    the file's encoding (see `base.read_text_file`); None: UTF-8, with bytes that are not
    read as Windows-1252 and a warning in the result's problems. `on_open`: see
    `read_openreview` (the format of big files; the others do not call it).

    Raises ImportFailure naming the file for an unknown format or an unusable file.
    """
    path = Path(path)
    kind = (format or detect_format(path, encoding)).strip().lower()
    if kind == "bibtex" or kind == "bib":
        from .bibtex.reader import read_bibtex

        return read_bibtex(path, venue=venue, year=year, encoding=encoding)
    if kind in ("openreview", "json", "jsonl"):
        from .openreview import read_openreview

        return read_openreview(path, venue=venue, year=year, encoding=encoding, on_open=on_open)
    if kind in ("csv", "tsv"):
        from .csv_table import read_csv

        return read_csv(path, venue=venue, year=year, encoding=encoding)
    if kind in ("csljson", "csl-json", "csl"):
        from .csl_json import read_csl_json

        return read_csl_json(path, venue=venue, year=year, encoding=encoding)
    if kind == "ris":
        from .ris import read_ris

        return read_ris(path, venue=venue, year=year, encoding=encoding)
    if kind in ("seed", "txt"):
        from .seed import read_seed  # written alongside; imported late so others load alone

        return read_seed(path, venue=venue, year=year, encoding=encoding)
    raise ImportFailure(path, f"unknown format {format!r} (expected one of: {', '.join(FORMATS)})")


def _is_csl_json(path: Path, encoding: str | None) -> bool:
    """Whether a `.json` file is CSL-JSON rather than OpenReview's (which reports a file
    it cannot read, so this never fails)."""
    try:
        return _sniff(path, _head(path), encoding) == "csljson"
    except ImportFailure:
        return False


def _head(path: Path) -> bytes:
    with reading(path), path.open("rb") as stream:
        head = stream.read(_SNIFF_BYTES)
    if head[:2] == b"\x1f\x8b":
        try:
            # Only the start is needed: a decompressobj stops where we ask it to.
            head = zlib.decompressobj(31).decompress(head, _SNIFF_BYTES)
        except zlib.error:
            raise ImportFailure(path, "is a damaged gzip file") from None
    return head


def _sniff(path: Path, head: bytes, encoding: str | None = None) -> str:
    marked = bom_encoding(head)
    name, start = marked if marked is not None else ("utf-8", 0)
    if marked is None and encoding is not None:
        try:
            name = encoding_name(encoding)
        except ValueError as error:
            raise ImportFailure(path, str(error)) from None
    # "replace": the head may end mid-character; only its kind is judged here.
    decoded = head[start:].decode(name, errors="replace").lstrip()
    if "\x00" in decoded:
        raise ImportFailure(path, "looks like a binary file, not a paper list")
    if not decoded:
        raise ImportFailure(path, "is empty")
    if decoded[:1] in ("[", "{"):
        return "csljson" if _CSL_NAMES.search(decoded) and not _OPENREVIEW_NAMES.search(decoded) else "openreview"
    if _RIS_LINE.search(decoded):
        return "ris"
    if _BIB_ENTRY.search(decoded):
        return "bibtex"
    first_line = decoded.split("\n", 1)[0]
    if any(d in first_line for d in ",;\t") and _CSV_HEADER.search(first_line):
        return "csv"
    # A seed list is prose: paragraphs of abstracts, many words to a line.
    if any(len(line.split()) >= 8 for line in decoded.splitlines()):
        return "seed"
    raise ImportFailure(
        path, "is not a known kind of paper list (BibTeX, OpenReview JSON, CSL-JSON, RIS, CSV or a seed text); name the format"
    )
