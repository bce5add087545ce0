"""Format detection by extension and content, and dispatch."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.detect import detect_format, read_any

FIXTURES = Path(__file__).parents[2] / "fixtures"


@pytest.mark.parametrize(
    "name, kind",
    [
        ("a.bib", "bibtex"),
        ("a.BIBTEX", "bibtex"),
        ("a.json", "openreview"),
        ("a.jsonl", "openreview"),
        ("a.json.gz", "openreview"),
        ("a.jsonl.gz", "openreview"),
        ("a.csv", "csv"),
        ("a.tsv", "csv"),
        ("a.txt", "seed"),
    ],
)
def test_extension_decides(tmp_path, name, kind):
    path = tmp_path / name
    path.write_text("whatever")
    assert detect_format(path) == kind


@pytest.mark.parametrize(
    "content, kind",
    [
        (b'\xef\xbb\xbf  [{"id": "x"}]', "openreview"),
        (b'{"id": "x", "title": "t"}\n', "openreview"),
        (b"% refs\n@Article{x,\n title={T}}\n", "bibtex"),
        (b"Title;Abstract\nT;A\n", "csv"),
        (b"My list\n\nWe propose a method that does several things rather well today.\n", "seed"),
    ],
)
def test_content_decides_without_a_telling_extension(tmp_path, content, kind):
    path = tmp_path / "list.dat"
    path.write_bytes(content)
    assert detect_format(path) == kind


def test_gzip_content_is_sniffed(tmp_path):
    path = tmp_path / "notes.gz"
    path.write_bytes(gzip.compress(b'{"id": "x", "title": "t"}\n'))
    assert detect_format(path) == "openreview"


@pytest.mark.parametrize(
    "content, words",
    [(b"", "is empty"), (b"\x00\x01\x02", "binary"), (b"a b\nc\n", "not a known kind")],
)
def test_unknown_content_fails_naming_the_file(tmp_path, content, words):
    path = tmp_path / "mystery"
    path.write_bytes(content)
    with pytest.raises(ImportFailure) as caught:
        detect_format(path)
    assert str(caught.value).startswith(str(path))
    assert words in str(caught.value)


def test_read_any_dispatches():
    assert read_any(FIXTURES / "import_bibtex" / "messy.bib").papers[0].citekey == "smith2024big"
    assert read_any(FIXTURES / "import_openreview" / "notes.jsonl.gz").papers[0].id == "FlatOne01"
    assert read_any(FIXTURES / "import_csv" / "simple.csv").papers[0].title == "Just a Title"


def test_read_any_with_explicit_format(tmp_path):
    path = tmp_path / "refs.data"
    path.write_text("title\nT\n")
    assert read_any(path, format="csv", year=2001).papers[0].year == 2001


def test_read_any_seed_goes_to_the_seed_importer():
    pytest.importorskip("reader_tui.core.formats.seed")
    seed = Path(__file__).parents[3] / "seeds" / "iclr2026.txt"
    if not seed.exists():
        pytest.skip("no bundled seed list")
    assert read_any(seed).papers


def test_unknown_format_names_the_file(tmp_path):
    path = tmp_path / "x.bib"
    path.write_text("@misc{a, title={T}}")
    with pytest.raises(ImportFailure, match=r"x\.bib: unknown format 'endnote'"):
        read_any(path, format="endnote")


def test_missing_file(tmp_path):
    with pytest.raises(ImportFailure, match="no such file"):
        detect_format(tmp_path / "nope")
