"""A yes/no question, e.g. before overwriting a file. "No" has the focus, so a stray
enter never destroys anything."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...core.paths import styles_dir
from ...core.text.display import sanitize


class ConfirmDialog(ModalScreen[bool]):
    """Ask `question` (shown literally); dismisses with True for yes, False otherwise."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No", title: str = "Confirm") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(Content(sanitize(self.question)), id="confirm-question")
            with Horizontal(classes="dialog-buttons confirm-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", compact=True, id="confirm-yes")
                yield Button(f"{self.no} (n)", compact=True, id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
