"""What a sync says it did: the changes between two versions of the store's files, in
words ("3 status changes, 1 note, 12 papers imported"), for commit messages and the
report, and the notes a merge newly marked as changed on both sides."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from ...model import has_conflict
from ..files import ANNOTATIONS_FILE, ANNOTATIONS_TABLE, CATALOG_FILE, PAPERS_TABLE, SETTINGS_TABLE, VIEW_SETTINGS

MEMBERS_DIR = "members"


class Unreadable(Exception):
    """A store file that is in a commit and cannot be read there (a damaged git object,
    or a file that is not JSON): its changes cannot be counted."""


def _version(folder: Path, rev: str | None, name: str, cache: dict[tuple[str, str], Any] | None = None) -> dict[str, Any]:
    """`name` parsed as it is at commit `rev` (None: in the folder now); with `cache`
    (`rev` a commit id, not a name that moves such as HEAD), each read once."""
    if cache is not None and rev is not None:
        if (rev, name) not in cache:
            cache[rev, name] = _version(folder, rev, name)
        return cache[rev, name]
    if rev is None:
        path = folder / name
        raw = path.read_bytes() if path.exists() else b""
    else:
        done = subprocess.run(["git", "show", f"{rev}:{name}"], cwd=folder, capture_output=True)  # sync found git
        if done.returncode != 0 and not _absent(done.stderr):
            raise Unreadable(name)
        raw = done.stdout if done.returncode == 0 else b""
    try:
        data = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError:
        if rev is not None:
            raise Unreadable(name) from None
        return {}
    return data if isinstance(data, dict) else {}


def _absent(stderr: bytes) -> bool:
    """Whether git's `show` failed because the file is not in that commit (and not
    because an object could not be read)."""
    return b"does not exist in" in stderr or b"exists on disk, but not in" in stderr


def _docs(tables: Mapping[str, Any], name: str, key: str) -> dict[str, dict[str, Any]]:
    return {d[key]: d for d in (tables.get(name) or {}).values() if isinstance(d, dict) and key in d}


def describe_changes(
    folder: Path, old: str, new: str | None, names: Sequence[str], cache: dict[tuple[str, str], Any] | None = None
) -> str:
    """"3 status changes, 1 note, 12 papers imported": what changed in the store files
    `names` between revisions `old` and `new` (None: the files as they are now). `cache`:
    see `_version`."""
    counts: Counter[str] = Counter()
    unreadable = []
    for name in names:
        try:
            if name == ANNOTATIONS_FILE or (name.startswith(f"{MEMBERS_DIR}/") and name.endswith(".json")):
                who = f" by {Path(name).stem}" if name.startswith(MEMBERS_DIR) else ""
                counts.update(_annotation_changes(_version(folder, old, name, cache), _version(folder, new, name, cache), who))
            elif name == CATALOG_FILE:
                counts.update(_catalog_changes(_version(folder, old, name, cache), _version(folder, new, name, cache)))
        except Unreadable:
            # counting against a version read as empty would call every paper in it a change
            unreadable.append(name)
    parts = []
    for label, n in counts.items():
        if n:
            noun, _, rest = label.partition(" by ")
            parts.append(f"{n} {_plural(noun, n)}{' by ' + rest if rest else ''}")
    if unreadable:
        parts.append(f"changes of {', '.join(unreadable)} not counted (a version git could not read: "
                     "`git fsck` says what is damaged)")
    return ", ".join(parts)


def count_waiting(folder: Path, committed: str, catalog_changed: bool) -> int:
    """How many changes the files as they are now hold that HEAD does not: the annotations
    (this machine's own file against `committed`, its name at HEAD) and, when
    `catalog_changed`, the catalog's papers."""
    try:
        counts = _annotation_changes(_version(folder, "HEAD", committed), _version(folder, None, ANNOTATIONS_FILE), "")
        if catalog_changed:
            counts.update(_catalog_changes(_version(folder, "HEAD", CATALOG_FILE), _version(folder, None, CATALOG_FILE)))
    except Unreadable:
        return 0  # not countable; the sync says why
    return sum(counts.values())


def list_waiting(folder: Path, committed: str, catalog_changed: bool) -> list[tuple[str, str]]:
    """The changes `count_waiting` counts, one (kind, what) each: ("status change", a
    paper's title), ("setting", its name), ("paper imported", a title)... A paper with no
    title in the catalog is named by its id. Empty when a file at HEAD cannot be read."""
    found: list[tuple[str, str]] = []
    try:
        _annotation_changes(_version(folder, "HEAD", committed), _version(folder, None, ANNOTATIONS_FILE), "", found)
        catalog_before = _version(folder, "HEAD", CATALOG_FILE)
        catalog = _version(folder, None, CATALOG_FILE)
        if catalog_changed:
            _catalog_changes(catalog_before, catalog, found)
    except Unreadable:
        return []
    papers = _docs(catalog_before, PAPERS_TABLE, "id") | _docs(catalog, PAPERS_TABLE, "id")
    return [
        (kind, what if kind == "setting" else str(papers.get(what, {}).get("title") or what))
        for kind, what in found
    ]


def _annotation_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], who: str, found: list[tuple[str, str]] | None = None
) -> Counter[str]:
    """The changes counted by kind; each also added to `found` as (kind, paper id or the
    setting's name)."""
    counts: Counter[str] = Counter()
    before, after = _docs(old, ANNOTATIONS_TABLE, "paper_id"), _docs(new, ANNOTATIONS_TABLE, "paper_id")
    for pid, doc in after.items():
        was = before.get(pid, {})
        for fieldname, label in (("status", "status change"), ("tags", "tag change"), ("notes", "note"), ("overrides", "edit")):
            default = _DEFAULTS[fieldname]
            if doc.get(fieldname, default) != was.get(fieldname, default):
                counts[label + who] += 1
                if found is not None:
                    found.append((label, pid))
    settings_before, settings_after = _settings(old), _settings(new)
    for key in sorted(settings_before.keys() | settings_after.keys()):
        if key not in VIEW_SETTINGS and settings_before.get(key) != settings_after.get(key):
            counts["setting" + who] += 1
            if found is not None:
                found.append(("setting", str(key)))
    return counts


