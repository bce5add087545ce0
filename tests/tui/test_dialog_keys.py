"""Issue 14's dialogs: enter exports from any field of the export dialog, the list's
description never hides its count, Markdown says it has no abstracts, tab visits the
same fields whatever the format, the choices are remembered; the tag editor says that
"llm reasoning" is one tag."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Checkbox, Input, RadioSet, Static

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.export_dialog import ExportDialog, ExportRequest
from reader_tui.tui.dialogs.tag_editor import TagEditor
from tui_support import ModalHarness, enter_text, screen_text, settle, wait_until

TODAY = date(2026, 3, 1)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))


async def test_enter_on_a_radio_button_exports(tmp_path: Path) -> None:
    app = ModalHarness(ExportDialog(2, 5, 9, today=TODAY))
    async with app.run_test() as pilot:
        assert isinstance(app.focused, RadioSet)
        await pilot.press("down", "enter")  # arrows choose "this list", enter exports
    assert app.result == ExportRequest("filter", "bibtex", tmp_path / "reader-tui-filter-2026-03-01.bib",
                                       to_clipboard=False, abstract=True)


async def test_enter_on_the_checkbox_exports_and_on_cancel_cancels() -> None:
    app = ModalHarness(ExportDialog(2, 5, 9, today=TODAY))
    async with app.run_test() as pilot:
        await pilot.press("tab", "tab")  # format, then the abstracts checkbox
        assert isinstance(app.focused, Checkbox)
        await pilot.press("space")  # space toggles it
        await pilot.press("enter")
    assert app.result.abstract is False and app.result.scope == "marked"

    app = ModalHarness(ExportDialog(2, 5, 9, today=TODAY))
    async with app.run_test() as pilot:
        app.screen.query_one("#export-cancel").focus()
        await pilot.press("enter")
    assert app.result is None


async def test_a_long_filter_never_hides_the_count() -> None:
    label = "filter: tag:llm · sort: title · search: " + "reasoning " * 12
    app = ModalHarness(ExportDialog(0, 1234, 19630, filter_label=label, today=TODAY))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "this list (1,234)" in text and "all (19,630)" in text
        assert "filter filter" not in text and "this list: filter: tag:llm" in text


async def _tab_order(app: App, pilot: Any) -> list[str]:
    app.screen.query_one("#export-scope").focus()
    await pilot.pause()
    order = []
    for _ in range(7):
        order.append(app.focused.id)
        await pilot.press("tab")
    return order


async def test_markdown_has_no_abstracts_and_tab_visits_the_same_fields() -> None:
    app = ModalHarness(ExportDialog(2, 5, 9, today=TODAY))
    async with app.run_test() as pilot:
        bibtex_order = await _tab_order(app, pilot)
        box = app.screen.query_one("#export-abstract", Checkbox)
        assert box.value
        app.screen.query_one("#export-format").focus()
        await pilot.press("down")  # Markdown
        assert app.screen.format == "markdown"
        assert not box.value and str(box.label) == "no abstracts"
        box.focus()
        await pilot.press("space")  # cannot be ticked for Markdown, and says why
        await pilot.pause()
        assert not box.value and "never include abstracts" in str(app.screen.query_one("#export-error", Static).render())
        assert await _tab_order(app, pilot) == bibtex_order
        app.screen.query_one("#export-format").focus()
        await pilot.press("up")  # back to BibTeX: the abstracts come back
        assert box.value and str(box.label) == "with abstracts"


async def _open_export(app, pilot) -> ExportDialog:
    """`x`, and the export dialog once it is up: the screen says "opening the export
    dialog…" first and pushes the dialog after that message is drawn (a frame later)."""
    await pilot.press("x")
    assert await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog))
    return app.screen


async def test_format_destination_and_path_are_remembered(library: Library, tmp_path: Path) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        dialog = await _open_export(app, pilot)
        app.screen.query_one("#export-format").focus()
        await pilot.press("down")  # Markdown
        await enter_text(pilot, "#export-path", str(tmp_path / "reading.md"))
        await settle(app, pilot)
        assert (tmp_path / "reading.md").exists()
        assert library.settings["export"]["format"] == "markdown"
        again = await _open_export(app, pilot)
        assert again is not dialog
        assert again.format == "markdown"
        assert again.query_one("#export-format-markdown").value
        assert again.query_one("#export-path", Input).value == str(tmp_path / "reading.md")


async def test_a_tag_with_a_space_is_said_to_be_one_tag() -> None:
    editor = TagEditor(["A paper"], [], {"llm": 3})
    app = ModalHarness(editor)
    async with app.run_test() as pilot:
        await enter_text(pilot, "#tag-input", "llm reasoning")
        await pilot.pause()
        note = editor.query_one("#tag-note", Static)
        assert note.display and str(note.render()) == '"llm reasoning" is one tag; "llm, reasoning" would be 2'
        assert editor.tags == ["llm reasoning"]
        await enter_text(pilot, "#tag-input", "agents, planning")  # commas: two tags, nothing to say
        await pilot.pause()
        assert editor.tags == ["llm reasoning", "agents", "planning"]
        assert not note.display


async def test_an_export_says_it_is_exporting_at_once_and_then_how_it_went(library: Library, tmp_path: Path,
                                                                         monkeypatch) -> None:
    # Rendering 20k papers takes seconds: the closed dialog must not look like nothing happened.
    import threading

    from reader_tui.core.formats import exporters

    release = threading.Event()
    render = exporters.export_text

    def slow(*args, **kwargs):
        release.wait(10)
        return render(*args, **kwargs)

    monkeypatch.setattr(exporters, "export_text", slow)
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await _open_export(app, pilot)
        await enter_text(pilot, "#export-path", str(tmp_path / "all.bib"))
        await pilot.pause()
        status = str(app.screen.query_one("#status-text").render())
        release.set()
        assert "exporting 6 papers…" in status
        await app.workers.wait_for_complete()
        await settle(app, pilot)
        assert (tmp_path / "all.bib").exists()
        assert "Exported 6 papers" in str(app.screen.query_one("#status-text").render())  # "exporting…" answered
        assert app.screen.status_bar._message == f"Exported 6 papers to {tmp_path / 'all.bib'}"  # the path: in its tooltip


async def test_the_export_dialog_is_said_to_be_opening_before_it_is_drawn(library: Library) -> None:
    """Styling and laying out the dialog takes a few tenths of a second on a busy machine
    (issue 34, item 5): the status line says it is opening first; a cancelled dialog
    leaves no "opening" behind."""
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        main = app.screen
        said: list[str] = []
        set_message = main.status_bar.set_message

        def recorded(message: str = "", **kwargs: Any) -> None:
            said.append(message)
            set_message(message, **kwargs)

        main.status_bar.set_message = recorded
        pushed: list[int] = []  # how many messages were said when the dialog was asked for
        call_after_refresh = main.call_after_refresh
        main.call_after_refresh = lambda *args: (pushed.append(len(said)), call_after_refresh(*args))
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert said[:1] == ["opening the export dialog…"] and pushed == [1]  # said before the dialog was asked for
        await pilot.press("escape")
        await settle(app, pilot)
        assert "opening the export dialog" not in screen_text(app)
