"""A realistic multi-type bibliography (tests/fixtures/import_bibtex/realistic.bib): every
entry is accounted for in the import report, and every field of every entry is in the
stored papers, under the rules of `formats/bibtex/reader.py`'s docstring."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser import model as bib

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.library.catalog.merge import ImportSummary
from reader_tui.core.library.library import Library

FIXTURE = Path(__file__).parents[3] / "fixtures" / "import_bibtex" / "realistic.bib"
TEXT = FIXTURE.read_text(encoding="utf-8")

# The fields that go to the paper's attributes (see formats/bibtex/reader.py); all others,
# journal and booktitle included, are in extra_fields.
MODELLED = {"title", "author", "year", "url", "doi", "abstract", "keywords", "annote"}
# The two entries the file cannot give: a repeated key, a broken entry. (The entry with no
# title gets in, shown as "Nobody: no title at all".)
SKIPPED = {488: "berger1984", 495: "broken2020"}


def _entries_in_file() -> int:
    kinds = re.findall(r"^@\s*(\w+)", TEXT, flags=re.MULTILINE)
    return sum(kind.lower() not in ("string", "comment", "preamble") for kind in kinds)


def _raw_entries() -> list[bib.Entry]:
    """The entries as bibtexparser reads them, without our evaluation: the reference."""
    return bibtexparser.parse_string(TEXT, parse_stack=[]).entries


def collapse_spaces(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, ImportSummary, list]:
    folder = tmp_path_factory.mktemp("realistic") / "db"
    result = read_bibtex(FIXTURE)
    library = Library.open(folder)
    summary = library.import_papers(result.papers, result.annotations)
    summary.add_problems(result.problems)
    labels = [result.label(i) for i in range(len(result.papers))]
    return Library.open(folder), summary, summary.details(labels)  # reopened: what is on disk


def test_every_entry_is_accounted_for(imported) -> None:
    _, summary, details = imported
    assert _entries_in_file() == 53
    assert summary.entries == 53
    assert (summary.new, summary.updated, summary.merged, summary.unchanged) == (51, 0, 0, 0)
    assert summary.skipped == 2 and summary.warnings == 1
    skipped = [line for line in details if "skipped" in line]
    assert [int(re.search(r"realistic\.bib:(\d+):", line).group(1)) for line in skipped] == list(SKIPPED)
    for line, key in zip(skipped, SKIPPED.values()):
        assert f"'{key}'" in line
    assert "already used at line 16" in skipped[0]
    assert "unbalanced braces" in skipped[1]
    # The junk year is a warning about an entry that got in, not a skipped entry.
    assert [line for line in details if line.startswith("warning:")] == [
        f"warning: {FIXTURE}:116: entry 'ancient': the year '535 BCE' holds no four-digit year: "
        "exported as written; sorted and filtered as having no year"
    ]


def test_every_field_is_in_the_stored_papers(imported) -> None:
    library, _, _ = imported
    by_key = {library.papers[pid].citekey: library.papers[pid] for pid in library.papers}
    raw_entries = [e for e in _raw_entries() if e.key != "broken2020"]
    seen: set[str] = set()
    checked_values = 0
    for entry in raw_entries:
        if entry.key in seen:
            continue  # the repeated key: skipped, and reported
        seen.add(entry.key)
        paper = by_key[entry.key]
        assert paper.entry_type == entry.entry_type.lower()
        names = [field.key.lower() for field in entry.fields]
        extra = {name: value for name, value in paper.extra_fields if not name.startswith("@")}  # reserved keys
        # A year that is not a plain number is kept as written, as is an empty title.
        plain_year = re.fullmatch(r'[{"]?\s*\d{4}\s*[}"]?', next(f.value for f in entry.fields if f.key.lower() == "year").strip()) if "year" in names else True
        expected_extra = [n for n in names if n not in MODELLED or (n == "year" and not plain_year)]
        assert list(extra) == expected_extra, entry.key  # every one, in file order
        for field in entry.fields:
            value = field.value.strip()
            name = field.key.lower()
            if value[:1] + value[-1:] not in ("{}", '""') or "#" in value:
                continue  # macros and concatenations: checked one by one below
            text = collapse_spaces(value[1:-1])
            if name in extra:
                assert extra[name] == text, (entry.key, name)
            elif name in ("title", "url", "abstract"):
                assert getattr(paper, name) == text, (entry.key, name)
            elif name == "author":
                assert " and ".join(paper.authors) == text, entry.key
            else:
                continue
            checked_values += 1
        if "booktitle" in extra or "journal" in extra:
            assert paper.venue == extra.get("booktitle") or paper.venue == extra.get("journal")
    assert len(seen) == 51
    assert checked_values > 240


def test_macros_concatenation_and_month_names_are_expanded(imported) -> None:
    library, _, _ = imported
    papers = {library.papers[pid].citekey: library.papers[pid] for pid in library.papers}
    assert dict(papers["berger1984"].extra_fields)["journal"] == "Journal of Computational Physics"
    assert dict(papers["berger1984"].extra_fields)["month"] == "mar"  # a month macro is kept, written back bare
    assert dict(papers["berger1984"].extra_fields)["@bare"] == "month"
    assert papers["cockburn1998"].venue == "SIAM Journal on Numerical Analysis"  # a macro of a macro
    harten = dict(papers["harten1983"].extra_fields)
    assert harten["booktitle"] == "Proceedings of the Fifth Symposium on Computational Fluid Dynamics"
    assert dict(papers["shu1998"].extra_fields)["series"] == "Lecture Notes in Computer Science"
    assert dict(papers["cockburn1998"].extra_fields)["volume"] == "35"  # a bare number


def test_latex_and_utf8_are_kept_as_written(imported) -> None:
    library, _, _ = imported
    papers = {library.papers[pid].citekey: library.papers[pid] for pid in library.papers}
    assert papers["mueller2019"].authors[0] == 'M{\\"u}ller, J{\\"o}rg'
    assert "$O(h^{p+1})$" in papers["mueller2019"].title
    assert dict(papers["mueller2019"].extra_fields)["note"] == "Erratum in vol.~143, p.~12"
    assert papers["muller2020utf"].authors == ("Müller, Jörg", "Łukasiewicz, Paweł", "山田, 太郎")
    assert dict(papers["knuth1984"].extra_fields)["note"] == "\\noopsort{a}Computers \\& Typesetting, vol.~A"
    assert "한국어 and 日本語" in papers["tokyo2022"].title
    assert "🎉" in papers["emoji-misc"].title and "𝔘" in papers["emoji-misc"].title
    assert library.annotation(papers["emoji-misc"].id).notes == "a note with 🎉 and שלום"
    assert dict(papers["ancient"].extra_fields)["year"] == "535 BCE" and papers["ancient"].year is None
    assert dict(papers["pinn-neurips"].extra_fields)["archiveprefix"] == "arXiv"


def test_two_chapters_of_one_book_are_two_papers(imported) -> None:
    library, _, _ = imported
    chapters = sorted(
        (p.citekey, p.authors, dict(p.extra_fields)["chapter"])
        for p in (library.papers[pid] for pid in library.papers)
        if p.title == "Handbook of Numerical Analysis"
    )
    assert chapters == [
        ("hndbk-ch1", ("Brenner, Susanne C.",), "Multigrid Methods"),
        ("hndbk-ch2", ("Eymard, Robert", 'Gallou{\\"e}t, Thierry', "Herbin, Rapha{\\`e}le"), "Finite Volume Methods"),
    ]


@pytest.mark.parametrize("variant", ["bom", "crlf", "bom+crlf"])
def test_bom_and_crlf_variants_read_the_same(variant: str, tmp_path: Path) -> None:
    data = TEXT.replace("\n", "\r\n") if "crlf" in variant else TEXT
    path = tmp_path / "realistic.bib"
    path.write_bytes((b"\xef\xbb\xbf" if "bom" in variant else b"") + data.encode("utf-8"))
    plain, other = read_bibtex(FIXTURE), read_bibtex(path)
    assert other.papers == [p.evolve(source=p.source) for p in plain.papers]
    assert other.lines == plain.lines
    assert [(p.line, p.message) for p in other.problems] == [(p.line, p.message) for p in plain.problems]


def test_importing_it_again_changes_nothing_and_says_so(imported, tmp_path: Path) -> None:
    folder = tmp_path / "db"
    result = read_bibtex(FIXTURE)
    Library.open(folder).import_papers(result.papers, result.annotations)
    library = Library.open(folder)
    again = library.import_papers(read_bibtex(FIXTURE).papers, result.annotations)
    assert (again.new, again.updated, again.merged, again.unchanged) == (0, 0, 0, 51)
    assert len(library) == 51
    assert library.view(result.papers[[p.citekey for p in result.papers].index("emoji-misc")].id).notes == (
        "a note with 🎉 and שלום"
    )
