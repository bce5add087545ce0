"""The command line: parse arguments, call the core, print. Textual is imported only
when the TUI starts, so scripted calls stay fast."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import __version__
from .core.importers.base import ImportFailure
from .core.model import EDITABLE_FIELDS, PaperView, Status
from .core.storage import StoreError
from .core.store import IdError, Library

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class UserError(Exception):
    """A mistake the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `reader-tui` command; returns the process exit code."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "command", None) != "tag":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    try:
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except UserError as error:
        _error(str(error))
        return error.code
    except IdError as error:
        _error(str(error))
        return EXIT_USAGE
    except (StoreError, ImportFailure) as error:
        _error(str(error))
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
        _error(describe_os_error(error))
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - no traceback reaches a user, but say it is a bug
        if _debugging():
            raise
        _error(
            f"unexpected error: {type(error).__name__}: {_first_line(error)} (this is a bug in "
            f"reader-tui {__version__}: please report it; {DEBUG_ENV}=1 shows the traceback)"
        )
        return EXIT_ERROR


#: Set to 1 to let unexpected errors (and the OS's) end the program with their traceback.
DEBUG_ENV = "READER_TUI_DEBUG"


def _debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip() not in ("", "0")


def describe_os_error(error: OSError) -> str:
    """One line for an error of the operating system: the file it concerns and what failed."""
    reason = error.strerror or _first_line(error) or type(error).__name__
    names = [str(n) for n in (error.filename, error.filename2) if n is not None]
    return f"{' -> '.join(names)}: {reason}" if names else reason


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else ""


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
    parser.set_defaults(handler=cmd_tui)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, handler: Callable[[argparse.Namespace], int], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    command("tui", cmd_tui, "open the TUI (the default command)")

    p = command("import", cmd_import, "add papers from files (seed text, BibTeX, OpenReview JSON, CSV)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--format", choices=["seed", "bibtex", "openreview", "csv"], help="the files' format (default: detected)")
    p.add_argument("--venue", help="venue for papers whose file does not say (e.g. ICLR)")
    p.add_argument("--year", type=int, help="year for papers whose file does not say")

    p = command("index", cmd_index, "build the search and related-papers indexes now (import starts this in the background)")
    p.add_argument("--quiet", action="store_true", help="print nothing")

    p = command("list", cmd_list, "list papers")
    p.add_argument("--status", type=_status, help="only papers with this status")
    p.add_argument("--tag", action="append", default=[], help="only papers with this tag (repeatable)")
    p.add_argument("--search", metavar="QUERY", help="ranked fuzzy search (fields: tag: status: year: venue: is:)")
    p.add_argument("--limit", type=int, help="at most this many papers")
    p.add_argument("--json", action="store_true", help="print a JSON array")

    p = command("show", cmd_show, "show one paper")
    p.add_argument("id", metavar="ID")
    p.add_argument("--json", action="store_true", help="print a JSON object")

    p = command("mark", cmd_mark, "set the status of papers")
    p.add_argument("status", type=_status, metavar="STATUS", help=", ".join(s.value for s in Status))
    p.add_argument("ids", nargs="+", metavar="ID")

    p = command("tag", cmd_tag, "add (+TAG) and remove (-TAG) tags")
    p.add_argument("items", nargs="+", metavar="ID|+TAG|-TAG")

    p = command("note", cmd_note, "set or append to a paper's notes ('-' reads standard input)")
    p.add_argument("id", metavar="ID")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--set", metavar="TEXT", dest="set_text")
    group.add_argument("--append", metavar="TEXT", dest="append_text")

    p = command("edit", cmd_edit, "change a paper's title, authors, url or citation key")
    p.add_argument("id", metavar="ID")
    p.add_argument("--title")
    p.add_argument("--authors", help="'and'-separated, e.g. 'Ada Lovelace and Alan Turing'")
    p.add_argument("--url")
    p.add_argument("--citekey")

    p = command("stats", cmd_stats, "counts by status and tag")
    p.add_argument("--json", action="store_true")

    p = command("export", cmd_export, "write papers as BibTeX (default) or a Markdown reading list")
    p.add_argument("--status", type=_status, help="only papers with this status")
    p.add_argument("--tag", action="append", default=[], help="only papers with this tag (repeatable)")
    p.add_argument("--search", metavar="QUERY", help="only papers matching this search")
    p.add_argument("--id", action="append", default=[], dest="ids", metavar="ID", help="only these papers (repeatable)")
    p.add_argument("--format", choices=["bibtex", "markdown"], default="bibtex")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--clipboard", action="store_true", help="copy to the system clipboard")
    p.add_argument("--no-abstract", action="store_true", help="leave abstracts out of BibTeX")
    p.add_argument("--unicode", action="store_true", help="keep non-ASCII as UTF-8 (biblatex) instead of LaTeX")
    p.add_argument("--ascii", action="store_true", help="a pure ASCII file: what has no LaTeX form is lost (said on stderr); notes and tags stay exact")

    p = command("doctor", cmd_doctor, "check the store; --restore repairs it from the newest good backup")
    p.add_argument("--restore", action="store_true", help="restore a damaged store (the damaged file is kept aside)")
    p.add_argument("--yes", action="store_true", help="with --restore: do not ask, even when the restore may lose annotations")

    p = command("annotations", cmd_annotations, "move your statuses, tags and notes between machines as JSON")
    p.add_argument("action", choices=["export", "import"])
    p.add_argument("file", nargs="?", help="import: the JSON file ('-' for standard input)")
    p.add_argument("-o", "--output", metavar="FILE", help="export: write to FILE instead of standard output")
    p.add_argument("--force", action="store_true", help="export: overwrite FILE if it exists")
    return parser


