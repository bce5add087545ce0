"""Entries with different citation keys are different papers unless the user's data says
otherwise (the same DOI, url or key); every merge is reported with its lines; a note is
never doubled by importing it again (issue 12, items 1, 3 and 14)."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.library.catalog.merge import ImportSummary
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

CHAPTERS = """\
@inbook{ch1,
  title = {Handbook of Things},
  author = {Alpha, Ann},
  chapter = {1},
  pages = {1--20},
  publisher = {Springer},
  year = {2010},
}

@inbook{ch2,
  title = {Handbook of Things},
  author = {Beta, Bob},
  chapter = {2},
  pages = {21--40},
  publisher = {Springer},
  year = {2010},
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def imported(library: Library, path: Path) -> tuple[ImportSummary, list[str]]:
    """Import `path` as the CLI does; the summary and its report lines."""
    result = read_bibtex(path)
    summary = library.import_papers(result.papers, result.annotations)
    summary.add_problems(result.problems)
    return summary, summary.details([result.label(i) for i in range(len(result.papers))])


def by_key(library: Library) -> dict[str, Paper]:
    return {library.papers[pid].citekey: library.papers[pid] for pid in library.papers}


def test_two_chapters_of_one_book_are_two_papers(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    summary, details = imported(library, write(tmp_path, "book.bib", CHAPTERS))
    assert (summary.new, summary.merged, summary.unchanged) == (2, 0, 0)
    assert details == []
    papers = by_key(library)
    assert sorted(papers) == ["ch1", "ch2"]
    assert papers["ch2"].authors == ("Beta, Bob",)
    assert dict(papers["ch2"].extra_fields)["pages"] == "21--40"


def test_importing_the_same_file_again_keeps_the_ids(tmp_path: Path) -> None:
    path = write(tmp_path, "book.bib", CHAPTERS)
    assert [p.id for p in read_bibtex(path).papers] == [p.id for p in read_bibtex(path).papers]
    library = Library.open(tmp_path / "db")
    imported(library, path)
    summary, details = imported(library, path)
    assert (summary.new, summary.updated, summary.merged, summary.unchanged) == (0, 0, 0, 2)
    assert details == [] and len(library) == 2


def test_a_chapter_is_not_folded_into_its_sibling_already_in_the_library(tmp_path: Path) -> None:
    # The library holds chapter 1 (as an older import that gave it a title-based id would);
    # chapter 2 arrives with the same title and year under another key.
    library = Library.open(tmp_path / "db")
    first = read_bibtex(write(tmp_path, "one.bib", CHAPTERS.split("\n\n")[0] + "\n")).papers[0]
    library.import_papers([first.evolve(id="old-title-based-id", entry_type="", extra_fields=())])
    summary, details = imported(library, write(tmp_path, "book.bib", CHAPTERS))
    assert (summary.new, summary.updated, summary.merged) == (1, 1, 0)  # ch1 filled in, ch2 new
    assert details == []
    papers = by_key(library)
    assert sorted(papers) == ["ch1", "ch2"]
    assert papers["ch1"].id == "old-title-based-id" and papers["ch1"].entry_type == "inbook"


def test_two_entries_of_one_file_never_merge_into_one_paper(tmp_path: Path) -> None:
    # A paper from elsewhere (a seed list) may take in a .bib entry of the same title -
    # but only one: the other chapter stays a paper of its own.
    library = Library.open(tmp_path / "db")
    library.import_papers([Paper(id="seed1", title="Handbook of Things", year=2010, source="seed:list.txt")])
    summary, details = imported(library, write(tmp_path, "book.bib", CHAPTERS))
    assert (summary.new, summary.merged) == (1, 1)
    assert details == [
        f"merged: {tmp_path / 'book.bib'}:1 entry 'ch1' into the library's paper 'handbookthings2010' "
        "(Handbook of Things): a near-identical title and the same year; "
        "key 'ch1' replaces the generated key 'handbookthings2010'"
    ]
    assert library.papers["seed1"].citekey == "ch1"  # the key the user cites
    assert len(library) == 2
    seed = library.papers["seed1"]
    assert seed.entry_type == "inbook" and dict(seed.extra_fields)["chapter"] == "1"  # the .bib's entry
    assert seed.authors == ("Alpha, Ann",)


def test_the_same_doi_in_one_file_is_one_paper_and_the_report_says_which(tmp_path: Path) -> None:
    text = (
        "@article{a, title={First Title}, journal={J}, doi={10.1/X}, year=2001, annote={note A}}\n"
        "@article{b, title={Second Title}, journal={J}, doi={https://doi.org/10.1/x}, year=2001, pages={1--2}, "
        "annote={note A}}\n"
    )
    library = Library.open(tmp_path / "db")
    summary, details = imported(library, write(tmp_path, "dup.bib", text))
    assert (summary.new, summary.merged, summary.unchanged, summary.skipped) == (1, 1, 0, 0)
    assert details == [f"merged: {tmp_path / 'dup.bib'}:2 entry 'b' into {tmp_path / 'dup.bib'}:1 entry 'a': the same DOI"]
    (paper,) = (library.papers[pid] for pid in library.papers)
    assert paper.citekey == "a" and paper.title == "First Title"
    assert dict(paper.extra_fields)["journal"] == "J"
    assert library.view(paper.id).notes == "note A"  # the same note of both entries, once


def test_a_bib_entry_of_an_openreview_paper_still_merges(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([Paper(id="AbC123", title="Graph Nets", url="https://openreview.net/forum?id=AbC123",
                                 venue="ICLR 2024", source="openreview:dump.jsonl")])
    text = "@inproceedings{mine, title={Graph Nets}, booktitle={ICLR}, url={https://openreview.net/pdf?id=AbC123}, pages={1--9}}\n"
    summary, _ = imported(library, write(tmp_path, "mine.bib", text))
    assert summary.new == 0 and len(library) == 1
    paper = library.papers["AbC123"]
    assert paper.venue == "ICLR 2024"  # the paper's venue stays; the entry keeps its booktitle
    assert paper.extra_fields == (("booktitle", "ICLR"), ("pages", "1--9"))


def test_a_bib_entry_under_another_key_is_reported_even_when_it_adds_nothing(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    text = "@article{k1, title={Shared Title}, journal={J}, doi={10.2/y}, year=2000}\n"
    imported(library, write(tmp_path, "a.bib", text))
    summary, details = imported(library, write(tmp_path, "b.bib", text.replace("k1", "k2")))
    assert summary.merged == 1 and summary.unchanged == 0
    assert details == [f"merged: {tmp_path / 'b.bib'}:1 entry 'k2' into the library's paper 'k1' (Shared Title): "
                       "the same DOI; the entry's key 'k2' is not the paper's ('k1')"]


def test_reimporting_an_export_never_doubles_a_note(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([Paper(id="p1", title="A Paper", year=2020)])
    library.set_notes("p1", "first line\n\n\n\tsecond line\n")
    # What an export of that note reads back as: blank lines and tabs folded.
    summary = library.import_papers([Paper(id="p1", title="A Paper", year=2020)], {"p1": {"notes": "first line\nsecond line"}})
    assert library.view("p1").notes == "first line\n\n\n\tsecond line\n"
    library.import_papers([Paper(id="p1", title="A Paper", year=2020)], {"p1": {"notes": "first line"}})
    assert library.view("p1").notes == "first line\n\n\n\tsecond line\n"  # already in it
    library.import_papers([Paper(id="p1", title="A Paper", year=2020)], {"p1": {"notes": "new thought"}})
    assert library.view("p1").notes == "first line\n\n\n\tsecond line\n\nnew thought"
    assert summary.unchanged == 1


def test_warnings_are_not_skipped_entries(tmp_path: Path) -> None:
    text = "@misc{old, title={Ancient}, year={535 BCE}}\n@misc{dup, title={T}, title={U}}\n@misc{broken title={T}}\n"
    library = Library.open(tmp_path / "db")
    summary, details = imported(library, write(tmp_path, "w.bib", text))
    assert (summary.new, summary.skipped, summary.warnings, summary.entries) == (2, 1, 2, 3)
    assert str(summary) == "2 new, 0 updated, 0 merged, 0 unchanged, 1 skipped; 2 warnings"
    assert [line.split(":")[0] for line in details[:2]] == ["warning", "warning"]
    assert details[2].startswith(f"{tmp_path / 'w.bib'}:3: skipped")
    assert "'535 BCE'" in details[0] and "repeats title" in details[1]


def test_the_summary_groups_every_count_as_the_entries_line_does() -> None:
    """A whole conference: "19,630 entries read: 19630 new" read as two numbers (found by
    hand importing ICLR 2026); every count is grouped now."""
    from types import SimpleNamespace

    summary = ImportSummary(new=19_630, unchanged=1_200, skipped=1_001, warnings=2_000)
    summary.notes_added = ["p"] * 1_500
    summary.reviews = SimpleNamespace(added=19_630, updated=0, unchanged=0, moved=1_234)
    assert str(summary) == (
        "19,630 new, 0 updated, 0 merged, 1,200 unchanged, 1,001 skipped; 2,000 warnings; "
        "notes added to 1,500 papers, reviews of 19,630 papers: 19,630 new, 0 updated, 0 unchanged "
        "(1,234 reviews changed scores)"
    )
