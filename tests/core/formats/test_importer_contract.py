"""The contract every importer keeps: a file it cannot use fails with one line (an
`ImportFailure`) that names the file, and the line where there is one; never a traceback,
never a half result. The generic cases run against every importer; each format's own
damaged fixtures are listed beside them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure, ImportResult
from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.csv_table import read_csv
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.formats.seed import read_seed

FIXTURES = Path(__file__).parents[2] / "fixtures"

#: every importer, with the file extension its tests use
IMPORTERS: dict[str, tuple[Callable[[Path], ImportResult], str]] = {
    "bibtex": (read_bibtex, "bib"),
    "csv": (read_csv, "csv"),
    "openreview": (read_openreview, "jsonl"),
    "seed": (read_seed, "txt"),
}

#: (contents, words the message must hold besides the file's name); None: no file at all
GENERIC: dict[str, tuple[bytes | None, list[str]]] = {
    "missing": (None, ["no such file"]),
    "binary": (b"\x00\x01\x02@article{\x00", ["looks like a binary file"]),
    "latin1": (b"caf\xe9 title\n", [":1:", "is not UTF-8"]),
}


def fails_with_one_line(read: Callable[[Path], ImportResult], path: Path, words: list[str]) -> str:
    with pytest.raises(ImportFailure) as caught:
        read(path)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(str(path)), message
    for word in words:
        assert word in message, message
    return message


@pytest.mark.parametrize("case", GENERIC)
@pytest.mark.parametrize("importer", IMPORTERS)
def test_every_importer_refuses_an_unusable_file_in_one_line(importer: str, case: str, tmp_path: Path) -> None:
    read, extension = IMPORTERS[importer]
    contents, words = GENERIC[case]
    path = tmp_path / f"{case}.{extension}"
    if contents is not None:
        path.write_bytes(contents)
    fails_with_one_line(read, path, words)


@pytest.mark.parametrize("importer", IMPORTERS)
@pytest.mark.parametrize("blank", ["", "  \n", "\n\n"])
def test_every_importer_refuses_an_empty_file_saying_so(importer: str, blank: str, tmp_path: Path) -> None:
    read, extension = IMPORTERS[importer]
    path = tmp_path / f"e.{extension}"
    path.write_text(blank, encoding="utf-8")
    # a seed list reads paragraphs: "no papers found" says what it looked for
    fails_with_one_line(read, path, ["no papers found"] if importer == "seed" else [": is empty"])


@pytest.mark.parametrize(
    ("importer", "name", "words"),
    [
        ("bibtex", "import_bibtex/only_broken.bib", ["only_broken.bib:1:", "unbalanced braces"]),
        ("bibtex", "import_bibtex/no_entries.bib", ["no_entries.bib", "no BibTeX entries"]),
        ("bibtex", "import_bibtex/latin1.bib", ["latin1.bib:1:", "not UTF-8"]),
        ("csv", "import_csv/no_title_column.csv", ["no_title_column.csv:1:", "no title or abstract column"]),
        ("csv", "import_csv/header_only.csv", ["header_only.csv", "no papers"]),
        ("csv", "import_csv/unclosed_quote.csv", ["unclosed_quote.csv:3:", "never closed"]),
        ("csv", "import_csv/latin1.csv", ["latin1.csv:2:", "not UTF-8"]),
        ("openreview", "import_openreview/truncated.json", ["truncated.json:13:", "cut off"]),
        ("openreview", "import_openreview/object_of_objects.json", ["object_of_objects.json", "wrong shape"]),
        ("openreview", "import_openreview/number.json", ["number.json:1:", "wrong shape", "number"]),
        ("openreview", "import_openreview/empty.jsonl", ["empty.jsonl", "is empty"]),
        ("openreview", "import_openreview/binary.json", ["binary.json", "binary"]),
        ("openreview", "import_openreview/latin1.jsonl", ["latin1.jsonl:1:", "not UTF-8"]),
        ("openreview", "import_openreview/damaged.jsonl.gz", ["damaged.jsonl.gz", "gzip"]),
        ("openreview", "import_openreview/missing.json", ["missing.json", "no such file"]),
    ],
)
def test_each_formats_damaged_fixtures_fail_with_one_line(importer: str, name: str, words: list[str]) -> None:
    fails_with_one_line(IMPORTERS[importer][0], FIXTURES / name, words)
