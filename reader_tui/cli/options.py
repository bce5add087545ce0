"""What the commands share besides printing: opening the library the options name,
selecting papers by --status/--tag/--search, and reading a status argument."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..core.library.library import Library
from ..core.model import PaperView, Status
from ..core.text.words import counted
from .output import EXIT_USAGE, UserError


def open_library(args: argparse.Namespace, *, background_writes: bool = False, rebuilding_catalog: bool = False) -> Library:
    from ..core.paths import default_seed_path, resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    seed = None if getattr(args, "no_seed", False) else default_seed_path()
    library = Library.open(folder, seed=seed, background_writes=background_writes, rebuilding_catalog=rebuilding_catalog)
    args.opened_library = library  # for what runs after the command (saved auto-exports)
    return library


def select_views(library: Library, *, status: Status | None, tags: Sequence[str], search: str | None) -> list[PaperView]:
    """The papers --status, --tag (all of them) and --search choose, through the list
    filter the TUI uses (`core.search.filters`): ranked by the search when there is one."""
    from ..core.search.filters import ListFilter

    chosen = ListFilter.of(status=status, tags=tags, search=search)
    ids = chosen.keep(library.papers, library.annotations)
    if chosen.search:
        from ..core.library.indexing import search_index
        from ..core.search.query import QueryError

        try:
            # The TUI's cached index, when the catalog has not changed since it was made.
            hits = chosen.search_hits(search_index(library)[0], ids)
        except QueryError as error:
            raise UserError(f"search: {error}", EXIT_USAGE) from None
        ids = [hit.id for hit in hits]
        _say_coverage(search, hits)
    return library.views(ids)


def _say_coverage(search: str, hits) -> None:
    """Tell (on stderr, so --json stays clean) when not every listed paper has every word."""
    complete = getattr(hits, "complete", len(hits))
    named = 1 if getattr(hits, "found", None) else 0  # the paper its id named: no words to have
    rest = len(hits) - complete - named
    if rest <= 0:
        return
    if getattr(hits, "partial", False) or complete == 0:
        message = f"search: no paper has every word of {search!r}; {counted(rest, 'paper')} with some of them"
    else:
        message = f"search: {counted(complete, 'paper')} with every word, then {rest} with most of them"
    print(message, file=sys.stderr)


def parse_status(text: str) -> Status:
    try:
        return Status.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
