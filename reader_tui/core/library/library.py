"""The Library: the catalog and the user's annotations in memory, kept in step with disk.

Every change goes through a `Library` method, which updates memory at once, tells the
subscribers which papers changed, records it for undo, and writes it: straight away
(the CLI) or on a background thread (the TUI, so typing never waits on the disk).
A write is a TinyDB transaction on the annotations file (`StoreFiles.writing_annotations`):
it re-reads the file under a lock and upserts only the documents and fields that changed,
so a second process's changes to other papers or other fields survive.

A library whose folder cannot be written opens read-only (`Library.read_only`): it reads
as usual, and every write fails with one `ReadOnlyError` line naming the folder.
"""

from __future__ import annotations

import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic_storage import ReadOnlyError, StoreError, describe_error
from ..model import EDITABLE_FIELDS, Annotation, Paper, PaperView, Status, now_iso
from ..text.display import one_line
from ..text.words import counted
from .catalog.records import Catalog
from .files import (
    ANNOTATIONS_TABLE,
    AnnotationsRead,
    StoreFiles,
    annotation_doc_id,
    annotation_records,
    folder_writable,
    put_annotation_records,
    table,
)
from .reviews_store import REVIEWS_FILE, ReviewStore
from .sync.state import merge_cut_short
from .writer import BackgroundWriter, BlockedWrite

if TYPE_CHECKING:
    from ..reviews import Forum

    # Imported where an import or the tag counts run: not needed to show the list.
    from .catalog.merge import ImportSummary

Listener = Callable[[frozenset[str] | None], None]
"""Called with the ids of the papers that changed, or None when everything may have."""

_ANNOTATION_FIELDS = ("status", "tags", "notes", "overrides")
#: The annotation of every untouched paper's view (`Library.view`): never changed.
_UNTOUCHED = Annotation()
BACKUP_INTERVAL_S = 3600
#: The setting that lists the papers whose generated keys were exported (`keep_citekeys`).
EXPORTED_CITEKEYS = "exported_citekeys"


class IdError(LookupError):
    """An id or prefix that names no paper, or more than one. `str()` is the message."""


@dataclass(frozen=True, slots=True)
class Change:
    """One user action: `field` of each paper went from `before[id]` to `after[id]`."""

    field: str
    before: dict[str, Any]
    after: dict[str, Any]

    def inverse(self) -> Change:
        return Change(self.field, self.after, self.before)

    def describe(self, title: Callable[[str], str]) -> str:
        """The change in words, for a person, what changed first (a status line may cut
        the end): `status unread → read: "SOCOP: …"`, `tags +llm −rl: 3 papers`,
        `notes: "…"`. `title(id)` names one paper."""
        ids = list(self.after)
        what = f'"{title(ids[0])}"' if len(ids) == 1 else f"{len(ids)} papers"
        if self.field == "status":
            befores = {_status_name(v) for v in self.before.values()}
            afters = {_status_name(v) for v in self.after.values()}
            before = befores.pop() if len(befores) == 1 else "various"
            after = afters.pop() if len(afters) == 1 else "various"
            return f"status {before} → {after}: {what}"
        if self.field == "tags":
            added: list[str] = []
            removed: list[str] = []
            for pid in ids:
                old = {t.casefold(): t for t in self.before[pid]}
                new = {t.casefold(): t for t in self.after[pid]}
                added += [t for k, t in new.items() if k not in old and t not in added]
                removed += [t for k, t in old.items() if k not in new and t not in removed]
            parts = [f"+{t}" for t in added] + [f"−{t}" for t in removed]
            return f"tags {' '.join(parts) or 'reordered'}: {what}"
        if self.field == "notes":
            emptied = all(not str(v).strip() for v in self.after.values())
            return f"notes{' emptied' if emptied else ''}: {what}"
        if self.field == "overrides":
            keys = sorted({
                k for pid in ids for k in {*self.before[pid], *self.after[pid]}
                if self.before[pid].get(k) != self.after[pid].get(k)
            })
            fields = ", ".join("citation key" if k == "citekey" else k for k in keys) or "fields"
            return f"{fields} edited: {what}"
        return f"{self.field}: {what}"


def undo_words(library: Library, change: Change, *, redo: bool) -> str:
    """What an undo (or redo) of `change` did, in words, what changed first:
    `undid status read → unread: "SOCOP: …"` (the main list and triage both say it)."""

    def title(pid: str) -> str:
        return one_line(library.view(pid).title, 36) if pid in library.papers else pid

    return f"redid {change.describe(title)}" if redo else f"undid {change.inverse().describe(title)}"


def _status_name(value: Any) -> str:
    return value.value if isinstance(value, Status) else str(value)


