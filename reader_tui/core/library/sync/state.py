"""When a library last reached its remote: a sync that fetched marks it in a file of
git's own folder (never committed), which the TUI's status line reads. git's FETCH_HEAD
will not do: a fetch that fails empties it and gives it a new time."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

SYNCED_FILE = "reader-tui-synced"
MERGING_FILE = "reader-tui-merging"
"""Set in git's folder while a sync's `git merge` runs: git writes the merged files into
the folder in place (not atomically), so a sync killed then can leave a store file cut
off. Opening the library restores them from the last commit (`sync.restore_cut_merge`)."""
AUTO_SYNC = "sync_auto"
"""The library setting (True/False) that has the TUI sync on start and on quit
(`reader-tui sync auto on|off`)."""


def auto_sync(settings: dict) -> bool:
    """Whether the TUI syncs the library on start and on quit."""
    return settings.get(AUTO_SYNC) is True


def mark_synced(folder: Path) -> None:
    """The remote was reached just now (the fetch of a sync succeeded)."""
    (Path(folder) / ".git" / SYNCED_FILE).touch()


def last_synced(folder: Path) -> datetime | None:
    """When a sync of `folder` last reached its remote (local time), None when never."""
    try:
        return datetime.fromtimestamp((Path(folder) / ".git" / SYNCED_FILE).stat().st_mtime).astimezone()
    except OSError:
        return None


def merge_cut_short(folder: Path) -> bool:
    """Whether a sync was stopped while git merged into the library's files."""
    return (Path(folder) / ".git" / MERGING_FILE).exists()
