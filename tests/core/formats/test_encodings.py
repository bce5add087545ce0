"""Files that are not UTF-8 (issue 30, item 6): a Latin-1 or Windows-1252 file is read, with
one warning naming the file and the first line that is not UTF-8; a byte-order mark
(UTF-8, UTF-16, UTF-32) decides the encoding; a named encoding is strict; a UTF-16 file
is not "binary"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.detect import detect_format, read_any

BIB = """\
@article{muller2001,
  title = {Über die Größe naïver Modelle},
  author = {Müller, Jürgen and Ñúñez, José},
  journal = {Zeitschrift für Beispiele},
  year = {2001}
}
"""
CSV = "title,abstract,year\nÉtude des réseaux,Nous étudions les réseaux de neurones profonds.,2020\n"
SEED = "ICLR 2026\n\nNous étudions les réseaux de neurones profonds et leur façon d'apprendre à généraliser.\n"
JSONL = '{"id": "Ab12", "title": "Étude des réseaux", "abstract": "Nous étudions les réseaux."}\n'
FILES = {"bib": BIB, "csv": CSV, "txt": SEED, "jsonl": JSONL}


def _read(tmp_path: Path, extension: str, raw: bytes, **options):
    path = tmp_path / f"papers.{extension}"
    path.write_bytes(raw)
    return path, read_any(path, **options)


def _utf8_papers(tmp_path: Path, extension: str, text: str):
    """The papers of `text` saved as UTF-8: what every other encoding must give."""
    (tmp_path / "utf8").mkdir()
    return _read(tmp_path / "utf8", extension, text.encode())[1].papers


@pytest.mark.parametrize("extension", FILES)
def test_a_latin1_file_is_read_with_one_warning_naming_its_first_line(extension: str, tmp_path: Path) -> None:
    text = FILES[extension]
    expected = _utf8_papers(tmp_path, extension, text)
    path, result = _read(tmp_path, extension, text.encode("latin-1"))
    assert result.papers == expected
    (warning,) = result.problems
    first_line = next(n for n, line in enumerate(text.splitlines(), start=1) if not line.isascii())
    assert (warning.kind, warning.path, warning.line) == ("warning", path, first_line)
    assert "not UTF-8" in warning.message and "Windows-1252" in warning.message
    assert "--encoding NAME" in warning.message


def test_windows_1252_punctuation_is_read_as_such(tmp_path: Path) -> None:
    raw = "@misc{d2002,\n  title = {Models \u2013 a \u201cnew\u201d view\u2026},\n  year = {2002}\n}\n".encode("cp1252")
    path, result = _read(tmp_path, "bib", raw)
    assert result.papers[0].title == "Models \u2013 a \u201cnew\u201d view\u2026"
    assert [(p.line, p.kind) for p in result.problems] == [(2, "warning")]
    assert "4 bytes read as Windows-1252" in result.problems[0].message


def test_a_utf8_file_with_one_latin1_line_keeps_its_utf8_and_names_that_line(tmp_path: Path) -> None:
    raw = (
        "@misc{a, title = {Ελληνικά – 日本語}, year = 2001}\n\n".encode()
        + "@misc{b, title = {Café}, year = 2002}\n".encode("latin-1")
    )
    path, result = _read(tmp_path, "bib", raw)
    assert [p.title for p in result.papers] == ["Ελληνικά – 日本語", "Café"]
    assert [(p.line, p.kind) for p in result.problems] == [(3, "warning")]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
@pytest.mark.parametrize("extension", FILES)
def test_a_byte_order_mark_decides_the_encoding(encoding: str, extension: str, tmp_path: Path) -> None:
    text = FILES[extension]
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-be": b"\x00\x00\xfe\xff"}.get(encoding, b"")
    expected = _utf8_papers(tmp_path, extension, text)
    path, result = _read(tmp_path, extension, bom + text.replace("\n", "\r\n").encode(encoding))
    assert result.papers == expected
    assert result.problems == []


def test_a_utf16_csv_with_another_extension_is_detected_as_csv(tmp_path: Path) -> None:
    path = tmp_path / "export.dat"
    path.write_bytes(CSV.encode("utf-16"))
    assert detect_format(path) == "csv"
    assert read_any(path).papers[0].title == "Étude des réseaux"


def test_utf16_without_a_byte_order_mark_is_refused_saying_how_to_read_it(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_bytes(CSV.encode("utf-16-le"))
    with pytest.raises(ImportFailure) as caught:
        read_any(path)
    assert str(caught.value) == (
        f"{path}: looks like a binary file, not text (UTF-16 without a byte-order mark? then say --encoding utf-16-le)"
    )
    assert read_any(path, encoding="utf-16-le").papers[0].title == "Étude des réseaux"


def test_a_named_encoding_is_used_and_says_nothing(tmp_path: Path) -> None:
    # 0xb3 is "ł" in Windows-1250 (Polish) and "³" in Windows-1252: only the name tells.
    raw = "@misc{w, title = {Łódź i Wrocław}, year = 2001}\n".encode("cp1250")
    path, result = _read(tmp_path, "bib", raw, encoding="cp1250")
    assert result.papers[0].title == "Łódź i Wrocław" and result.problems == []
    assert read_any(path).papers[0].title != "Łódź i Wrocław"  # the guess is Windows-1252, said so


def test_an_unknown_encoding_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    for name in ("klingon", "zlib", ""):
        with pytest.raises(ImportFailure) as caught:
            read_any(path, encoding=name)
        assert str(caught.value) == f"{path}: unknown encoding {name!r} (for example: utf-8, cp1252, latin-1, utf-16)"


def test_a_byte_the_named_encoding_does_not_have_fails_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(BIB.encode("latin-1"))
    with pytest.raises(ImportFailure) as caught:
        read_any(path, encoding="utf-8")
    assert str(caught.value) == (
        f"{path}:2: byte 0xdc is not valid utf-8 (the encoding --encoding names); "
        "name the file's encoding with --encoding NAME"
    )


def test_a_latin1_json_document_is_read_with_the_warning(tmp_path: Path) -> None:
    raw = ('[\n {"id": "A1", "title": "Plain"},\n {"id": "B2", "title": "Café"}\n]\n').encode("latin-1")
    path, result = _read(tmp_path, "json", raw)
    assert [p.title for p in result.papers] == ["Plain", "Café"]
    assert [(p.line, p.kind) for p in result.problems] == [(3, "warning")]


# -- item 8a: C1 controls that stand for Windows-1252 punctuation ---------------------------

MISREAD = "Models\x96a \x93new\x94 view"  # Windows-1252 bytes once decoded as Latin-1
MEANT = "Models\u2013a \u201cnew\u201d view"


@pytest.mark.parametrize(
    ("extension", "text", "line"),
    [
        ("bib", f"@misc{{a, title = {{Plain}}}}\n\n@misc{{b,\n  title = {{{MISREAD}}}\n}}\n", 4),
        ("csv", f"title,year\nPlain,2001\n{MISREAD},2002\n", 3),
        ("jsonl", '{"id": "A", "title": "Plain"}\n{"id": "B", "title": "Models\\u0096a \\u0093new\\u0094 view"}\n', 2),
        ("jsonl", '{"id": "A", "title": "Plain"}\n' + json.dumps({"id": "B", "title": MISREAD}, ensure_ascii=False) + "\n", 2),
        ("json", '[\n {"id": "A", "title": "Plain"},\n {"id": "B", "title": "Models\\u0096a \\u0093new\\u0094 view"}\n]\n', 3),
    ],
)
def test_c1_controls_become_the_punctuation_they_stand_for_with_a_warning(
    extension: str, text: str, line: int, tmp_path: Path
) -> None:
    path, result = _read(tmp_path, extension, text.encode("utf-8"))
    assert [p.title for p in result.papers] == ["Plain", MEANT]
    (warning,) = result.problems
    assert (warning.kind, warning.path, warning.line) == ("warning", path, line)
    assert "3 control characters" in warning.message and "U+0096 as '–'" in warning.message


def test_a_c1_control_that_stands_for_nothing_stays(tmp_path: Path) -> None:
    path, result = _read(tmp_path, "csv", "title\nodd\x81byte\n".encode())
    assert result.papers[0].title == "odd\x81byte" and result.problems == []


def test_reviews_text_gets_its_punctuation_too(tmp_path: Path) -> None:
    from reader_tui.core.reviews import decode_forum

    note = {
        "id": "F1", "content": {"title": "T", "abstract": "An abstract long enough to be one."},
        "replies": [{
            "id": "R1", "invitations": ["C/-/Official_Review"], "signatures": ["C/Reviewer_a"], "cdate": 1,
            "content": {"summary": {"value": "Good \x96 mostly"}, "rating": {"value": 6}},
        }],
    }
    path, result = _read(tmp_path, "jsonl", (json.dumps(note) + "\n").encode())
    (review,) = decode_forum(result.forums["F1"].data)["notes"]
    assert review["text"] == [["summary", "Good \u2013 mostly"]]
    assert [(p.line, p.kind) for p in result.problems] == [(1, "warning")]


def test_latin1_named_for_a_windows_1252_file_still_gets_its_dashes(tmp_path: Path) -> None:
    raw = "@misc{d, title = {Models \u2013 a view}, year = 2002}\n".encode("cp1252")
    path, result = _read(tmp_path, "bib", raw, encoding="latin-1")
    assert result.papers[0].title == "Models \u2013 a view"
    assert [(p.line, p.kind) for p in result.problems] == [(1, "warning")]
