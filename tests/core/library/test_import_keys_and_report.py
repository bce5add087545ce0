"""A user's .bib key survives a merge into a paper whose key the app made up; the import
report says what it did to the user's notes and tags (issue 12, items 1 and 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.cli import main
from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.library.catalog.merge import ImportSummary
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

ENTRY = "@inproceedings{myKey2026, title={Efficient Attention Things}, booktitle={ICLR}, year=2026, pages={1--9}}\n"


def openreview_paper(pid: str = "AbC123", title: str = "Efficient Attention Things") -> Paper:
    return Paper(id=pid, title=title, authors=("Ann Eat",), year=2026, venue="ICLR 2026",
                 url=f"https://openreview.net/forum?id={pid}", source="openreview:dump.jsonl")


def imported(library: Library, path: Path) -> tuple[ImportSummary, list[str]]:
    result = read_bibtex(path)
    summary = library.import_papers(result.papers, result.annotations)
    summary.add_problems(result.problems)
    return summary, summary.details([result.label(i) for i in range(len(result.papers))])


def bib(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_bib_key_replaces_the_generated_key_of_the_paper_it_merges_into(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([openreview_paper()])
    generated = library.view("AbC123").citekey
    summary, details = imported(library, bib(tmp_path, "one.bib", ENTRY))
    assert summary.merged == 1 and len(library) == 1
    assert library.view("AbC123").citekey == "myKey2026"
    assert details == [f"merged: {tmp_path / 'one.bib'}:1 entry 'myKey2026' into the library's paper "
                       f"'{generated}' (Efficient Attention Things): a near-identical title and the same year; "
                       f"key 'myKey2026' replaces the generated key '{generated}'"]
    assert "@inproceedings{myKey2026," in export_bibtex(library.views())
    # Importing the file again changes nothing and keeps the key.
    summary, _ = imported(library, bib(tmp_path, "one.bib", ENTRY))
    assert summary.unchanged == 1 and library.view("AbC123").citekey == "myKey2026"


def test_a_key_the_user_set_stays_and_the_line_says_the_entry_key_is_not_the_papers(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([openreview_paper()])
    library.edit("AbC123", citekey="chosen")
    _, details = imported(library, bib(tmp_path, "one.bib", ENTRY))
    assert library.view("AbC123").citekey == "chosen"
    assert details[0].endswith("; the entry's key 'myKey2026' is not the paper's ('chosen')")


def test_a_key_from_another_bib_stays(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([openreview_paper()])
    imported(library, bib(tmp_path, "one.bib", ENTRY))
    _, details = imported(library, bib(tmp_path, "two.bib", ENTRY.replace("myKey2026", "other2026")))
    assert library.view("AbC123").citekey == "myKey2026"
    assert details[0].endswith("; the entry's key 'other2026' is not the paper's ('myKey2026')")


def test_a_bib_key_held_by_another_paper_is_not_taken(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([openreview_paper(), openreview_paper("XyZ789", "Something Else Entirely")])
    library.edit("XyZ789", citekey="myKey2026")
    generated = library.view("AbC123").citekey
    _, details = imported(library, bib(tmp_path, "one.bib", ENTRY))
    assert library.view("AbC123").citekey == generated
    assert details[0].endswith(f"; the entry's key 'myKey2026' is not the paper's ('{generated}')")
    keys = [v.citekey.lower() for v in library.views()]
    assert len(keys) == len(set(keys))


# --- the report says what the import did to the user's notes and tags (item 14) ----------


def test_reimporting_an_older_export_says_it_added_the_old_note_and_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "db"
    library = Library.open(folder)
    library.import_papers([openreview_paper()])
    library.set_notes("AbC123", "old note")
    library.add_tags(["AbC123"], ["🎉"])
    old_export = bib(tmp_path, "old.bib", export_bibtex(library.views()))
    library.set_notes("AbC123", "new note")
    library.remove_tags(["AbC123"], ["🎉"])

    assert main(["--db", str(folder), "import", str(old_export)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == (
        "1 entry read: 0 new, 0 updated, 0 merged, 1 unchanged, 0 skipped; "
        "notes added to 1 paper, tags added to 1 paper"
    )
    assert "notes: the file's notes were added to your own on 1 paper (AbC123); nothing of yours was removed" in err
    # The additive semantics stay: nothing of the user's was removed or replaced.
    view = Library.open(folder).view("AbC123")
    assert view.notes == "new note\n\nold note" and view.tags == ("🎉",)


def test_a_reimport_that_adds_nothing_says_nothing_of_annotations(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "db")
    library.import_papers([openreview_paper()])
    library.set_notes("AbC123", "a note")
    summary, details = imported(library, bib(tmp_path, "now.bib", export_bibtex(library.views())))
    assert str(summary) == "0 new, 0 updated, 0 merged, 1 unchanged, 0 skipped" and details == []
