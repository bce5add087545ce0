"""A venue's snapshot: its submissions with their direct replies, fetched a page at a
time into `snapshots/` in the library's folder, as the dated JSON Lines file (gzip) the
OpenReview importer reads (`formats.openreview`).

Safe at any moment of a kill:
- each page is appended as a gzip member of its own to `NAME.jsonl.gz.partial` and
  synced, and only then `NAME.fetch.json` (the resume state: the cursor after the last
  page, the partial file's length) is replaced atomically; a run that finds a state
  cuts the partial file back to the length it records and asks for the next page, so a
  page is never in the file twice nor half;
- the whole file is renamed to `NAME.jsonl.gz` when the last page is in, and only that
  complete file is imported; the state says "complete" until the import is done, so a
  run killed during the import imports the same file again (which changes nothing it
  had done) rather than fetching it anew.
"""

from __future__ import annotations

import gzip
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from ..atomic_storage import write_file_atomically
from .client import PAGE_SIZE, PUBLIC_API, FetchError, OpenReviewApi

SNAPSHOTS = "snapshots"
#: Seconds between two pages: the public API counts about a hundred requests in half an
#: hour against one user; a fetch of 20 pages with 3 s between is a trickle.
PAUSE_S = 3.0
#: The least pause allowed against the public API (`--pause` may only lengthen it there).
PUBLIC_MIN_PAUSE_S = 1.0
#: At most this many pages (requests) in one run: a bigger venue stops and resumes on
#: the next run, rather than a run that alone nears the API's limit.
MAX_PAGES_PER_RUN = 40
#: A partial snapshot older than this is started anew, not resumed: pages a day apart
#: would mix two days' reviews in one file.
RESUME_WITHIN = timedelta(hours=12)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def venue_slug(venue: str) -> str:
    """A venue id as a file name: "ICLR.cc/2026/Conference" -> "ICLR.cc_2026_Conference"."""
    return _UNSAFE.sub("_", venue.strip()).strip("._") or "venue"


def submission_invitation(venue: str) -> str:
    """API v2's invitation of a venue's submissions."""
    return f"{venue.strip().rstrip('/')}/-/Submission"


