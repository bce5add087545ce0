"""`reader-tui export`: BibTeX, Markdown, CSL-JSON or RIS to standard output, a file or the clipboard."""

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
    if getattr(args, "watch", False) and getattr(args, "save", False):
        raise UserError("choose one of --watch (while it runs) and --save (for good)", EXIT_USAGE)
    if getattr(args, "watch", False):
        if not args.output:
            raise UserError("--watch keeps a file up to date: name it with -o FILE", EXIT_USAGE)
        return _watch(args)
    if getattr(args, "save", False):
        return _save(args)
    library = open_library(args)
    views = select_views(library, status=args.status, tags=args.tag, search=args.search)
    if args.ids:
        wanted = {library.resolve_id(i) for i in args.ids}
        views = [v for v in views if v.id in wanted]
    losses: list[str] = []
    if args.format == "markdown":
        text = export_markdown(views, scores=args.scores)
    elif args.format in ("csljson", "ris"):
        from ..core.formats.exporters import export_losses_of, export_text

        text = export_text(args.format, views)
        for what, count in export_losses_of(args.format, views).items():
            losses.append(f"{args.format}: {counted(count, 'paper')} with {what}, which the format cannot hold"
                          + (" (reader-tui reads it back from the item's custom data)" if args.format == "csljson" else ""))
    else:
        if args.unicode and args.ascii:
            raise UserError("choose one of --unicode and --ascii", EXIT_USAGE)
        mode = "unicode" if args.unicode else "ascii" if args.ascii else "latex"
        text = export_bibtex(views, abstract=not args.no_abstract, mode=mode)
        for kind, count in export_losses(views, abstract=not args.no_abstract, mode=mode).items():
            # One line per kind of loss, so that nothing is changed without a word.
            if kind == CONTROLS_LEFT_OUT:  # in every mode: no --unicode keeps them
                losses.append(f"{count} control character{'s' if count != 1 else ''} (ESC, BEL, DEL...) left out of"
                              " titles, authors, venues, abstracts and other fields (notes and tags keep them)")
                continue
            losses.append(f"{count} character{'s' if count != 1 else ''} with no LaTeX form {kind} in titles, authors,"
                          f" venues{' or abstracts' if mode == 'ascii' else ''} (--unicode keeps them)")
    # Said once the export is out: a file that exists, a missing folder or no clipboard
    # is then the only line, not losses from an export that was never written.
    done = None
    if args.clipboard:
        try:
            copy_to_system_clipboard(text)
        except ClipboardUnavailable as error:
            raise UserError(str(error)) from None
        done = f"copied {counted(len(views), 'paper')} to the clipboard"
    elif args.output:
        try:
            write_export(text, Path(args.output), force=args.force)
        except FileExistsError:
            raise UserError(f"{args.output}: exists already (use --force to overwrite it)") from None
        except ExportError as error:
            raise UserError(str(error)) from None
        # Only now, when the bytes are written (a FIFO's reader has them): true.
        done = f"wrote {counted(len(views), 'paper')} to {args.output}"
    else:
        sys.stdout.write(text)
    for line in losses:
        print_error(line)
    if done:
        print_error(done)
    if args.format != "markdown":
        _keep_citekeys(library, [v.id for v in views])
    return EXIT_OK


#: How often `--watch` looks at the library's files (a stat each: cheap).
WATCH_POLL_S = 0.5


def _spec(args: argparse.Namespace):
    """The export the options describe, as the core keeps it up to date (`auto_exports`)."""
    import os

    from ..core.library.auto_exports import ExportSpec

    output = str(args.output)
    path = output if output.startswith("~") else os.path.abspath(output)
    mode = "unicode" if args.unicode else "ascii" if args.ascii else "latex"
    return ExportSpec(
        path, format=args.format, status=args.status.value if args.status else None, tags=tuple(args.tag),
        search=(args.search or "").strip(), ids=tuple(args.ids), abstract=not args.no_abstract, mode=mode,
        scores=bool(args.scores),
    )


def _watch(args: argparse.Namespace) -> int:
    """Write the export, then again (atomically, only when its text changed) shortly after
    each change of the library by any process, until interrupted (ctrl-c, or a sync that
    pulled in changes: those count as changes too). One line on stderr per write."""
    import time

    from ..core.library.auto_exports import AutoExportError, Memo, refresh

    library = open_library(args)
    spec = _spec(args)
    memo = Memo()
    if spec.file.exists() and not args.force:
        raise UserError(f"{args.output}: exists already (use --force to overwrite it)")
    first = True
    while True:
        try:
            written = refresh(library, spec, memo=memo)
        except AutoExportError as error:
            raise UserError(str(error)) from None
        if written.rewritten or first:
            print_error(f"wrote {counted(len(written.ids), 'paper')} to {args.output} (watching for changes; ctrl-c stops)")
        first = False
        while not any(library.files.changed_on_disk()):
            time.sleep(WATCH_POLL_S)
        time.sleep(WATCH_POLL_S)  # a burst of changes (a sync, an import) written once
        library.reload_if_changed()


