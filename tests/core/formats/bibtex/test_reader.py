"""BibTeX importer: macros, concatenation, braces, accents, duplicates, broken entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.formats.bibtex.reader import read_bibtex, split_authors
from reader_tui.core.text.display import stable_id

FIXTURES = Path(__file__).parents[3] / "fixtures" / "import_bibtex"


@pytest.fixture(scope="module")
def messy():
    return read_bibtex(FIXTURES / "messy.bib")


def test_every_parseable_entry_gets_in_in_file_order(messy):
    assert [p.citekey for p in messy.papers] == ["smith2024big", "doe2023", "notitle2022", "junkyear", "last2021"]


def test_an_entry_without_a_title_gets_in_with_a_stand_in(messy):
    untitled = messy.papers[2]
    assert (untitled.title, untitled.title_derived, untitled.authors, untitled.year) == ("Nobody", True, ("Nobody",), 2022)
    assert not any("notitle2022" in p.message for p in messy.problems)


def test_a_stand_in_title_comes_from_the_parent_the_note_the_set_or_the_key(tmp_path):
    path = tmp_path / "untitled.bib"
    path.write_text(
        "@inproceedings{child, author = {A. Writer}, crossref = {parent}, pages = {1--2}}\n"
        "@misc{Bakker94, author = {Erwin M. Bakker}, note = {Work in progress}}\n"
        "@set{both, entryset = {child,Bakker94}}\n"
        "@xdata{pub-ieee, publisher = {IEEE}}\n"
        "@misc{emptytitle, title = {{}}, year = 2001}\n"
        "@proceedings{parent, title = {Proceedings of {T}hings}, year = 1999}\n"
    )
    result = read_bibtex(path)
    assert [p.title for p in result.papers] == [
        "A. Writer: in Proceedings of Things", "Erwin M. Bakker: Work in progress", "set of child,Bakker94",
        "pub-ieee", "emptytitle", "Proceedings of {T}hings",
    ]
    assert [p.title_derived for p in result.papers] == [True] * 5 + [False]
    assert ("title", "{}") in result.papers[4].extra_fields  # written back as the file had it
    assert not result.problems


def test_macros_concatenation_and_latex_kept(messy):
    paper = messy.papers[0]
    assert paper.title == r"A {B}ig {\'E}tude of {{Nested}} Braces and $\alpha$-Nets"
    assert paper.venue == "International Conference on Learning Representations (ICLR) 2024"
    assert paper.year == 2024
    assert paper.abstract == "We study {nested} braces in titles. It works."
    assert paper.keywords == ("transformers", "attention", "long context")
    assert paper.source == "bibtex:messy.bib"


def test_openreview_url_gives_the_id(messy):
    paper = messy.papers[0]
    assert paper.id == "AbC123xyz"
    assert paper.url == "https://openreview.net/forum?id=AbC123xyz"


def test_authors_split_outside_braces_and_kept_as_written(messy):
    assert messy.papers[0].authors == ("Smith, John", "{Barnes and Noble}", r'M{\"u}ller, J{\"{o}}rg')
    assert messy.papers[1].authors == ("Jane Doe", "Richard Roe")


def test_quoted_values_doi_and_journal(messy):
    paper = messy.papers[1]
    assert paper.title == r'Quoted \"{o}sterreich Title'
    assert paper.venue == "Journal of Things"
    assert paper.doi == "10.1234/ABC.5678"  # as written: compared case-insensitively
    assert paper.id == stable_id("doi:10.1234/abc.5678")


def test_id_without_url_or_doi_is_stable_from_key_and_title(messy):
    again = read_bibtex(FIXTURES / "messy.bib")
    assert [p.id for p in again.papers] == [p.id for p in messy.papers]
    assert messy.papers[4].id == stable_id("bibtex last2021 the last one")


def test_entries_sharing_title_and_year_get_different_ids(tmp_path):
    path = tmp_path / "book.bib"
    path.write_text(
        "@inbook{ch1, title={One Book}, year=2010, chapter={1}}\n@inbook{ch2, title={One Book}, year=2010, chapter={2}}\n"
    )
    first, second = read_bibtex(path).papers
    assert first.id != second.id
    assert (first.citekey, second.citekey) == ("ch1", "ch2")


def test_entry_type_and_every_unmodelled_field_are_kept(tmp_path):
    path = tmp_path / "x.bib"
    path.write_text(
        "@string{pub = {Sp} # \"ringer\"}\n"
        "@BOOK{k, Title = {T}, author = {A, B}, publisher = pub, Address = \"Berlin\",\n"
        "  edition = {2nd}, isbn = {978-3}, note = {See {\\S}~2,\n   line two}, month = jan, journal = {J},\n"
        "  booktitle = {B}, year = 2001, url = {http://x}, doi = {10.1/Y}, keywords = {k1}, abstract = {Abs},\n"
        "  annote = {mine}, NOTE = {a second note is a repeat}}\n"
    )
    (paper,) = read_bibtex(path).papers
    assert paper.entry_type == "book"
    assert paper.extra_fields == (
        ("publisher", "Springer"), ("address", "Berlin"), ("edition", "2nd"), ("isbn", "978-3"),
        ("note", "See {\\S}~2, line two"), ("month", "jan"), ("journal", "J"), ("booktitle", "B"),
        ("@bare", "month"), ("@annote", "mine"),  # `month = jan` is written back bare; the annote as written
    )
    assert paper.venue == "B"  # booktitle first, journal kept as written
    assert (paper.title, paper.authors, paper.year, paper.doi, paper.keywords) == ("T", ("A, B",), 2001, "10.1/Y", ("k1",))


def test_junk_year_is_a_warning_and_kept_as_text(messy):
    (warning,) = [p for p in messy.problems if "forthcoming" in p.message]
    assert warning.kind == "warning"
    junk = messy.papers[3]
    fields = {name: value for name, value in junk.extra_fields if not name.startswith("@")}  # not the file's @preamble
    assert junk.year is None and fields == {"year": "forthcoming"}


def test_anonymous_is_no_author_only_in_our_own_files(tmp_path):
    from reader_tui.core.formats.bibtex.writer import HEADER

    entry = "@misc{k, title={T}, author={Anonymous}}\n"
    ours, theirs = tmp_path / "ours.bib", tmp_path / "theirs.bib"
    ours.write_text(HEADER + "\n" + entry)
    theirs.write_text(entry)
    assert read_bibtex(ours).papers[0].authors == ()
    assert read_bibtex(theirs).papers[0].authors == ("Anonymous",)


def test_problems_name_the_line(messy):
    problems = [str(p) for p in messy.problems]
    assert any(p.endswith("messy.bib:25: skipped entry 'smith2024big': the key was already used at line 6") for p in problems)
    assert any("messy.bib:35:" in p and "forthcoming" in p for p in problems)
    assert any("messy.bib:40:" in p and "nokey" in p for p in problems)
    assert messy.papers[3].year is None


def test_defaults_fill_gaps_only(tmp_path):
    path = tmp_path / "d.bib"
    path.write_text("@misc{a, title={T}}\n@misc{b, title={U}, year=1999, journal={J}}\n")
    papers = read_bibtex(path, venue="V", year=2020).papers
    assert [(p.venue, p.year) for p in papers] == [("V", 2020), ("J", 1999)]


def test_truncated_last_entry_is_a_problem_when_others_parse():
    result = read_bibtex(FIXTURES / "truncated.bib")
    assert [p.citekey for p in result.papers] == ["ok2020"]
    assert len(result.problems) == 1
    assert "truncated.bib:6:" in str(result.problems[0])
    assert "unbalanced braces" in str(result.problems[0])



def test_nothing_is_logged_to_stderr(capsys):
    read_bibtex(FIXTURES / "truncated.bib")
    assert capsys.readouterr().err == ""


def test_split_authors():
    assert split_authors("A and B AND {C and D}") == ("A", "B", "{C and D}")
    assert split_authors("Anderson, Sandy") == ("Anderson, Sandy",)
    assert split_authors("") == ()
