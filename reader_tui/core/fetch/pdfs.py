"""A few papers' pdfs, fetched on request (`reader-tui fetch --pdf ID...`) into `pdfs/` in
the library's folder: never a venue's worth (a pdf is a megabyte or more of the API's
bandwidth, and the limits count them too), at most `PDF_LIMIT` a run, paused between."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from ..atomic_storage import write_file_atomically
from .client import FetchError, OpenReviewApi

PDFS = "pdfs"
#: Pdfs in one run, at most.
PDF_LIMIT = 5
#: Seconds between two pdfs.
PDF_PAUSE_S = 5.0
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")


def pdf_path(library_folder: Path, note_id: str) -> Path:
    return Path(library_folder) / PDFS / f"{note_id}.pdf"


def fetch_pdfs(
    library_folder: Path,
    ids: list[str],
    *,
    api: OpenReviewApi | None = None,
    pause: float = PDF_PAUSE_S,
    sleep: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] = print,
) -> list[Path]:
    """Download the pdfs of `ids` (OpenReview note ids) that are not there yet; returns
    their files. Raises ValueError for a bad id or more than `PDF_LIMIT`, a FetchError when
    the API refuses (the pdfs done so far are kept)."""
    bad = [i for i in ids if not _ID.match(i)]
    if bad:
        raise ValueError(f"{bad[0]!r} is not an OpenReview id")
    wanted = list(dict.fromkeys(ids))
    if len(wanted) > PDF_LIMIT:
        raise ValueError(f"at most {PDF_LIMIT} pdfs a run (asked for {len(wanted)}): the API's limits count them too")
    api = api or OpenReviewApi()
    done = []
    asked = 0
    for note_id in wanted:
        path = pdf_path(library_folder, note_id)
        if path.is_file() and path.stat().st_size:
            say(f"{note_id}: already there: {path}")
            done.append(path)
            continue
        if asked:
            sleep(pause)
        asked += 1
        data = api.pdf(note_id)
        if not data.startswith(b"%PDF"):
            raise FetchError(f"{note_id}: the API's answer is not a pdf")
        write_file_atomically(path, data)
        say(f"{note_id}: {len(data):,} bytes: {path}")
        done.append(path)
    return done