class Library:
    """A reading list: papers, annotations, settings; change events; undo and redo."""

    def __init__(self, folder: Path, *, background_writes: bool = False) -> None:
        self.files = StoreFiles(Path(folder))
        self.read_only = not folder_writable(self.files.folder)
        """True when the folder cannot be written: reading works, every write is refused."""
        self.notices: list[str] = []
        """One-line remarks from opening (a backup that could not be taken), for the TUI:
        see `on_notice`."""
        self._notice_listeners: list[Callable[[str], None]] = []
        self._notices_lock = threading.Lock()
        self.papers: Catalog = Catalog({}, self.files.catalog_path)
        self.review_store = ReviewStore(self.files.folder / REVIEWS_FILE)
        """Each paper's forum (reviews, comments, decision), read on demand: `forum`."""
        self.annotations: dict[str, Annotation] = {}
        self.settings: dict[str, Any] = {}
        self._listeners: list[Listener] = []
        self._undo: list[Change] = []
        self._redo: list[Change] = []
        self._writer = BackgroundWriter() if background_writes else None
        self._shown = False
        """The TUI's first frame is on screen (`start_background_work`)."""
        # For `apply_disk`: changes made here are counted, and each paper field, setting
        # and the catalog remembers the count of its last change, so a disk read taken
        # at count N knows which of the Library's values are newer than what it read.
        self._changes_made = 0
        self._field_changed_at: dict[tuple[str, str], int] = {}
        self._setting_changed_at: dict[str, int] = {}
        self._catalog_changed_at = 0
        self._last_disk_read = 0
        self._alias_index: tuple[Catalog, dict[str, str]] | None = None
        self._load_catalog()
        self._load_annotations()

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        folder: Path,
        *,
        seed: Path | None = None,
        background_writes: bool = False,
        rebuilding_catalog: bool = False,
    ) -> Library:
        """Open the store in `folder`, creating it when new. A new store (no catalog yet)
        first takes in the papers of `seed`.

        A store whose catalog is missing while annotations are there is not new: it is
        refused with a StoreError saying what to do, never seeded over, unless
        `rebuilding_catalog` (the caller is about to import the user's lists again).
        A read-only folder opens read-only, taking no lock, backup or seed. Raises
        StoreError on an unreadable store.
        """
        if merge_cut_short(Path(folder)):
            from .sync.repository import restore_cut_merge

            for note in restore_cut_merge(Path(folder)):
                print(f"reader-tui: {note}", file=sys.stderr)
        library = cls(Path(folder), background_writes=background_writes)
        is_new = library.files.catalog_signature is None
        if is_new and library.annotations and not rebuilding_catalog:
            raise StoreError(missing_catalog_message(library.files.folder, len(library.annotations)))
        if library.read_only:
            return library
        if is_new and seed is not None and not library.annotations:
            from ..formats.seed import read_seed

            library.import_papers(read_seed(seed).papers)
        if library._writer is None:
            # Scripted commands take a backup at most hourly, so a burst of them cannot
            # rotate away the backups of the last real session.
            library._tidy_and_back_up(min_age_s=BACKUP_INTERVAL_S)
        else:
            # An interactive session (the TUI) always starts with a backup, taken by its
            # writer thread as its first write, so before any change of the session is
            # written (every write goes through that thread). It waits for the first
            # frame (`start_background_work`): the UI thread neither waits on the lock, two
            # reads and an fsync, nor shares the CPU with them (nor with importing filelock).
            library._writer.begin_with(lambda: library._tidy_and_back_up(min_age_s=0))
        return library

    def start_background_work(self) -> None:
        """The TUI's first frame is on screen: what waited for it may begin. The writer
        thread (with the start's backup: until then, or for at most 2 s, writes wait in
        their order; `flush` and `close` do not wait for this), and the reading ahead of
        the catalog's record texts. Not before that frame, which reads only the records
        it shows: on a machine with no core free, the reading thread took 40-50 ms from it."""
        self._shown = True
        if self._writer is not None:  # the TUI's library; a command reads only what it uses
            self._writer.release()
            self.papers.read_ahead()

    def _tidy_and_back_up(self, *, min_age_s: float) -> None:
        """Remove what killed writers left behind and back the annotations up. Never
        raises: a full disk must not keep the user from their list (the backup is a
        precaution, and the next start tries again), nor stop the writer thread that
        runs this in the TUI."""
        try:
            self.files.remove_stale_temp_files()
            self.files.backup_annotations(min_age_s=min_age_s)
        except Exception as error:  # noqa: BLE001 - said in a notice, see above
            self._notice(f"{describe_error(error)}: no backup was taken")

    def on_notice(self, listener: Callable[[str], None]) -> None:
        """Call `listener` with each of the opening's one-line remarks (`notices`): those
        made so far at once, later ones (the TUI's backup is taken on the writer thread)
        on the thread that makes them."""
        with self._notices_lock:
            self._notice_listeners.append(listener)
            made = list(self.notices)
        for notice in made:
            listener(notice)

    def _notice(self, notice: str) -> None:
        with self._notices_lock:
            self.notices.append(notice)
            listeners = list(self._notice_listeners)
        for listener in listeners:
            listener(notice)

    def _load_catalog(self) -> None:
        records, signature = self.files.read_catalog()
        self.papers = self._catalog({} if records is None else records)
        self.files.catalog_signature = signature

    def _catalog(self, records: Mapping[str, Any]) -> Catalog:
        # An interactive session (writes in the background: the TUI) draws a damaged record
        # as a placeholder and lists it in `papers.problems`; a command fails with its line.
        interactive = self._writer is not None
        catalog = Catalog(records, self.files.catalog_path, placeholders=interactive)
        if interactive and self._shown:
            # The TUI builds every Paper soon after it reads a catalog: the records' texts
            # are read meanwhile, off the UI thread (a command reads what it uses; the
            # catalog of the open waits for the first frame, `start_background_work`).
            catalog.read_ahead()
        return catalog

    def _load_annotations(self) -> None:
        found, signature = self.files.read_annotations()
        self.annotations = _annotations_from_documents(found, self.files.annotations_path)
        self.settings = dict(found.settings) if found else {}
        self.files.annotations_signature = signature

    # -- reading ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.papers

    def annotation(self, paper_id: str) -> Annotation:
        """The paper's annotation (a fresh default one when the user never touched it)."""
        return self.annotations.get(paper_id) or Annotation()

    def view(self, paper_id: str) -> PaperView:
        """The paper as the user sees it. Raises KeyError for an unknown id.

        The views of untouched papers share one default annotation, read only (nothing
        changes a view's annotation: a change copies it, see `_apply`): the search index
        keeps a view of every paper, and 20,000 fresh defaults were 5 MB."""
        return PaperView(self.papers[paper_id], self.annotations.get(paper_id) or _UNTOUCHED)

    def views(self, ids: Iterable[str] | None = None) -> list[PaperView]:
        """Views of `ids` (default: every paper, in catalog order)."""
        return [self.view(pid) for pid in (self.papers if ids is None else ids)]

    def forum(self, paper_id: str) -> Forum | None:
        """The paper's reviews, comments and decision (`core.reviews.Forum`), read from
        the reviews store now (a fraction of a millisecond; any thread may call it), or
        None when none were imported. Raises StoreError naming the file when the reviews
        store is damaged."""
        return self.review_store.forum(paper_id)

    def resolve_id(self, prefix: str) -> str:
        """The id of the one paper whose id starts with `prefix` (case-insensitive for
        abbreviations), or, when no id does, whose other ids do (`Paper.aliases`: the
        OpenReview id of a seed paper merged with the OpenReview list). Raises IdError
        when none or several do."""
        prefix = prefix.strip()
        if prefix in self.papers:
            return prefix
        if not prefix:
            raise IdError("an empty id names no paper")
        low = prefix.lower()
        found = [pid for pid in self.papers if pid.lower().startswith(low)]
        if not found:
            aliases = self._aliases()
            if prefix in aliases:
                return aliases[prefix]
            found = sorted({pid for alias, pid in aliases.items() if alias.lower().startswith(low)})
        if not found:
            raise IdError(f"no paper has an id starting with {prefix!r}")
        if len(found) > 1:
            shown = ", ".join(sorted(found)[:5]) + (", ..." if len(found) > 5 else "")
            raise IdError(f"{prefix!r} is ambiguous: {len(found)} papers match ({shown})")
        return found[0]

    def _aliases(self) -> dict[str, str]:
        # Built on the first miss only: it makes every Paper of the catalog.
        if self._alias_index is None or self._alias_index[0] is not self.papers:
            index = {alias: pid for pid in self.papers for alias in self.papers[pid].aliases}
            self._alias_index = (self.papers, index)
        return self._alias_index[1]

    def exported_citekeys(self) -> frozenset[str]:
        """Ids of the papers whose generated keys were exported (`keep_citekeys`)."""
        value = self.settings.get(EXPORTED_CITEKEYS)
        return frozenset(key for key in value if isinstance(key, str)) if isinstance(value, dict) else frozenset()

    def keep_citekeys(self, ids: Iterable[str]) -> None:
        """Remember that the keys of `ids` left the library (a BibTeX export, a copied
        `\\cite`): a key made from a derived title is then never re-made from the real
        title a later import brings, since a document may cite it. Only such papers are
        remembered, so the setting stays small; a read-only library remembers nothing."""
        known = self.exported_citekeys()
        new = {
            pid: self.view(pid).citekey
            for pid in ids
            if pid not in known and pid in self.papers and self.papers[pid].title_derived
        }
        if new and not self.read_only:
            old = self.settings.get(EXPORTED_CITEKEYS)
            self.set_setting(EXPORTED_CITEKEYS, {**(old if isinstance(old, dict) else {}), **new})

    def all_tags(self) -> dict[str, int]:
        """Every tag in use (as first typed) with how many of the library's papers carry
        it, most used first (`core.stats.tag_counts`, the stats' own count)."""
        from ..stats import tag_counts

        return tag_counts(a.tags for pid, a in self.annotations.items() if a.tags and pid in self.papers)

    def citekeys(self) -> dict[str, str]:
        """Lower-cased citation key -> paper id, for every paper."""
        return {self.view(pid).citekey.lower(): pid for pid in self.papers}

    # -- events -------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with the changed paper ids after every change (on the thread
        that made it, or that noticed another process's change)."""
        self._listeners.append(listener)

    def _notify(self, ids: frozenset[str] | None) -> None:
        for listener in list(self._listeners):
            listener(ids)

    # -- changing annotations -------------------------------------------------------------

    def set_status(self, ids: Iterable[str], status: Status) -> None:
        """Set the status of every paper in `ids`."""
        self._change("status", {pid: status for pid in ids})

    def toggle_read(self, ids: Iterable[str]) -> None:
        """Read becomes unread; anything else becomes read (each paper on its own)."""
        self._change(
            "status",
            {pid: Status.UNREAD if self.annotation(pid).status is Status.READ else Status.READ for pid in ids},
        )

    def set_tags(self, paper_id: str, tags: Iterable[str]) -> None:
        """Replace a paper's tags (duplicates by case dropped, empty tags refused)."""
        self._change("tags", {paper_id: clean_tags(tags)})

    def add_tags(self, ids: Iterable[str], tags: Iterable[str]) -> None:
        """Add `tags` to each paper that lacks them (case-insensitively)."""
        new = clean_tags(tags)
        self._change("tags", {pid: clean_tags(self.annotation(pid).tags + new) for pid in ids})

    def remove_tags(self, ids: Iterable[str], tags: Iterable[str]) -> None:
        """Remove `tags` (case-insensitively) from each paper."""
        gone = {t.casefold() for t in clean_tags(tags)}
        self._change(
            "tags",
            {pid: tuple(t for t in self.annotation(pid).tags if t.casefold() not in gone) for pid in ids},
        )

    def retag(self, ids: Iterable[str], *, add: Iterable[str] = (), remove: Iterable[str] = ()) -> None:
        """Add and remove tags (case-insensitively) on each paper, as one change and one write."""
        new = clean_tags(add)
        gone = {t.casefold() for t in clean_tags(remove)} - {t.casefold() for t in new}
        self._change(
            "tags",
            {
                pid: clean_tags([t for t in self.annotation(pid).tags if t.casefold() not in gone] + list(new))
                for pid in ids
            },
        )

    def set_notes(self, paper_id: str, text: str) -> None:
        """Replace a paper's notes. Consecutive edits of one paper's notes undo as one."""
        self._change("notes", {paper_id: text}, coalesce=True)

    def edit(self, paper_id: str, **values: Any) -> None:
        """Override catalog fields by hand (title, authors, url, citekey). An empty value
        removes the override. Raises ValueError for a bad or duplicate citekey."""
        unknown = set(values) - set(EDITABLE_FIELDS)
        if unknown:
            raise ValueError(f"cannot edit {', '.join(sorted(unknown))}")
        if values.get("citekey"):
            self._check_citekey(paper_id, values["citekey"])
        if "title" in values and not str(values["title"]).strip() and not self.papers[paper_id].title:
            raise ValueError("a title cannot be empty")
        overrides = dict(self.annotation(paper_id).overrides)
        for key, value in values.items():
            if key == "authors" and value is not None:
                value = [a.strip() for a in value if a.strip()]
            if value:
                overrides[key] = value
            else:
                overrides.pop(key, None)
        self._change("overrides", {paper_id: overrides})

    def _check_citekey(self, paper_id: str, key: str) -> None:
        from ..text.citekeys import validate_citekey

        problem = validate_citekey(key)
        if problem:
            raise ValueError(problem)
        owner = self.citekeys().get(key.lower())
        if owner is not None and owner != paper_id:
            raise ValueError(f"citation key {key!r} is already used by paper {owner}")

    def _change(self, field_name: str, after: dict[str, Any], *, coalesce: bool = False) -> None:
        for pid in after:
            if pid not in self.papers:
                raise IdError(f"no paper has the id {pid!r}")
        before = {pid: getattr(self.annotation(pid), field_name) for pid in after}
        after = {pid: value for pid, value in after.items() if before[pid] != value}
        if not after:
            return
        change = Change(field_name, {pid: before[pid] for pid in after}, after)
        if coalesce and self._undo and self._undo[-1].field == field_name and self._undo[-1].after.keys() == after.keys():
            change = Change(field_name, self._undo[-1].before, after)
            self._undo.pop()
        self._undo.append(change)
        self._redo.clear()
        self._apply(change)

    def undo(self) -> Change | None:
        """Take back the last change; returns it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        change = self._undo.pop()
        self._redo.append(change)
        self._apply(change.inverse())
        return change

    def redo(self) -> Change | None:
        """Do again the last undone change; returns it, or None when there is none."""
        if not self._redo:
            return None
        change = self._redo.pop()
        self._undo.append(change)
        self._apply(change)
        return change

    def _apply(self, change: Change) -> None:
        when = now_iso()
        for pid, value in change.after.items():
            ann = self.annotation(pid).copy()
            _set_field(ann, change.field, value, when)
            self.annotations[pid] = ann
        self._persist(change.field, dict(change.after), when)
        # Counted only once the write is queued: a disk read that sees the old count
        # either finds the write pending or finds it on disk (see `read_disk`).
        self._changes_made += 1
        for pid in change.after:
            self._field_changed_at[(pid, change.field)] = self._changes_made
        self._notify(frozenset(change.after))

    def _persist(self, field_name: str, values: dict[str, Any], when: str) -> None:
        def write() -> None:
            with self.files.writing_annotations() as db:
                annotations = table(db, ANNOTATIONS_TABLE)
                stored = annotation_records(annotations, values)
                records = {}
                for pid, value in values.items():
                    ann = _annotation_or_default(stored.get(pid))
                    _set_field(ann, field_name, value, when)
                    records[pid] = {"paper_id": pid, **ann.to_dict()}
                put_annotation_records(annotations, records, self.files.annotations_path)

        self._write(write)

    # -- settings -------------------------------------------------------------------------

    def set_setting(self, key: str, value: Any) -> None:
        """Remember a setting (theme, saved searches...) with the library."""
        self.settings[key] = value

        self._write(lambda: self.files.set_settings({key: value}))
        self._changes_made += 1
        self._setting_changed_at[key] = self._changes_made

    # -- importing ------------------------------------------------------------------------

    def import_papers(
        self,
        incoming: Sequence[Paper],
        annotations: Mapping[str, Mapping[str, Any]] | None = None,
        forums: Mapping[str, Any] | None = None,
    ) -> ImportSummary:
        """Add `incoming` papers to the catalog in one atomic write: a paper already there
        (same id, DOI, url, title or abstract) is merged, not doubled; every annotation stays.

        `annotations` (by incoming id: "tags", "notes") are added to the user's own in a
        second write: tags joined; notes set when the paper has none, else appended unless
        the paper's note already holds them (compared as `_note_text`, so re-importing an
        export of this library never doubles a note). The importers' problems are not
        counted here: the caller adds them (`ImportSummary.add_problems`).

        Writes and applies on the calling thread; the TUI splits the two halves
        (`write_import` on a worker, `apply_import` on the UI thread).
        """
        return self.apply_import(self.write_import(incoming, annotations, forums))

    def plan_import(self, incoming: Sequence[Paper]) -> ImportSummary:
        """What `import_papers` would do with `incoming`, written nowhere: the summary
        (new, updated, merged, unchanged, and the merge details) of merging them into the
        catalog on disk. Reviews and the file's tags and notes are not counted."""
        from .catalog.merge import ImportSummary, merge_papers

        summary = ImportSummary()
        merge_papers(
            self.files.catalog_records(), incoming, summary, now_iso(), self._effective_citekey,
            self.files.catalog_path, pinned=self.exported_citekeys(),
        )
        return summary

    def write_import(
        self,
        incoming: Sequence[Paper],
        annotations: Mapping[str, Mapping[str, Any]] | None = None,
        forums: Mapping[str, Any] | None = None,
    ) -> ImportWrite:
        """The slow half of `import_papers`: merge `incoming` into the catalog on disk (under
        the lock, waited for) and move orphan annotations onto their papers on disk,
        changing nothing in the Library's memory, so any thread may call it. Raises when
        the catalog write fails (then nothing was written). Hand the result to
        `apply_import` on the thread that changes the Library."""
        from .catalog.merge import ImportSummary, merge_papers, rescore

        summary = ImportSummary()
        when = now_iso()
        mark = self._changes_made  # as in `read_disk`: changes made after this are laid over

        def change(records: dict[str, Any]) -> dict[str, Any] | None:
            # None (nothing to write) when a re-import of the same list changes nothing.
            new = merge_papers(
                records, incoming, summary, when, self._effective_citekey, self.files.catalog_path,
                pinned=self.exported_citekeys(),
            )
            if forums:
                # Under the lock, before the catalog: see `import_papers`.
                landed = {summary.id_map.get(pid, pid): forum for pid, forum in forums.items()}
                summary.reviews = self.review_store.write(landed)
                if summary.reviews.repaired:
                    # A review whose newer version could not be read kept its known scores
                    # in the store: the catalog's scores are made from what was kept.
                    summary.warnings += len(summary.reviews.kept)
                    new = rescore(records, new, summary.reviews.repaired, self.files.catalog_path)
            return new

        catalog: tuple[Catalog, Any] | None = None
        moved: dict[str, Annotation] = {}
        orphans: dict[str, str] = {}
        reattach_error: StoreError | None = None
        if incoming:
            written: list[tuple[dict[str, Any], Any]] = []

            def write() -> None:
                records = self.files.replace_catalog(change)
                written.append((records, self.files.catalog_signature))

            self._write(write, wait="the import")
            records, signature = written[-1] if written else ({}, self.files.catalog_signature)
            papers = self._catalog(records)
            catalog = (papers, signature)
            # Annotations left under an incoming id with no paper of their own (a lost
            # catalog rebuilt from another list) follow that record onto the paper it
            # merged into.
            known = self.annotations  # read only: the UI thread replaces it, never edits it here
            orphans = {
                old: new for old, new in summary.id_map.items() if old in known and old not in papers and new in papers
            }
            if orphans:
                try:
                    moved = self._write_reattach(orphans)
                except StoreError as error:  # the papers are on disk: say so, after applying them
                    reattach_error = StoreError(
                        f"the papers are imported, but the annotations they replace were not moved onto them: {error}"
                    )
                    orphans = {}
        return ImportWrite(mark, summary, catalog, orphans, moved, dict(annotations or {}), reattach_error)

    def apply_import(self, written: ImportWrite) -> ImportSummary:
        """The quick half of `import_papers`, on the thread that changes the Library (the
        UI thread in the TUI): take in the catalog `write_import` wrote, the moved
        annotations (keeping every change made here since), then add the imported tags and
        notes as ordinary changes. Returns the summary; raises StoreError when part of
        the import is not saved (the message says which)."""
        summary = written.summary
        if written.catalog is not None:
            if self._catalog_changed_at <= written.mark:
                # (A catalog replaced here since, by a later import, is newer: kept.)
                self.papers, self.files.catalog_signature = written.catalog
            self._changes_made += 1
            self._catalog_changed_at = self._changes_made
            self._notify(None)
        if written.orphans:
            moved = dict(written.moved)
            for (pid, field_name), at in self._field_changed_at.items():
                if at > written.mark and pid in moved:
                    moved[pid] = _overlay(moved[pid], self.annotation(pid), field_name)
            for old_id in written.orphans:
                self.annotations.pop(old_id, None)
            self.annotations.update(moved)
            self._notify(frozenset(moved))
            summary.reattached = len(written.orphans)
        if written.annotations:
            try:
                self._import_annotations(written.annotations, summary.id_map, summary)
            except StoreError as error:  # written at once (no writer thread): the papers are in
                added = summary.new + summary.updated + summary.merged
                raise StoreError(
                    f"{added} paper{'s' if added != 1 else ''} imported (new, updated or merged), "
                    f"but their tags and notes were not saved: {error}"
                ) from None
        if written.reattach_error is not None:
            raise written.reattach_error
        return summary

    def _write_reattach(self, orphans: dict[str, str]) -> dict[str, Annotation]:
        """Move each orphan annotation (by the id it was stored under) onto the paper
        `orphans` names, merged with that paper's own (`_merge_annotations`), in one
        locked write against what is on disk (waited for). Returns the moved annotations
        as written; changes nothing in memory."""
        moved: dict[str, Annotation] = {}

        def write() -> None:
            with self.files.writing_annotations() as db:
                annotations = table(db, ANNOTATIONS_TABLE)
                stored = annotation_records(annotations, set(orphans) | set(orphans.values()))
                moved.clear()
                gone = []
                for old_id, new_id in orphans.items():
                    record = stored.get(old_id)
                    if record is None:
                        continue  # another process moved it already
                    ours = moved.get(new_id) or _annotation_or_default(stored.get(new_id))
                    moved[new_id] = _merge_annotations(ours, _annotation_or_default(record))
                    gone.append(int(annotation_doc_id(old_id)))
                if gone:
                    annotations.remove(doc_ids=gone)
                put_annotation_records(
                    annotations,
                    {pid: {"paper_id": pid, **ann.to_dict()} for pid, ann in moved.items()},
                    self.files.annotations_path,
                )

        self._write(write, wait="reattaching annotations to their papers")
        return moved

    def _import_annotations(
        self, annotations: Mapping[str, Mapping[str, Any]], id_map: dict[str, str], summary: ImportSummary | None = None
    ) -> None:
        tags: dict[str, tuple[str, ...]] = {}
        notes: dict[str, str] = {}
        before: dict[str, Annotation] = {}
        for incoming_id, values in annotations.items():
            pid = id_map.get(incoming_id, incoming_id)
            if pid not in self.papers:
                continue
            current = before[pid] = self.annotation(pid)
            new_tags = clean_tags(current.tags + tuple(values.get("tags", ())))
            if new_tags != current.tags:
                tags[pid] = new_tags
            text = str(values.get("notes") or "")
            if text.strip() and _note_text(text) not in _note_text(current.notes):
                notes[pid] = f"{current.notes.rstrip()}\n\n{text}" if current.notes.strip() else text
        if tags:
            self._change("tags", tags)
        if notes:
            self._change("notes", notes)
        if summary is not None:
            # The report's counts are catalog counts: these say what the user's own
            # annotations got (added to, never replaced: a .bib carries no change times).
            summary.tags_added, summary.notes_added = sorted(tags), sorted(notes)
            summary.added_to_own = {
                "tags": sorted(pid for pid in tags if before[pid].tags),
                "notes": sorted(pid for pid in notes if before[pid].notes.strip()),
            }

    def _effective_citekey(self, paper: Paper) -> str:
        return self.annotation(paper.id).overrides.get("citekey") or paper.citekey

    # -- other processes ------------------------------------------------------------------

    def reload_if_changed(self) -> frozenset[str] | None:
        """Pick up what another process wrote. Returns the ids whose annotations changed
        (None when the catalog changed, so everything may have), or an empty set.
        Reads and applies on the calling thread; the TUI splits the two halves
        (`read_disk` on a worker, `apply_disk` on the UI thread)."""
        found = self.read_disk()
        return frozenset() if found is None else self.apply_disk(found)

    def read_disk(self) -> DiskRead | None:
        """Read and parse what another process wrote, changing nothing in the Library, so
        any thread may call it. None when neither file changed (or only the annotations
        did while a change of ours is still on its way to disk: the next read gets both)."""
        # Taken before anything is read: a change made after this is not in what is read,
        # and `apply_disk` lays it over what was read. A change made before it is on disk
        # by the time of the read, or still pending (then the annotations are not read).
        mark = self._changes_made
        started = time.monotonic_ns()
        catalog_changed, annotations_changed = self.files.changed_on_disk()
        if not catalog_changed and not annotations_changed:
            return None
        catalog = None
        if catalog_changed:
            records, signature = self.files.read_catalog()
            catalog = (self._catalog({} if records is None else records), signature)
        annotations = None
        if not self.pending_writes:
            found, signature = self.files.read_annotations()
            annotations = (
                _annotations_from_documents(found, self.files.annotations_path),
                dict(found.settings) if found else {},
                signature,
            )
        if catalog is None and annotations is None:
            return None
        return DiskRead(mark, started, catalog, annotations)

    def apply_disk(self, found: DiskRead) -> frozenset[str] | None:
        """Take in what `read_disk` found, on the thread that changes the Library (the UI
        thread in the TUI), keeping every change made here since the read began. Returns
        and notifies what changed, as `reload_if_changed`."""
        if found.started < self._last_disk_read:
            return frozenset()  # an older read finishing after a newer one: out of date
        self._last_disk_read = found.started
        catalog_applied = False
        if found.catalog is not None and self._catalog_changed_at <= found.mark:
            # (A catalog replaced here since the read, by an import, is newer: kept, and
            # its signature left as the import set it.)
            self.papers, self.files.catalog_signature = found.catalog
            catalog_applied = True
        changed: frozenset[str] = frozenset()
        if found.annotations is not None:
            annotations, settings, signature = found.annotations
            for (pid, field_name), at in self._field_changed_at.items():
                if at > found.mark:
                    annotations[pid] = _overlay(annotations.get(pid), self.annotation(pid), field_name)
            for key, at in self._setting_changed_at.items():
                if at > found.mark and key in self.settings:
                    settings[key] = self.settings[key]
            old = self.annotations
            self.annotations, self.settings = annotations, settings
            self.files.annotations_signature = signature
            changed = frozenset(pid for pid in set(old) | set(annotations) if old.get(pid) != annotations.get(pid))
        if catalog_applied:
            self._notify(None)
            return None
        if changed:
            self._notify(changed)
        return changed

    # -- writing ------------------------------------------------------------------------

    def _write(self, write: Callable[[], Any], *, wait: str = "") -> None:
        """Write now (no writer thread) or hand `write` to the writer thread. `wait` names
        a change whose caller reports its outcome at once ("the import"): it is waited
        for, and when it fails it is not kept to be written later (see BackgroundWriter)."""
        if self.read_only:
            # Refused where writes fail, so it is reported as any failed write is (at once
            # in the CLI, through the writer thread in the TUI).
            write = self._refuse_write
        if self._writer is None:
            write()
        elif wait:
            try:
                self._writer.run(write)
            except BlockedWrite as blocked:
                raise StoreError(
                    f"an earlier change is not saved yet (kept and tried again), so {wait} was not done: {blocked.cause}"
                ) from None
        else:
            self._writer.submit(write)

    def _refuse_write(self) -> None:
        raise ReadOnlyError(
            f"{self.files.folder}: the library folder is read-only, so the change was not saved "
            "(list, show and export still work)"
        )

    @property
    def writes_failing(self) -> bool:
        """True while a write failed and waits to be tried again (a setting written now
        would only join the queue the user is told about)."""
        return self._writer is not None and self._writer.error is not None

    @property
    def pending_writes(self) -> int:
        """How many changes are waiting to reach the disk (always 0 without a writer thread)."""
        return self._writer.pending if self._writer else 0

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every change is on disk; re-raises a failed write. True when done."""
        return self._writer.flush(timeout) if self._writer else True

    def close(self) -> None:
        """Write what is pending and stop the writer thread. Raises the error of a write
        that is still not on disk (the thread is stopped all the same)."""
        if self._writer:
            try:
                self._writer.flush()
            finally:
                self._writer.stop()


@dataclass(frozen=True, slots=True)
class DiskRead:
    """What `Library.read_disk` found, for `Library.apply_disk`: the Library's change
    count when the read began (`mark`), when it began, and each file that was read (as a
    Catalog, or as annotations, settings) with its signature; None for a file not read."""

    mark: int
    started: int
    catalog: tuple[Catalog, Any] | None
    annotations: tuple[dict[str, Annotation], dict[str, Any], Any] | None


@dataclass(frozen=True, slots=True)
class ImportWrite:
    """What `Library.write_import` wrote, for `Library.apply_import`: the Library's change
    count when it began (`mark`), the summary so far, the catalog now on disk (a Catalog
    and its signature; None when nothing was imported), the orphan annotations moved
    (old id -> paper id) and what they became, the imported tags and notes still to add,
    and the error of a reattach write that failed after the papers were written."""

    mark: int
    summary: ImportSummary
    catalog: tuple[Catalog, Any] | None
    orphans: dict[str, str]
    moved: dict[str, Annotation]
    annotations: dict[str, Mapping[str, Any]]
    reattach_error: StoreError | None = None


def missing_catalog_message(folder: Path, annotations: int) -> str:
    """The one line that refuses a store whose catalog is gone while annotations remain."""
    return (
        f"{folder}: catalog.json is missing but annotations.json holds {counted(annotations, 'annotation')}, "
        "so this is not a new library and it was not filled with the bundled papers; import your "
        "paper lists again (`reader-tui import FILE...`; the annotations reattach by paper id), "
        "or see `reader-tui doctor`"
    )


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags trimmed, each run of whitespace inside (spaces, tabs, line breaks) one space,
    without empty ones, without case-insensitive repeats (first spelling kept).

    A tag is a one-line label: "deep  learning" and "deep learning" typed a day apart are
    one tag, and a tab or line break could not be drawn in the one-line list. Raises
    ValueError for a tag that holds a comma, the BibTeX `keywords` field's separator.
    """
    seen: set[str] = set()
    result: list[str] = []
    for tag in tags:
        tag = " ".join(tag.split())
        if not tag:
            continue
        if "," in tag:
            raise ValueError(f"a tag cannot contain a comma: {tag!r}")
        if tag.casefold() not in seen:
            seen.add(tag.casefold())
            result.append(tag)
    return tuple(result)


