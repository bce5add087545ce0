"""The edit dialog: correct a paper's title, authors, url and citation key by hand.

It hands back only the fields that changed (authors as a list); the app passes them to
`Library.edit`, which keeps them as overrides that survive re-imports. The citation key
is checked here too, so a bad or taken key is explained before the dialog closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...core.model import PaperView
from ...core.paths import styles_dir
from ...core.text.citekeys import validate_citekey
from ...core.text.display import visible_controls
from ...core.text.names import join_authors, split_authors
from ..widgets.data_input import DataInput


def show_error(widget: Static, text: str) -> None:
    """Show `text` in an error line, which takes no room while empty. The text may name
    another paper's id (from a user's file): plain text, control characters drawn."""
    widget.update(Text(visible_controls(text)))
    widget.set_class(bool(text), "-shown")


class EditDialog(ModalScreen[dict | None]):
    """Edit `view`'s title, authors, url and citekey; dismisses with the changed fields
    (`{"title": str, "authors": list[str], "url": str, "citekey": str}`, only those that
    changed), or None when cancelled or nothing changed.

    `citekeys` maps lower-cased keys to paper ids (`Library.citekeys()`), to refuse a key
    another paper has.
    """

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
        Binding("ctrl+s", "save", "Save", id="edit.save"),
    ]

    def __init__(self, view: PaperView, citekeys: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.view = view
        self.citekeys = dict(citekeys or {})
        self.original = {
            "title": view.title,
            "authors": list(view.authors),
            "url": view.url,
            "citekey": view.citekey,
        }
        #: what each field held when the dialog opened: a field left as it was is not a
        #: change, even when cleaning it (spaces, control characters) would alter it
        self.initial = {
            "title": view.title,
            "authors": join_authors(view.authors),
            "url": view.url,
            "citekey": view.citekey,
        }

    def compose(self) -> ComposeResult:
        with Vertical(id="edit-dialog", classes="dialog"):
            yield Static(f"Edit paper {visible_controls(self.view.id)}", classes="dialog-title", markup=False)
            for name, label, placeholder in (
                ("title", "Title", ""),
                ("authors", "Authors", "A and B and C"),
                ("url", "URL", "https://…"),
                ("citekey", "Citation key", ""),
            ):
                with Horizontal(classes="field-row"):
                    yield Static(label, classes="field-label", markup=False)
                    # the text as stored (LaTeX, control characters and all), drawn safely
                    yield DataInput(self.initial[name], placeholder=placeholder, compact=True, id=f"edit-{name}")
                yield Static("", id=f"edit-{name}-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Static("enter or ctrl+s save · escape cancel", classes="dialog-hint", markup=False)
                yield Button("Save", variant="primary", compact=True, id="edit-save")
                yield Button("Cancel", compact=True, id="edit-cancel")

    def on_mount(self) -> None:
        self.query_one("#edit-title", Input).focus()

    def values(self) -> dict[str, Any]:
        """What the fields hold now, cleaned."""
        return {
            "title": " ".join(self.query_one("#edit-title", Input).value.split()),
            "authors": list(split_authors(self.query_one("#edit-authors", Input).value)),
            "url": self.query_one("#edit-url", Input).value.strip(),
            "citekey": self.query_one("#edit-citekey", Input).value.strip(),
        }

    def edited(self) -> set[str]:
        """The fields whose text differs from what they held when the dialog opened."""
        return {
            name for name, start in self.initial.items() if self.query_one(f"#edit-{name}", Input).value != start
        }

    def errors(self, values: dict[str, Any]) -> dict[str, str]:
        """Field name -> why its value cannot be saved (only edited fields are checked:
        a file's url with a space in it does not stop the user fixing the title)."""
        problems: dict[str, str] = {}
        edited = self.edited()
        if not values["title"] and "title" in edited:
            problems["title"] = "a title cannot be empty"
        if any(ch.isspace() for ch in values["url"]) and "url" in edited:
            problems["url"] = "a url cannot contain spaces"
        key = values["citekey"]
        if key != self.original["citekey"]:
            problem = validate_citekey(key)
            owner = self.citekeys.get(key.lower())
            if problem:
                problems["citekey"] = problem
            elif owner is not None and owner != self.view.id:
                problems["citekey"] = f"already used by paper {owner}"
        return problems

    def changes(self) -> dict[str, Any]:
        values = self.values()
        edited = self.edited()
        return {name: value for name, value in values.items() if name in edited and value != self.original[name]}

    @on(Input.Changed)
    def _clear_error(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("edit-")
        for error in self.query(f"#edit-{name}-error").results(Static):
            show_error(error, "")

    @on(Input.Submitted)
    @on(Button.Pressed, "#edit-save")
    def action_save(self) -> None:
        values = self.values()
        problems = self.errors(values)
        for name in ("title", "authors", "url", "citekey"):
            show_error(self.query_one(f"#edit-{name}-error", Static), problems.get(name, ""))
        if problems:
            self.query_one(f"#edit-{next(iter(problems))}", Input).focus()
            return
        self.dismiss(self.changes() or None)

    @on(Button.Pressed, "#edit-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
