"""Annotations as a portable JSON document, and merging one into a library.

    {"reader_tui_annotations": 1, "exported": "<ISO time>",
     "papers": [{"id", "citekey", "title", "doi", "url",
                 "status", "tags", "notes", "changed", "history", "overrides"}]}

Merging is per paper and per field (status, tags, notes, overrides each on its own): the
value with the later `changed` time wins. Ties are broken by a fixed order of the values
(a set value beats a default one, then the larger JSON text), so merging A into B and B into
A give the same result, and merging twice changes nothing: two machines can swap exports
and end up equal. Status histories are united.

A document's paper is found in the library by id, else by DOI or url, else by its
normalised title (only when exactly one paper has it). Papers found nowhere are reported;
those with an id are kept as annotations of a paper not yet imported (they attach when
their list is), so an import never throws the user's notes away.

The merge is decided under the store's lock against what is on disk, not against memory,
so a second process's changes made meanwhile are merged too, never overwritten.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..formats.identifiers import fold, normalise_doi, normalise_url
from ..model import EDITABLE_FIELDS, Annotation, Status, now_iso
from ..text.citekeys import validate_citekey
from ..text.words import counted
from .files import ANNOTATIONS_TABLE, annotation_records, put_annotation_records, table
from .library import Library, clean_tags

FORMAT_KEY = "reader_tui_annotations"
FORMAT_VERSION = 1
MERGED_FIELDS = ("status", "tags", "notes", "overrides")


class TransferError(ValueError):
    """A document that is not a reader-tui annotations export. `str()` is one line."""


@dataclass(slots=True)
class TransferResult:
    """What an import did. `problems` and `unmatched` are one-line messages."""

    papers: int = 0
    changed: int = 0
    unchanged: int = 0
    fields_taken: int = 0
    kept_unmatched: int = 0
    matched_by: Counter[str] = field(default_factory=Counter)
    unmatched: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    changed_ids: set[str] = field(default_factory=set)

    def summary(self) -> str:
        """One line: how many papers the document had and what became of them."""
        how = ", ".join(f"{n} by {reason}" for reason, n in sorted(self.matched_by.items()))
        text = (
            f"{counted(self.papers, 'paper')} in the file: {self.changed} updated, {self.unchanged} already "
            f"up to date ({counted(self.fields_taken, 'field')} taken)"
        )
        if how:
            text += f"; matched {how}"
        if self.unmatched:
            text += f"; {len(self.unmatched)} not in this library ({self.kept_unmatched} kept for later)"
        if self.problems:
            text += f"; {counted(len(self.problems), 'problem')}"
        return text


# -- export -------------------------------------------------------------------------------


def export_annotations(library: Library) -> dict[str, Any]:
    """The library's annotations as a portable document (every paper the user touched,
    including annotations of papers no longer in the catalog)."""
    library.flush()
    library.reload_if_changed()  # what other processes wrote belongs in the export too
    papers = []
    for pid, ann in library.annotations.items():
        # A paper set back to unread still goes: its change time must win on the other side.
        if ann.is_default and not ann.changed:
            continue
        paper = library.papers.get(pid)
        # The catalog's own title/url are what another machine's catalog holds; the
        # user's overrides travel separately in `overrides`.
        papers.append(
            {
                "id": pid,
                "citekey": library.view(pid).citekey if paper else ann.overrides.get("citekey", ""),
                "title": paper.title if paper else ann.overrides.get("title", ""),
                "doi": paper.doi if paper else "",
                "url": paper.url if paper else ann.overrides.get("url", ""),
                **ann.to_dict(),
            }
        )
    return {FORMAT_KEY: FORMAT_VERSION, "exported": now_iso(), "papers": papers}


def dumps_document(document: dict[str, Any]) -> str:
    """The document as readable JSON text (non-ASCII kept as is, one field per line)."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def parse_document(text: str | bytes) -> dict[str, Any]:
    """Parse and check an exported document. Raises TransferError with a one-line reason."""
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise TransferError(f"not valid JSON ({str(error).splitlines()[0][:120]})") from None
    check_document(document)
    return document


def check_document(document: Any) -> None:
    """Raise TransferError (one line) unless `document` has the shape of an export."""
    if not isinstance(document, dict) or FORMAT_KEY not in document:
        raise TransferError(f"not a reader-tui annotations export (no {FORMAT_KEY!r} key)")
    version = document[FORMAT_KEY]
    if not isinstance(version, int) or isinstance(version, bool):
        raise TransferError(f"the format version {version!r} is not a number")
    if version > FORMAT_VERSION:
        raise TransferError(
            f"written by a newer reader-tui (format {version}, this one reads up to {FORMAT_VERSION})"
        )
    if not isinstance(document.get("papers"), list):
        raise TransferError("'papers' must be a list")


