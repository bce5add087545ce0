"""The import dialog while the library's writes fail: "Done" only for papers on disk, a
failure says the library was left as it was, and that stays true once writes resume."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.import_dialog import ImportDialog
from tui_support import enter_text, settle

SIZE = (120, 40)

#: one entry with a note (`annote`): the import writes the catalog and the annotations
BIB = Path(__file__).parents[1] / "fixtures" / "import_bibtex" / "annotated.bib"


async def _import(app, pilot, bib: Path) -> str:  # type: ignore[no-untyped-def]
    await app.screen.run_action("import_file")
    await pilot.pause()
    assert isinstance(app.screen, ImportDialog)
    await enter_text(pilot, "#import-path", str(BIB))
    await settle(app, pilot)
    shown = [str(app.screen.query_one(f"#import-{part}", Static).content) for part in ("error", "result")]
    return " ".join(shown)


def _catalog_ids(folder: Path) -> set[str]:
    return set(Library.open(folder).papers)


async def test_an_import_behind_a_failing_write_says_nothing_changed_and_never_lands(
    library: Library, tmp_path: Path
) -> None:
    folder = library.files.folder
    before = _catalog_ids(folder)
    library.set_notes("p-graphs", "kept")
    library.flush()
    good = library.files.annotations_path.read_bytes()
    library.files.annotations_path.write_text("junk{")
    library.set_status(["p-graphs"], Status.READ)  # fails and waits, queued
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = await _import(app, pilot, BIB)
        assert "Done" not in text
        assert "Nothing imported; the library is as it was" in text
        assert len(library) == len(before)
        # The file is repaired: the status change is retried and lands; the import does not.
        library.files.annotations_path.write_bytes(good)
        library.set_notes("p-graphs", "kept, then edited")
        assert library.flush(timeout=10)
        assert _catalog_ids(folder) == before
        assert Library.open(folder).annotation("p-graphs").status is Status.READ


async def test_an_import_whose_notes_cannot_be_saved_says_so(library: Library, tmp_path: Path) -> None:
    library.set_notes("p-graphs", "kept")
    library.flush()
    good = library.files.annotations_path.read_bytes()
    library.files.annotations_path.write_text("junk{")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = await _import(app, pilot, BIB)
        assert "Done: 1 new" in text  # the papers are on disk...
        assert "tags and notes are not saved yet" in text  # ...their notes are not
        assert "annotations.json" in text
        library.files.annotations_path.write_bytes(good)  # repaired: with the next write...
        library.set_status(["p-graphs"], Status.READ)
        assert library.flush(timeout=10)  # ...the import's notes land
        reopened = Library.open(library.files.folder)
        (new,) = (pid for pid in reopened.papers if reopened.view(pid).title.startswith("Sparse Experts"))
        assert reopened.view(new).notes == "read this first"
