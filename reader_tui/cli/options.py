"""What the commands share besides printing: opening the library the options name,
selecting papers by --status/--tag/--search, and reading a status argument."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.library.library import Library
from ..core.model import PaperView, Status
from ..core.text.words import counted
from .output import EXIT_USAGE, UserError

if TYPE_CHECKING:
    from ..core.library.listing import Listing


def open_library(args: argparse.Namespace, *, background_writes: bool = False, rebuilding_catalog: bool = False) -> Library:
    from ..core.paths import default_seed_path, resolve_db_path

    folder = resolve_db_path(getattr(args, "db", None))
    seed = None if getattr(args, "no_seed", False) else default_seed_path()
    library = Library.open(folder, seed=seed, background_writes=background_writes, rebuilding_catalog=rebuilding_catalog)
    args.opened_library = library  # for what runs after the command (saved auto-exports)
    return library


def select_views(library: Library, *, status: Status | None, tags: Sequence[str], search: str | None) -> list[PaperView]:
    """The papers --status, --tag (all of them) and --search choose, as the TUI's list
    would show them (`core.library.listing.compute_listing`, the one listing policy):
    ranked by the search when there is one."""
    from ..core.library.listing import compute_listing
    from ..core.search.filters import ListFilter

    chosen = ListFilter.of(status=status, tags=tags, search=search)
    index = None
    if chosen.search:
        from ..core.library.indexing import search_index

        index = search_index(library)[0]  # the TUI's cached index, when the catalog has not changed since
    listing = compute_listing(library, list_filter=chosen, index=index)
    if listing.error:
        raise UserError(f"search: {listing.error}", EXIT_USAGE)
    if chosen.search:
        _say_coverage(search, listing)
    return library.views(listing.ids)


def _say_coverage(search: str, listing: Listing) -> None:
    """Tell (on stderr, so --json stays clean) when not every listed paper has every word."""
    if listing.every_word is None:
        return  # every paper listed has every word
    complete = listing.every_word
    rest = len(listing.ids) - complete - (1 if listing.named else 0)  # the paper its id named: no words to have
    if rest <= 0:
        return
    if complete == 0:
        message = f"search: no paper has every word of {search!r}; {counted(rest, 'paper')} with some of them"
    else:
        message = f"search: {counted(complete, 'paper')} with every word, then {rest} with most of them"
    print(message, file=sys.stderr)


def parse_status(text: str) -> Status:
    try:
        return Status.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