# -- import -------------------------------------------------------------------------------


def import_annotations(library: Library, document: dict[str, Any], *, keep_unmatched: bool = True) -> TransferResult:
    """Merge an exported document into `library`, per paper and per field, later change
    winning. Returns what happened; the library's memory is reloaded and its subscribers
    told which papers changed. Not undoable. Raises TransferError for a document of the
    wrong shape (bad single entries are skipped and reported instead)."""
    check_document(document)
    result = TransferResult()
    incoming: list[tuple[str, Annotation]] = []
    finder = _Finder(library)
    citekeys = library.citekeys()
    for position, entry in enumerate(document["papers"], start=1):
        result.papers += 1
        ann = _parse_entry(entry, position, result)
        if ann is None:
            continue
        pid, reason = finder.find(entry)
        if reason is None:
            result.unmatched.append(f"paper {_label(entry, position)}: not in this library")
            if not (keep_unmatched and pid):
                continue
            result.kept_unmatched += 1
        else:
            result.matched_by[reason] += 1
        _drop_bad_citekey(ann, pid, citekeys, _label(entry, position), result)
        incoming.append((pid, ann))

    library.flush()  # our own pending writes first, so the merge below sees them on disk
    apply_annotation_fields(library, incoming, result)
    return result


def apply_annotation_fields(library: Library, incoming: list[tuple[str, Annotation]], result: TransferResult) -> None:
    """Merge each (paper id, annotation) into the store in one locked read-modify-write,
    field by field by `changed` time, then bring the library's memory up to date."""
    touched: set[str] = set()
    if incoming:
        with library.files.writing_annotations() as db:
            annotations = table(db, ANNOTATIONS_TABLE)
            stored = annotation_records(annotations, {pid for pid, _ in incoming})
            merged_records: dict[str, Annotation] = {}
            result.fields_taken = 0
            for pid, theirs in incoming:
                ours = merged_records.get(pid)
                if ours is None:
                    try:
                        ours = Annotation.from_dict(stored[pid]) if pid in stored else Annotation()
                    except (TypeError, ValueError):
                        # A bad record on disk would have stopped this library opening; if
                        # another program wrote one since, the incoming one is the better data.
                        ours = Annotation()
                merged, taken = merge_annotation(ours, theirs)
                if merged != ours:
                    merged_records[pid] = merged
                    touched.add(pid)
                    result.fields_taken += taken
            put_annotation_records(
                annotations,
                {pid: {"paper_id": pid, **ann.to_dict()} for pid, ann in merged_records.items()},
                library.files.annotations_path,
            )
    result.changed_ids = set(touched)
    result.changed = len(touched)
    result.unchanged = len({pid for pid, _ in incoming} - touched)
    # writing_annotations records the file it wrote as already seen, which would hide this
    # merge (and any other process's earlier writes) from reload_if_changed: forget it.
    library.files.annotations_signature = None
    library.reload_if_changed()


def merge_annotation(ours: Annotation, theirs: Annotation) -> tuple[Annotation, int]:
    """`ours` with each field of `theirs` that wins (later `changed` time; ties broken by a
    fixed order of the values) and the two status histories united. Returns the merge and
    how many of the fields status, tags, notes, overrides came from `theirs`."""
    merged = ours.copy()
    taken = 0
    for name in MERGED_FIELDS:
        if _rank(theirs, name) > _rank(ours, name):
            setattr(merged, name, getattr(theirs, name))
            merged.changed.pop(name, None)
            if name in theirs.changed:
                merged.changed[name] = theirs.changed[name]
            taken += 1
    united = {tuple(h) for h in ours.history} | {tuple(h) for h in theirs.history}
    if len(united) != len({tuple(h) for h in ours.history}):
        merged.history = [list(h) for h in sorted(united)]
    return merged, taken


def _rank(ann: Annotation, name: str) -> tuple[str, bool, str]:
    # A total order on (time, value), so the merge picks the same winner from either side.
    value = getattr(ann, name)
    is_set = value not in (Status.UNREAD, (), "", {})
    canonical = json.dumps(value.value if isinstance(value, Status) else value, sort_keys=True, ensure_ascii=False)
    return (ann.changed.get(name, ""), is_set, canonical)


