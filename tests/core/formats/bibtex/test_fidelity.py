"""A user's .bib comes back as it went in: the classes of input that used to be lost or
rewritten (issue 30), each with the smallest example. The corpus test
(`test_corpus_roundtrip.py`) runs the same rules over real files."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import pytest

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.writer import entry_for, export_bibtex
from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Paper, PaperView


def _round_trip(tmp_path: Path, text: str, *, mode: str = "latex", tags=()) -> tuple[list[Paper], dict]:
    path = tmp_path / "in.bib"
    path.write_text(text, encoding="utf-8")
    result = read_bibtex(path)
    views = [PaperView(p, Annotation(tags=tuple(tags))) for p in result.papers]
    exported = bibtexparser.parse_string(export_bibtex(views, mode=mode), parse_stack=[])
    assert not exported.failed_blocks
    fields = {e.key: (e.entry_type, {f.key: f.value.strip()[1:-1] for f in e.fields}) for e in exported.entries}
    return result.papers, fields


@pytest.mark.parametrize(
    ("written", "year"),
    [("August, 2005", 2005), ("1985/1986", 1985), ("1992--1993", 1992), ("2004-- \\ldots", 2004), ("1988??", 1988)],
)
def test_a_year_that_is_not_a_number_is_kept_as_written_and_sorted_by_its_number(tmp_path, written, year):
    papers, fields = _round_trip(tmp_path, "@book{k, title={T}, year={%s}}\n" % written)
    assert papers[0].year == year
    assert fields["k"][1]["year"] == written


def test_a_year_with_no_number_is_kept_and_said_so(tmp_path):
    path = tmp_path / "y.bib"
    path.write_text("@book{k, title={T}, year={forthcoming}}\n", encoding="utf-8")
    result = read_bibtex(path)
    assert result.papers[0].year is None
    assert [p.kind for p in result.problems] == ["warning"] and "exported as written" in result.problems[0].message
    _, fields = _round_trip(tmp_path, path.read_text())
    assert fields["k"][1]["year"] == "forthcoming"


@pytest.mark.parametrize("mode", ["latex", "unicode"])
def test_a_key_from_the_users_file_is_never_changed(tmp_path, mode):
    text = "@book{kumāra, title={A}, year=2001}\n@book{jñāna:2001/x, title={B}, year=2001}\n"
    _, fields = _round_trip(tmp_path, text, mode=mode)
    assert sorted(fields) == ["jñāna:2001/x", "kumāra"]


def test_a_key_typed_here_is_still_checked():
    from_a_file = Paper(id="p", title="Some Title", year=2020, citekey="kumāra")
    assert export_bibtex([PaperView(from_a_file, Annotation())]).count("{kumāra,") == 1
    typed = PaperView(from_a_file, Annotation(overrides={"citekey": "kumāra2"}))  # ASCII keys only, when typed
    assert "{kumāra2," not in export_bibtex([typed]) and "@misc{sometitle2020," in export_bibtex([typed])
    with pytest.raises(ValueError, match="bad citation key"):
        entry_for(typed, key="two words")


@pytest.mark.parametrize("doi", ["10.1109/TIT.1955.1055126", "10.1000/A<B>", "http://dx.doi.org/10.1000/xyz", "doi:10.1/Y"])
def test_a_doi_is_written_as_it_came(tmp_path, doi):
    papers, fields = _round_trip(tmp_path, "@article{k, title={T}, doi={%s}}\n" % doi)
    assert papers[0].doi == doi
    assert fields["k"][1]["doi"] == doi


def test_dois_are_still_the_same_paper_whatever_their_case_and_prefix(tmp_path):
    first, second = tmp_path / "a.bib", tmp_path / "b.bib"
    first.write_text("@article{a, title={One}, doi={10.1109/TIT.1955.1055126}}\n", encoding="utf-8")
    second.write_text("@article{b, title={One, again}, doi={https://doi.org/10.1109/tit.1955.1055126}}\n", encoding="utf-8")
    library = Library.open(tmp_path / "db")
    for path in (first, second):
        result = read_bibtex(path)
        library.import_papers(result.papers, result.annotations)
    assert len(library) == 1
    library.close()


def test_urls_empty_fields_and_the_authors_and_are_kept(tmp_path):
    text = "@article{k, title={T}, author={Foster, Ian AND Kesselman, Carl}, url={http://x.org/a\\_b}, OPTpages={}, doi={}}\n"
    _, fields = _round_trip(tmp_path, text)
    kept = fields["k"][1]
    assert kept["url"] == "http://x.org/a\\_b"
    assert kept["author"] == "Foster, Ian AND Kesselman, Carl"
    assert kept["optpages"] == "" and kept["doi"] == ""


def test_keywords_keep_their_own_separators(tmp_path):
    papers, fields = _round_trip(tmp_path, "@article{k, title={T}, keywords={human factors; Printing, Practical}}\n")
    assert papers[0].keywords == ("human factors", "Printing", "Practical")  # for search and "for you"
    assert fields["k"][1]["keywords"] == "human factors; Printing, Practical"


def test_an_entry_without_a_title_is_exported_without_one(tmp_path):
    text = (
        "@misc{Bakker94, author = {Erwin M. Bakker}, note = {Work in progress}}\n"
        "@misc{empty, author = {A}, title = {}}\n"
    )
    papers, fields = _round_trip(tmp_path, text)
    assert [p.title for p in papers] == ["Erwin M. Bakker: Work in progress", "A"]
    assert fields["Bakker94"] == ("misc", {"author": "Erwin M. Bakker", "note": "Work in progress"})
    assert fields["empty"] == ("misc", {"author": "A", "title": ""})


def test_a_title_the_user_gives_an_untitled_entry_is_exported(tmp_path):
    path = tmp_path / "u.bib"
    path.write_text("@misc{Bakker94, author = {Erwin M. Bakker}}\n", encoding="utf-8")
    (paper,) = read_bibtex(path).papers
    view = PaperView(paper, Annotation(overrides={"title": "Work in Progress"}))
    assert "  title = {Work in Progress}\n" in export_bibtex([view])


def test_a_crossref_parent_is_written_after_its_children(tmp_path):
    text = (
        "@proceedings{parent, title = {Proceedings of Things}, year = 1999}\n"
        "@inproceedings{child, crossref = {parent}, author = {A. B}, title = {C}}\n"
    )
    path = tmp_path / "x.bib"
    path.write_text(text, encoding="utf-8")
    views = [PaperView(p, Annotation()) for p in read_bibtex(path).papers]
    exported = bibtexparser.parse_string(export_bibtex(views))
    assert [e.key for e in exported.entries] == ["child", "parent"]


def test_a_bib_paper_gains_only_a_tags_field_and_keeps_its_keywords(tmp_path):
    _, fields = _round_trip(tmp_path, "@article{a, title={T}}\n@article{b, title={U}, keywords={x, y}}\n", tags=("to read",))
    assert fields["a"][1] == {"title": "T", "tags": "to read"}
    assert fields["b"][1] == {"title": "U", "keywords": "x, y", "tags": "to read"}


def test_an_anonymous_submission_is_by_anonymous_as_openreview_writes_it(tmp_path):
    paper = Paper(id="abc", title="A Submission", venue="ICLR 2026 Conference Submission", year=2026)
    exported = export_bibtex([PaperView(paper, Annotation())])
    entry = bibtexparser.parse_string(exported).entries[0]
    assert entry.fields_dict["author"].value == "Anonymous"
    path = tmp_path / "ours.bib"
    path.write_text(exported, encoding="utf-8")
    assert read_bibtex(path).papers[0].authors == ()  # no one, read back


def test_every_preamble_of_a_file_survives_the_store(tmp_path):
    path = tmp_path / "pre.bib"
    path.write_text(
        '@preamble{"\\newcommand{\\noopsort}[1]{}"}\n@preamble{"\\newcommand{\\x}{y}"}\n@misc{a, title={T}}\n',
        encoding="utf-8",
    )
    library = Library.open(tmp_path / "db")
    result = read_bibtex(path)
    library.import_papers(result.papers, result.annotations)
    library.close()
    stored = Library.open(tmp_path / "db")  # through the catalog file, which stores fields as an object
    exported = export_bibtex(stored.views())
    assert exported.count("@preamble{") == 2
    assert '@preamble{"\\newcommand{\\noopsort}[1]{}"}\n@preamble{"\\newcommand{\\x}{y}"}\n' in exported
    stored.close()