def _catalog_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], found: list[tuple[str, str]] | None = None
) -> Counter[str]:
    counts: Counter[str] = Counter()
    before, after = _docs(old, PAPERS_TABLE, "id"), _docs(new, PAPERS_TABLE, "id")
    changes = {
        "paper imported": sorted(after.keys() - before.keys()),
        "paper updated": sorted(pid for pid in after.keys() & before.keys() if after[pid] != before[pid]),
        "paper merged away": sorted(before.keys() - after.keys()),
    }
    for label, pids in changes.items():
        counts[label.replace("paper", "papers", 1)] += len(pids)
        if found is not None:
            found.extend((label, pid) for pid in pids)
    return counts


def _settings(tables: Mapping[str, Any]) -> dict[str, Any]:
    found = (tables.get(SETTINGS_TABLE) or {}).get("1")
    return found if isinstance(found, dict) else {}


_DEFAULTS: dict[str, Any] = {"status": "unread", "tags": [], "notes": "", "overrides": {}}


def _plural(noun: str, n: int) -> str:
    if n == 1:
        return noun.replace("papers", "paper")
    first, _, rest = noun.partition(" ")
    if noun.startswith("papers"):
        return noun
    if noun.endswith(("change", "note", "edit", "setting")):
        return noun + "s"
    return f"{first} {rest}".strip()


def new_conflicts(
    folder: Path, before: str, after: str, changed: Sequence[str], cache: dict[tuple[str, str], Any] | None = None
) -> list[str]:
    """The papers whose notes hold a marked block at `after` and did not at `before`
    (commit ids; `cache`: see `_version`)."""
    found = []
    for name in changed:
        if name != ANNOTATIONS_FILE and not name.startswith(f"{MEMBERS_DIR}/"):
            continue
        try:
            old = _docs(_version(folder, before, name, cache), ANNOTATIONS_TABLE, "paper_id")
            new = _docs(_version(folder, after, name, cache), ANNOTATIONS_TABLE, "paper_id")
        except Unreadable:
            continue
        for pid, doc in new.items():
            if has_conflict(str(doc.get("notes", ""))) and not has_conflict(str(old.get(pid, {}).get("notes", ""))):
                found.append(pid)
    return found
