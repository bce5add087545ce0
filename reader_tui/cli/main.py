"""The command line: parse the arguments and dispatch to the module of the command group.

Each command's function is imported only when that command runs (`COMMAND` names it as
"module:function"), so `reader-tui list` loads neither the import machinery nor the
doctor, and Textual is imported only when the TUI starts: scripted calls stay fast."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..core.atomic_storage import StoreError, describe_error
from ..core.library.library import IdError
from ..core.model import Status
from .options import open_library, parse_status
from .output import EXIT_ERROR, EXIT_OK, EXIT_USAGE, UserError, first_line, print_error

#: Set to 1 to let unexpected errors (and the OS's) end the program with their traceback.
DEBUG_ENV = "READER_TUI_DEBUG"

#: Options whose value may start with "-": a search of one left-out word or field.
DASH_VALUES = ("--search",)


def _glue_leading_dash(argv: list[str]) -> list[str]:
    """`--search -tag:old` as `--search=-tag:old`: argparse takes a lone value that starts
    with "-" for an option and stopped with "expected one argument", though docs/search.md
    offers `-softmax` and `-tag:old` as searches (`-is:withdrawn area:x` worked only for
    its space). A value starting "--" is still an option (`--search --json`: no query)."""
    glued: list[str] = []
    values = iter(argv)
    for arg in values:
        if arg in DASH_VALUES:
            value = next(values, None)
            if value is not None and value.startswith("-") and not value.startswith("--"):
                glued.append(f"{arg}={value}")
                continue
            glued.append(arg)
            if value is not None:
                glued.append(value)
            continue
        glued.append(arg)
    return glued


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `reader-tui` command; returns the process exit code."""
    parser = build_parser()
    args, extra = parser.parse_known_args(_glue_leading_dash(sys.argv[1:] if argv is None else list(argv)))
    if extra and getattr(args, "command", None) != "tag":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    try:
        _refuse_undecodable_text(parser, args)
        changing = args.command in CHANGING or (args.command == "annotations" and args.action == "import") or (
            args.command == "doctor" and args.restore)
        before = _auto_exports().store_signatures(args) if changing else None
        code = _handler(args.handler)(args)
        if before is not None and code == EXIT_OK:
            _auto_exports().after_command(args, before)
        return code
    except UserError as error:
        print_error(str(error))
        return error.code
    except IdError as error:
        print_error(str(error))
        return EXIT_USAGE
    except (StoreError, _import_failure()) as error:  # (evaluated only once an error got here)
        print_error(str(error))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `reader-tui list | head`: the reader went away, which is not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as error:  # a full disk, a folder without permission, a vanished file
        if _debugging():
            raise
        print_error(describe_error(error))
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - no traceback reaches a user, but say it is a bug
        if _debugging():
            raise
        print_error(
            f"unexpected error: {type(error).__name__}: {first_line(error)} (this is a bug in "
            f"reader-tui {__version__}: please report it; {DEBUG_ENV}=1 shows the traceback)"
        )
        return EXIT_ERROR


#: Commands that change the library: its saved auto-exports are rewritten after them.
CHANGING = frozenset({"import", "fetch", "status", "mark", "tag", "note", "edit"})


def _auto_exports():
    return importlib.import_module(f"{__package__}.export")


#: Arguments that are file names: any bytes the OS allows, passed on as paths, never stored.
PATH_ARGUMENTS = frozenset({"db", "files", "file", "output"})


