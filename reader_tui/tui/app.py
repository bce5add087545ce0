"""The Textual app: a small shell around the main screen (Posting's shape: one factory
serves the CLI, the tests and the benchmark)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.signal import Signal
from textual.theme import Theme

from reader_tui.core.library.library import Library
from reader_tui.core.paths import styles_dir
from reader_tui.core.process_tuning import collect_fully_if_idle, freeze_long_lived
from reader_tui.core.text.display import sanitize
from reader_tui.tui import css_cache, paste_input
from reader_tui.tui.auto_exports import AutoExports
from reader_tui.tui.commands import ReaderCommands
from reader_tui.tui.messages import LibraryChanged
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.textual_patches import FatalErrorLine, app_has_size, repaint_at_most_every
from reader_tui.tui.widgets.library_sync import LibrarySync
from reader_tui.tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from rich.text import Text

QUIT_GRACE = 3.0
"""Seconds a second q waits for the sync before quitting to stop (its local step, a commit
or a merge, is let finish); past them the app quits all the same."""

PREPARE_REVIEWS_S = 2.0
"""When, after the start, the reviews screen is made ahead of the first `R` (once the
list is painted and the first keys answered; about 50 ms of the UI thread)."""


FULL_COLLECTION_CHECK_S = 0.2
"""How often the app looks for a pause in the input to run a deferred full collection
(`process_tuning.collect_fully_if_idle`)."""

REPAINTS_PER_SECOND = 240
"""The most repaints a second: a frame comes at most 4 ms after it is due, so a search's
answer is on screen as soon as it is drawn. Repaints still happen only when something on
screen changed; each takes 2-12 ms at 140 columns."""


class ReaderApp(FatalErrorLine, App[int]):
    """reader-tui: triage a conference's papers from the keyboard."""

    TITLE = "reader-tui"
    CSS_PATH = [str(styles_dir() / "app.tcss"), str(styles_dir() / "extras.tcss")]
    # Only the app's own commands: Textual's system commands (Maximize, Screenshot, Keys,
    # its theme picker) are not this app's; themes are offered by ReaderCommands.
    COMMANDS = {ReaderCommands}
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    """Each screen gets `-short` below 36 rows: the main screen then shows the related
    papers only while `]` / `[` walk them, so the abstract keeps the room."""
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", id="app.help"),
        # Shown once, at the footer's right end, by the footer itself (show=True drew it twice).
        Binding("ctrl+p", "command_palette", "Commands", show=False, id="app.command_palette"),
    ]

    def __init__(self, library: Library) -> None:
        super().__init__()
        if "TEXTUAL_FPS" not in os.environ:  # (a rate the user chose stays)
            repaint_at_most_every(1 / REPAINTS_PER_SECOND)
        self.library = library
        theme = library.settings.get("theme")
        if isinstance(theme, str) and theme in self.available_themes:
            # Before the CSS is first parsed: set on mount, it had everything parsed again.
            self.theme = theme
        self.css_cache_path = css_cache.default_path()
        css_cache.load(self.css_cache_path)
        self.stylesheet = css_cache.CachedStylesheet(variables=self.get_css_variables())
        self._quit_failed = False
        self._input_seen_at = time.monotonic()
        self._quit_sync: LibrarySync | None = None  # the sync before quitting, once started
        self.farewell: list[str] = []
        """Lines for the terminal once the screen is gone (how the sync before quitting went)."""
        self.quit_synced_in = False  # the sync before quitting brought changes in
        self.auto_exports = AutoExports(self, library, lambda line: self.notify(line, severity="warning", timeout=10))
        """The saved auto-exports' files, rewritten shortly after each change."""
        self.indexes_stale = False
        """True once the user edited what the index caches are made of (a title, authors):
        `run_app` then has them rebuilt in the background as the app exits."""
        self.library_changed_signal: Signal[frozenset[str] | None] = Signal(self, "library-changed")
        """The papers that changed in the Library (None: any may have), published once on
        the UI thread for every change (made here, by undo or by another process); each
        widget that shows or indexes papers subscribes."""

    def notify(self, message: str, *, title: str = "", **kwargs) -> None:
        """Every notification (widgets' and screens' too) passes here: the messages name
        files and carry the library's notices, so control characters are drawn, not sent,
        and markup is off unless a caller asks for it."""
        kwargs.setdefault("markup", False)
        super().notify(sanitize(message), title=sanitize(title), **kwargs)

    def on_resize(self, event: events.Resize) -> None:
        # Textual keeps every Resize the terminal reports, even one of the size the app
        # already has, and hands it to the screens when the app is next idle: the
        # terminal's second report of its size at start made the main screen and the one
        # under it lay everything out again just after the first frame (some 65 ms in
        # front of the first key). A size that did not change changes nothing: App's own
        # handler (called after this one, Textual walks the class's MRO) is skipped.
        if app_has_size(self, event.size):
            event.prevent_default()

    def on_load(self) -> None:
        # Textual runs thread workers in the event loop's default executor, whose threads
        # asyncio.run joins at exit: a quit would wait for an index build (26 s at 100,000
        # papers). Nothing a worker does needs finishing (every user write goes through
        # the Library's writer, flushed before exit; caches are written atomically), so
        # they run in daemon threads that the exit leaves behind.
        asyncio.get_running_loop().set_default_executor(DaemonThreadExecutor())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp, events.Paste)):
            self._input_seen_at = time.monotonic()  # (full collections wait for a pause)
        await super().on_event(event)

    def on_mount(self) -> None:
        self.set_interval(FULL_COLLECTION_CHECK_S, lambda: collect_fully_if_idle(self._input_seen_at), name="collect")
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        # The Library calls its listeners on whichever thread made or noticed the change:
        # a message hands it to the UI thread, where the signal fans it out.
        self.library.subscribe(lambda ids: self.post_message(LibraryChanged(ids)))
        self.push_screen(MainScreen(self.library))
        self.set_timer(PREPARE_REVIEWS_S, self._prepare_reviews)
        self.set_timer(PREPARE_REVIEWS_S, lambda: css_cache.save(self.css_cache_path))  # for the next start
        if self.library.read_only:
            self.sub_title = "read-only"
            self.notify(
                f"{self.library.files.folder} is read-only: you can read, search and export, "
                "but no change can be saved.",
                title="Read-only library",
                severity="warning",
                timeout=10,
                markup=False,
            )
        # (App.notify is thread-safe: the start's backup reports from the writer thread)
        self.library.on_notice(lambda notice: self.notify(notice, severity="warning", timeout=10, markup=False))

    def _prepare_reviews(self) -> None:
        from reader_tui.tui.screens.reviews_screen import prepare_reviews

        prepare_reviews(self, self.library)
        # The paper under the cursor since the start. The timer may fire as the app
        # quits: no screen left (`screen` raises then), or its widgets already gone.
        stack = self.screen_stack
        lists = stack[-1].query(PaperList) if stack and isinstance(stack[-1], MainScreen) else ()
        if lists:
            stack[-1].reviews_ahead(lists.first().current_id)

    def on_library_changed(self, message: LibraryChanged) -> None:
        self.library_changed_signal.publish(message.ids)
        self.auto_exports.changed()

    def _remember_theme(self, theme: Theme) -> None:
        if self.library.settings.get("theme") != theme.name and not self.library.read_only:
            self.library.set_setting("theme", theme.name)

    def fatal_error_line(self, error: BaseException) -> Text | None:
        """An unexpected error ends the app with one line, not a screen of traceback
        (READER_TUI_DEBUG=1 shows Textual's traceback, as do the tests' pilots)."""
        if os.environ.get("READER_TUI_DEBUG", "").strip() not in ("", "0"):
            return None
        from rich.text import Text

        from reader_tui import __version__
        from reader_tui.core.text.display import sanitize

        detail = sanitize(" ".join(str(error).split()))[:300]
        return Text(
            f"reader-tui: unexpected error: {type(error).__name__}: {detail} (this is a bug in "
            f"reader-tui {__version__}: please report it; READER_TUI_DEBUG=1 shows the traceback)"
        )

    def action_help(self) -> None:
        from reader_tui.tui.screens.help_screen import HelpScreen

        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Save the notes being typed and wait for every write before leaving. Changes that
        cannot be written are not quietly dropped: the first q says how many, a second
        q leaves without them."""
        from reader_tui.tui.widgets.notes_editor import NotesEditor
        from reader_tui.tui.write_errors import write_error_line

        if self._quit_sync is not None:  # q again while syncing before quitting: now
            self._quit_sync.cancel.set()
            self.set_timer(QUIT_GRACE, lambda: self.exit(0))
            return
        unsaved_notes = 0
        for screen in self.screen_stack:
            remember = getattr(screen, "remember_place", None)
            if remember is not None and not self._quit_failed:
                remember()  # reopen where the user left off
        for screen in self.screen_stack:
            for notes in screen.query(NotesEditor):
                notes.save_now()
                unsaved_notes += notes.dirty  # the Library refused them
        try:
            self.library.flush(timeout=30)
            error = None
        except Exception as failure:
            error = failure
        lost = self.library.pending_writes + unsaved_notes
        if lost and not self._quit_failed:
            self._quit_failed = True
            why = write_error_line(error, self.library) if error is not None else "Still writing."
            what = f"Changes not on disk ({lost} write{'s' if lost != 1 else ''} waiting)"
            self.notify(f"{what}. {why} Press q again to quit and lose them.",
                        severity="error", markup=False, timeout=30)
            return
        if not lost and (syncer := self._auto_sync()) is not None:
            self._quit_sync = syncer
            syncer.sync_before_quit()  # a QuitSynced message ends the app
            return
        self.exit(0)

    def _auto_sync(self) -> LibrarySync | None:
        """The main screen's LibrarySync when the library syncs on start and on quit."""
        for screen in self.screen_stack:
            for syncer in screen.query(LibrarySync):
                if syncer.automatic:
                    return syncer
        return None

    def on_library_sync_started(self, message: LibrarySync.Started) -> None:
        if self._quit_sync is not None:  # seen whatever screen is on top
            self.notify(message.line, timeout=30)

    def on_library_sync_quit_synced(self, message: LibrarySync.QuitSynced) -> None:
        self.farewell.append(f"reader-tui: {message.line}")
        self.quit_synced_in = message.line.startswith("synced: received")
        self.exit(0)


