"""Workers compute, the UI thread applies: during a TUI import the Library's memory (its
papers, its annotations) is replaced and its listeners are called on the UI thread only,
while the file is read and the catalog written on the import's worker."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.import_dialog import ImportDialog
from tui_support import enter_text, settle

BIB = r"""
@article{smith2024,
  title = {Sparse Experts for Protein Folding 論文 🎉},
  author = {Smith, Jane},
  journal = {Nature},
  year = {2024},
  keywords = {proteins},
  annote = {read this first},
}
"""


async def test_a_tui_import_changes_the_library_on_the_ui_thread_only(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    before = len(library)
    seen: list[tuple[str, threading.Thread]] = []
    original_setattr = Library.__setattr__

    def recording_setattr(self: Library, name: str, value: Any) -> None:
        if name in ("papers", "annotations"):
            seen.append((f"set {name}", threading.current_thread()))
        original_setattr(self, name, value)

    monkeypatch.setattr(Library, "__setattr__", recording_setattr)
    library.subscribe(lambda ids: seen.append(("listener", threading.current_thread())))
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        ui_thread = threading.current_thread()
        seen.clear()
        await app.screen.run_action("import_file")
        await pilot.pause()
        assert isinstance(app.screen, ImportDialog)
        await enter_text(pilot, "#import-path", str(bib))
        await settle(app, pilot)
        result = str(app.screen.query_one("#import-result", Static).content)
        assert "Done: " in result
        assert len(library) == before + 1
        new = next(pid for pid in library.papers if library.papers[pid].title.startswith("Sparse Experts"))
        assert library.annotation(new).notes == "read this first"
        assert ("listener", ui_thread) in seen  # the change was told at all
        elsewhere = [(what, thread.name) for what, thread in seen if thread is not ui_thread]
        assert elsewhere == []
