"""Three-way merges of the store's files, as git's merge driver for a synced library.

Git hands the driver three versions of a file: the common ancestor (base), ours and
theirs. The rules (docs/sync.md, "What merges how"):

- annotations, per paper and field: the later change wins (each field carries the time it
  changed, `Annotation.changed`); a field changed on one side only is that side's;
  tags merge as sets of additions and removals relative to the base; notes changed on
  both sides are merged line by line, and where both changed the same lines both
  versions are kept between marker lines (`CONFLICT_START`...), which `is:conflict` finds;
  status histories are united; settings merge key by key.
- catalog: papers are united by id; a paper on both sides changed on both sides keeps,
  per field, the side that changed it (both: the greater value, the same on every
  machine); two papers that end up with one citation key: the one the base did not have
  takes a suffix, so keys stay unique and the same on every machine.

Every tie is broken by comparing values, never by which side is "ours", so two machines
merging the same pair reach the same bytes. Nothing here imports git: the merges are
pure functions of parsed files, tested without git.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson

from ...atomic_storage import StoreError, read_json_file, write_file_atomically
from ...model import CONFLICT_END, CONFLICT_MIDDLE, CONFLICT_START, has_conflict  # noqa: F401 - has_conflict re-exported
from ..files import ANNOTATIONS_TABLE, META_TABLE, PAPERS_TABLE, SETTINGS_TABLE, VIEW_SETTINGS, check_meta

Tables = dict[str, dict[str, Any]]

_MISSING: Any = object()


def _key(value: Any) -> bytes:
    return b"" if value is _MISSING else orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def pick(base: Any, ours: Any, theirs: Any, ours_at: str = "", theirs_at: str = "", base_at: str | None = None) -> Any:
    """Three-way choice of one value (`_MISSING` for absent): the side that changed it; both
    changed: the later time, then the greater value (the same answer on either machine).
    With `base_at` (the base's change time), a side whose change time moved on changed it
    even when its value is the base's again (a status set back later than the other side's)."""
    ours_changed = _key(ours) != _key(base) or (base_at is not None and ours_at != base_at)
    theirs_changed = _key(theirs) != _key(base) or (base_at is not None and theirs_at != base_at)
    if _key(ours) == _key(theirs) or not theirs_changed:
        return ours
    if not ours_changed:
        return theirs
    if ours_at != theirs_at:
        return ours if ours_at > theirs_at else theirs
    return ours if _key(ours) >= _key(theirs) else theirs


def merge_dicts(base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any],
                ours_at: str = "", theirs_at: str = "") -> dict[str, Any]:
    """Key by key `pick`; a key removed on one side and untouched on the other is removed."""
    result: dict[str, Any] = {}
    for name in _ordered_union(ours, theirs, base):
        value = pick(base.get(name, _MISSING), ours.get(name, _MISSING), theirs.get(name, _MISSING), ours_at, theirs_at)
        if value is not _MISSING:
            result[name] = value
    return result


def _merge_each(keys: Iterable[str], base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any],
                merge_one: Callable[[dict, Any, Any], Any]) -> dict[str, Any]:
    """Each of `keys` (in that order) merged three-way: on one side only, it is new there or
    removed on the other (`pick`: a record moved onto another paper is removed); on both,
    `merge_one(base's or {}, ours, theirs)`."""
    merged: dict[str, Any] = {}
    for key in keys:
        bd, od, td = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        if od is _MISSING or td is _MISSING:
            kept = pick(bd, od, td)
            if kept is not _MISSING:
                merged[key] = kept
        else:
            merged[key] = merge_one(bd if isinstance(bd, dict) else {}, od, td)
    return merged


def _ordered_union(*mappings: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for mapping in mappings:
        for name in mapping:
            seen.setdefault(name, None)
    return list(seen)


# -- notes ------------------------------------------------------------------------------


def merge_text(base: str, ours: str, theirs: str, *, ours_label: str = "", theirs_label: str = "") -> str:
    """Three-way merge of a note, line by line: changes from each side on different lines
    are both taken; where both sides changed the same lines differently, both versions
    are kept between marker lines. The same answer whichever side is `ours`, apart from
    the order of the two versions in a marked block (sorted, so it is the same too)."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    b, o, t = base.splitlines(keepends=True), ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    for lines in (b, o, t):  # a last line without its break still compares as a line
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n"
    hunks = [(i1, i2, "o", j1, j2) for tag, i1, i2, j1, j2 in _opcodes(b, o) if tag != "equal"]
    hunks += [(i1, i2, "t", j1, j2) for tag, i1, i2, j1, j2 in _opcodes(b, t) if tag != "equal"]
    hunks.sort(key=lambda h: (h[0], h[1], h[2]))
    out: list[str] = []
    pos = 0
    k = 0
    while k < len(hunks):
        lo, hi = hunks[k][0], hunks[k][1]
        group = [hunks[k]]
        k += 1
        while k < len(hunks) and hunks[k][0] <= hi:  # touching changes are one block, as diff3 has them
            hi = max(hi, hunks[k][1])
            group.append(hunks[k])
            k += 1
        out += b[pos:lo]
        pos = hi
        sides = {side for _, _, side, _, _ in group}
        mine = _apply(b, o, lo, hi, [h for h in group if h[2] == "o"])
        other = _apply(b, t, lo, hi, [h for h in group if h[2] == "t"])
        if sides == {"o"} or mine == other:
            out += mine
        elif sides == {"t"}:
            out += other
        else:
            first, second = sorted([(mine, ours_label), (other, theirs_label)])
            if not ours_label or ours_label == theirs_label:  # nothing tells them apart: by place
                first, second = (first[0], "one version"), (second[0], "the other version")
            out += [f"{CONFLICT_START}{first[1]}\n", *first[0], f"{CONFLICT_MIDDLE}\n", *second[0], f"{CONFLICT_END}{second[1]}\n"]
    out += b[pos:]
    text = "".join(out)
    if not ours.endswith("\n") and not theirs.endswith("\n") and text.endswith("\n"):
        text = text[:-1]
    return text


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def _apply(base: list[str], side: list[str], lo: int, hi: int, hunks: list[tuple[int, int, str, int, int]]) -> list[str]:
    out: list[str] = []
    pos = lo
    for i1, i2, _, j1, j2 in sorted(hunks):
        out += base[pos:i1]
        out += side[j1:j2]
        pos = i2
    out += base[pos:hi]
    return out