def _refuse_undecodable_text(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Raise UserError (exit 2) naming the first text argument whose bytes are not UTF-8.

    Python hands argv bytes that are not UTF-8 over as lone surrogates ("surrogateescape");
    stored as text they would fail deep in the store's JSON writer. Checked here, once for
    every command, before anything is opened or written."""
    from .output import undecodable_offset

    labels = _labels(parser, getattr(args, "command", None))
    values = [(dest, value) for dest, value in vars(args).items() if dest not in PATH_ARGUMENTS]
    for dest, value in values:
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str) or (offset := undecodable_offset(item)) is None:
                continue
            label = labels.get(dest, "ID|+TAG|-TAG" if dest == "extra" else dest)
            shown = item.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            raise UserError(f'{label} "{shown}": not valid UTF-8 at byte {offset}', EXIT_USAGE)


def _labels(parser: argparse.ArgumentParser, command: str | None) -> dict[str, str]:
    """How the user wrote each argument of `command`: its long option or its metavar."""
    actions = list(parser._actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            actions += action.choices[command]._actions
    return {
        a.dest: (a.option_strings[-1] if a.option_strings else str(a.metavar or a.dest)) for a in actions
    }


def _handler(spec: str) -> Callable[[argparse.Namespace], int]:
    """The command function `spec` ("module:function" in this package) names, imported now."""
    module, _, function = spec.partition(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def _import_failure() -> type[Exception]:
    """The importers' error, imported only when an error is being handled: the formats'
    module (two dataclasses) is no part of a start that imports nothing."""
    from ..core.formats.base import ImportFailure

    return ImportFailure


def _debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip() not in ("", "0")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="the store's folder (default: $READER_TUI_DB, else the user data folder)",
    )
    common.add_argument(
        "--no-seed",
        action="store_true",
        default=argparse.SUPPRESS,
        help="do not fill a new store with the bundled ICLR 2026 list",
    )
    parser = argparse.ArgumentParser(
        prog="reader-tui",
        description="A keyboard-driven reading-list manager for conference paper lists.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"reader-tui {__version__}")
    parser.set_defaults(handler="main:cmd_tui")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, handler: str, help_text: str, aliases: tuple[str, ...] = ()) -> argparse.ArgumentParser:
        p = sub.add_parser(name, aliases=list(aliases), parents=[common], help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    command("tui", "main:cmd_tui", "open the TUI (the default command)")

    p = command(
        "import", "import_cmd:cmd_import",
        "add papers from files (seed text, BibTeX, OpenReview JSON, CSV, CSL-JSON, RIS), or from Zotero: import zotero",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="files to read; 'zotero' reads the running Zotero's local API")
    p.add_argument(
        "--format", choices=["seed", "bibtex", "openreview", "csv", "csljson", "ris"], help="the files' format (default: detected)"
    )
    p.add_argument(
        "--zotero-url", metavar="URL", default="http://localhost:23119/api/",
        help="import zotero: the local API's address (default: %(default)s)",
    )
    p.add_argument("--all", action="store_true", dest="zotero_all", help="import zotero: read every item, not only those changed since the last import")
    p.add_argument("--venue", help="venue for papers whose file does not say (e.g. ICLR)")
    p.add_argument("--year", type=int, help="year for papers whose file does not say")
    p.add_argument("--verbose", action="store_true", help="list each entry merged into a paper already in the library, and why")
    p.add_argument(
        "--dry-run", action="store_true",
        help="read the files and report what the import would do (new, merged, skipped, warnings); write nothing",
    )
    p.add_argument(
        "--encoding", metavar="NAME",
        help="the files' encoding when it is not UTF-8 (e.g. latin-1, cp1252, utf-16-le); default: UTF-8, or what"
        " a byte-order mark says, with bytes that are not UTF-8 read as Windows-1252 (and a warning)",
    )

    p = command(
        "fetch", "fetch_cmd:cmd_fetch",
        "a new snapshot of a venue from OpenReview (its papers, reviews, decisions), imported, and what moved since"
        " the last one; about one request per 1,000 papers, paused between pages; a cut-short fetch resumes",
    )
    p.add_argument("venue", nargs="?", metavar="VENUE_ID", help="the venue's OpenReview id, e.g. ICLR.cc/2026/Conference")
    p.add_argument("--api", metavar="URL", help="the API v2 to ask (default: the public one; a mirror or a test server)")
    p.add_argument("--invitation", metavar="ID", help="the submissions' invitation (default: VENUE_ID/-/Submission)")
    p.add_argument("--pause", type=float, metavar="SECONDS", help="the pause between pages (default 3; at least 1 on the public API)")
    p.add_argument("--pdf", nargs="+", metavar="ID", help="instead: download these papers' pdfs (at most 5) into the library's pdfs/")

    p = command("index", "import_cmd:cmd_index", "build the search and related-papers indexes now (import starts this in the background)")
    p.add_argument("--quiet", action="store_true", help="print nothing")

    p = command("list", "papers:cmd_list", "list papers")
    p.add_argument("--status", type=parse_status, help="only papers with this status")
    p.add_argument("--tag", action="append", default=[], help="only papers with this tag (repeatable)")
    p.add_argument(
        "--search", metavar="QUERY",
        help="ranked fuzzy search (fields: tag: status: year: venue: is: rating: reviews: spread: area: decision:)",
    )
    p.add_argument(
        "--sort", choices=["title", "status", "added", "changed", "rating", "spread", "weighted", "for-you"],
        help="order: rating, spread and weighted (confidence-weighted rating) highest first, withdrawn papers last;"
        " for-you: the papers you have not decided on, by a model of your decisions, each with why"
        " (with --tag T: more like the papers tagged T)",
    )
    p.add_argument("--reverse", action="store_true", help="with --sort: the other way round")
    p.add_argument("--limit", type=int, help="at most this many papers")
    p.add_argument("--json", action="store_true", help="print a JSON array")

    p = command("show", "papers:cmd_show", "show one paper")
    p.add_argument("id", metavar="ID")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.add_argument("--reviews", action="store_true", help="print the paper's reviews, replies and decision")

    # "status" says what it does; "mark", its first name, keeps working (in the TUI,
    # marking means selecting papers with space).
    p = command(
        "status", "papers:cmd_mark", "set papers to a status: status read ID... ('mark' is the same command)", ("mark",)
    )
    p.add_argument("status", type=parse_status, metavar="STATUS", help=", ".join(s.value for s in Status))
    p.add_argument("ids", nargs="+", metavar="ID")

    p = command("tag", "papers:cmd_tag", "add (+TAG) and remove (-TAG) tags")
    p.add_argument("items", nargs="+", metavar="ID|+TAG|-TAG")

    p = command("note", "papers:cmd_note", "set or append to a paper's notes ('-' reads standard input)")
    p.add_argument("id", metavar="ID")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--set", metavar="TEXT", dest="set_text")
    group.add_argument("--append", metavar="TEXT", dest="append_text")

    p = command("edit", "papers:cmd_edit", "change a paper's title, authors, url or citation key")
    p.add_argument("id", metavar="ID")
    p.add_argument("--title")
    p.add_argument("--authors", help="'and'-separated, e.g. 'Ada Lovelace and Alan Turing'")
    p.add_argument("--url")
    p.add_argument("--citekey")

    p = command("stats", "stats:cmd_stats", "counts by status and tag")
    p.add_argument("--json", action="store_true")

    p = command("export", "export:cmd_export", "write papers as BibTeX (default), a Markdown reading list, CSL-JSON or RIS")
    p.add_argument("--status", type=parse_status, help="only papers with this status")
    p.add_argument("--tag", action="append", default=[], help="only papers with this tag (repeatable)")
    p.add_argument("--search", metavar="QUERY", help="only papers matching this search")
    p.add_argument("--id", action="append", default=[], dest="ids", metavar="ID", help="only these papers (repeatable)")
    p.add_argument("--format", choices=["bibtex", "markdown", "csljson", "ris"], default="bibtex",
                   help="csljson: for pandoc --citeproc and Zotero; ris: for other reference managers")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--watch", action="store_true", help="with -o FILE: keep it up to date, rewritten shortly after each change, until ctrl-c")
    p.add_argument(
        "--save", action="store_true",
        help="with -o FILE: write it, then keep it up to date for good (the TUI, every command that changes"
        " the library and a sync that brings changes rewrite it); see auto-export",
    )
    p.add_argument("--clipboard", action="store_true", help="copy to the system clipboard")
    p.add_argument("--no-abstract", action="store_true", help="leave abstracts out of BibTeX")
    p.add_argument("--scores", action="store_true", help="Markdown: add each paper's TL;DR and review scores")
    p.add_argument("--unicode", action="store_true", help="keep non-ASCII as UTF-8 (biblatex) instead of LaTeX")
    p.add_argument("--ascii", action="store_true", help="a pure ASCII file: what has no LaTeX form is lost (said on stderr); notes and tags stay exact")

    p = command(
        "auto-export", "export:cmd_auto_export",
        "the exports kept up to date (saved with export -o FILE --save): list them, write them now, remove one",
    )
    p.add_argument("action", nargs="?", choices=["list", "write", "remove"], help="list (the default), write, remove FILE")
    p.add_argument("files", nargs="*", metavar="FILE", help="remove: the file to stop keeping up to date (it stays)")

    p = command("doctor", "doctor:cmd_doctor", "check the store; --restore repairs it from the newest good backup")
    p.add_argument("--restore", action="store_true", help="restore a damaged store (the damaged file is kept aside)")
    p.add_argument("--yes", action="store_true", help="with --restore: do not ask, even when the restore may lose annotations")

    p = command(
        "sync", "sync_cmd:cmd_sync",
        "share the library through git: sync (commit, fetch, merge, push), sync init [REMOTE] [--member NAME],"
        " sync auto on|off (the TUI syncs on start and on quit)",
    )
    p.add_argument(
        "action", nargs="?", choices=["init", "auto", "merge-driver"],
        help="init: set up; auto: sync on the TUI's start and quit; merge-driver: run by git",
    )
    p.add_argument("rest", nargs="*", metavar="ARG", help="init: REMOTE (a path or URL git understands); auto: on or off")
    p.add_argument("--member", help="init: your name in a reading group (your marks go to members/NAME.json)")

    p = command("annotations", "doctor:cmd_annotations", "move your statuses, tags and notes between machines as JSON")
    p.add_argument("action", choices=["export", "import"])
    p.add_argument("file", nargs="?", help="import: the JSON file ('-' for standard input)")
    p.add_argument("-o", "--output", metavar="FILE", help="export: write to FILE instead of standard output")
    p.add_argument("--force", action="store_true", help="export: overwrite FILE if it exists")
    return parser


def cmd_tui(args: argparse.Namespace) -> int:
    from ..core.process_tuning import tune_for_tui_start

    tune_for_tui_start()  # before the library opens and its threads start (see there)
    library = open_library(args, background_writes=True)
    from ..tui.app import run_app

    return run_app(library)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
