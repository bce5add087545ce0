"""An invisible widget that syncs the main screen's library through git ("Sync now" in the
palette, ctrl+s; on start and before quitting when `reader-tui sync auto on` is set) and
reads what the status line, the list and the detail pane show of it: when the library last
synced, and a reading group's other members' marks.

Git runs only in its thread workers, never on the UI thread: once at start, then once per
sync. The merged files come in as any other process's writes do (the LibraryWatcher's
poll, asked to look at once); what the worker found is posted, and the screen hands it on.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from reader_tui.core.atomic_storage import describe_error
from reader_tui.core.library.library import Library

CHECK_EVERY = 2.0
"""Seconds between two looks (two stats, no git) for a sync made by another process."""
FLUSH_TIMEOUT = 30.0
"""Seconds a sync waits for the Library's pending writes before committing."""
REMOTE_TIMEOUT = 60.0
"""Seconds a sync of the TUI (ctrl+s, on start) may spend talking to the remote."""
WAITING_DELAY = 2.0
"""Seconds after the last change before the status line's "N changes waiting" is counted
again (git and a parse of the annotations, in a thread)."""
QUIT_TIMEOUT = 10.0
"""Seconds the sync before quitting may spend talking to the remote: past them, the
changes stay committed here for the next sync and the app quits."""


@dataclass(frozen=True, slots=True)
class SyncState:
    """What the screen shows of the sync: when the library last reached its remote
    (None: never, or it is not a repository) and the other members' marks (None: not a
    reading group's library)."""

    last_synced: datetime | None
    group: object | None  # core.library.group.GroupMarks
    unsent: int = 0  # commits made here that the remote has not got (an offline sync's)
    waiting: int = 0  # changes made here not committed yet (the next sync sends them)


def sync_line(report) -> tuple[str, str]:
    """One true line for a `SyncReport`, and the notification's severity."""
    if report.offline:
        if "no remote" in report.offline:
            return (f"sync: {report.committed or 'nothing new'} committed here; no remote yet: "
                    "add one with `reader-tui sync init REMOTE`", "warning")
        return f"offline: changes kept, the next sync sends them ({report.offline})", "warning"
    if report.push_refused:
        return f"sync: not sent, the remote refused the push ({report.push_refused}); changes kept here", "error"
    parts = [f"received: {report.received}" if report.received else "nothing new from the remote"]
    if report.committed and report.pushed:
        parts.append(f"sent: {report.committed}")
    elif report.pushed:
        parts.append("sent")
    if report.refused:
        n = len(report.refused)
        parts.append(f"{n} file{'s' if n != 1 else ''} from the remote refused, nothing here changed by {'them' if n != 1 else 'it'}")
    if report.conflicts:
        n = len(report.conflicts)
        parts.append(f"{n} note{'s' if n != 1 else ''} changed on both sides, both versions kept: is:conflict finds them")
        return "synced: " + " · ".join(parts), "warning"
    return "synced: " + " · ".join(parts), "warning" if report.refused else "information"


def read_state(folder: Path) -> SyncState:
    """Runs git (in a worker): the last sync's time and the group's marks."""
    from reader_tui.core.library.sync import repository as sync
    from reader_tui.core.library.sync.group import load_group
    from reader_tui.core.library.sync.state import last_synced

    group = load_group(folder)
    repository = sync.is_repository(folder)
    last = last_synced(folder) if repository else None
    waiting = sync.waiting_changes(folder) if repository else 0
    return SyncState(last, group if group.members else None, _unsent(folder) if last else 0, waiting)


def _unsent(folder: Path) -> int:
    from reader_tui.core.library.sync.repository import REMOTE, git

    branch = git(folder, "symbolic-ref", "--short", "HEAD", check=False).stdout.strip()
    if not branch:
        return 0
    # (a remote branch not fetched yet fails the count, as `rev-parse --verify` would)
    counted = git(folder, "rev-list", "--count", f"refs/remotes/{REMOTE}/{branch}..HEAD", check=False)
    count = counted.stdout.strip()
    return int(count) if counted.returncode == 0 and count.isdigit() else 0