def _parse_entry(entry: Any, position: int, result: TransferResult) -> Annotation | None:
    """The entry's annotation with times normalised, or None (and a problem) when unusable."""
    if not isinstance(entry, dict):
        result.problems.append(f"paper #{position}: not an object; skipped")
        return None
    label = _label(entry, position)
    fields_given = {k: entry[k] for k in ("status", "tags", "notes", "changed", "history", "overrides") if k in entry}
    try:
        ann = Annotation.from_dict(fields_given)
    except (TypeError, ValueError) as error:
        result.problems.append(f"paper {label}: {error}; skipped")
        return None
    try:
        ann.tags = clean_tags(ann.tags)
    except ValueError as error:
        result.problems.append(f"paper {label}: {error}; its tags were skipped")
        ann.tags = ()
        ann.changed.pop("tags", None)
    ann.overrides = {k: v for k, v in ann.overrides.items() if _override_ok(k, v)}
    changed = {}
    for name, when in ann.changed.items():
        normal = _normal_time(when)
        if normal is None:
            result.problems.append(f"paper {label}: {name} changed at {when!r}, not a time; counted as oldest")
            continue
        changed[name] = normal
    ann.changed = changed
    statuses = {s.value for s in Status}
    ann.history = [
        [_normal_time(h[0]), h[1]] for h in ann.history if len(h) == 2 and _normal_time(h[0]) and h[1] in statuses
    ]
    return ann


def _drop_bad_citekey(ann: Annotation, pid: str, citekeys: dict[str, str], label: str, result: TransferResult) -> None:
    # The same rules as Library.edit: BibTeX must accept the key, and no other paper has it.
    key = ann.overrides.get("citekey")
    if not key:
        return
    problem = validate_citekey(key)
    owner = citekeys.get(key.lower())
    if problem is None and owner is not None and owner != pid:
        problem = f"citation key {key!r} is already used by paper {owner}"
    if problem:
        result.problems.append(f"paper {label}: {problem}; the citation key was left out")
        del ann.overrides["citekey"]


def _override_ok(key: str, value: Any) -> bool:
    if key not in EDITABLE_FIELDS:
        return False
    if key == "authors":
        return isinstance(value, list) and all(isinstance(a, str) for a in value)
    return isinstance(value, str)


def _normal_time(text: str) -> str | None:
    """An ISO time as the store writes it (UTC, seconds), or None when it is not one."""
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def _label(entry: dict[str, Any], position: int) -> str:
    for key in ("id", "citekey", "doi", "title"):
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            return f"{value.strip()[:60]!r}"
    return f"#{position}"


class _Finder:
    """Find a document's paper in the library: id, DOI, url, then normalised title."""

    def __init__(self, library: Library) -> None:
        self.ids = set(library.papers) | set(library.annotations)
        self.by_doi: dict[str, str] = {}
        self.by_url: dict[str, str] = {}
        titles: dict[str, list[str]] = {}
        self.aliases: dict[str, str] = {}  # the ids of records merged into a paper
        for paper in library.papers.values():
            for alias in paper.aliases:
                self.aliases.setdefault(alias, paper.id)
            if paper.doi:
                self.by_doi.setdefault(normalise_doi(paper.doi), paper.id)
            if paper.url:
                self.by_url.setdefault(normalise_url(paper.url), paper.id)
            if paper.title.strip():
                titles.setdefault(fold(paper.title), []).append(paper.id)
        # Two papers sharing a title cannot tell which one was meant: match neither.
        self.by_title = {title: ids[0] for title, ids in titles.items() if title and len(ids) == 1}

    def find(self, entry: dict[str, Any]) -> tuple[str, str | None]:
        """(paper id, how it was found), or (the entry's own id or "", None) when not found."""
        pid = _text(entry, "id")
        if pid and pid in self.ids:
            return pid, "id"
        if pid in self.aliases:  # exported where the paper came from the other source
            return self.aliases[pid], "id"
        doi = _text(entry, "doi")
        if doi and normalise_doi(doi) in self.by_doi:
            return self.by_doi[normalise_doi(doi)], "doi"
        url = _text(entry, "url")
        if url and normalise_url(url) in self.by_url:
            return self.by_url[normalise_url(url)], "url"
        title = fold(_text(entry, "title"))
        if title and title in self.by_title:
            return self.by_title[title], "title"
        return pid, None


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    return value.strip() if isinstance(value, str) else ""
