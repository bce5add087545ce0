"""Fetch a venue from OpenReview from the TUI (the palette's "Fetch a venue…"): the
venue id, then the fetch's progress in pages and papers. The core does the work
(`core.fetch`: the polite, resumable snapshot; `Library.write_import` /
`apply_import`: the same import as a file's); the fetch runs in a thread worker of the
app, so the dialog may be closed and the list used meanwhile: a notification says what
moved when it is done."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...core.library.library import Library
from ...core.paths import styles_dir
from ...core.text.display import sanitize


class FetchDialog(ModalScreen[None]):
    """Ask for a venue id and fetch it; closing leaves the fetch running."""

    CSS_PATH = [str(styles_dir() / "dialogs.tcss")]
    BINDINGS = [Binding("escape", "close", "Close", id="fetch.close")]

    def __init__(self, library: Library, api: str | None = None, pause: float | None = None) -> None:
        super().__init__()
        self.library = library
        self.api = api
        self.pause = pause

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="fetch-dialog") as dialog:
            dialog.border_title = "Fetch a venue from OpenReview"
            yield Static("Venue id (about one request per 1,000 papers, paused between pages)", classes="dialog-label")
            yield Input(placeholder="ICLR.cc/2026/Conference", id="fetch-venue")
            yield Static("", id="fetch-progress", classes="dialog-subtitle")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Fetch", variant="primary", id="fetch-go")
                yield Button("Close", id="fetch-close")

    @on(Input.Submitted, "#fetch-venue")
    @on(Button.Pressed, "#fetch-go")
    def start(self) -> None:
        venue = self.query_one("#fetch-venue", Input).value.strip()
        if not venue:
            self.show("Type a venue id, e.g. ICLR.cc/2026/Conference.")
            return
        if any(w.group == "fetch" and w.is_running for w in self.app.workers):
            self.show("A fetch is running already.")
            return
        self.query_one("#fetch-go", Button).disabled = True
        self.show(f"Fetching {venue}… (you may close this: the fetch goes on)")
        self.app.run_worker(lambda: run_fetch(self.app, self.library, venue, self.api, self, self.pause), thread=True,
                            group="fetch", exit_on_error=False)

    @on(Button.Pressed, "#fetch-close")
    def action_close(self) -> None:
        self.dismiss(None)

    def show(self, text: str) -> None:
        if self.is_attached:
            self.query_one("#fetch-progress", Static).update(Content(sanitize(text)))


def run_fetch(
    app, library: Library, venue: str, api_url: str | None, dialog: FetchDialog | None = None, pause: float | None = None
) -> None:
    """The fetch and its import, on a worker thread: the Library's memory changes on the
    UI thread only (`apply_import` through `call_from_thread`)."""
    from ...core.fetch import changes
    from ...core.fetch.client import PUBLIC_API, FetchError, OpenReviewApi, RateLimited
    from ...core.fetch.snapshot import Stopped, fetch, finish
    from ...core.formats.base import ImportFailure
    from ...core.formats.openreview import read_openreview

    def say(text: str) -> None:
        if dialog is not None:
            app.call_from_thread(dialog.show, text)

    def tell(text: str, severity: str = "information") -> None:
        app.call_from_thread(app.notify, text, severity=severity, markup=False, timeout=12)

    api = OpenReviewApi(api_url or PUBLIC_API)
    folder = library.files.folder
    try:
        snapshot = fetch(folder, venue, api=api, pause=pause, on_progress=lambda at: say(
            f"{venue}: {at.line()}" + (f" (pause {at.waiting:.0f} s)" if at.waiting else "")))
    except RateLimited as error:
        when = f"; requests resume at {error.resume_at.astimezone():%H:%M}" if error.resume_at else ""
        say(f"{error}{when}. Fetch again then: it resumes.")
        tell(f"Fetch stopped: {error}{when}", "warning")
        return
    except (FetchError, Stopped) as error:
        say(f"{error}. Fetch again to resume.")
        tell(f"Fetch stopped: {error}", "warning")
        return
    say(f"{venue}: {snapshot.papers:,} papers fetched; importing…")
    try:
        result = read_openreview(snapshot.path)
        before = app.call_from_thread(changes.seen, library.papers)
        written = library.write_import(result.papers, result.annotations, result.forums)
        summary = app.call_from_thread(library.apply_import, written)
    except (ImportFailure, Exception) as error:  # never crash the app: the snapshot stays for the next try
        say(f"The import failed: {error}")
        tell(f"Fetch of {venue}: the import failed: {error}", "error")
        return
    finish(folder, venue)
    moves = app.call_from_thread(lambda: changes.compare(before, changes.seen(library.papers), library.papers))
    text = f"{venue}: {summary}. {moves.summary()}" if moves.new != snapshot.papers else f"{venue}: {summary}."
    say(text)
    tell(text)
