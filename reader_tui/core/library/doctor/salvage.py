"""What can still be read from a damaged annotations file.

A TinyDB file is one JSON object of tables, each an object of documents keyed by their
doc id: `{"_meta": {...}, "annotations": {"123": {"paper_id": ..., ...}, ...}, "settings":
{"1": {...}}}`. A file cut off by a full disk or damaged in the middle fails to parse as a
whole, yet most of its documents are intact. `salvage_annotations` finds every
`"<digits>": {` and parses the object that follows on its own; each one that is a complete,
valid annotation is kept. Nothing is guessed: a document that does not parse whole is lost,
and `named` counts the paper ids the file mentions, readable or not, so a caller can say
how many were.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ...model import Annotation

_DOCUMENT = re.compile(r'"(\d+)"\s*:\s*\{')
_PAPER_ID = re.compile(r'"paper_id"\s*:\s*("(?:[^"\\]|\\.)*")')
_SETTINGS = re.compile(r'"settings"\s*:\s*\{\s*"1"\s*:\s*\{')


@dataclass(slots=True)
class Salvage:
    """The readable part of a damaged annotations file."""

    annotations: dict[str, Annotation] = field(default_factory=dict)
    settings: dict[str, Any] | None = None
    named: set[str] = field(default_factory=set)
    """Every paper id the file mentions, in a readable document or not."""
    cut_at: int | None = None
    """When the file is cut short (or unreadable past a point): the byte after which
    nothing can be read, so how many annotations it held there is unknown (`named` then
    counts only those whose id survived the cut). None when the damage is elsewhere."""


def salvage_annotations(raw: bytes) -> Salvage:
    """Every complete, valid annotation document (and the settings) found in `raw`, the
    bytes of a damaged annotations file. Never raises for bad input."""
    # surrogateescape keeps byte offsets meaningful past an invalid byte; a document that
    # holds one is dropped below (it could not be written back as UTF-8).
    text = raw.decode("utf-8", "surrogateescape")
    decoder = json.JSONDecoder()
    result = Salvage()
    for match in _DOCUMENT.finditer(text):
        doc = _object_at(decoder, text, match.end() - 1)
        if doc is None or not isinstance(doc.get("paper_id"), str):
            continue
        try:
            annotation = Annotation.from_dict(doc)
        except (TypeError, ValueError):
            continue
        result.annotations[doc["paper_id"]] = annotation  # a later copy wins, as in JSON
    for match in _PAPER_ID.finditer(text):
        try:
            pid = json.loads(match.group(1))
        except ValueError:
            continue
        if isinstance(pid, str) and _encodable(pid):
            result.named.add(pid)
    result.named |= result.annotations.keys()
    settings = _SETTINGS.search(text)
    if settings is not None:
        result.settings = _object_at(decoder, text, settings.end() - 1)
    result.cut_at = _unreadable_from(decoder, text)
    return result


def _unreadable_from(decoder: json.JSONDecoder, text: str) -> int | None:
    """The byte offset after which `text` holds nothing readable, when the whole fails to
    parse at a point past which no document can be read (a file cut short); else None."""
    try:
        json.loads(text)
        return None  # it parses: the damage is in what it holds, not cut off
    except ValueError as error:
        broken = getattr(error, "pos", len(text))
    last_end = 0
    for match in _DOCUMENT.finditer(text):
        try:
            value, end = decoder.raw_decode(text, match.end() - 1)
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        if match.start() > broken:
            return None  # readable again after the damage: not cut short
        last_end = max(last_end, end)
    return len(text[: last_end or broken].encode("utf-8", "surrogateescape"))


def _object_at(decoder: json.JSONDecoder, text: str, start: int) -> dict[str, Any] | None:
    try:
        value, _ = decoder.raw_decode(text, start)
    except ValueError:
        return None
    if not isinstance(value, dict) or not _encodable(value):
        return None
    return value


def _encodable(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        return False
    return True
