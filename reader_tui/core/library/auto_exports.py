"""Exports kept up to date: a file in any export format (`formats.exporters`) rewritten shortly after each change
of the library (`reader-tui export -o FILE --watch` while it runs; saved auto-exports,
`export -o FILE --save`, after every change the TUI or a command makes and after a sync
brings changes in).

One implementation for all of them: `render` makes the text of an `ExportSpec`, with the
papers in the library's order (never the search's ranking, which moves when other papers
change), so a paper's change is that paper's lines in `git diff`; `refresh` writes it
atomically, only when the file's text differs. A path that cannot be written is one line
naming it (`AutoExportError`), and the file there is left as it was.

Saved auto-exports live in the library's settings (`SETTING`), so a synced library keeps
the same files up to date on each machine where the path can be written.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..atomic_storage import StoreError
from ..formats.exporters import EXPORT_FORMATS as FORMATS
from ..model import Status
from .files import FileSignature
from .library import Library

SETTING = "auto_exports"
MODES = ("latex", "unicode", "ascii")


class AutoExportError(StoreError):
    """An export that cannot be made or written: `str()` is one line naming its path."""


@dataclass(frozen=True, slots=True)
class ExportSpec:
    """Which papers an export holds (as `reader-tui export`'s --status, --tag, --search
    and --id choose them) and how it writes them."""

    path: str  # absolute, or starting with ~ (expanded where it is written)
    format: str = "bibtex"
    status: str | None = None
    tags: tuple[str, ...] = ()
    search: str = ""
    ids: tuple[str, ...] = ()
    abstract: bool = True  # bibtex
    mode: str = "latex"  # bibtex: latex, unicode or ascii
    scores: bool = False  # markdown: each paper's TL;DR and review scores
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys a newer version saved

    def to_setting(self) -> dict[str, Any]:
        """The spec as stored in the settings: only what differs from the defaults."""
        value = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items() if k != "extra"}
        defaults = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(ExportSpec(self.path)).items()}
        return {**self.extra, **{k: v for k, v in value.items() if k == "path" or v != defaults[k]}}

    @classmethod
    def from_setting(cls, value: Mapping[str, Any]) -> ExportSpec:
        """The spec stored by `to_setting`; AutoExportError when it cannot be read."""
        path = value.get("path")
        if not isinstance(path, str) or not path.strip():
            raise AutoExportError(f"a saved auto-export names no file: {dict(value)!r}")
        known = {f for f in cls.__dataclass_fields__ if f not in ("path", "extra")}
        extra = {k: v for k, v in value.items() if k not in known and k != "path"}
        spec = cls(
            path,
            format=str(value.get("format", "bibtex")),
            status=value.get("status") if isinstance(value.get("status"), str) else None,
            tags=tuple(str(t) for t in value.get("tags", ()) if isinstance(t, str)),
            search=str(value.get("search") or ""),
            ids=tuple(str(i) for i in value.get("ids", ()) if isinstance(i, str)),
            abstract=value.get("abstract", True) is not False,
            mode=str(value.get("mode", "latex")),
            scores=value.get("scores", False) is True,
            extra=extra,
        )
        if spec.status is not None and spec.status not in {s.value for s in Status}:
            raise AutoExportError(f"{path}: saved with status {spec.status!r}, which this version does not know")
        if spec.format not in FORMATS or spec.mode not in MODES:
            raise AutoExportError(f"{path}: saved as an export in {spec.format!r} ({spec.mode!r}), "
                                  f"which this version cannot write")
        return spec

    @property
    def file(self) -> Path:
        return Path(os.path.expanduser(self.path))

    def describe(self) -> str:
        """"bibtex: status:read tag:thesis 'attention' (3 ids)" ("every paper" when all)."""
        what = [f"status:{self.status}"] if self.status else []
        what += [f"tag:{tag}" for tag in self.tags]
        if self.search:
            what.append(repr(self.search))
        if self.ids:
            what.append(f"{len(self.ids)} paper{'s' if len(self.ids) != 1 else ''} by id")
        how = self.format if self.format != "bibtex" or self.mode == "latex" else f"{self.format} ({self.mode})"
        return f"{how}: {' '.join(what) or 'every paper'}"


@dataclass(slots=True)
class Memo:
    """What a process that keeps an export up to date remembers between two writes: each
    entry's text (`formats.write.memoized`), and the text last written or found (its
    digest) with the file's signature then, so an unchanged export reads neither the papers nor the file."""

    entries: dict = field(default_factory=dict)
    digest: bytes = b""  # of the text (the text itself would double what is kept)
    signature: FileSignature | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """What `refresh` did: the papers the file holds, and whether it was rewritten."""

    spec: ExportSpec
    ids: tuple[str, ...]
    rewritten: bool