def _save(args: argparse.Namespace) -> int:
    """`export -o FILE --save`: write it now and keep it up to date from now on."""
    from ..core.library.auto_exports import AutoExportError, refresh, save

    if not args.output or args.clipboard:
        raise UserError("--save keeps a file up to date: name it with -o FILE", EXIT_USAGE)
    if args.unicode and args.ascii:
        raise UserError("choose one of --unicode and --ascii", EXIT_USAGE)
    spec = _spec(args)
    if spec.file.exists() and not spec.file.is_file():
        raise UserError(f"{args.output}: not a regular file; --save keeps a file up to date (-o FILE without --save "
                        "writes into it once)", EXIT_USAGE)
    library = open_library(args)
    try:
        written = refresh(library, spec, create=args.force)
    except AutoExportError as error:
        raise UserError(str(error)) from None
    replaced = save(library, spec)
    print_error(f"wrote {counted(len(written.ids), 'paper')} to {args.output}; "
                f"{'still' if replaced else 'now'} rewritten after each change of the library "
                "(`reader-tui auto-export` lists the files kept so)")
    if spec.format != "markdown":
        _keep_citekeys(library, list(written.ids))
    return EXIT_OK


def cmd_auto_export(args: argparse.Namespace) -> int:
    """`reader-tui auto-export [list | write | remove FILE]`: the saved auto-exports."""
    from ..core.library.auto_exports import AutoExportError, remove, saved

    action, rest = args.action or "list", list(args.files)
    if action != "remove" and rest:
        raise UserError(f"auto-export {action} takes no FILE", EXIT_USAGE)
    library = open_library(args)
    if action == "remove":
        if len(rest) != 1:
            raise UserError("auto-export remove FILE: name one file", EXIT_USAGE)
        gone = remove(library, rest[0])
        if gone is None:
            raise UserError(f"{rest[0]}: not an auto-export of this library (`reader-tui auto-export` lists them)")
        print(f"{gone.path}: no longer kept up to date (the file stays as it is)")
        return EXIT_OK
    if action == "write":
        refresh_auto_exports(library, quiet=False)
        return EXIT_OK
    specs = saved(library.settings)
    if not specs:
        print("no auto-exports: `reader-tui export ... -o FILE --save` keeps FILE up to date")
    for spec in specs:
        print(f"error: {spec}" if isinstance(spec, AutoExportError) else f"{spec.path}\t{spec.describe()}")
    return EXIT_OK


def refresh_auto_exports(library, *, quiet: bool = True) -> bool:
    """Bring the library's saved auto-exports up to date: one line on stderr per file
    rewritten (or, unless `quiet`, up to date) and per file that cannot be written.
    False when one could not be."""
    from ..core.library.auto_exports import exported_ids, refresh_saved

    written, errors = refresh_saved(library)
    for done in written:
        if done.rewritten or not quiet:
            verb = "wrote" if done.rewritten else "up to date:"
            print_error(f"auto-export: {verb} {counted(len(done.ids), 'paper')} {'to ' if done.rewritten else 'in '}{done.spec.path}")
    for line in errors:
        print_error(line)
    if ids := exported_ids(written):
        _keep_citekeys(library, ids)
    return not errors


def store_signatures(args: argparse.Namespace) -> tuple:
    """The library files' signatures (a stat each) before a command that may change them."""
    from ..core.library.files import ANNOTATIONS_FILE, CATALOG_FILE, FileSignature
    from ..core.paths import resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    return FileSignature.of(folder / CATALOG_FILE), FileSignature.of(folder / ANNOTATIONS_FILE)


def after_command(args: argparse.Namespace, before: tuple) -> None:
    """After a command that changed the library: its saved auto-exports rewritten (the
    library the command opened is reused; nothing is opened when nothing changed)."""
    from ..core.library.auto_exports import SETTING
    from ..core.paths import resolve_db_path

    if store_signatures(args) == before:
        return
    folder = resolve_db_path(getattr(args, "db", None))
    library = getattr(args, "opened_library", None)
    if library is None or library.files.folder != folder:
        library = open_library(args)
    else:
        library.reload_if_changed()  # what another process (or this one, by other means) wrote
    if library.settings.get(SETTING):
        refresh_auto_exports(library)


def _keep_citekeys(library, ids: list[str]) -> None:
    """The exported keys may now be cited: a later import must not re-make them."""
    from ..core.atomic_storage import StoreError

    try:
        library.keep_citekeys(ids)
    except StoreError as error:  # the export itself is done: say what was not
        print_error(f"the export is complete, but that its keys were exported was not saved: {error}")