@dataclass(slots=True)
class Progress:
    """Where a fetch is: pages and papers so far, out of `total_pages`/`total` when known."""

    pages: int
    papers: int
    total: int | None
    resumed: bool = False
    waiting: float = 0.0  # seconds of the pause before the next page (0: fetching)
    per_page: int = PAGE_SIZE  # notes a page, as the first one held

    @property
    def total_pages(self) -> int | None:
        return None if self.total is None else max(1, -(-self.total // max(1, self.per_page)))

    def line(self) -> str:
        pages = f"page {self.pages}" + (f" of {self.total_pages}" if self.total_pages else "")
        papers = f"{self.papers:,}" + (f" of {self.total:,}" if self.total is not None else "") + " papers"
        return f"{pages} · {papers}"


@dataclass(slots=True)
class Snapshot:
    """A fetch done: the complete file, what it holds, what this run asked of the API."""

    path: Path
    pages: int
    papers: int
    requests: int
    resumed: bool


class Stopped(Exception):
    """The run made its share of requests (`MAX_PAGES_PER_RUN`); the next one resumes."""


def snapshots_folder(library_folder: Path) -> Path:
    return Path(library_folder) / SNAPSHOTS


def state_path(library_folder: Path, venue: str) -> Path:
    return snapshots_folder(library_folder) / f"{venue_slug(venue)}.fetch.json"


def read_state(library_folder: Path, venue: str) -> dict[str, Any] | None:
    """The resume state of `venue`'s fetch, None when there is none (or it is unreadable:
    then the fetch starts anew)."""
    try:
        state = orjson.loads(state_path(library_folder, venue).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return state if isinstance(state, dict) and isinstance(state.get("file"), str) else None


def finish(library_folder: Path, venue: str) -> None:
    """The snapshot is imported: forget the resume state."""
    try:
        state_path(library_folder, venue).unlink()
    except FileNotFoundError:
        pass


def fetch(
    library_folder: Path,
    venue: str,
    *,
    api: OpenReviewApi | None = None,
    invitation: str | None = None,
    pause: float | None = None,
    on_progress: Callable[[Progress], None] = lambda progress: None,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> Snapshot:
    """Fetch `venue`'s submissions with their direct replies into a dated snapshot in
    the library's `snapshots/` folder, resuming a fetch cut short; returns the complete
    file (not imported: the caller imports it, then calls `finish`).

    Raises a `client.FetchError` (offline, rate-limited, a login needed, a dropped
    connection: the pages so far are kept for the next run) or `Stopped`."""
    api = api or OpenReviewApi()
    invitation = invitation or submission_invitation(venue)
    if pause is None:
        pause = PAUSE_S
    if api.api.rstrip("/") == PUBLIC_API:
        pause = max(pause, PUBLIC_MIN_PAUSE_S)
    folder = snapshots_folder(library_folder)
    folder.mkdir(parents=True, exist_ok=True)
    state = read_state(library_folder, venue)
    started = now()
    if state is not None:
        fresh = _age(state, started) <= RESUME_WITHIN
        same = state.get("api") == api.api and state.get("invitation") == invitation
        if state.get("complete") and (folder / state["file"]).is_file():
            return Snapshot(folder / state["file"], state["pages"], state["papers"], 0, True)
        if not (fresh and same) or not (folder / (state["file"] + ".partial")).is_file():
            _drop(folder, state)
            state = None
    resumed = state is not None
    if state is None:
        for stale in folder.glob(f"{venue_slug(venue)}_*.jsonl.gz.partial"):
            stale.unlink(missing_ok=True)  # a run killed before its first state was saved
        stem = f"{venue_slug(venue)}_{started.strftime('%Y-%m-%dT%H%M%SZ')}"
        name, n = f"{stem}.jsonl.gz", 1
        while (folder / name).exists():  # two fetches in one second: never over the one before
            n += 1
            name = f"{stem}-{n}.jsonl.gz"
        state = {
            "venue": venue, "api": api.api, "invitation": invitation, "file": name, "started": started.isoformat(),
            "after": None, "pages": 0, "papers": 0, "bytes": 0, "total": None, "complete": False,
        }
        (folder / (name + ".partial")).write_bytes(b"")
        _save(library_folder, venue, state)
    final = folder / state["file"]
    partial = final.with_name(final.name + ".partial")
    on_progress(Progress(state["pages"], state["papers"], state["total"], resumed, 0.0, state.get("per_page") or PAGE_SIZE))
    this_run = 0
    while True:
        if this_run >= MAX_PAGES_PER_RUN:
            raise Stopped(
                f"stopped after {this_run} requests, this run's share; run the same command again later: "
                f"it resumes from page {state['pages'] + 1}"
            )
        if this_run:
            on_progress(Progress(state["pages"], state["papers"], state["total"], resumed, pause, state.get("per_page") or PAGE_SIZE))
            sleep(pause)
        page = api.page(invitation, state["after"])
        this_run += 1
        if page.count is not None:
            state["total"] = page.count
        if page.notes:
            _append(partial, state["bytes"], page.notes)
            state["bytes"] = partial.stat().st_size
            state["after"] = str(page.notes[-1].get("id") or "")
            state["pages"] += 1
            state["papers"] += len(page.notes)
            state.setdefault("per_page", len(page.notes))
        if not state["papers"]:
            raise FetchError(f"{api.api} has no submissions under the invitation {invitation}: is the venue id right?")
        # The total the first page announced says when the last is in (a server may send
        # fewer notes a page than asked for); without one, a short page is the last.
        total = state["total"]
        last = not page.notes or (state["papers"] >= total if total is not None else len(page.notes) < PAGE_SIZE)
        if last:
            os.replace(partial, final)
            state["complete"] = True
        _save(library_folder, venue, state)
        on_progress(Progress(state["pages"], state["papers"], state["total"], resumed, 0.0, state.get("per_page") or PAGE_SIZE))
        if last:
            return Snapshot(final, state["pages"], state["papers"], api.requests, resumed)


def _append(partial: Path, length: int, notes: list[dict[str, Any]]) -> None:
    """Cut `partial` back to `length` (a page a kill left half written), then add the
    page as a gzip member of its own, synced before the state that counts it is saved."""
    data = b"".join(orjson.dumps(note) + b"\n" for note in notes)
    with partial.open("r+b") as stream:
        stream.truncate(length)
        stream.seek(length)
        stream.write(gzip.compress(data, compresslevel=6, mtime=0))
        stream.flush()
        os.fsync(stream.fileno())


def _save(library_folder: Path, venue: str, state: dict[str, Any]) -> None:
    write_file_atomically(state_path(library_folder, venue), orjson.dumps(state, option=orjson.OPT_INDENT_2))


def _drop(folder: Path, state: dict[str, Any]) -> None:
    try:
        (folder / (state["file"] + ".partial")).unlink()
    except (FileNotFoundError, OSError):
        pass


def _age(state: dict[str, Any], now: datetime) -> timedelta:
    try:
        started = datetime.fromisoformat(str(state.get("started")))
    except ValueError:
        return timedelta.max
    return now - started if started.tzinfo else timedelta.max