def _set_field(ann: Annotation, field_name: str, value: Any, when: str) -> None:
    if field_name not in _ANNOTATION_FIELDS:
        raise ValueError(f"not an annotation field: {field_name}")
    if field_name == "status":
        value = Status(value)
        ann.history.append([when, value.value])
    elif field_name == "tags":
        value = tuple(value)
    elif field_name == "overrides":
        value = dict(value)
    setattr(ann, field_name, value)
    ann.changed[field_name] = when


def _merge_annotations(ours: Annotation, theirs: Annotation) -> Annotation:
    """Two annotations of one paper as one: per field the later change wins (status,
    overrides key by key), tags are joined, notes kept both (ours first) when they differ,
    status histories united."""
    merged = ours.copy()

    def later(name: str) -> bool:
        return theirs.changed.get(name, "") > ours.changed.get(name, "")

    if later("status"):
        merged.status = theirs.status
    merged.history = [list(h) for h in sorted({tuple(h) for h in ours.history + theirs.history})]
    merged.tags = clean_tags(ours.tags + theirs.tags)
    if theirs.notes.strip() and _note_text(theirs.notes) != _note_text(ours.notes):
        merged.notes = f"{ours.notes.rstrip()}\n\n{theirs.notes}" if ours.notes.strip() else theirs.notes
    first, second = (ours, theirs) if later("overrides") else (theirs, ours)
    merged.overrides = {**first.overrides, **second.overrides}  # the later one's keys win
    for name, when in theirs.changed.items():
        merged.changed[name] = max(when, merged.changed.get(name, ""))
    return merged


