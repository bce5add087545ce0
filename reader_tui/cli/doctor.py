"""`reader-tui doctor [--restore]` and `reader-tui annotations export|import`: the command
functions, without argument parsing (`main` parses; the `cmd_` functions unpack the arguments). Each prints
human-readable lines and returns the process exit code.

Messages carry file names and paper titles, which may hold terminal escapes: every line
goes through `text.sanitize` before it reaches the terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.atomic_storage import StoreError, describe_error, read_json_file
from ..core.library.doctor import check_store, plan_annotations_restore, plan_lines, report_lines, restore_from_backup
from ..core.library.library import Library
from .output import EXIT_USAGE, UserError

EXIT_OK, EXIT_ERROR = 0, 1


def run_doctor(library_folder: Path, restore: bool, *, yes: bool = False) -> int:
    """Check the store in `library_folder` and print what was found, and what a restore
    would keep and lose; with `restore`, repair it (after asking, on a terminal, when the
    damaged file may hold work the restore cannot bring back; `yes` skips the question).
    Exit 0 when the store is (now) fine, else 1."""
    folder = Path(library_folder)
    report = check_store(folder)
    for line in report_lines(report):
        _out(line)
    if report.ok:
        _out("the store is fine")
        return EXIT_OK
    plan = plan_annotations_restore(folder, report)
    for line in plan_lines(plan) if plan is not None else ():
        _out(line)
    if not restore:
        if plan is not None and plan.possible:
            _out("run `reader-tui doctor --restore` to do this (the damaged file is moved aside, not deleted)")
        elif not report.catalog.ok and report.catalog.exists:
            _out("run `reader-tui doctor --restore` to move the damaged catalog aside, then import your lists again")
        return EXIT_ERROR
    if plan is not None and plan.possible and plan.may_lose and not yes and not _confirmed("restore as above?"):
        _out("nothing changed (`reader-tui doctor --restore --yes` restores without asking)")
        return EXIT_ERROR
    result = restore_from_backup(folder)
    for line in result.messages:
        _out(line)
    after = check_store(folder)
    if after.ok:
        _out("the store is fine now")
        return EXIT_OK
    for line in after.all_problems:
        _err(line)
    return EXIT_ERROR


def _confirmed(question: str) -> bool:
    """The user's yes on a terminal; without one (a script, a pipe) the answer is no."""
    if not sys.stdin.isatty():
        return False
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def run_annotations_export(folder: Path, out_path: Path | None, *, force: bool = False) -> int:
    """Write the annotations of the store in `folder` as a JSON document to `out_path`
    (standard output when None; an existing file only with `force`). Exit 0 on success,
    1 with a one-line error otherwise."""
    from ..core.formats.write import ExportError, write_export
    from ..core.library.transfer import dumps_document, export_annotations

    folder = Path(folder)
    if not (folder / "catalog.json").exists() and not (folder / "annotations.json").exists():
        _err(f"{folder}: no store here, so no annotations to export")
        return EXIT_ERROR
    try:
        library = Library(folder)
        document = export_annotations(library)
        text = dumps_document(document)
        if out_path is None:
            sys.stdout.write(text)
            return EXIT_OK
        write_export(text, Path(out_path), force=force)
    except (StoreError, ExportError) as error:
        _err(str(error))
        return EXIT_ERROR
    except FileExistsError as error:
        _err(describe_error(error))
        return EXIT_ERROR
    _out(f"{len(document['papers'])} annotated papers written to {out_path}")
    return EXIT_OK


def run_annotations_import(folder: Path, path: Path, *, seed: Path | None = None) -> int:
    """Merge an annotations export (`path`, or "-" for standard input) into the store in
    `folder` (created from `seed` when new), later changes winning field by field.
    Exit 0 when it was merged (papers not in the library are reported), 1 otherwise."""
    from ..core.library.transfer import TransferError, check_document, import_annotations, parse_document

    try:
        if str(path) == "-":
            document = parse_document(sys.stdin.buffer.read())
        else:
            document = read_json_file(Path(path))
            if document is None:
                _err(f"{path}: no such file")
                return EXIT_ERROR
            check_document(document)
        library = Library.open(Path(folder), seed=seed)
        result = import_annotations(library, document)
    except TransferError as error:
        _err(f"{path}: {error}")
        return EXIT_ERROR
    except StoreError as error:
        _err(str(error))
        return EXIT_ERROR
    for line in result.problems:
        _err(f"{path}: {line}")  # the file, then the entry: "paper 'id'" or "paper #4"
    for line in result.unmatched[:20]:
        _out(line)
    if len(result.unmatched) > 20:
        _out(f"... and {len(result.unmatched) - 20} more not in this library")
    _out(result.summary())
    return EXIT_OK


def _out(line: str) -> None:
    from ..core.text.display import sanitize

    print(sanitize(line))


def _err(line: str) -> None:
    from ..core.text.display import sanitize

    print(f"reader-tui: {sanitize(line)}", file=sys.stderr)


def cmd_doctor(args: argparse.Namespace) -> int:
    from ..core.paths import resolve_db_path

    return run_doctor(resolve_db_path(getattr(args, "db", None)), args.restore, yes=args.yes)


def cmd_annotations(args: argparse.Namespace) -> int:
    from ..core.paths import default_seed_path, resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    if args.action == "export":
        if args.file:
            raise UserError("annotations export writes with -o FILE, it takes no file argument", EXIT_USAGE)
        return run_annotations_export(folder, Path(args.output) if args.output else None, force=args.force)
    if not args.file:
        raise UserError("annotations import needs the JSON file to read", EXIT_USAGE)
    seed = None if getattr(args, "no_seed", False) else default_seed_path()
    return run_annotations_import(folder, Path(args.file), seed=seed)
