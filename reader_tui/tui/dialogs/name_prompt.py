"""A small modal that asks for a name (e.g. for a saved search); enter accepts, escape
cancels. It only collects the name: the caller saves it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...core.paths import styles_dir
from ...core.text.display import one_line


class NamePrompt(ModalScreen[str | None]):
    """Ask for a name; dismisses with the name typed (stripped), or None."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="name.cancel")]

    def __init__(self, title: str, subject: str = "", value: str = "", placeholder: str = "name") -> None:
        super().__init__()
        self.title_text = title
        self.subject = subject
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="name-prompt", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if self.subject:
                yield Static(Content(one_line(self.subject, 200)), classes="dialog-subtitle")
            yield Input(self.value, placeholder=self.placeholder, id="name-input")
            yield Static("", id="name-error", classes="dialog-error", markup=False)
            yield Static("enter saves · escape cancels", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#name-input", Input).focus()

    @on(Input.Submitted, "#name-input")
    def _submitted(self, event: Input.Submitted) -> None:
        name = " ".join(event.value.split())
        if not name:
            error = self.query_one("#name-error", Static)
            error.update("type a name, or escape to cancel")
            error.add_class("-shown")
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)