class DaemonThreadExecutor(ThreadPoolExecutor):
    """An executor that runs each job in a fresh daemon thread and never waits for one:
    neither `shutdown` nor the interpreter's exit joins them."""

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        future: Future = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:  # handed to whoever awaits the future
                future.set_exception(error)
            else:
                future.set_result(result)

        threading.Thread(target=run, name="reader-tui-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to join: the threads are daemons, left to end with the process."""


def create_app(library: Library) -> ReaderApp:
    """The app for `library` (the CLI, the tests and the benchmark all start here)."""
    return ReaderApp(library)


def run_app(library: Library) -> int:
    """Run the TUI until the user quits; returns the exit code."""
    # The catalog and its Papers live as long as the app: move them out of the collector's
    # sight, so its full collections (every few thousand allocations) stop walking them.
    freeze_long_lived()
    paste_input.install()  # a pasted ESC stays text, not keys (Textual's parser, see there)
    app = create_app(library)
    try:
        app.run()
    finally:
        try:
            library.close()
        except Exception as error:  # the user chose to quit without them: say so, no traceback
            lost = library.pending_writes
            from reader_tui.core.atomic_storage import describe_error

            why = describe_error(error, library.files.annotations_path)
            print(f"reader-tui: {lost} change{'s' if lost != 1 else ''} not saved: {why}", file=sys.stderr)
    css_cache.save(app.css_cache_path)  # with the dialogs' CSS, parsed as they first opened
    synced_on_quit = app.quit_synced_in
    if synced_on_quit:
        try:
            library.reload_if_changed()  # what the sync before quitting brought in
        except Exception:  # the next start reads it, and says what is wrong with it
            synced_on_quit = False
    for line in app.auto_exports.finish(force=synced_on_quit):  # a change made just before q
        print(sanitize(f"reader-tui: {line}"), file=sys.stderr)
    for line in app.farewell:
        print(sanitize(line), file=sys.stderr)
    if app.indexes_stale:
        from reader_tui.core.library.indexing import start_background_prepare

        start_background_prepare(library.files.folder)  # so the next start loads, not builds
    return app.return_code or 0