# -- annotations ------------------------------------------------------------------------


def merge_annotation(base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any]:
    """One paper's annotation document merged (see the module's rules)."""
    oc, tc = ours.get("changed") or {}, theirs.get("changed") or {}
    bc = base.get("changed") or {}
    result = merge_dicts(base, ours, theirs)  # fields this module does not know: by key
    result["status"] = pick(base.get("status", "unread"), ours.get("status", "unread"), theirs.get("status", "unread"),
                            oc.get("status", ""), tc.get("status", ""), bc.get("status", ""))
    result["tags"] = merge_tags(base.get("tags") or [], ours.get("tags") or [], theirs.get("tags") or [])
    bn, on, tn = base.get("notes") or "", ours.get("notes") or "", theirs.get("notes") or ""
    ot, tt, bt = oc.get("notes", ""), tc.get("notes", ""), bc.get("notes", "")
    if on == bn and ot != bt and ot > tt or tn == bn and tt != bt and tt > ot:
        # one side set the note back to the base's text, later than the other changed it
        result["notes"] = on if ot > tt else tn
    else:
        result["notes"] = merge_text(bn, on, tn, ours_label=f"changed {ot or '?'}", theirs_label=f"changed {tt or '?'}")
    result["overrides"] = merge_dicts(base.get("overrides") or {}, ours.get("overrides") or {},
                                      theirs.get("overrides") or {}, oc.get("overrides", ""), tc.get("overrides", ""))
    history = {tuple(h) for h in (ours.get("history") or []) + (theirs.get("history") or []) if isinstance(h, list)}
    result["history"] = [list(h) for h in sorted(history)]
    changed = dict(oc)
    for name, when in tc.items():
        changed[name] = max(str(when), str(changed.get(name, "")))
    result["changed"] = changed
    return result