class LibrarySync(Widget):
    """Runs `reader-tui sync` for the library in a thread (nothing to show)."""

    DEFAULT_CSS = "LibrarySync { display: none; }"

    class Finished(Message):
        """A sync ended: `line` says how (one line), `severity` for a notification,
        `notes` the core's other remarks (a cut-short sync undone)."""

        def __init__(self, line: str, severity: str, notes: tuple[str, ...] = ()) -> None:
            super().__init__()
            self.line = line
            self.severity = severity
            self.notes = notes

    class Started(Message):
        """A sync began on its own (on start or before quitting): `line` says so."""

        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    class QuitSynced(Message):
        """The sync before quitting ended (or was stopped): the app may exit now; `line`
        says how it went, for the terminal once the screen is gone."""

        def __init__(self, line: str, severity: str) -> None:
            super().__init__()
            self.line = line
            self.severity = severity

    class StateRead(Message):
        """What the status line and the detail pane show of the sync (`SyncState`)."""

        def __init__(self, state: SyncState) -> None:
            super().__init__()
            self.state = state

    class WaitingListed(Message):
        """What the changes waiting for the next sync are: (kind, paper title or setting
        name) each, as `list_waiting` read them."""

        def __init__(self, changes: list[tuple[str, str]]) -> None:
            super().__init__()
            self.changes = changes

    def __init__(self, library: Library, **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.running = False
        self._one_at_a_time = threading.Lock()  # held by the thread of the sync running
        self.cancel = threading.Event()
        """Set to stop the talking to the remote of the sync running (a second q)."""

    @property
    def automatic(self) -> bool:
        """Whether this library syncs on start and on quit (`reader-tui sync auto on`),
        when it can: written here, and a repository."""
        from reader_tui.core.library.sync.state import auto_sync

        return (auto_sync(self.library.settings) and not self.library.read_only
                and (self.library.files.folder / ".git").exists())

    def on_mount(self) -> None:
        from reader_tui.core.library.sync.state import auto_sync

        self._seen = self._signature()
        self.call_after_refresh(self.read_state)
        self.set_interval(CHECK_EVERY, self._check, name="sync-check")
        self._recount: Timer | None = None
        if (self.library.files.folder / ".git").exists():
            self.app.library_changed_signal.subscribe(self, self._library_changed)
        if auto_sync(self.library.settings) and not self.library.read_only:
            # after the first paint: the list comes first, the sync in a thread behind it
            self.call_after_refresh(self._sync_on_start)

    def _library_changed(self, ids: object) -> None:
        # the changes waiting for the next sync, counted once the changes stop for a moment
        if self._recount is not None:
            self._recount.stop()
        self._recount = self.set_timer(WAITING_DELAY, self._count_waiting, name="sync-waiting")

    def _count_waiting(self) -> None:
        self._recount = None
        if not self.running:  # a sync's end reads the state anyway
            self.read_state()

    def _sync_on_start(self) -> None:
        if self.sync_now():
            self.post_message(self.Started("syncing (on start)…"))

    def sync_before_quit(self) -> None:
        """Sync once more before the app quits (the caller flushed every change): a
        `QuitSynced` follows within QUIT_TIMEOUT seconds and a little, whatever happens:
        a sync running now ends first, and past QUIT_TIMEOUT whatever still talks to the
        remote is stopped (the local steps, a commit or a merge, are let finish)."""
        # (a second later than the quit sync's own deadline, which says "no answer in time")
        self.set_timer(QUIT_TIMEOUT + 1, self.cancel.set, name="sync-quit-timeout")
        self.running = True
        self.post_message(self.Started(
            f"syncing before quitting (at most {QUIT_TIMEOUT:.0f} s; q again quits now, "
            "your changes are committed here and go out at the next sync)…"))
        self._sync(timeout=QUIT_TIMEOUT, quitting=True)

    def _signature(self) -> tuple[float, float]:
        """When the members' files and the last-sync mark last changed (two stats)."""
        from reader_tui.core.library.sync.changes import MEMBERS_DIR
        from reader_tui.core.library.sync.state import SYNCED_FILE

        folder = self.library.files.folder
        times = []
        for path in (folder / MEMBERS_DIR, folder / ".git" / SYNCED_FILE):
            try:
                times.append(path.stat().st_mtime)
            except OSError:
                times.append(0.0)
        return times[0], times[1]

    def _check(self) -> None:
        # A sync from the command line (or a `git pull`) changed the other members' files
        # (which the Library does not read) or reached the remote: read both again, once.
        if self.running:
            return
        seen = self._signature()
        if seen != self._seen:
            self._seen = seen
            self.read_state()

    @work(thread=True, exclusive=True, group="sync-state", exit_on_error=False)
    def read_state(self) -> None:
        try:
            state = read_state(self.library.files.folder)
        except Exception:  # no git, an unreadable file: the line just says nothing of syncs
            return
        self.post_message(self.StateRead(state))

    @work(thread=True, exclusive=True, group="sync-waiting-list", exit_on_error=False)
    def list_waiting(self) -> None:
        """Read what the changes waiting for the next sync are (git and a parse, in a
        thread): a `WaitingListed` follows."""
        from reader_tui.core.library.sync import repository as sync

        try:
            self.library.flush(timeout=FLUSH_TIMEOUT)  # the changes made here, on disk first
        except Exception:
            pass  # what is on disk is still listed
        try:
            changes = sync.waiting_list(self.library.files.folder)
        except Exception:  # no git: nothing is waiting for a sync
            changes = []
        self.post_message(self.WaitingListed(changes))

    def sync_now(self) -> bool:
        """Start a sync (the caller saved the notes being typed); False when one runs."""
        if self.running:
            return False
        self.running = True
        self._sync()
        return True

    @work(thread=True, group="sync", exit_on_error=False)
    def _sync(self, timeout: float = REMOTE_TIMEOUT, quitting: bool = False) -> None:
        with self._one_at_a_time:
            try:
                line, severity, notes = self._run_sync(timeout)
            finally:
                self.running = False
        if quitting:
            self.post_message(self.QuitSynced(line, severity))
        else:
            self.post_message(self.Finished(line, severity, notes))

    def _run_sync(self, timeout: float) -> tuple[str, str, tuple[str, ...]]:
        """One sync (in a thread): its line, severity and the core's other remarks."""
        from reader_tui.core.library.sync import repository as sync

        folder = self.library.files.folder
        try:
            # sync commits the files: every change made here must be in them first
            self.library.flush(timeout=FLUSH_TIMEOUT)
        except Exception as error:
            return f"sync: not started, a change is not on disk: {error}", "error", ()
        try:
            sync.git_program()
            if not sync.is_repository(folder):
                return f"sync: {folder} is not a repository yet: start with `reader-tui sync init REMOTE`", "error", ()
            report = sync.sync(folder, timeout=timeout, cancel=self.cancel)
        except Exception as error:  # SyncError: one line, nothing lost
            return describe_error(error), "error", ()
        from reader_tui.core.text.display import sanitize

        line, severity = sync_line(report)  # (it and the notes carry names the remote chose)
        return sanitize(line), severity, tuple(map(sanitize, (*report.notes, *report.refused)))

    def on_library_sync_finished(self, message: Finished) -> None:
        self._seen = self._signature()
        self.read_state()  # after the sync's last git command: when, and the group's marks
