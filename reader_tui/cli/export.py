"""`reader-tui export`: BibTeX or Markdown to standard output, a file or the clipboard."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.text.words import counted
from .options import open_library, select_views
from .output import EXIT_OK, EXIT_USAGE, UserError, print_error


def cmd_export(args: argparse.Namespace) -> int:
    from ..core.clipboard import ClipboardUnavailable, copy_to_system_clipboard
    from ..core.formats.bibtex.writer import CONTROLS_LEFT_OUT, export_bibtex, export_losses
    from ..core.formats.markdown import export_markdown
    from ..core.formats.write import ExportError, write_export

    if args.output and args.clipboard:
        raise UserError("choose one of -o FILE and --clipboard", EXIT_USAGE)
    if getattr(args, "watch", False):
        if not args.output:
            raise UserError("--watch keeps a file up to date: name it with -o FILE", EXIT_USAGE)
        return _watch(args)
    library = open_library(args)
    views = select_views(library, status=args.status, tags=args.tag, search=args.search)
    if args.ids:
        wanted = {library.resolve_id(i) for i in args.ids}
        views = [v for v in views if v.id in wanted]
    if args.format == "markdown":
        text = export_markdown(views, scores=args.scores)
    else:
        if args.unicode and args.ascii:
            raise UserError("choose one of --unicode and --ascii", EXIT_USAGE)
        mode = "unicode" if args.unicode else "ascii" if args.ascii else "latex"
        text = export_bibtex(views, abstract=not args.no_abstract, mode=mode)
        for kind, count in export_losses(views, abstract=not args.no_abstract, mode=mode).items():
            # One line per kind of loss, so that nothing is changed without a word.
            if kind == CONTROLS_LEFT_OUT:  # in every mode: no --unicode keeps them
                print_error(f"{count} control character{'s' if count != 1 else ''} (ESC, BEL, DEL...) left out of"
                            " titles, authors, venues, abstracts and other fields (notes and tags keep them)")
                continue
            print_error(f"{count} character{'s' if count != 1 else ''} with no LaTeX form {kind} in titles, authors, venues"
                   f"{' or abstracts' if mode == 'ascii' else ''} (--unicode keeps them)")
    if args.clipboard:
        try:
            copy_to_system_clipboard(text)
        except ClipboardUnavailable as error:
            raise UserError(str(error)) from None
        print_error(f"copied {counted(len(views), 'paper')} to the clipboard")
    elif args.output:
        try:
            write_export(text, Path(args.output), force=args.force)
        except FileExistsError:
            raise UserError(f"{args.output}: exists already (use --force to overwrite it)") from None
        except ExportError as error:
            raise UserError(str(error)) from None
        # Only now, when the bytes are written (a FIFO's reader has them): true.
        print_error(f"wrote {counted(len(views), 'paper')} to {args.output}")
    else:
        sys.stdout.write(text)
    if args.format != "markdown":
        _keep_citekeys(library, [v.id for v in views])
    return EXIT_OK


#: How often `--watch` looks at the library's files (a stat each: cheap).
WATCH_POLL_S = 0.5


def _watch(args: argparse.Namespace) -> int:
    """Write the export, then again (atomically, only when its text changed) shortly after
    each change of the library by any process, until interrupted (ctrl-c, or a sync that
    pulled in changes: those count as changes too). One line on stderr per write."""
    import time

    from ..core.formats.write import write_export

    quiet = argparse.Namespace(**{**vars(args), "watch": False, "output": None, "clipboard": False})
    library = open_library(args)
    written: str | None = None
    path = Path(args.output)
    if path.exists() and not args.force:
        raise UserError(f"{args.output}: exists already (use --force to overwrite it)")
    while True:
        text, count = _render(library, quiet)
        if text != written:
            write_export(text, path, force=True)
            written = text
            print_error(f"wrote {counted(count, 'paper')} to {args.output} (watching for changes; ctrl-c stops)")
        while not any(library.files.changed_on_disk()):
            time.sleep(WATCH_POLL_S)
        time.sleep(WATCH_POLL_S)  # a burst of changes (a sync, an import) written once
        library.reload_if_changed()


def _render(library, args: argparse.Namespace) -> tuple[str, int]:
    """The export's text and how many papers it holds, as `cmd_export` makes it."""
    from ..core.formats.bibtex.writer import export_bibtex
    from ..core.formats.markdown import export_markdown

    views = select_views(library, status=args.status, tags=args.tag, search=args.search)
    if args.ids:
        wanted = {library.resolve_id(i) for i in args.ids}
        views = [v for v in views if v.id in wanted]
    if args.format == "markdown":
        return export_markdown(views, scores=args.scores), len(views)
    mode = "unicode" if args.unicode else "ascii" if args.ascii else "latex"
    return export_bibtex(views, abstract=not args.no_abstract, mode=mode), len(views)


def _keep_citekeys(library, ids: list[str]) -> None:
    """The exported keys may now be cited: a later import must not re-make them."""
    from ..core.atomic_storage import StoreError

    try:
        library.keep_citekeys(ids)
    except StoreError as error:  # the export itself is done: say what was not
        print_error(f"the export is complete, but that its keys were exported was not saved: {error}")