# -- commands ---------------------------------------------------------------------------


def cmd_tui(args: argparse.Namespace) -> int:
    library = _open(args, background_writes=True)
    from .tui.app import run_app

    return run_app(library)


def cmd_import(args: argparse.Namespace) -> int:
    from .cli_import import run_import

    # An import is how a lost catalog comes back: it may open a store whose catalog is missing.
    library = _open(args, rebuilding_catalog=True)
    return run_import(library, [Path(name) for name in args.files], args.format, args.venue, args.year)


def cmd_index(args: argparse.Namespace) -> int:
    from .cli_import import run_index

    return run_index(_open(args), quiet=args.quiet)


def cmd_list(args: argparse.Namespace) -> int:
    library = _open(args)
    views = _select(library, status=args.status, tags=args.tag, search=args.search)
    if args.limit is not None:
        views = views[: max(args.limit, 0)]
    if args.json:
        _print_json([v.to_dict() for v in views])
        return EXIT_OK
    from .core.text import one_line, visible_controls

    for view in views:
        # tags as typed: they are the user's words, not LaTeX ("a\{b}" stays a\{b})
        tags = f"  [{', '.join(map(visible_controls, view.tags))}]" if view.tags else ""
        print(f"{visible_controls(view.id)}  {view.status.mark} {view.status.value:<8} {one_line(view.title, 90)}{tags}")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    library = _open(args)
    view = library.view(library.resolve_id(args.id))
    if args.json:
        _print_json(view.to_dict())
        return EXIT_OK
    print(format_paper(view))
    return EXIT_OK


def cmd_mark(args: argparse.Namespace) -> int:
    library = _open(args)
    ids = [library.resolve_id(i) for i in args.ids]
    library.set_status(ids, args.status)
    print(f"{len(ids)} paper{'s' if len(ids) != 1 else ''} marked {args.status.value}")
    return EXIT_OK


