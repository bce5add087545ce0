"""A user's own .bib comes back as it went in: entry types and every field (issue 12, item 2).

The fixture holds articles, a book, a chapter, a collection chapter, a report, theses, a
proceedings paper, a web page without authors and a manual, with pages, volume, number,
publisher, editor, chapter, edition, series, isbn, month, @string macros...
"""

from __future__ import annotations

from pathlib import Path

import bibtexparser

from reader_tui.core.formats.bibtex import reader as bibtex_importer
from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.model import Annotation, Paper, PaperView

FIXTURE = Path(__file__).parents[3] / "fixtures" / "export_bibtex" / "multitype.bib"


def original_entries() -> dict[str, tuple[str, dict[str, str]]]:
    """key -> (entry type, {field: value after macro expansion, whitespace collapsed})."""
    library = bibtexparser.parse_string(FIXTURE.read_text(encoding="utf-8"), parse_stack=[])
    macros = dict(bibtex_importer._MONTH_MACROS)
    entries = {}
    for block in library.blocks:
        if isinstance(block, bibtexparser.model.String):
            macros[block.key.lower()] = bibtex_importer._evaluate(block.value, macros)
        elif isinstance(block, bibtexparser.model.Entry):
            values = {f.key.lower(): " ".join(bibtex_importer._evaluate(f.value, macros).split()) for f in block.fields}
            entries[block.key] = (block.entry_type.lower(), values)
    return entries


def imported_papers() -> list[Paper]:
    """The papers exactly as the importer gives them: nothing filled in here, so a
    regression of the importer (an entry type or a field not kept) fails these tests."""
    return list(read_bibtex(FIXTURE).papers)


def exported_entries(papers: list[Paper]) -> dict[str, tuple[str, dict[str, str]]]:
    bib = export_bibtex([PaperView(p, Annotation()) for p in papers])
    library = bibtexparser.parse_string(bib, parse_stack=[])
    assert not library.failed_blocks
    # Values read as the importer reads them: a month macro the export keeps bare (`month
    # = jan`) means what the original's did.
    months = dict(bibtex_importer._MONTH_MACROS)
    return {
        e.key: (e.entry_type, {f.key: " ".join(bibtex_importer._evaluate(f.value, months).split()) for f in e.fields})
        for e in library.entries
    }


def test_every_entry_comes_back_field_for_field() -> None:
    originals = original_entries()
    exported = exported_entries(imported_papers())
    assert exported.keys() == originals.keys()
    for key, (entry_type, values) in originals.items():
        got_type, got = exported[key]
        assert got_type == entry_type, key
        assert got == values, key


def test_the_export_reimports_to_the_same_papers(tmp_path: Path) -> None:
    papers = imported_papers()
    path = tmp_path / "again.bib"
    path.write_text(export_bibtex([PaperView(p, Annotation()) for p in papers]), encoding="utf-8")
    again = {p.citekey: p for p in read_bibtex(path).papers}
    for paper in papers:
        other = again[paper.citekey]
        assert (other.title, other.authors, other.venue, other.year, other.doi, other.url) == (
            paper.title, paper.authors, paper.venue, paper.year, paper.doi, paper.url
        )


def test_an_edited_title_is_escaped_and_the_rest_kept() -> None:
    paper = next(p for p in imported_papers() if p.citekey == "knuth1984")
    view = PaperView(paper, Annotation(overrides={"title": "My 100% title"}))
    entry = bibtexparser.parse_string(export_bibtex([view])).entries[0]
    assert entry.entry_type == "book"
    assert entry.fields_dict["title"].value == "My 100\\% title"
    assert entry.fields_dict["publisher"].value == "Addison-Wesley"


def test_no_field_is_written_twice() -> None:
    paper = Paper(id="x", title="T", venue="J", entry_type="article",
                  extra_fields=(("journal", "J"), ("pages", "1--2"), ("title", "dup"), ("annote", "dup")))
    bib = export_bibtex([PaperView(paper, Annotation(notes="mine"))])
    entry = bibtexparser.parse_string(bib).entries[0]
    assert [f.key for f in entry.fields] == ["title", "journal", "pages"] + ["annote"]
    assert entry.fields_dict["annote"].value == "mine"
