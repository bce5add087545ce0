"""CSV importer: spreadsheet exports (BOM, CRLF, `;`, multiline cells) and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.formats.csv_table import read_csv, split_authors
from reader_tui.core.text.display import stable_id

FIXTURES = Path(__file__).parents[2] / "fixtures" / "import_csv"


@pytest.fixture(scope="module")
def sheet():
    return read_csv(FIXTURES / "spreadsheet.csv")


def test_semicolon_bom_crlf_and_multiline_cells(sheet):
    first = sheet.papers[0]
    assert first.title == "Multiline; Quoted Title"
    assert first.abstract == 'First line of the abstract.\nSecond line, with "quotes".'
    assert first.authors == ("Smith, John", "Doe, Jane")
    assert first.keywords == ("a", "b", "c")
    assert (first.year, first.venue, first.doi) == (2024, "ICLR", "10.1/xyz")
    assert first.id == "CsvForum1"
    assert first.source == "csv:spreadsheet.csv"


def test_abstract_only_row_gets_a_derived_title(sheet):
    paper = sheet.papers[1]
    assert paper.title_derived
    assert paper.short_name == "SOCOP"
    assert paper.authors == ("A. Smith", "B. Jones")
    assert paper.year == 2023
    assert paper.id == stable_id(paper.abstract)


def test_skipped_rows_and_junk_years_name_their_line(sheet):
    path = FIXTURES / "spreadsheet.csv"
    assert [str(p) for p in sheet.problems] == [
        f"{path}:5: skipped a row with neither title nor abstract",
        f"{path}:6: ignored the year 'someday'",
    ]
    # the row with the junk year got in: a warning, not a skipped row
    assert [p.kind for p in sheet.problems] == ["skipped", "warning"]
    assert sheet.papers[2].title == "Plain Title" and sheet.papers[2].year is None
    assert sheet.papers[2].authors == ("Ann Lee", "Bob Ray")


def test_title_only_comma_csv_and_defaults():
    paper = read_csv(FIXTURES / "simple.csv", venue="V", year=1999).papers[0]
    assert (paper.title, paper.year, paper.venue) == ("Just a Title", 2020, "V")
    assert paper.id == stable_id("Just a Title")


def test_tsv():
    paper = read_csv(FIXTURES / "table.tsv").papers[0]
    assert paper.title == "Tab Separated, Really"
    assert paper.authors == ("X Y", "Z W")


def test_split_authors():
    assert split_authors("Smith, John") == ("Smith, John",)
    assert split_authors("Ann Lee, Bob Ray") == ("Ann Lee", "Bob Ray")
    assert split_authors("A; B and C") == ("A", "B", "C")
    assert split_authors("Alexander Anderson") == ("Alexander Anderson",)


def test_a_row_wider_than_the_header_is_said(tmp_path: Path):
    """An unquoted comma in a cell shifts the cells after it: the row gets in with a
    warning naming its line, where it got in silently (found by hand). Empty cells past
    the header (a spreadsheet's trailing separators) are nothing to say."""
    path = tmp_path / "shifted.csv"
    path.write_text("title,abstract\nA title, with a comma,An abstract\nB,abs,,\n", encoding="utf-8")
    sheet = read_csv(path)
    assert [p.title for p in sheet.papers] == ["A title", "B"]
    assert [str(p) for p in sheet.problems] == [
        f"{path}:2: has 3 cells where the header has 2: the extra cells were ignored"
        " (a comma inside a cell that is not quoted?)",
    ]
    assert [p.kind for p in sheet.problems] == ["warning"]
