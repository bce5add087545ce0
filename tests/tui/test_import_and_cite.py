"""Palette-only actions: import a file (prompt, progress, summary) and copy \\cite keys;
an edited title becomes searchable at once."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.import_dialog import ImportDialog
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import enter_text, screen_text, settle

SIZE = (120, 40)

BIB = r"""
@inproceedings{smith2024,
  title = {Sparse {Mixture} of Experts for Protein Folding},
  author = {Smith, Jane and Doe, John},
  booktitle = {NeurIPS},
  year = {2024},
}
@article{broken,
  title = {Missing the closing brace
"""


async def test_import_from_the_palette_adds_papers_and_reports(library: Library, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    before = len(library)
    library.set_status(["p-graphs"], Status.READ)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p", *"Import papers")
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ImportDialog)
        await enter_text(pilot, "#import-path", str(bib))
        await settle(app, pilot)
        assert "Done: 1 new" in screen_text(app)
        # the report's own text: on screen a long temporary path wraps anywhere
        report = str(app.screen.query_one("#import-result", Static).content)
        assert "skipped" in report and "refs.bib" in report
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert len(library) == before + 1
        assert len(app.screen.query_one(PaperList).ids) == before + 1
        assert library.annotation("p-graphs").status is Status.READ  # annotations kept


async def test_import_of_a_missing_file_is_a_message_not_a_crash(library: Library, tmp_path: Path) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.screen.run_action("import_file")
        await pilot.pause()
        await enter_text(pilot, "#import-path", str(tmp_path / "nope.bib"))
        await settle(app, pilot)
        assert "no such file" in screen_text(app)
        assert isinstance(app.screen, ImportDialog)


async def test_copy_cites_of_marked_papers(library: Library, monkeypatch) -> None:
    import reader_tui.tui.clipboard as clipboard

    copied: list[str] = []
    monkeypatch.setattr(clipboard, "copy_text", lambda app, text: copied.append(text) or "test clipboard")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space")  # space marks and moves on, as in mutt
        await app.screen.run_action("copy_cites")
        await pilot.pause()
        assert copied == ["\\cite{lovelace2026attention,curie2026graph}"]


async def test_an_edited_title_is_searchable(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "e")
        await pilot.pause()
        title = app.screen.query_one("#edit-title")
        title.value = "Zygomorphic Quokkas on Graphs"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        await pilot.press("slash", *"quokkas")
        await settle(app, pilot)
        assert app.screen.query_one(PaperList).ids[:1] == ["p-graphs"]