def render(library: Library, spec: ExportSpec, memo: Memo | None = None) -> tuple[str, list[str]]:
    """The export's text and the ids of its papers, in the library's order. Raises
    AutoExportError for a search the parser cannot read or an id the library lacks."""
    from ..formats.exporters import export_text
    from ..search.filters import ListFilter
    from ..search.query import QueryError
    from .library import IdError

    status = Status(spec.status) if spec.status else None
    chosen = ListFilter.of(status=status, tags=spec.tags, search=spec.search or None)
    ids = chosen.keep(list(library.papers), library.annotations)
    if chosen.search:
        from .indexing import search_index

        try:
            found = {hit.id for hit in chosen.search_hits(search_index(library)[0], ids)}
        except QueryError as error:
            raise AutoExportError(f"{spec.path}: its search {spec.search!r}: {error}") from None
        ids = [pid for pid in ids if pid in found]  # the library's order, not the ranking
    if spec.ids:
        try:
            wanted = {library.resolve_id(i) for i in spec.ids}
        except IdError as error:
            raise AutoExportError(f"{spec.path}: {error}") from None
        ids = [pid for pid in ids if pid in wanted]
    views = library.views(ids)
    entries = None if memo is None else memo.entries
    return export_text(spec.format, views, abstract=spec.abstract, mode=spec.mode, scores=spec.scores, memo=entries), ids


def refresh(library: Library, spec: ExportSpec, *, create: bool = True, memo: Memo | None = None) -> Written:
    """Write `spec`'s export when the file's text differs from it (atomically: the old
    file or the new one, never half). `create=False` refuses to replace a file that is
    there (the first write of `export --save` without --force). Raises AutoExportError
    (one line naming the path) when it cannot be made or written."""
    from ..formats.write import ExportError, write_export

    text, ids = render(library, spec, memo)
    path = spec.file
    signature = FileSignature.of(path)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
    untouched = memo is not None and signature is not None and memo.signature == signature
    if untouched and memo.digest == digest:
        return Written(spec, tuple(ids), False)  # as written last time, and not touched since
    try:
        # (a file as this process left it holds the old text: no need to read it to know)
        if not untouched and path.is_file() and path.read_text("utf-8") == text:
            if memo is not None:
                memo.digest, memo.signature = digest, signature
            return Written(spec, tuple(ids), False)
    except (OSError, UnicodeDecodeError):
        pass  # unreadable or not ours in shape: written over below, as any change would be
    try:
        write_export(text, path, force=create)
    except FileExistsError:
        raise AutoExportError(f"{spec.path}: exists already (use --force to overwrite it)") from None
    except ExportError as error:
        raise AutoExportError(str(error)) from None
    except OSError as error:
        raise AutoExportError(f"{spec.path}: cannot write: {error.strerror or error}") from None
    if memo is not None:
        memo.digest, memo.signature = digest, FileSignature.of(path)
    return Written(spec, tuple(ids), True)


def saved(settings: Mapping[str, Any]) -> list[ExportSpec | AutoExportError]:
    """The saved auto-exports, in the order they were saved (one that cannot be read is
    its error, so a caller can say so and go on with the others)."""
    value = settings.get(SETTING)
    if not isinstance(value, list):
        return []
    found: list[ExportSpec | AutoExportError] = []
    for item in value:
        try:
            found.append(ExportSpec.from_setting(item if isinstance(item, dict) else {}))
        except AutoExportError as error:
            found.append(error)
    return found


def save(library: Library, spec: ExportSpec) -> bool:
    """Keep `spec` up to date from now on (replacing one saved for the same file).
    True when it replaced one."""
    items = [i for i in (library.settings.get(SETTING) or []) if isinstance(i, dict)]
    kept = [i for i in items if _same_file(i.get("path"), spec.path)]
    rest = [i for i in items if not _same_file(i.get("path"), spec.path)]
    library.set_setting(SETTING, [*rest, spec.to_setting()])
    return bool(kept)


def remove(library: Library, path: str) -> ExportSpec | None:
    """Stop keeping the export of `path` up to date (the file stays). None when none was saved."""
    items = [i for i in (library.settings.get(SETTING) or []) if isinstance(i, dict)]
    gone = [i for i in items if _same_file(i.get("path"), path)]
    if not gone:
        return None
    library.set_setting(SETTING, [i for i in items if not _same_file(i.get("path"), path)])
    try:
        return ExportSpec.from_setting(gone[0])
    except AutoExportError:
        return ExportSpec(str(gone[0].get("path")))


def _same_file(a: object, b: object) -> bool:
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    return os.path.abspath(os.path.expanduser(a)) == os.path.abspath(os.path.expanduser(b))


def refresh_saved(library: Library, memos: dict[str, Memo] | None = None) -> tuple[list[Written], list[str]]:
    """Bring every saved auto-export up to date: what was written, and one line per
    export that could not be (naming its file); the others are written all the same.
    `memos` (file -> Memo, kept by the caller between calls) makes a rewrite after one
    change cost that change."""
    done: list[Written] = []
    errors: list[str] = []
    for spec in saved(library.settings):
        if isinstance(spec, AutoExportError):
            errors.append(str(spec))
            continue
        try:
            memo = None if memos is None else memos.setdefault(spec.path, Memo())
            done.append(refresh(library, spec, memo=memo))
        except AutoExportError as error:
            errors.append(f"auto-export {error}")
    return done, errors


def exported_ids(written: Iterable[Written]) -> list[str]:
    """The ids of the papers in the files written with keys (their keys may now be cited)."""
    return [pid for w in written if w.spec.format != "markdown" for pid in w.ids]
