"""The contract every importer keeps, run against every importer:

- a file it cannot use fails with one line (an `ImportFailure`) that names the file, and
  the line where there is one; never a traceback, never a half result; `reader-tui import`
  of a file that fails on its last line leaves the library as it was, byte for byte;
- a file that is not UTF-8 is read (its bytes that are not UTF-8 as Windows-1252) with
  one warning naming the file and the first such line; a byte-order mark (UTF-8, -16,
  -32) decides the encoding, and a named encoding is strict;
- a record it cannot take is one problem naming the file and its line; the rest get in;
- text of every kind arrives as written: non-BMP, right-to-left, combining, CJK, control
  characters, bidi and zero-width marks, whitespace of every kind (in a title, one space);
- the same file read again, or saved with CRLF and a BOM, gives the same papers, same ids.

Each format's own damaged fixtures are listed beside the generic cases.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from reader_tui import cli
from reader_tui.core.formats.base import ImportFailure, ImportResult
from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.csl_json import read_csl_json
from reader_tui.core.formats.csv_table import read_csv
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.formats.ris import read_ris
from reader_tui.core.formats.seed import read_seed
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

FIXTURES = Path(__file__).parents[2] / "fixtures"

#: every importer, with the file extension its tests use
IMPORTERS: dict[str, tuple[Callable[[Path], ImportResult], str]] = {
    "bibtex": (read_bibtex, "bib"),
    "csv": (read_csv, "csv"),
    "openreview": (read_openreview, "jsonl"),
    "seed": (read_seed, "txt"),
    "csljson": (read_csl_json, "json"),
    "ris": (read_ris, "ris"),
}

#: (contents, words the message must hold besides the file's name, the encoding named);
#: None: no file at all
GENERIC: dict[str, tuple[bytes | None, list[str], str | None]] = {
    "missing": (None, ["no such file"], None),
    "binary": (b"\x00\x01\x02@article{\x00", ["looks like a binary file"], None),
    "latin1_named_utf8": (b"caf\xe9 title\n", [":1:", "byte 0xe9 is not valid utf-8"], "utf-8"),
    "unknown_encoding": (b"title\n", ["unknown encoding 'klingon'"], "klingon"),
    "bom_then_not_utf16": (b"\xff\xfet\x00\x00\xd8", ["not valid utf-16-le", "byte-order mark"], None),
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
    contents, words, encoding = GENERIC[case]
    path = tmp_path / f"{case}.{extension}"
    if contents is not None:
        path.write_bytes(contents)
    fails_with_one_line(partial(read, encoding=encoding), path, words)


@pytest.mark.parametrize("importer", IMPORTERS)
@pytest.mark.parametrize("blank", ["", "  \n", "\n\n", "\ufeff", "\ufeff\r\n"])
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
        ("csv", "import_csv/no_title_column.csv", ["no_title_column.csv:1:", "no title or abstract column"]),
        ("csv", "import_csv/header_only.csv", ["header_only.csv", "no papers"]),
        ("csv", "import_csv/unclosed_quote.csv", ["unclosed_quote.csv:3:", "never closed"]),
        ("openreview", "import_openreview/truncated.json", ["truncated.json:13:", "cut off"]),
        ("openreview", "import_openreview/object_of_objects.json", ["object_of_objects.json", "wrong shape"]),
        ("openreview", "import_openreview/number.json", ["number.json:1:", "wrong shape", "number"]),
        ("openreview", "import_openreview/empty.jsonl", ["empty.jsonl", "is empty"]),
        ("openreview", "import_openreview/binary.json", ["binary.json", "binary"]),
        ("openreview", "import_openreview/damaged.jsonl.gz", ["damaged.jsonl.gz", "gzip"]),
        ("openreview", "import_openreview/missing.json", ["missing.json", "no such file"]),
        ("csljson", "import_csl/truncated.json", ["truncated.json:", "not valid JSON"]),
        ("csljson", "import_csl/object_of_numbers.json", ["object_of_numbers.json", "no usable item", "not an object"]),
        ("ris", "import_ris/no_records.ris", ["no_records.ris:1:", "no usable record", "no TY before it"]),
    ],
)
def test_each_formats_damaged_fixtures_fail_with_one_line(importer: str, name: str, words: list[str]) -> None:
    fails_with_one_line(IMPORTERS[importer][0], FIXTURES / name, words)


@pytest.mark.parametrize(
    ("importer", "name", "line", "title"),
    [
        ("bibtex", "import_bibtex/latin1.bib", 1, "Café naïve"),
        ("csv", "import_csv/latin1.csv", 2, "Café"),
        ("openreview", "import_openreview/latin1.jsonl", 1, "Café"),
    ],
)
def test_each_formats_latin1_fixture_is_read_with_one_warning(importer: str, name: str, line: int, title: str) -> None:
    result = IMPORTERS[importer][0](FIXTURES / name)
    assert result.papers[0].title == title
    (warning,) = result.problems
    assert warning.kind == "warning" and warning.line == line and warning.path == FIXTURES / name
    assert "not UTF-8" in warning.message and "Windows-1252" in warning.message and "--encoding NAME" in warning.message


# -- what every importer keeps of a file it can read ----------------------------------------

#: text of every kind a paper's fields may hold; each must arrive as written (whitespace
#: runs in a title become one space: a title is one line)
TEXTS = {
    "non_bmp": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🎉 👩\u200d🔬 𠀋",
    "rtl": "שלום עולם مرحبا بالعالم",
    "combining": "e\u0301 n\u0303 a\u0308\u0323 \u0915\u094d\u0937",
    "cjk": "論文 한국어 ひらがな カタカナ",
    # (\x81: a C1 control that stands for no Windows-1252 character, so it stays; see
    # test_encodings.py for the ones that do)
    "control": "bell\x07 esc\x1b[31m del\x7f c1\x81",
    "bidi_and_zero_width": "\u202eevil\u202c \u2066iso\u2069 a\u200bb\u200cc\u200dd",
    "whitespace": "tab\there  two\u00a0nbsp\u2003em\u2028ls\u3000ideographic",
}
AUTHORS = ("Ünïcödé Ñame", "王 小明", "محمد علي")


def _bibtex(path: Path, texts: list[str]) -> None:
    entries = [
        f"@misc{{key{i},\n  title = {{{t}}},\n  author = {{{' and '.join(AUTHORS)}}},\n  abstract = {{{t}}},\n}}\n"
        for i, t in enumerate(texts)
    ]
    path.write_text("\n".join(entries), encoding="utf-8")


def _csv(path: Path, texts: list[str]) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        table = csv.writer(out, lineterminator="\n")
        table.writerow(["title", "abstract", "authors"])
        table.writerows([t, t, "; ".join(AUTHORS)] for t in texts)


def _openreview(path: Path, texts: list[str], ascii_escapes: bool = False) -> None:
    notes = [{"id": f"N{i}", "title": t, "abstract": t, "authors": list(AUTHORS)} for i, t in enumerate(texts)]
    # ensure_ascii: non-BMP characters as JSON surrogate-pair escapes ("\ud835\udd18")
    path.write_text("".join(json.dumps(n, ensure_ascii=ascii_escapes) + "\n" for n in notes), encoding="utf-8")


def _seed(path: Path, texts: list[str]) -> None:
    path.write_text("ICLR 2026\n\n" + "\n\n".join(f"{t} We study it." for t in texts) + "\n", encoding="utf-8")


def _csljson(path: Path, texts: list[str]) -> None:
    names = [{"given": n.split()[0], "family": n.split()[1]} for n in AUTHORS]
    items = [{"id": f"key{i}", "type": "article-journal", "title": t, "author": names, "abstract": t} for i, t in enumerate(texts)]
    path.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")


def _ris(path: Path, texts: list[str]) -> None:
    # A RIS value is one line (a line without a tag continues the one before).
    authors = "".join(f"AU  - {n.split()[1]}, {n.split()[0]}\n" for n in AUTHORS)
    one = [" ".join(t.split()) for t in texts]
    path.write_text("".join(f"TY  - JOUR\nID  - key{i}\nTI  - {t}\n{authors}AB  - {t}\nER  - \n\n" for i, t in enumerate(one)),
                    encoding="utf-8")


#: how to write a file each importer reads: (importer, extension, writer, what it keeps).
#: "title": it reads titles (a seed list derives them); "authors": it reads authors;
#: "abstract": "exact", or "one line" where the format's whitespace is not significant (BibTeX)
WRITERS: dict[str, tuple[str, Callable[[Path, list[str]], None], dict[str, Any]]] = {
    "bibtex": ("bibtex", _bibtex, {"title": True, "authors": True, "abstract": "one line", "suffix": ""}),
    "csv": ("csv", _csv, {"title": True, "authors": True, "abstract": "exact", "suffix": ""}),
    "openreview": ("openreview", _openreview, {"title": True, "authors": True, "abstract": "exact", "suffix": ""}),
    "openreview-escaped": (
        "openreview",
        partial(_openreview, ascii_escapes=True),
        {"title": True, "authors": True, "abstract": "exact", "suffix": ""},
    ),
    "seed": ("seed", _seed, {"title": False, "authors": False, "abstract": "exact", "suffix": " We study it."}),
    "csljson": ("csljson", _csljson, {"title": True, "authors": True, "abstract": "exact", "suffix": ""}),
    "ris": ("ris", _ris, {"title": True, "authors": True, "abstract": "one line", "suffix": ""}),
}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write(tmp_path: Path, name: str, texts: list[str], folder: str = "") -> tuple[Callable[[Path], ImportResult], Path]:
    importer, write, _ = WRITERS[name]
    read, extension = IMPORTERS[importer]
    (tmp_path / folder).mkdir(exist_ok=True)
    path = tmp_path / folder / f"papers.{extension}"
    write(path, texts)
    return read, path


@pytest.mark.parametrize("kind", TEXTS)
@pytest.mark.parametrize("name", WRITERS)
def test_every_importer_keeps_text_of_every_kind(name: str, kind: str, tmp_path: Path) -> None:
    keeps = WRITERS[name][2]
    text = f"Paper {kind}: {TEXTS[kind]} end"
    read, path = _write(tmp_path, name, [text])
    result = read(path)
    assert result.problems == []
    (paper,) = result.papers
    if keeps["title"]:
        assert paper.title == _one_line(text)
    if keeps["authors"]:
        assert paper.authors == AUTHORS
    expected = text + keeps["suffix"]
    assert paper.abstract == (expected if keeps["abstract"] == "exact" else _one_line(expected))


@pytest.mark.parametrize("name", WRITERS)
def test_ids_are_stable_across_imports_line_endings_and_a_bom(name: str, tmp_path: Path) -> None:
    """The same file read again, or saved on Windows (CRLF, a BOM), gives the same papers
    with the same ids: annotations are keyed by them."""
    texts = [f"Paper {kind}: {text}" for kind, text in TEXTS.items() if kind != "whitespace"]
    read, path = _write(tmp_path, name, texts, "first")
    first = read(path).papers
    assert len(first) == len(texts) and len({p.id for p in first}) == len(texts)
    assert read(path).papers == first
    windows = tmp_path / "windows" / path.name
    windows.parent.mkdir()
    windows.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    assert read(windows).papers == first


#: a file of three records, the second of which the importer cannot take: (contents, the
#: problem's line and message); the other two get in
ONE_BAD_RECORD: dict[str, tuple[str, int, str]] = {
    "bibtex": ("@misc{a, title={One}}\n\n@misc{b title={Two}}\n\n@misc{c, title={Three}}\n", 3, "skipped @misc entry 'b': Expected comma after entry key, but found ="),
    "csv": ("title,abstract,year\nOne,x,2020\n,,2021\nThree,z,2022\n", 3, "skipped a row with neither title nor abstract"),
    "openreview": ('{"id": "A", "title": "One"}\n{"id": "B", "title": \n{"id": "C", "title": "Three"}\n', 2, "skipped a line that is not valid JSON"),
    "seed": ("One abstract here.\n\nTwo abstract here.\n\nOne  abstract here.\n\nThree abstract here.\n", 5, "same abstract as line 1: kept once"),
    "csljson": ('[{"id": "a", "title": "One"},\n 5,\n {"id": "c", "title": "Three"}]\n', 2, "skipped item 2: not an object but a int"),
    "ris": ("TY  - JOUR\nTI  - One\nER  - \nTY  - JOUR\nTI  - Two\nTY  - JOUR\nTI  - Three\nER  - \n", 4,
            "skipped a record with no ER line before the next TY"),
}


@pytest.mark.parametrize("importer", IMPORTERS)
def test_a_record_it_cannot_take_is_one_problem_naming_file_and_line(importer: str, tmp_path: Path) -> None:
    read, extension = IMPORTERS[importer]
    contents, line, message = ONE_BAD_RECORD[importer]
    path = tmp_path / f"one_bad.{extension}"
    path.write_text(contents, encoding="utf-8")
    result = read(path)
    assert [str(problem) for problem in result.problems] == [f"{path}:{line}: {message}"]
    assert len(result.papers) == (3 if importer == "seed" else 2)


@pytest.mark.parametrize("importer", IMPORTERS)
def test_a_file_that_fails_late_imports_nothing(
    importer: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Good records, then a byte that is not UTF-8 on the last line of a file said to be
    UTF-8 (`--encoding utf-8`): `reader-tui import` says so in one line naming the file and
    line, and the library is as it was, byte for byte."""
    read, extension = IMPORTERS[importer]
    contents, _, _ = ONE_BAD_RECORD[importer]
    path = tmp_path / f"late.{extension}"
    path.write_bytes(contents.encode() + b"caf\xe9\n")
    last = contents.count("\n") + 1
    folder = tmp_path / "lib"
    Library.open(folder, seed=None).import_papers([Paper(id="p1", title="Already there")])
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    capsys.readouterr()
    assert cli.main(["import", str(path), "--db", str(folder), "--encoding", "utf-8"]) == 1
    out, err = capsys.readouterr()
    assert err == (
        f"reader-tui: {path}:{last}: byte 0xe9 is not valid utf-8 (the encoding --encoding names); "
        "name the file's encoding with --encoding NAME\n"
    )
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