def cmd_tag(args: argparse.Namespace) -> int:
    items = list(args.items) + list(args.extra)
    add = [i[1:] for i in items if i.startswith("+")]
    remove = [i[1:] for i in items if i.startswith("-")]
    raw_ids = [i for i in items if not i.startswith(("+", "-"))]
    if not raw_ids:
        raise UserError("name at least one paper id", EXIT_USAGE)
    if not add and not remove:
        raise UserError("name at least one +TAG to add or -TAG to remove", EXIT_USAGE)
    library = _open(args)
    ids = [library.resolve_id(i) for i in raw_ids]
    try:
        library.retag(ids, add=add, remove=remove)
    except ValueError as error:
        raise UserError(str(error), EXIT_USAGE) from None
    from .core.text import visible_controls

    for pid in ids:
        tags = ", ".join(map(visible_controls, library.annotation(pid).tags))
        print(f"{visible_controls(pid)}: {tags or '(no tags)'}")
    return EXIT_OK


def cmd_note(args: argparse.Namespace) -> int:
    library = _open(args)
    pid = library.resolve_id(args.id)
    if args.set_text is not None:
        library.set_notes(pid, _stdin_if_dash(args.set_text))
    else:
        old = library.annotation(pid).notes
        addition = _stdin_if_dash(args.append_text)
        library.set_notes(pid, f"{old.rstrip()}\n{addition}" if old.strip() else addition)
    from .core.text import visible_controls

    print(f"{visible_controls(pid)}: notes saved ({len(library.annotation(pid).notes)} characters)")
    return EXIT_OK


