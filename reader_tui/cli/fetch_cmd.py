"""`reader-tui fetch VENUE_ID`: a new snapshot of a venue from OpenReview, imported, and
what moved since the one before; `reader-tui fetch --pdf ID...`: a few papers' pdfs.

The fetch itself is `core.fetch` (politeness, the resumable snapshot); the import is
`run_import`'s, the same as for a dump file. openreview-py is imported only here, when
a fetch runs."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from ..core.text.words import counted
from .import_cmd import run_import
from .options import open_library
from .output import EXIT_ERROR, EXIT_OK, EXIT_USAGE, UserError, print_error


def cmd_fetch(args: argparse.Namespace) -> int:
    from ..core.fetch.client import PUBLIC_API, OpenReviewApi

    if not args.venue and not args.pdf:
        raise UserError("fetch: name a venue (e.g. ICLR.cc/2026/Conference), or --pdf ID...", EXIT_USAGE)
    if args.pause is not None and args.pause < 0:
        raise UserError("fetch --pause: a number of seconds, 0 or more", EXIT_USAGE)
    library = open_library(args, rebuilding_catalog=True)
    api = OpenReviewApi(args.api or PUBLIC_API)
    if args.pdf:
        return _pdfs(library, api, args.pdf)
    return run_fetch(library, api, args.venue, invitation=args.invitation, pause=args.pause)


def run_fetch(library, api, venue: str, *, invitation: str | None = None, pause: float | None = None) -> int:
    """Fetch `venue` into a snapshot, import it, say what moved. Exit 1 when the fetch
    stopped (the pages so far are kept; the same command resumes)."""
    from ..core.fetch import changes
    from ..core.fetch.client import FetchError
    from ..core.fetch.snapshot import Stopped, fetch, finish

    folder = library.files.folder

    started = []

    def progress(at) -> None:
        # a line a page on stderr (none before the first answer: offline stays one line)
        if at.waiting:
            return
        if not started:
            started.append(True)
            if at.resumed and at.pages:
                _say(f"resuming the fetch of {venue} after page {at.pages} ({at.papers:,} papers)")
            return
        _say(f"fetched {at.line()}")

    try:
        snapshot = fetch(folder, venue, api=api, invitation=invitation, pause=pause, on_progress=progress)
    except FetchError as error:
        _stopped(error, venue, api)
        return EXIT_ERROR
    except Stopped as error:
        print_error(str(error))
        return EXIT_ERROR
    print(
        f"{venue}: {counted(snapshot.papers, 'paper')} in {counted(snapshot.pages, 'page')}, "
        f"{counted(snapshot.requests, 'request')} this run: {snapshot.path}"
    )
    before = changes.seen(library.papers)
    code = run_import(library, [snapshot.path], "openreview", None, None)
    if code != EXIT_OK:
        return code
    finish(folder, venue)
    moves = changes.compare(before, changes.seen(library.papers), library.papers)
    if moves.new == snapshot.papers:
        print("what moved: nothing yet, this is the first snapshot of these papers; fetch again later to see")
        return EXIT_OK
    print(moves.summary())
    for line in moves.lines():
        print(f"  {line}")
    return EXIT_OK


def _stopped(error: Exception, venue: str, api) -> None:
    """Say why the fetch stopped, in a line or two, and what to do."""
    from ..core.fetch.client import PASSWORD_ENV, TOKEN_ENV, USERNAME_ENV, LoginNeeded, Offline, RateLimited

    kept = "the pages fetched so far are kept: the same command resumes from the next one"
    if isinstance(error, RateLimited):
        when = error.resume_at
        if when is not None:
            local = when.astimezone()
            wait = max(0, int((when - datetime.now(UTC)).total_seconds() // 60) + 1)
            print_error(f"{error}")
            print_error(
                f"OpenReview takes requests again at {local:%H:%M} ({local:%Y-%m-%d}, in about {wait} min); "
                f"nothing is retried until then: {kept}"
            )
        else:
            print_error(f"{error}; nothing is retried: try again later ({kept})")
        return
    if isinstance(error, LoginNeeded):
        if api.logged_in:
            print_error(f"OpenReview refused the login's access to {venue}: {error}")
        else:
            print_error(
                f"OpenReview asks for a login to read {venue} ({error}): set {USERNAME_ENV} and {PASSWORD_ENV} "
                f"(or {TOKEN_ENV}) in the environment; they are used for the fetch and never stored"
            )
        return
    if isinstance(error, Offline):
        print_error(str(error))  # one line: nothing else to say, the pages so far are kept
        return
    print_error(f"{error}; {kept}")


def _pdfs(library, api, ids: list[str]) -> int:
    from ..core.fetch.client import FetchError
    from ..core.fetch.pdfs import fetch_pdfs

    try:
        fetch_pdfs(library.files.folder, ids, api=api)
    except ValueError as error:
        raise UserError(f"fetch --pdf: {error}", EXIT_USAGE) from None
    except FetchError as error:
        print_error(str(error))
        return EXIT_ERROR
    return EXIT_OK


def _say(message: str) -> None:
    print(f"reader-tui: {message}", file=sys.stderr, flush=True)
