"""The shapes a store file written by someone else must have before a sync merges it or
the screen shows it: another member's `members/<name>.json`, or any store file that comes
from a shared remote (`guard`). Such a file is data to check, never trusted: its size
and nesting are bounded before anything walks it, and its tables must be the store's.

Nothing here reads the disk or runs git; each check returns the problem in a few words
(for a line naming the file and the member), or None when the file may be taken.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson

from ...atomic_storage import StoreError
from ...model import Annotation
from ..catalog.records import check_record
from ..files import ANNOTATIONS_TABLE, META_TABLE, PAPERS_TABLE, SETTINGS_TABLE, check_meta

#: The most bytes a store file from the remote may hold. A member's annotations of a
#: 100,000-paper conference with long notes stay well under the first; the catalog of one
#: is some 180 MB.
MAX_BYTES = {"annotations": 128 * 1024 * 1024, "catalog": 1024 * 1024 * 1024}
#: How deeply the JSON of a store file may nest: the store's own files nest five levels
#: (file, table, document, field, value); anything far deeper is made to hurt a reader.
MAX_DEPTH = 24
#: Settings that act outside the library (an auto-export writes a file where its path
#: says): a change of them from the remote is refused, the machine's own kept.
LOCAL_SETTINGS = ("auto_exports",)

_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufffd\\/:*?\"<>|]")


def member_name_problem(name: str) -> str | None:
    """Why `name` cannot be a reading-group member's name (None: it can): it names a file
    (`members/<name>.json`) on every member's machine and is printed in reports, so it is
    plain printable text, not a path, not an option, at most 64 characters."""
    if not name.strip():
        return "an empty name"
    if len(name) > 64:
        return "a name longer than 64 characters"
    if name != name.strip():
        return "a name that starts or ends with a space"
    if name.startswith((".", "-")):
        return f"a name starting with {name[0]!r}"
    if _UNSAFE_NAME.search(name) or not name.isprintable():
        return "a name holding a control character, a path separator or a character files cannot be named with"
    return None


def json_depth_over(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `data` (parsed JSON) nests deeper than `limit`: walked without recursion, so
    a hostile file cannot exhaust the stack of whatever reads it next."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, dict | list))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value if isinstance(v, dict | list))
    return False


def parse_store_file(raw: bytes, kind: str) -> tuple[dict[str, Any] | None, str | None]:
    """`raw` (a store file of `kind`, "annotations" or "catalog") parsed and checked:
    (tables, None), or (None, the problem in a few words)."""
    limit = MAX_BYTES[kind]
    if len(raw) > limit:
        return None, f"{len(raw) // (1024 * 1024)} MB, more than the {limit // (1024 * 1024)} MB a {kind} file may hold"
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        deep = "depth" in str(error).lower() or "recursion" in str(error).lower()
        return None, f"nested deeper than {MAX_DEPTH} levels" if deep else "not valid JSON"
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        return None, "not a reader-tui store file (expected an object of tables)"
    if json_depth_over(data):
        return None, f"nested deeper than {MAX_DEPTH} levels"
    try:
        check_meta(Path(kind), data, kind)  # (the "path" of its messages is the kind: cut below)
    except StoreError as error:
        return None, str(error).split(": ", 1)[-1]
    problem = _annotations_problem(data) if kind == "annotations" else _catalog_problem(data)
    return (None, problem) if problem else (data, None)


def _annotations_problem(tables: dict[str, Any]) -> str | None:
    for name in tables:
        if name not in (META_TABLE, ANNOTATIONS_TABLE, SETTINGS_TABLE):
            return f"a table {name[:40]!r} the annotations file does not have"
    for doc_id, doc in tables.get(ANNOTATIONS_TABLE, {}).items():
        pid = doc.get("paper_id") if isinstance(doc, dict) else None
        if not isinstance(pid, str) or not pid:
            return f"annotation {doc_id[:40]!r} names no paper"
        try:
            Annotation.from_dict(doc)
        except (TypeError, ValueError) as error:
            return f"the annotation of paper {pid[:80]!r}: {error}"
    settings = tables.get(SETTINGS_TABLE, {})
    if any(key != "1" or not isinstance(value, dict) for key, value in settings.items()):
        return "the settings are not one object"
    return None


def _catalog_problem(tables: dict[str, Any]) -> str | None:
    for name in tables:
        if name not in (META_TABLE, PAPERS_TABLE):
            return f"a table {name[:40]!r} the catalog does not have"
    for doc_id, record in tables.get(PAPERS_TABLE, {}).items():
        try:
            check_record("catalog.json", str(doc_id)[:40], record)
        except StoreError as error:
            return str(error).split(": ", 1)[-1]
    return None
