"""Each modal on its own: a tiny app pushes it, the pilot drives the keys, and the test
asserts on the result handed back and on what the modal shows."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Checkbox, Input, OptionList, Static

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui.dialogs.confirm_dialog import ConfirmDialog
from reader_tui.tui.dialogs.edit_dialog import EditDialog
from reader_tui.tui.dialogs.export_dialog import ExportDialog, ExportRequest
from reader_tui.tui.dialogs.filter_dialog import FilterDialog
from reader_tui.tui.dialogs.sort_dialog import SortDialog
from reader_tui.tui.dialogs.tag_editor import TagEdit, TagEditor
from reader_tui.tui.screens.help_screen import HelpScreen, help_entries
from tui_support import NOTHING, ModalHarness


def shown(screen: Screen, selector: str) -> str:
    """The plain text a Static shows."""
    return str(screen.query_one(selector, Static).render())


def option_texts(screen: Screen, selector: str) -> list[str]:
    options = screen.query_one(selector, OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", "-": "minus", ",": "comma", "[": "left_square_bracket",
                         "]": "right_square_bracket", "/": "slash", "~": "tilde", ".": "full_stop"}.get(c, c)
                        for c in text])


# -- tag editor ---------------------------------------------------------------------------

KNOWN = {"llm": 12, "reinforcement learning": 4, "graphs": 3, "LLM agents": 2, "[bold]x": 1}


async def test_tags_add_and_remove_then_escape_returns_the_edit() -> None:
    app = ModalHarness(TagEditor(["A paper"], ["graphs", "old"], KNOWN))
    async with app.run_test() as pilot:
        await type_text(pilot, "new tag")
        await pilot.press("enter")
        await type_text(pilot, "-old")
        await pilot.press("enter")
        assert app.screen.tags == ["graphs", "new tag"]
        chips = shown(app.screen, "#tag-chips")
        assert "+new tag" in chips and "-old" in chips and "graphs" in chips
        await pilot.press("escape")
    assert app.result == TagEdit(add=("new tag",), remove=("old",))


async def test_tags_unchanged_returns_none_and_add_then_remove_cancels_out() -> None:
    app = ModalHarness(TagEditor(["A"], ["graphs"], KNOWN))
    async with app.run_test() as pilot:
        await type_text(pilot, "fresh")
        await pilot.press("enter")
        await type_text(pilot, "-fresh")
        await pilot.press("enter")
        await pilot.press("escape")
    assert app.result is None


async def test_tags_completion_is_fuzzy_best_first_and_picked_with_down_enter() -> None:
    app = ModalHarness(TagEditor(["A"], [], KNOWN))
    async with app.run_test() as pilot:
        await type_text(pilot, "ll")
        texts = option_texts(app.screen, "#tag-completions")
        assert texts[0].startswith("add llm") and any("LLM agents" in t for t in texts)
        await pilot.press("down", "down", "enter")  # into the list, second row, apply
        assert app.screen.tags == ["LLM agents"]
        assert app.screen.query_one("#tag-input", Input).has_focus
        await pilot.press("escape")
    assert app.result == TagEdit(add=("LLM agents",))


async def test_tags_tab_enters_completions_and_typing_returns_to_the_input() -> None:
    app = ModalHarness(TagEditor(["A"], [], KNOWN))
    async with app.run_test() as pilot:
        await type_text(pilot, "grap")
        await pilot.press("tab")
        assert app.screen.query_one("#tag-completions", OptionList).has_focus
        await pilot.press("h")
        tag_input = app.screen.query_one("#tag-input", Input)
        assert tag_input.has_focus and tag_input.value == "graph"


async def test_tags_known_spelling_wins_and_commas_add_several() -> None:
    app = ModalHarness(TagEditor(["A", "B"], [], KNOWN))
    async with app.run_test() as pilot:
        assert "Tags of 2 papers" in shown(app.screen, ".dialog-title")
        await type_text(pilot, "LLM, Graphs")
        await pilot.press("enter")
        await pilot.press("escape")
    assert app.result == TagEdit(add=("llm", "graphs"))


async def test_tags_removing_from_several_papers_and_unknown_tag_error() -> None:
    app = ModalHarness(TagEditor(["A", "B"], [], KNOWN))
    async with app.run_test() as pilot:
        await type_text(pilot, "-llm")
        await pilot.press("enter")
        await type_text(pilot, "-nosuch")
        await pilot.press("enter")
        assert "no paper has the tag 'nosuch'" in shown(app.screen, "#tag-error")
        await pilot.press("enter")  # enter on an empty input closes too
    assert app.result == TagEdit(remove=("llm",))


async def test_tags_suggestions_are_offered_on_an_empty_input() -> None:
    app = ModalHarness(TagEditor(["A"], ["llm"], KNOWN, suggestions=["llm", "diffusion"]))
    async with app.run_test() as pilot:
        texts = option_texts(app.screen, "#tag-completions")
        assert texts == ["add diffusion  suggested"]  # one already there is not offered
        await pilot.press("down", "enter", "escape")
    assert app.result == TagEdit(add=("diffusion",))


async def test_tags_and_titles_are_shown_literally_not_as_markup() -> None:
    app = ModalHarness(TagEditor(["[red]Title[/red] \x1b[2J"], ["[bold]x"], KNOWN))
    async with app.run_test() as pilot:
        assert "[bold]x" in shown(app.screen, "#tag-chips")
        papers = shown(app.screen, "#tag-papers")
        assert "[red]Title[/red]" in papers and "\x1b" not in papers
        await type_text(pilot, "-[bo")
        assert any("[bold]x" in t for t in option_texts(app.screen, "#tag-completions"))
        await pilot.press("escape")
    assert app.result is None


async def test_tags_with_a_comma_inside_cannot_be_added_from_the_list() -> None:
    editor = TagEditor(["A"], [], {})
    assert editor.add_tag("a,b") == "a tag cannot contain a comma"
    assert editor.edit is None


# -- filter -------------------------------------------------------------------------------


def view(pid: str = "p1", *, title: str = "A title", status: Status = Status.UNREAD,
         tags: tuple[str, ...] = (), **paper: Any) -> PaperView:
    return PaperView(Paper(id=pid, title=title, **paper), Annotation(status=status, tags=tags))


async def test_filter_enter_with_nothing_checked_picks_the_highlighted_status() -> None:
    app = ModalHarness(FilterDialog(KNOWN))
    async with app.run_test() as pilot:
        await pilot.press("down", "down", "down", "enter")  # unread, to-read, reading, read
    assert app.result == ListFilter(frozenset({Status.READ}))


async def test_filter_checks_several_statuses_and_any_of_the_tags() -> None:
    app = ModalHarness(FilterDialog(KNOWN))
    async with app.run_test() as pilot:
        await pilot.press("down", "space", "down", "space")  # to-read and reading
        await pilot.press("tab")
        await type_text(pilot, "graph")
        await pilot.press("down", "space")  # graphs, checked while the list is narrowed
        await pilot.press("shift+tab", "ctrl+u")  # back to the query, emptied
        await type_text(pilot, "llm")
        await pilot.press("down", "space", "tab", "space")  # llm; then "any of the tags"
        await pilot.press("enter")
    assert app.result == ListFilter(frozenset({Status.TO_READ, Status.READING}), ("graphs", "llm"), any_tag=True)
    assert app.result.as_query() == "status:to-read,reading tag:graphs,llm"


async def test_filter_keys_typed_ahead_check_the_rows_they_were_typed_on() -> None:
    from textual import events

    app = ModalHarness(FilterDialog(KNOWN))
    async with app.run_test() as pilot:
        await pilot.pause()
        # a burst, as a terminal delivers fast typing: no key waits for the one before
        for key, character in [("space", " "), ("down", None), ("space", " "), ("enter", "\r")]:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
    assert app.result == ListFilter(frozenset({Status.UNREAD, Status.TO_READ}))


async def test_filter_starts_from_the_current_choice_and_escape_cancels() -> None:
    current = ListFilter(frozenset({Status.READING, Status.READ}), ("llm",))
    app = ModalHarness(FilterDialog(KNOWN, current))
    async with app.run_test() as pilot:
        assert app.screen.choice == current
        await pilot.press("escape")
    assert app.result is None


async def test_filter_tag_list_is_most_used_first_and_delete_unchecks_all() -> None:
    app = ModalHarness(FilterDialog(KNOWN, ListFilter(frozenset({Status.READ}), ("graphs",))))
    async with app.run_test() as pilot:
        texts = option_texts(app.screen, "#filter-tags")
        assert texts[0] == "llm  12" and "[bold]x  1" in texts
        await pilot.press("delete", "enter")  # unchecked, on a list that had a filter: no filter
    assert app.result == ListFilter()


async def test_filter_enter_on_the_tag_list_applies_the_highlighted_tag() -> None:
    app = ModalHarness(FilterDialog(KNOWN))
    async with app.run_test() as pilot:
        await pilot.press("tab", "down", "enter")  # to the query, into the list: first tag
    assert app.result == ListFilter(tags=("llm",))


# -- sort ---------------------------------------------------------------------------------


async def test_sort_letter_picks_and_applies() -> None:
    app = ModalHarness(SortDialog(SortKey("title")))
    async with app.run_test() as pilot:
        await pilot.press("r", "c")
    assert app.result == SortKey("changed", reverse=True)


async def test_sort_arrows_and_enter_and_starting_point() -> None:
    app = ModalHarness(SortDialog(SortKey("status", reverse=True)))
    async with app.run_test() as pilot:
        assert app.screen.key == SortKey("status", reverse=True)
        await pilot.press("down", "enter")
    assert app.result == SortKey("added", reverse=True)


async def test_sort_escape_cancels() -> None:
    app = ModalHarness(SortDialog())
    async with app.run_test() as pilot:
        await pilot.press("escape")
    assert app.result is None


# -- edit ---------------------------------------------------------------------------------


def editable() -> PaperView:
    return view("abc123", title="Old title", authors=("Ada Lovelace", "Alan Turing"),
                url="https://example.org/p", citekey="lovelace2026")


async def test_edit_returns_only_changed_fields_with_authors_as_a_list() -> None:
    app = ModalHarness(EditDialog(editable()))
    async with app.run_test() as pilot:
        assert app.screen.query_one("#edit-authors", Input).value == "Ada Lovelace and Alan Turing"
        app.screen.query_one("#edit-title", Input).value = "New  title"
        app.screen.query_one("#edit-authors", Input).value = "Ada Lovelace and Grace Hopper"
        await pilot.press("ctrl+s")
    assert app.result == {"title": "New title", "authors": ["Ada Lovelace", "Grace Hopper"]}


async def test_edit_without_changes_returns_none() -> None:
    app = ModalHarness(EditDialog(editable()))
    async with app.run_test() as pilot:
        await pilot.press("enter")
    assert app.result is None


async def test_edit_shows_citekey_problems_inline_and_stays_open() -> None:
    app = ModalHarness(EditDialog(editable(), citekeys={"turing1950": "other", "lovelace2026": "abc123"}))
    async with app.run_test() as pilot:
        key = app.screen.query_one("#edit-citekey", Input)
        key.value = "bad key"
        await pilot.press("ctrl+s")
        assert "whitespace" in shown(app.screen, "#edit-citekey-error")
        assert app.result is NOTHING and key.has_focus
        key.value = "Turing1950"
        await pilot.press("ctrl+s")
        assert "already used by paper other" in shown(app.screen, "#edit-citekey-error")
        key.value = "lovelace2026b"
        await pilot.press("enter")
    assert app.result == {"citekey": "lovelace2026b"}


async def test_edit_refuses_an_empty_title() -> None:
    app = ModalHarness(EditDialog(editable()))
    async with app.run_test() as pilot:
        app.screen.query_one("#edit-title", Input).value = "   "
        await pilot.press("ctrl+s")
        assert "cannot be empty" in shown(app.screen, "#edit-title-error")
        await pilot.press("escape")
    assert app.result is None


# -- confirm ------------------------------------------------------------------------------


@pytest.mark.parametrize(("keys", "expected"), [(["y"], True), (["n"], False), (["escape"], False),
                                                 (["enter"], False), (["tab", "enter"], True)])
async def test_confirm_keys(keys: list[str], expected: bool) -> None:
    app = ModalHarness(ConfirmDialog("Overwrite [bold]x[/bold]?"))
    async with app.run_test() as pilot:
        assert "[bold]x[/bold]" in shown(app.screen, "#confirm-question")
        await pilot.press(*keys)
    assert app.result is expected


# -- export -------------------------------------------------------------------------------

TODAY = date(2026, 3, 1)


async def test_export_defaults_to_marked_bibtex_file_with_abstracts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ModalHarness(ExportDialog(3, 10, 100, today=TODAY))
    async with app.run_test() as pilot:
        assert app.screen.query_one("#export-path", Input).value == "~/reader-tui-marked-2026-03-01.bib"
        await pilot.press("ctrl+s")
    assert app.result == ExportRequest("marked", "bibtex", tmp_path / "reader-tui-marked-2026-03-01.bib",
                                       to_clipboard=False, abstract=True, overwrite=False)


async def test_export_marked_is_disabled_without_marks_and_default_name_follows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ModalHarness(ExportDialog(0, 100, 100, today=TODAY))
    async with app.run_test() as pilot:
        assert app.screen.query_one("#export-scope-marked").disabled
        assert app.screen.scope == "all"
        app.screen.query_one("#export-format-markdown").value = True
        await pilot.pause()
        assert app.screen.query_one("#export-path", Input).value == "~/reader-tui-all-2026-03-01.md"
        box = app.screen.query_one("#export-abstract", Checkbox)
        assert not box.value and str(box.label) == "no abstracts"  # markdown never has abstracts
        await pilot.press("ctrl+s")
    assert app.result == ExportRequest("all", "markdown", tmp_path / "reader-tui-all-2026-03-01.md",
                                       to_clipboard=False, abstract=False)


async def test_export_to_the_clipboard_with_keys() -> None:
    app = ModalHarness(ExportDialog(2, 5, 9, today=TODAY))
    async with app.run_test() as pilot:
        # scope set: down chooses "this list" (arrows choose, as in any radio group)
        await pilot.press("down")
        await pilot.press("tab", "tab", "tab")  # format set, abstracts checkbox, destination set
        await pilot.press("down")
        assert app.screen.query_one("#export-path", Input).disabled
        await pilot.press("ctrl+s")
    assert app.result == ExportRequest("filter", "bibtex", None, to_clipboard=True, abstract=True)


async def test_export_typed_path_keeps_its_name_and_swaps_the_extension(tmp_path: Path) -> None:
    app = ModalHarness(ExportDialog(1, 1, 1, today=TODAY))
    async with app.run_test() as pilot:
        path_input = app.screen.query_one("#export-path", Input)
        path_input.value = str(tmp_path / "mine.bib")
        await pilot.pause()
        app.screen.query_one("#export-format-markdown").value = True
        await pilot.pause()
        assert path_input.value == str(tmp_path / "mine.md")
        path_input.focus()
        await pilot.press("enter")
    assert app.result.path == tmp_path / "mine.md"


async def test_export_bad_destination_shows_an_error_inline(tmp_path: Path) -> None:
    app = ModalHarness(ExportDialog(1, 1, 1, today=TODAY))
    async with app.run_test() as pilot:
        app.screen.query_one("#export-path", Input).value = str(tmp_path / "[bold]missing\x1b[2J" / "x.bib")
        await pilot.press("ctrl+s")
        error = shown(app.screen, "#export-error")
        assert "does not exist" in error and "[bold]missing\u241b[2J" in error  # ESC drawn, never sent
        app.screen.query_one("#export-path", Input).value = str(tmp_path)
        await pilot.press("ctrl+s")
        assert "is a folder" in shown(app.screen, "#export-error")
        # an empty path: asked for, not "/the/current/folder: is a folder" (found by hand)
        app.screen.query_one("#export-path", Input).value = "  "
        await pilot.press("ctrl+s")
        assert shown(app.screen, "#export-error") == "type a file name, or choose the clipboard"
        assert app.result is NOTHING


@pytest.mark.parametrize(("answer", "overwrite"), [("y", True), ("n", None)])
async def test_export_over_an_existing_file_asks_first(tmp_path: Path, answer: str, overwrite: bool | None) -> None:
    target = tmp_path / "out.bib"
    target.write_text("old")
    app = ModalHarness(ExportDialog(1, 1, 1, today=TODAY))
    async with app.run_test() as pilot:
        app.screen.query_one("#export-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press(answer)
        if overwrite is None:
            assert isinstance(app.screen, ExportDialog)
            assert "exists" in shown(app.screen, "#export-error")
            await pilot.press("escape")
    if overwrite:
        assert app.result == ExportRequest("marked", "bibtex", target, False, True, overwrite=True)
    else:
        assert app.result is None
    assert target.read_text() == "old"  # the dialog never writes


# -- help ---------------------------------------------------------------------------------


class MainScreen(Screen):
    BINDINGS = [
        Binding("j,down", "cursor_down", "Move down", show=False, id="list.down"),
        Binding("r", "toggle_read", "Toggle [b]read[/b]", id="paper.read"),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("x", "nothing", id="list.nothing"),  # no description: plumbing, not listed
        Binding("y", "nothing", "Inherited"),  # no id: not one of the app's own keys
    ]

    def action_cursor_down(self) -> None: ...
    def action_toggle_read(self) -> None: ...
    def action_nothing(self) -> None: ...

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())


class HelpApp(App):
    def on_mount(self) -> None:
        self.push_screen(MainScreen())


async def test_help_lists_the_bindings_of_the_screen_below_and_closes() -> None:
    app = HelpApp()
    async with app.run_test() as pilot:
        entries = help_entries(app.screen)
        assert ("j / ↓", "Move down") in entries or ("j / down", "Move down") in entries
        assert ("?", "Help") in entries
        assert not any(keys == "x" for keys, _ in entries)
        assert not any(text == "Inherited" for _, text in entries)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = shown(app.screen, "#help-table")
        assert "Move down" in table and "Toggle [b]read[/b]" in table and "Inherited" not in table
        await pilot.press("q")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("question_mark")
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_help_with_given_entries() -> None:
    app = ModalHarness(HelpScreen([("q", "Quit"), ("ctrl+p", "Command palette")]))
    async with app.run_test() as pilot:
        assert "Command palette" in shown(app.screen, "#help-table")
        await pilot.press("question_mark")
    assert app.result is None


async def test_confirming_an_overwrite_exports_and_remembers_the_choices(tmp_path: Path) -> None:
    """Export over an existing file, confirmed: the app wrote it and kept the dialog's
    choices for the next export; it used to ask the closed dialog's gone fields for those
    choices and exit with NoMatches (found by hand: `x`, enter, `y`)."""
    from reader_tui.core.library.library import Library
    from reader_tui.tui.app import create_app
    from reader_tui.tui.dialogs.export_dialog import EXPORT_SETTING
    from tui_support import PAPERS, make_library, settle, wait_until

    target = tmp_path / "out.md"
    target.write_text("old")
    library: Library = make_library(tmp_path / "library")
    library.set_setting(EXPORT_SETTING, {"format": "markdown", "to": "file", "abstract": True, "path": str(target)})
    try:
        app = create_app(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("x", "ctrl+s")
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("y")
            assert await wait_until(pilot, lambda: target.read_text() != "old")
            assert app.is_running and PAPERS[0].title.split()[0] in target.read_text()
            assert library.settings[EXPORT_SETTING]["path"] == str(target)
    finally:
        library.close()


@pytest.mark.parametrize(("fmt", "extension"), [("csljson", ".json"), ("ris", ".ris")])
async def test_export_offers_csl_json_and_ris_with_their_extensions(
    fmt: str, extension: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ModalHarness(ExportDialog(3, 10, 100, today=TODAY))
    async with app.run_test() as pilot:
        app.screen.query_one(f"#export-format-{fmt}").value = True
        await pilot.pause()
        assert app.screen.query_one("#export-path", Input).value == f"~/reader-tui-marked-2026-03-01{extension}"
        await pilot.press("ctrl+s")
    assert app.result.format == fmt and app.result.path == tmp_path / f"reader-tui-marked-2026-03-01{extension}"
