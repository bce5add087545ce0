"""The export dialog: which papers, which format, and where to.

It collects an `ExportRequest`; the app makes the text (core exporters) and writes it
(`core.formats.write.write_export`) or copies it (`tui.clipboard.copy_text`). Writing
over an existing file is confirmed here, so the request says whether to overwrite.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, RadioButton, RadioSet, Static

from ...core.formats.write import ExportError, check_destination
from ...core.paths import styles_dir
from ...core.text.display import sanitize
from .confirm_dialog import ConfirmDialog

Scope = Literal["marked", "filter", "all"]
Format = Literal["bibtex", "markdown"]

SCOPES: tuple[Scope, ...] = ("marked", "filter", "all")
FORMATS: tuple[Format, ...] = ("bibtex", "markdown")
EXTENSIONS = {"bibtex": ".bib", "markdown": ".md"}


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


class ExportDialog(ModalScreen[ExportRequest | None]):
    """Choose what to export; dismisses with an `ExportRequest`, or None when cancelled.

    `marked`, `filtered` and `total` are how many papers each scope holds; the marked scope
    is disabled when nothing is marked. `filter_label` describes the current filter.
    """

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="export.cancel"),
        Binding("ctrl+s", "export", "Export", id="export.go"),
    ]

    def __init__(
        self,
        marked: int,
        filtered: int,
        total: int,
        *,
        filter_label: str = "",
        today: date | None = None,
    ) -> None:
        super().__init__()
        self.counts: dict[Scope, int] = {"marked": marked, "filter": filtered, "all": total}
        self.filter_label = filter_label
        self.today = today
        self.scope: Scope = "marked" if marked else "filter" if filtered != total else "all"
        self.format: Format = "bibtex"
        self._path_edited = False

    def compose(self) -> ComposeResult:
        filter_text = f"filter {self.filter_label}" if self.filter_label else "current filter"
        labels = {"marked": "marked", "filter": filter_text, "all": "all"}
        with Vertical(id="export-dialog", classes="dialog"):
            yield Static("Export", classes="dialog-title", markup=False)
            with Horizontal(id="export-options"):
                with Vertical(classes="export-column", id="export-scope-column"):
                    yield Static("Papers", classes="dialog-label", markup=False)
                    with RadioSet(id="export-scope", compact=True):
                        for scope in SCOPES:
                            count = self.counts[scope]
                            yield RadioButton(
                                Content(sanitize(f"{labels[scope]} ({count:,})")),
                                value=scope == self.scope,
                                disabled=scope == "marked" and count == 0,
                                id=f"export-scope-{scope}",
                            )
                with Vertical(classes="export-column"):
                    yield Static("Format", classes="dialog-label", markup=False)
                    with RadioSet(id="export-format", compact=True):
                        yield RadioButton("BibTeX", value=True, id="export-format-bibtex")
                        yield RadioButton("Markdown list", id="export-format-markdown")
                    yield Checkbox("with abstracts", True, compact=True, id="export-abstract")
                with Vertical(classes="export-column"):
                    yield Static("To", classes="dialog-label", markup=False)
                    with RadioSet(id="export-destination", compact=True):
                        yield RadioButton("a file", value=True, id="export-to-file")
                        yield RadioButton("the clipboard", id="export-to-clipboard")
            with Horizontal(classes="field-row"):
                yield Static("File", classes="field-label", markup=False)
                yield Input(default_path(self.scope, self.format, self.today), compact=True, id="export-path")
            yield Static("", id="export-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Static("enter or ctrl+s export · escape cancel", classes="dialog-hint", markup=False)
                yield Button("Export", variant="primary", compact=True, id="export-go")
                yield Button("Cancel", compact=True, id="export-cancel")

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
        # The Markdown list never carries abstracts.
        self.query_one("#export-abstract", Checkbox).disabled = self.format != "bibtex"
        self._update_path()

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

    def request(self, *, overwrite: bool = False) -> ExportRequest:
        """The export as the fields stand (the path expanded, unchecked)."""
        clipboard = self.to_clipboard
        path = None if clipboard else Path(self.query_one("#export-path", Input).value.strip()).expanduser()
        return ExportRequest(
            scope=self.scope,
            format=self.format,
            path=path,
            to_clipboard=clipboard,
            abstract=self.format == "bibtex" and self.query_one("#export-abstract", Checkbox).value,
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

