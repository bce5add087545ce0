"""The export dialog: which papers, which format, and where to.

It collects an `ExportRequest`; the app makes the text (core exporters) and writes it
(`core.formats.write.write_export`) or copies it (`tui.clipboard.copy_text`). Writing
over an existing file is confirmed here, so the request says whether to overwrite.

Keys: tab moves between the fields (always in the same order, whatever the format),
arrows choose within a group, space toggles the checkbox, and enter exports from any
field but the Cancel button. The format, destination and a typed path are remembered
(`remembered()`, kept by the app in the library's settings) for the next export.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any, ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, RadioButton, RadioSet, Static

from ...core.formats.exporters import EXPORT_FORMATS, LABELS
from ...core.formats.exporters import EXTENSIONS as EXPORT_EXTENSIONS
from ...core.formats.write import ExportError, check_destination
from ...core.paths import styles_dir
from ...core.text.display import sanitize
from ..textual_patches import highlighted_radio_button
from ..widgets.marked_toggles import MarkedCheckbox, MarkedRadioButton
from .confirm_dialog import ConfirmDialog

Scope = Literal["marked", "filter", "all"]
Format = Literal["bibtex", "markdown", "csljson", "ris"]

SCOPES: tuple[Scope, ...] = ("marked", "filter", "all")
FORMATS: tuple[Format, ...] = EXPORT_FORMATS  # type: ignore[assignment]
EXTENSIONS = EXPORT_EXTENSIONS

EXPORT_SETTING = "export"
"""The library setting holding the dialog's last format, destination and path (`remembered()`)."""


@dataclass(frozen=True, slots=True)
class ExportRequest:
    """Export the `scope` papers as `format` to `path` (None: to the clipboard).

    `overwrite` is True when the user confirmed replacing an existing file (pass it to
    `write_export(..., force=...)`). `abstract` only matters for BibTeX.
    """

    scope: Scope
    format: Format
    path: Path | None
    to_clipboard: bool
    abstract: bool = True
    overwrite: bool = False


def default_path(scope: Scope, fmt: Format, today: date | None = None) -> str:
    """`~/reader-tui-<scope>-<yyyy-mm-dd>.bib` (or .md), as shown in the path field."""
    day = (today or date.today()).isoformat()
    return f"~/reader-tui-{scope}-{day}{EXTENSIONS[fmt]}"


class ChoiceSet(RadioSet, inherit_bindings=False):
    """A radio set whose arrows choose (as radio groups do elsewhere) and whose enter is
    left to the dialog, so enter exports from here too."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "choose(1)", "Next option", show=False, id="choice.next"),
        Binding("up,left", "choose(-1)", "Previous option", show=False, id="choice.previous"),
        Binding("space", "toggle_button", "Choose", show=False, id="choice.toggle"),
    ]

    def action_choose(self, step: int) -> None:
        if step > 0:
            self.action_next_button()
        else:
            self.action_previous_button()
        button = highlighted_radio_button(self)
        if button is not None and not button.value:
            button.value = True


class SpaceCheckbox(MarkedCheckbox, inherit_bindings=False):
    """A checkbox toggled by space (and the mouse) only: enter exports."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Toggle", show=False, id="check.toggle"),
    ]


ABSTRACT_LABEL = "with abstracts"
ABSTRACT_NOT_HERE = "no abstracts"  # what a Markdown list has (short: the column is 19 cells at 80)