def cmd_edit(args: argparse.Namespace) -> int:
    values = {k: getattr(args, k) for k in EDITABLE_FIELDS if getattr(args, k) is not None}
    if not values:
        raise UserError("say what to change: --title, --authors, --url or --citekey", EXIT_USAGE)
    if "authors" in values:
        values["authors"] = [a.strip() for a in values["authors"].split(" and ") if a.strip()]
    library = _open(args)
    pid = library.resolve_id(args.id)
    try:
        library.edit(pid, **values)
    except ValueError as error:
        raise UserError(str(error), EXIT_USAGE) from None
    from .core.text import visible_controls

    print(f"{visible_controls(pid)}: {', '.join(values)} changed")
    if {"title", "authors"} & values.keys():
        from .indexing import start_background_prepare

        start_background_prepare(library.files.folder)  # the index caches hold the old text
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    from .cli_stats import print_stats

    print_stats(_open(args), as_json=args.json)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from .core.clipboard import ClipboardUnavailable, copy_to_system_clipboard
    from .core.exporters.bibtex import CONTROLS_LEFT_OUT, export_bibtex, export_losses
    from .core.exporters.markdown import export_markdown
    from .core.exporters.write import ExportError, write_export

    if args.output and args.clipboard:
        raise UserError("choose one of -o FILE and --clipboard", EXIT_USAGE)
    library = _open(args)
    views = _select(library, status=args.status, tags=args.tag, search=args.search)
    if args.ids:
        wanted = {library.resolve_id(i) for i in args.ids}
        views = [v for v in views if v.id in wanted]
    if args.format == "markdown":
        text = export_markdown(views)
    else:
        if args.unicode and args.ascii:
            raise UserError("choose one of --unicode and --ascii", EXIT_USAGE)
        mode = "unicode" if args.unicode else "ascii" if args.ascii else "latex"
        text = export_bibtex(views, abstract=not args.no_abstract, mode=mode)
        for kind, count in export_losses(views, abstract=not args.no_abstract, mode=mode).items():
            # One line per kind of loss, so that nothing is changed without a word.
            if kind == CONTROLS_LEFT_OUT:  # in every mode: no --unicode keeps them
                _error(f"{count} control character{'s' if count != 1 else ''} (ESC, BEL, DEL...) left out of"
                       " titles, authors, venues, abstracts and other fields (notes and tags keep them)")
                continue
            _error(f"{count} character{'s' if count != 1 else ''} with no LaTeX form {kind} in titles, authors, venues"
                   f"{' or abstracts' if mode == 'ascii' else ''} (--unicode keeps them)")
    if args.clipboard:
        try:
            copy_to_system_clipboard(text)
        except ClipboardUnavailable as error:
            raise UserError(str(error)) from None
        _error(f"copied {len(views)} papers to the clipboard")
    elif args.output:
        try:
            write_export(text, Path(args.output), force=args.force)
        except FileExistsError:
            raise UserError(f"{args.output}: exists already (use --force to overwrite it)") from None
        except ExportError as error:
            raise UserError(str(error)) from None
        # Only now, when the bytes are written (a FIFO's reader has them): true.
        _error(f"wrote {len(views)} paper{'s' if len(views) != 1 else ''} to {args.output}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    from .cli_doctor import run_doctor
    from .paths import resolve_db_path

    return run_doctor(resolve_db_path(getattr(args, "db", None)), args.restore, yes=args.yes)


def cmd_annotations(args: argparse.Namespace) -> int:
    from .cli_doctor import run_annotations_export, run_annotations_import
    from .paths import default_seed_path, resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    if args.action == "export":
        if args.file:
            raise UserError("annotations export writes with -o FILE, it takes no file argument", EXIT_USAGE)
        return run_annotations_export(folder, Path(args.output) if args.output else None, force=args.force)
    if not args.file:
        raise UserError("annotations import needs the JSON file to read", EXIT_USAGE)
    seed = None if getattr(args, "no_seed", False) else default_seed_path()
    return run_annotations_import(folder, Path(args.file), seed=seed)


# -- helpers ----------------------------------------------------------------------------


def format_paper(view: PaperView) -> str:
    """A paper as plain text for the terminal: title, venue, authors, keywords and
    abstract rendered from their LaTeX/markdown as on screen; ids, url, tags and notes as
    typed. Control characters are shown visibly in all of them, never sent raw."""
    from .core.text import names_line, one_line, sanitize, to_display, visible_controls

    venue = one_line(view.venue)
    if view.year and str(view.year) not in venue:
        venue = f"{venue} {view.year}".strip()
    lines = [one_line(view.title), ""]
    rows = [
        ("id", visible_controls(view.id)),
        ("citekey", visible_controls(view.citekey)),
        ("status", view.status.value),
        ("tags", ", ".join(map(visible_controls, view.tags))),
        ("venue", venue),
        ("authors", names_line(view.authors)),
        ("url", visible_controls(view.url)),
        ("keywords", names_line(view.keywords)),
    ]
    lines += [f"{name:<9}{value}" for name, value in rows if value]
    if view.abstract:
        lines += ["", to_display(view.abstract)]
    if view.notes:
        # the user's own words: not LaTeX, not markdown; lines and tabs kept
        lines += ["", "notes:", sanitize(view.notes)]
    return "\n".join(lines)


def _select(library: Library, *, status: Status | None, tags: Sequence[str], search: str | None) -> list[PaperView]:
    if search:
        from .core.query import QueryError
        from .indexing import search_index

        try:
            # The TUI's cached index, when the catalog has not changed since it was made.
            hits = search_index(library)[0].search(search)
        except QueryError as error:
            raise UserError(f"search: {error}", EXIT_USAGE) from None
        views = [library.view(hit.id) for hit in hits]
    else:
        views = library.views()
    wanted = {t.casefold() for t in tags}
    return [
        v
        for v in views
        if (status is None or v.status is status) and wanted <= {t.casefold() for t in v.tags}
    ]


def _open(args: argparse.Namespace, *, background_writes: bool = False, rebuilding_catalog: bool = False) -> Library:
    from .paths import default_seed_path, resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    seed = None if getattr(args, "no_seed", False) else default_seed_path()
    return Library.open(folder, seed=seed, background_writes=background_writes, rebuilding_catalog=rebuilding_catalog)


def _status(text: str) -> Status:
    try:
        return Status.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _stdin_if_dash(text: str) -> str:
    return sys.stdin.read() if text == "-" else text


def _print_json(data: object) -> None:
    from .core.text import safe_json

    sys.stdout.write(safe_json(data) + "\n")


def _error(message: str) -> None:
    from .core.text import sanitize

    print(f"reader-tui: {sanitize(message)}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