def merge_tags(base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    """Tags as sets of additions and removals relative to `base` (case-insensitively):
    added on either side stays, removed on either side goes."""
    def folded(tags: list[str]) -> set[str]:
        return {t.casefold() for t in tags}

    b, o, t = folded(base), folded(ours), folded(theirs)
    removed = (b - o) | (b - t)
    result: list[str] = []
    seen: set[str] = set()
    for tag in [*ours, *theirs]:
        key = tag.casefold()
        if key in removed or key in seen:
            continue
        seen.add(key)
        result.append(tag)
    return result


def merge_annotation_tables(base: Tables, ours: Tables, theirs: Tables) -> Tables:
    """The annotations file merged: annotations paper by paper, settings key by key."""
    result: Tables = {META_TABLE: dict(ours.get(META_TABLE) or theirs.get(META_TABLE) or {})}
    b, o, t = (x.get(ANNOTATIONS_TABLE) or {} for x in (base, ours, theirs))
    result[ANNOTATIONS_TABLE] = _merge_each(_ordered_union(o, t, b), b, o, t, merge_annotation)
    settings = [(x.get(SETTINGS_TABLE) or {}).get("1") or {} for x in (base, ours, theirs)]
    result[SETTINGS_TABLE] = {"1": _merge_settings(*settings)} if any(settings[1:]) else {}
    for name in _ordered_union(ours, theirs):
        if name not in result:
            result[name] = merge_dicts(base.get(name) or {}, ours.get(name) or {}, theirs.get(name) or {})
    return result


def _merge_settings(base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any]:
    """Settings key by key; a setting that is an object on both sides (the exported keys,
    saved searches by name) merges key by key too, so both sides' additions stay. The view
    settings (`VIEW_SETTINGS`) stay as this machine has them."""
    result = merge_dicts(base, ours, theirs)
    for name in list(result):
        o, t = ours.get(name), theirs.get(name)
        if isinstance(o, dict) and isinstance(t, dict) and o != t:
            b = base.get(name)
            result[name] = merge_dicts(b if isinstance(b, dict) else {}, o, t)
    for name in VIEW_SETTINGS:
        if name in ours:
            result[name] = ours[name]
        else:
            result.pop(name, None)
    return result


# -- catalog ----------------------------------------------------------------------------


def merge_catalog_tables(base: Tables, ours: Tables, theirs: Tables) -> Tables:
    """The catalog merged: papers united by id, field by field three-way, renumbered
    (base order, then ours' new papers, then theirs'), citation keys kept unique."""
    def by_id(tables: Tables) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in (tables.get(PAPERS_TABLE) or {}).values() if isinstance(r, dict) and "id" in r}

    b, o, t = by_id(base), by_id(ours), by_id(theirs)
    papers = _merge_each(_ordered_union(b, o, t), b, o, t, merge_dicts)
    # A paper merged into another on one side (its id now an alias there) is not kept apart.
    aliases = {a for record in papers.values() for a in record.get("aliases") or () if isinstance(a, str)}
    papers = {pid: r for pid, r in papers.items() if pid not in aliases or pid in b and pid in o and pid in t}
    _unique_keys(papers, b)
    return {
        META_TABLE: dict(ours.get(META_TABLE) or theirs.get(META_TABLE) or {}),
        PAPERS_TABLE: {str(n): record for n, record in enumerate(papers.values(), 1)},
    }


def _unique_keys(papers: dict[str, dict[str, Any]], base: Mapping[str, Any]) -> None:
    """Give a suffix to the key of a paper whose key another paper already has: the paper
    the base had keeps it, else the one added first (then the smaller id)."""
    owners: dict[str, list[str]] = {}
    for pid, record in papers.items():
        key = record.get("citekey")
        if isinstance(key, str) and key:
            owners.setdefault(key.casefold(), []).append(pid)
    taken = set(owners)
    for _key_folded, pids in owners.items():
        if len(pids) < 2:
            continue
        pids.sort(key=lambda p: (p not in base, str(papers[p].get("added", "")), p))
        for pid in pids[1:]:
            key = papers[pid]["citekey"]
            for suffix in "bcdefghijklmnopqrstuvwxyz":
                if (key + suffix).casefold() not in taken:
                    break
            else:  # pragma: no cover - 25 papers under one key
                suffix = "-" + pid
            papers[pid] = {**papers[pid], "citekey": key + suffix}
            taken.add((key + suffix).casefold())


# -- files (the driver) -----------------------------------------------------------------


def read_version(path: Path) -> Tables:
    """A version of a store file as git hands it over (an empty file: no version)."""
    path = Path(path)
    if not path.exists() or not path.read_bytes().strip():
        return {}
    data = read_json_file(path)
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise StoreError(f"{path}: not a reader-tui store file (expected an object of tables)")
    return data


def merge_files(base: Path, ours: Path, theirs: Path) -> str:
    """Merge three versions of a store file and write the result over `ours` (atomically,
    in the store's own shape): what git's merge driver does. Returns the file's kind."""
    from ...atomic_storage import dump_json_lines

    b, o, t = read_version(base), read_version(ours), read_version(theirs)
    meta = (o.get(META_TABLE) or t.get(META_TABLE) or {}).get("1") or {}
    kind = meta.get("kind")
    for path, tables in ((ours, o), (theirs, t)):
        if tables:
            check_meta(Path(path), tables, str(kind))
    if kind == "catalog":
        merged = merge_catalog_tables(b, o, t)
        write_file_atomically(Path(ours), dump_json_lines(merged))
    elif kind == "annotations":
        merged = merge_annotation_tables(b, o, t)
        write_file_atomically(Path(ours), dump_json_lines(merged, sort=True))
    else:
        raise StoreError(f"{ours}: not a reader-tui catalog or annotations file")
    return kind
