"""`reader-tui sync`: share the library through git (see `core.library.sync.repository`)."""

from __future__ import annotations

import argparse
import sys

from .output import EXIT_ERROR, EXIT_OK, EXIT_USAGE, UserError


def _folder(args: argparse.Namespace):
    from ..core.paths import resolve_db_path

    return resolve_db_path(getattr(args, "db", None))


def _say(text: str) -> None:
    """A line of the sync's own, which carries what the remote named (a member, a file, a
    commit's author): drawn through the one safe-text function, as the TUI draws it."""
    from ..core.text.display import sanitize

    for line in str(text).splitlines() or [""]:
        print(sanitize(line))


def cmd_sync(args: argparse.Namespace) -> int:
    from ..core.library.sync import repository as sync

    action, rest = args.action, list(args.rest)
    if action == "merge-driver":
        return _merge_driver(rest)
    if action == "init":
        if len(rest) > 1:
            raise UserError("sync init takes at most one REMOTE", EXIT_USAGE)
        _say(sync.init(_folder(args), rest[0] if rest else None, member=args.member))
        return EXIT_OK
    if action == "auto":
        return _auto(args, rest)
    if rest or args.member:
        raise UserError("sync: REMOTE and --member go with `sync init`", EXIT_USAGE)
    if sys.stderr.isatty():  # a first sync sends the whole library: seconds with nothing said
        print("reader-tui: syncing (commit, fetch, merge, push)…", file=sys.stderr, flush=True)
    report = sync.sync(_folder(args))
    for line in report.lines():
        _say(line)
    if report.received:
        _auto_exports_after_sync(args)
    return EXIT_ERROR if report.offline or report.push_refused else EXIT_OK


def _auto_exports_after_sync(args: argparse.Namespace) -> None:
    """What came in may change the saved auto-exports' files: rewritten now."""
    from ..core.library.auto_exports import SETTING
    from .export import refresh_auto_exports
    from .options import open_library

    library = open_library(args)
    if library.settings.get(SETTING):
        refresh_auto_exports(library)


def _auto(args: argparse.Namespace, rest: list[str]) -> int:
    """`sync auto on|off`: whether the TUI syncs on start and on quit (no argument: say)."""
    from ..core.library.sync import repository as sync
    from ..core.library.sync.state import AUTO_SYNC, auto_sync
    from .options import open_library

    if len(rest) > 1 or (rest and rest[0] not in ("on", "off")):
        raise UserError("sync auto takes on or off (nothing: say which it is)", EXIT_USAGE)
    library = open_library(args)
    folder = library.files.folder
    if rest:
        library.set_setting(AUTO_SYNC, rest[0] == "on")
    on = auto_sync(library.settings)
    if on:
        print("sync on start and quit: on (the TUI syncs in the background as it starts, and before it quits)")
        if not sync.is_repository(folder):
            print(f"{folder} is not a repository yet: run `reader-tui sync init REMOTE` first")
    else:
        print("sync on start and quit: off (ctrl+s in the TUI, or `reader-tui sync`, syncs)")
    return EXIT_OK


def _merge_driver(rest: list[str]) -> int:
    """Called by git: merge base/ours/theirs, the result written over ours. Exit 0 when
    merged (a note changed on both sides is merged with marks, not left to git)."""
    from ..core.library.sync.merge import merge_files

    if len(rest) not in (3, 4):
        raise UserError("sync merge-driver BASE OURS THEIRS [PATH] (git runs it: see .gitattributes)", EXIT_USAGE)
    merge_files(*rest[:3])
    return EXIT_OK