def _overlay(theirs: Annotation | None, mine: Annotation, field_name: str) -> Annotation:
    """`theirs` (read from disk) with `field_name` as this process set it after the read:
    what the write of that change makes of the file (it sets only that field)."""
    ann = theirs.copy() if theirs is not None else Annotation()
    setattr(ann, field_name, getattr(mine, field_name))
    if field_name in mine.changed:
        ann.changed[field_name] = mine.changed[field_name]
    if field_name == "status":
        ann.history += [list(h) for h in mine.history if h not in ann.history]
    return ann


def _note_text(text: str) -> str:
    """A note as compared on import: NFC, every run of whitespace (line breaks, tabs, blank
    lines, U+2028) one space, the ends trimmed. An export folds some of these (blank lines,
    tabs), and a note that differs from the user's only there is the user's own note back."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def _annotation_or_default(record: dict[str, Any] | None) -> Annotation:
    if record is None:
        return Annotation()
    try:
        return Annotation.from_dict(record)
    except (TypeError, ValueError):
        # The record was valid when this process opened the store (or it would have refused
        # to start); a bad one now is another program's doing. Keep the user's change.
        return Annotation()


def _annotations_from_documents(found: AnnotationsRead | None, path: Path) -> dict[str, Annotation]:
    result: dict[str, Annotation] = {}
    for record in found.documents if found else ():
        pid = record.get("paper_id")
        if not isinstance(pid, str):
            raise StoreError(f"{path}: annotation {record.doc_id} names no paper")
        try:
            result[pid] = Annotation.from_dict(record)
        except (TypeError, ValueError) as error:
            raise StoreError(f"{path}: annotation of paper {pid}: {error}") from None
    return result
