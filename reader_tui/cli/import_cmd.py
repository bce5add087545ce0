"""`reader-tui import FILE...` and `reader-tui index`: the command functions, without
argument parsing (`main` parses; the `cmd_` functions unpack the arguments). Each returns the process exit code."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..core.formats.base import ImportFailure, add_annotation
from ..core.library.catalog.merge import ImportSummary
from ..core.library.library import Library
from ..core.text.words import counted
from .options import open_library
from .output import EXIT_USAGE, UserError

EXIT_OK, EXIT_ERROR = 0, 1


def run_import(
    library: Library,
    files: list[Path],
    format: str | None,
    venue: str | None,
    year: int | None,
    encoding: str | None = None,
    dry_run: bool = False,
    verbose: bool = False,
) -> int:
    """Read `files` (in `encoding`, see `core.formats.encoding`) and merge their papers
    into `library`; print what was done (one line of counts), then on stderr one line per
    merged record (into which paper, why), per skipped entry (why) and per warning, each
    naming its file and line, and each unreadable file. Exit 1 if a file failed.
    `dry_run`: say all of that, and write nothing. The merged records are one line unless
    `verbose`: a conference imported over the bundled list merges every one of its papers."""
    from ..core.formats.detect import read_any
    from .progress import Progress

    papers, problems, failures, annotations, labels, forums = [], [], [], {}, [], {}
    # By bytes: one big file (a conference's reviews) is most of an import, and its
    # reading moves the bar, with a rate and the time left.
    sizes = [_size(path) for path in files]
    with Progress(sum(sizes), in_bytes=True) as progress:
        for path, size in zip(files, sizes, strict=True):
            progress.step(f"reading {path.name}")
            base = progress.done
            try:
                result = read_any(path, format=format, venue=venue, year=year, encoding=encoding,
                                  on_open=lambda file, base=base: progress.watch(file, base))
            except ImportFailure as failure:
                failures.append(failure)
                continue
            finally:
                progress.watch(None)
                progress.done = base + size
                progress.step(f"read {path.name}")
            papers.extend(result.papers)
            problems.extend(result.problems)
            forums.update(result.forums)
            labels.extend(result.label(i) for i in range(len(result.papers)))
            for pid, values in result.annotations.items():
                add_annotation(annotations, pid, tuple(values.get("tags", ())), values.get("notes") or "")
        if not papers:
            nothing = ImportSummary()
            nothing.add_problems(problems)
            for line in nothing.details([]):
                _error(line)
            for failure in failures:
                _error(str(failure))
            if not failures:
                _error("nothing to import: no papers found")
            return EXIT_ERROR
        progress.step(f"merging {counted(len(papers), 'paper')} into the library")
        summary = library.plan_import(papers) if dry_run else library.import_papers(papers, annotations, forums)
    summary.add_problems(problems)
    if dry_run:
        brought = f"; notes or tags for {counted(len(annotations), 'paper')}" if annotations else ""
        print(f"dry run, nothing written: {counted(summary.entries, 'entry')} read: {summary}{brought}")
    else:
        print(f"{counted(summary.entries, 'entry')} read: {summary}")
    merges = len(summary.merges)
    if merges and not verbose:
        _error(f"{counted(merges, 'entry')} merged into papers already in the library (--verbose lists each, and why)")
    for line in summary.details(labels, merges=verbose):
        _error(line)
    for failure in failures:
        _error(str(failure))
    if not dry_run and (summary.new or summary.updated or summary.merged):
        from ..core.library.indexing import start_background_prepare

        # so that the next TUI start finds its indexes ready (see indexing.py)
        start_background_prepare(library.files.folder)
    return EXIT_ERROR if failures else EXIT_OK


def run_index(library: Library, *, quiet: bool = False) -> int:
    """Bring the library's search and related-papers caches up to date, printing a line
    per index as it is done (an app that started this reads them as they come)."""
    from ..core.library.indexing import prepare

    for name, seconds, cached in prepare(library):
        if quiet:
            continue
        try:
            print(f"{name} index: {'up to date, loaded' if cached else 'built'} in {seconds:.2f} s", flush=True)
        except BrokenPipeError:
            quiet = True  # the reader went away (an app quit): finish the caches anyway
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK


def _error(message: str) -> None:
    from ..core.text.display import sanitize

    print(f"reader-tui: {sanitize(message)}", file=sys.stderr)


def cmd_import(args: argparse.Namespace) -> int:
    encoding = getattr(args, "encoding", None)
    if encoding is not None:
        from ..core.formats.encoding import encoding_name

        try:  # before the library is opened: a misspelt name changes nothing
            encoding_name(encoding)
        except ValueError as error:
            raise UserError(f"--encoding: {error}", EXIT_USAGE) from None
    # An import is how a lost catalog comes back: it may open a store whose catalog is missing.
    library = open_library(args, rebuilding_catalog=True)
    if args.files == ["zotero"] and not Path("zotero").exists():
        from .zotero_cmd import run_zotero_import

        return run_zotero_import(library, args)
    files = [Path(name) for name in args.files]
    return run_import(library, files, args.format, args.venue, args.year, encoding, dry_run=args.dry_run, verbose=args.verbose)


def cmd_index(args: argparse.Namespace) -> int:
    return run_index(open_library(args), quiet=args.quiet)


def _size(path: Path) -> int:
    """The bytes of `path` on disk (0 when it cannot be read: the import says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
