"""One SVG snapshot per modal, over a plain screen, at 100x30 with the stylesheet from styles/.

Update after an intended change with `pytest tests/tui/test_dialog_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from datetime import date

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.paths import styles_dir
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.dialogs.confirm_dialog import ConfirmDialog
from reader_tui.tui.dialogs.edit_dialog import EditDialog
from reader_tui.tui.dialogs.export_dialog import ExportDialog
from reader_tui.tui.dialogs.filter_dialog import FilterDialog
from reader_tui.tui.dialogs.sort_dialog import SortDialog
from reader_tui.tui.dialogs.tag_editor import TagEditor
from reader_tui.tui.screens.help_screen import HelpScreen

SIZE = (80, 24)
KNOWN = {"llm": 12, "reinforcement learning": 4, "graphs": 3, "LLM agents": 2, "[bold]x": 1}


class ModalApp(App):
    CSS_PATH = [str(styles_dir() / "dialogs.tcss")]

    def __init__(self, modal: Screen) -> None:
        super().__init__()
        self.modal = modal

    def compose(self) -> ComposeResult:
        yield Static("the paper list would be here", markup=False)

    def on_mount(self) -> None:
        self.push_screen(self.modal)


def test_tag_editor(snap_compare) -> None:
    modal = TagEditor(["SOCOP: [bold]Scalable[/bold] optimisation", "Active reading"], ["graphs", "[bold]x"], KNOWN,
                      suggestions=["diffusion"])
    assert snap_compare(ModalApp(modal), press=["l", "l"], terminal_size=SIZE)


def test_filter_dialog(snap_compare) -> None:
    assert snap_compare(ModalApp(FilterDialog(KNOWN, ListFilter(frozenset({Status.READ, Status.TO_READ}), ("graphs",)))), terminal_size=SIZE)


def test_sort_dialog(snap_compare) -> None:
    assert snap_compare(ModalApp(SortDialog(SortKey("changed", reverse=True))), terminal_size=SIZE)


def test_edit_dialog(snap_compare) -> None:
    view = PaperView(
        Paper(id="abc123", title="Old title", authors=("Ada Lovelace", "Alan Turing"), url="https://example.org/p",
              citekey="lovelace2026"),
        Annotation(),
    )
    assert snap_compare(ModalApp(EditDialog(view)), terminal_size=SIZE)


def test_export_dialog(snap_compare) -> None:
    modal = ExportDialog(3, 120, 19630, filter_label="status:read", today=date(2026, 3, 1))
    assert snap_compare(ModalApp(modal), terminal_size=SIZE)


def test_confirm_dialog(snap_compare) -> None:
    modal = ConfirmDialog("/home/me/reader-tui-all-2026-03-01.bib already exists. Overwrite it?",
                          yes="Overwrite", no="Keep", title="Overwrite?")
    assert snap_compare(ModalApp(modal), terminal_size=SIZE)


def test_help_screen(snap_compare) -> None:
    entries = [("j / down", "Move down"), ("k / up", "Move up"), ("r", "Toggle read"), ("t", "Edit tags"),
               ("?", "Help"), ("q", "Quit")]
    assert snap_compare(ModalApp(HelpScreen(entries)), terminal_size=SIZE)
