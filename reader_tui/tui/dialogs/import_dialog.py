"""Import papers from the TUI: a path prompt, a progress bar while the file is read and
merged, then a summary. The core does the work: `read_any` and `Library.write_import` in a
thread, `Library.apply_import` on the UI thread (the only thread that changes the
Library's memory); this screen only asks and reports."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, ProgressBar, Select, Static

from ...core.atomic_storage import describe_error
from ...core.formats.base import ImportFailure
from ...core.library.catalog.merge import ImportSummary
from ...core.library.library import Library
from ...core.paths import styles_dir
from ...core.text.display import sanitize

FORMATS = (("detect from the file", ""), ("seed text", "seed"), ("BibTeX", "bibtex"), ("OpenReview JSON", "openreview"), ("CSV", "csv"))
PROBLEMS_SHOWN = 8
ANNOTATIONS_WAIT_S = 30  # how long the report waits for the import's tags and notes to reach the disk


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What an import did: the summary, or the one-line reason it failed (`failure`, also
    set beside a summary when the papers are on disk but their tags and notes are not)."""

    summary: ImportSummary | None
    problems: tuple[str, ...] = ()
    failure: str = ""


class ImportDialog(ModalScreen[ImportSummary | None]):
    """Ask for a file, import it, show what happened. Dismisses with the summary (None
    when cancelled or when nothing was imported)."""

    CSS_PATH = [str(styles_dir() / "dialogs.tcss")]
    BINDINGS = [Binding("escape", "close", "Close", id="import.close")]

    class Finished(Message):
        """The import thread is done."""

        def __init__(self, outcome: ImportOutcome) -> None:
            super().__init__()
            self.outcome = outcome

    class Stage(Message):
        """The import thread moved on to another stage (shown above the bar)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.summary: ImportSummary | None = None
        self.running = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="import-dialog") as dialog:
            dialog.border_title = "Import papers"
            yield Static("File (a .bib, OpenReview .json/.jsonl[.gz], .csv or seed .txt)", classes="dialog-label")
            yield Input(placeholder="~/papers/refs.bib", id="import-path")
            yield Static("Format", classes="dialog-label")
            yield Select(FORMATS, value="", allow_blank=False, id="import-format")
            yield Static("", classes="dialog-error", id="import-error")
            yield Static("", id="import-stage", classes="dialog-subtitle")
            bar = ProgressBar(total=None, show_eta=False, id="import-progress")
            bar.display = False
            yield bar
            yield Static("", id="import-result")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Import", variant="primary", id="import-go")
                yield Button("Close", id="import-close")

    # -- asking -----------------------------------------------------------------------------

    @on(Input.Submitted, "#import-path")
    @on(Button.Pressed, "#import-go")
    def start(self) -> None:
        if self.running:
            return
        raw = self.query_one("#import-path", Input).value.strip()
        if not raw:
            self._error("Type the path of a file to import.")
            return
        path = Path(raw).expanduser()
        if not path.is_file():
            self._error(f"{path}: {'is a folder' if path.is_dir() else 'no such file'}")
            return
        fmt = self.query_one("#import-format", Select).value or None
        self._error("")
        self.running = True
        self.query_one("#import-go", Button).disabled = True
        self.query_one("#import-progress", ProgressBar).display = True
        self._import(path, fmt)

    @on(Button.Pressed, "#import-close")
    def action_close(self) -> None:
        if self.running:
            self.notify("The import is still running; it cannot be stopped halfway.", markup=False)
            return
        self.dismiss(self.summary)

    # -- doing (off the UI thread) ------------------------------------------------------------

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def _import(self, path: Path, fmt: str | None) -> None:
        from ...core.formats.detect import read_any

        self.post_message(self.Stage(f"Reading {path.name}…"))
        try:
            result = read_any(path, format=fmt)
        except ImportFailure as failure:
            self.post_message(self.Finished(ImportOutcome(None, failure=str(failure))))
            return
        problems = tuple(str(p) for p in result.problems)
        if not result.papers:
            self.post_message(self.Finished(ImportOutcome(None, problems, f"{path}: no papers found")))
            return
        self.post_message(self.Stage(f"Merging {len(result.papers):,} papers into the library…"))
        try:
            written = self.library.write_import(result.papers, result.annotations, result.forums)
        except Exception as error:  # never crash the app; see below for why this is true
            # The papers go to disk in one write that is waited for and, when it fails,
            # never kept to be written later: so the library is as it was, now and later.
            failure = f"Nothing imported; the library is as it was: {describe_error(error, self.library.files.catalog_path)}"
            self.post_message(self.Finished(ImportOutcome(None, problems, failure)))
            return
        # The Library's memory (papers, annotations, listeners) changes on the UI thread
        # only: this thread waits there while the written import is applied.
        try:
            summary = self.app.call_from_thread(self.library.apply_import, written)
        except Exception as error:  # the papers are on disk; the message says what is not
            summary = written.summary
            failure = describe_error(error, self.library.files.annotations_path)
        else:
            failure = ""
        summary.add_problems(result.problems)
        details = summary.details([result.label(i) for i in range(len(result.papers))])
        self.post_message(self.Finished(ImportOutcome(summary, tuple(details), failure or self._unsaved_annotations())))

    def _unsaved_annotations(self) -> str:
        """The papers are on disk; their tags and notes are ordinary writes (kept and
        retried when they fail): say when they are not on disk yet, rather than "Done"."""
        try:
            if self.library.flush(timeout=ANNOTATIONS_WAIT_S):
                return ""
            return "The papers are imported; their tags and notes are still being written."
        except Exception as error:
            why = describe_error(error, self.library.files.annotations_path)
            return f"The papers are imported, but their tags and notes are not saved yet (kept and tried again): {why}"

    # -- reporting ----------------------------------------------------------------------------

    def on_import_dialog_stage(self, message: Stage) -> None:
        self.query_one("#import-stage", Static).update(Content(sanitize(message.text)))

    def on_import_dialog_finished(self, message: Finished) -> None:
        outcome = message.outcome
        self.running = False
        self.query_one("#import-progress", ProgressBar).display = False
        self.query_one("#import-stage", Static).update("")
        self.query_one("#import-go", Button).disabled = False
        lines = []
        if outcome.summary is not None:
            self.summary = outcome.summary
            lines.append(f"Done: {outcome.summary}.")
        if outcome.failure:
            self._error(outcome.failure)
        if outcome.problems:
            # After an import: the merges, skipped entries and warnings, each saying which.
            done = outcome.summary is not None
            lines.append("Merges, notes and tags added, skipped entries, warnings:" if done else f"{len(outcome.problems)} entries skipped:")
            lines += [f"  {p}" for p in outcome.problems[:PROBLEMS_SHOWN]]
            if len(outcome.problems) > PROBLEMS_SHOWN:
                lines.append(f"  … and {len(outcome.problems) - PROBLEMS_SHOWN} more")
        self.query_one("#import-result", Static).update(Content(sanitize("\n".join(lines))))
        self.query_one("#import-close", Button).focus()

    def _error(self, text: str) -> None:
        error = self.query_one("#import-error", Static)
        error.update(Content(sanitize(text)))
        error.set_class(bool(text), "-shown")