class ExportDialog(ModalScreen[ExportRequest | None]):
    """Choose what to export; dismisses with an `ExportRequest`, or None when cancelled.

    `marked`, `filtered` and `total` are how many papers each scope holds; the marked scope
    is disabled when nothing is marked. `filter_label` describes the list shown (its
    filter, sort and search). `remembered` is what `remembered()` returned last time.
    """

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="export.cancel"),
        Binding("ctrl+s", "export", "Export", id="export.go"),
        Binding("enter", "enter", "Export", show=False, id="export.enter"),
    ]

    def __init__(
        self,
        marked: int,
        filtered: int,
        total: int,
        *,
        filter_label: str = "",
        today: date | None = None,
        remembered: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.counts: dict[Scope, int] = {"marked": marked, "filter": filtered, "all": total}
        self.filter_label = filter_label
        self.today = today
        self.scope: Scope = "marked" if marked else "filter" if filtered != total else "all"
        last = dict(remembered) if isinstance(remembered, Mapping) else {}
        self.format: Format = last["format"] if last.get("format") in FORMATS else "bibtex"
        self._clipboard_first = last.get("to") == "clipboard"
        self._abstract = last.get("abstract") is not False  # the BibTeX choice, kept across formats
        path = last.get("path")
        self._path_edited = isinstance(path, str) and bool(path.strip())
        self._first_path = path if self._path_edited else default_path(self.scope, self.format, self.today)
        # The Input reports its first value as a change: it is not one the user typed.
        self._default_path_value = "" if self._path_edited else self._first_path
        self._choices: dict[str, Any] | None = None  # `remembered()` as the dialog closed

    def compose(self) -> ComposeResult:
        labels = {"marked": "marked", "filter": "this list", "all": "all"}
        with Vertical(id="export-dialog", classes="dialog"):
            yield Static("Export", classes="dialog-title", markup=False)
            with Horizontal(id="export-options"):
                with Vertical(classes="export-column", id="export-scope-column"):
                    yield Static("Papers", classes="dialog-label", markup=False)
                    with ChoiceSet(id="export-scope", compact=True):
                        for scope in SCOPES:
                            count = self.counts[scope]
                            yield MarkedRadioButton(
                                f"{labels[scope]} ({count:,})",
                                value=scope == self.scope,
                                disabled=scope == "marked" and count == 0,
                                id=f"export-scope-{scope}",
                            )
                    # The list's filter and search on a line of their own (the user's text:
                    # control characters drawn), so a long one never hides a count.
                    yield Static(self._list_content(), id="export-list", classes="dialog-subtitle")
                with Vertical(classes="export-column"):
                    yield Static("Format", classes="dialog-label", markup=False)
                    with ChoiceSet(id="export-format", compact=True):
                        for fmt in FORMATS:
                            yield MarkedRadioButton(LABELS[fmt], value=fmt == self.format, id=f"export-format-{fmt}")
                    label, ticked, classes = self._abstract_box()
                    yield SpaceCheckbox(label, ticked, compact=True, id="export-abstract", classes=classes)
                with Vertical(classes="export-column"):
                    yield Static("To", classes="dialog-label", markup=False)
                    with ChoiceSet(id="export-destination", compact=True):
                        yield MarkedRadioButton("a file", value=not self._clipboard_first, id="export-to-file")
                        yield MarkedRadioButton("the clipboard", value=self._clipboard_first, id="export-to-clipboard")
            with Horizontal(classes="field-row"):
                yield Static("File", classes="field-label", markup=False)
                yield Input(self._first_path, compact=True, id="export-path", disabled=self._clipboard_first)
            yield Static("", id="export-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Static(
                    "enter exports · esc cancels",
                    classes="dialog-hint",
                    markup=False,
                )
                yield Button("Export", variant="primary", compact=True, id="export-go")
                yield Button("Cancel", compact=True, id="export-cancel")

    def _list_content(self) -> Content:
        shown, total = self.counts["filter"], self.counts["all"]
        if self.filter_label:
            text = f"this list: {sanitize(self.filter_label)}"
        else:
            text = "this list: every paper" if shown == total else "this list: the papers shown"
        return Content.styled(text, "$text-muted")

    def on_mount(self) -> None:
        self.query_one("#export-scope", RadioSet).focus()

    @property
    def to_clipboard(self) -> bool:
        return self.query_one("#export-to-clipboard", RadioButton).value

    # -- keeping the fields consistent ---------------------------------------------------

    @on(RadioSet.Changed, "#export-scope")
    def _scope_changed(self, event: RadioSet.Changed) -> None:
        self.scope = SCOPES[event.index]
        self._update_path()

    @on(RadioSet.Changed, "#export-format")
    def _format_changed(self, event: RadioSet.Changed) -> None:
        self.format = FORMATS[event.index]
        # The Markdown list never carries abstracts: the box says so, unticked, and stays
        # where it is in the tab order (a disabled one would drop out of it).
        box = self.query_one("#export-abstract", Checkbox)
        label, ticked, classes = self._abstract_box()
        with box.prevent(Checkbox.Changed):
            box.value = ticked
        box.label = label
        box.set_class(bool(classes), "-not-here")
        self._update_path()

    def _abstract_box(self) -> tuple[str, bool, str]:
        """The abstracts box for the format: (label, ticked, classes). Only BibTeX has a
        choice: a Markdown list never has abstracts, CSL-JSON and RIS always do."""
        if self.format == "bibtex":
            return ABSTRACT_LABEL, self._abstract, ""
        if self.format == "markdown":
            return ABSTRACT_NOT_HERE, False, "-not-here"
        return ABSTRACT_LABEL, True, "-not-here"

    @on(Checkbox.Changed, "#export-abstract")
    def _abstract_changed(self, event: Checkbox.Changed) -> None:
        if self.format == "bibtex":
            self._abstract = event.value
            return
        with event.checkbox.prevent(Checkbox.Changed):
            event.checkbox.value = self._abstract_box()[1]
        if self.format == "markdown":
            self._show_error("Markdown lists never include abstracts: choose BibTeX for them")
        else:
            self._show_error(f"{LABELS[self.format]} exports always include abstracts: choose BibTeX to leave them out")

    @on(RadioSet.Changed, "#export-destination")
    def _destination_changed(self) -> None:
        self.query_one("#export-path", Input).disabled = self.to_clipboard
        self._show_error("")

    @on(Input.Changed, "#export-path")
    def _path_typed(self, event: Input.Changed) -> None:
        if event.value != self._default_path_value:
            self._path_edited = True
        self._show_error("")

    _default_path_value = ""

    def _update_path(self) -> None:
        path_input = self.query_one("#export-path", Input)
        if not self._path_edited:
            self._default_path_value = default_path(self.scope, self.format, self.today)
            path_input.value = self._default_path_value
            return
        # A name the user typed keeps its stem; only a known extension follows the format.
        value = path_input.value
        for ext in EXTENSIONS.values():
            if value.endswith(ext):
                path_input.value = value[: -len(ext)] + EXTENSIONS[self.format]
                break

    def _show_error(self, text: str) -> None:
        error = self.query_one("#export-error", Static)
        error.update(sanitize(text))  # it names the typed path: controls drawn, not sent
        error.set_class(bool(text), "-shown")

    # -- finishing -----------------------------------------------------------------------

    def remembered(self) -> dict[str, Any]:
        """What the next export dialog starts from: the format, the destination, the
        abstracts choice and the path if the user typed one (else the dated default).

        Taken as the dialog closes (`dismiss`): closed from the overwrite question, its
        fields are gone by the time the app asks (asking them made the app exit with
        NoMatches once "Overwrite" was confirmed)."""
        if self._choices is not None:
            return self._choices
        path = self.query_one("#export-path", Input).value.strip()
        return {
            "format": self.format,
            "to": "clipboard" if self.to_clipboard else "file",
            "abstract": self._abstract,
            "path": path if self._path_edited and path else None,
        }

    def dismiss(self, result: ExportRequest | None = None):  # type: ignore[override]
        if result is not None and self._choices is None:
            self._choices = self.remembered()
        return super().dismiss(result)

    def action_enter(self) -> None:
        """Enter exports from every field; on a button it presses that button."""
        focused = self.focused
        if isinstance(focused, Button):
            focused.press()
            return
        self.action_export()

    def request(self, *, overwrite: bool = False) -> ExportRequest:
        """The export as the fields stand (the path expanded, unchecked)."""
        clipboard = self.to_clipboard
        path = None if clipboard else Path(self.query_one("#export-path", Input).value.strip()).expanduser()
        return ExportRequest(
            scope=self.scope,
            format=self.format,
            path=path,
            to_clipboard=clipboard,
            abstract=self.format == "bibtex" and self._abstract,
            overwrite=overwrite,
        )

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export-go")
    def action_export(self) -> None:
        if self.counts[self.scope] == 0:
            self._show_error(f"no papers to export in {self.scope}")
            return
        request = self.request()
        if request.path is None:
            self.dismiss(request)
            return
        if not self.query_one("#export-path", Input).value.strip():
            # (an empty path is the current folder: "/home/me: is a folder" named a path
            # the user never typed)
            self._show_error("type a file name, or choose the clipboard")
            return
        try:
            path = check_destination(request.path)
        except ExportError as problem:
            self._show_error(str(problem))
            return
        request = replace(request, path=path)
        if not path.exists():
            self.dismiss(request)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.dismiss(replace(request, overwrite=True))
            else:
                self._show_error(f"{path} exists: choose another name, or confirm overwriting it")

        self.app.push_screen(
            ConfirmDialog(f"{path} already exists. Overwrite it?", yes="Overwrite", no="Keep", title="Overwrite?"),
            confirmed,
        )

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

