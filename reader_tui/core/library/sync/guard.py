"""What a sync takes from the remote, checked before git writes any of it into the
library's folder. A shared remote is written by other people, so its commits are data to
check, never paths to follow (see docs/sync-threat-model.md):

- a name: only the store's own files (`catalog.json`, `annotations.json` in a library of
  one person, `members/<name>.json` with a plain member name, `.gitattributes`,
  `.gitignore`); nothing else, so no `.gitmodules`, no `backups`, no `reviews.sqlite`;
- a kind: a regular file, by git's mode; never a symbolic link or a submodule;
- a content: the store file's shape (`remote_files`); `.gitattributes` and `.gitignore`
  hold only the lines reader-tui writes; a change of this machine's own settings that
  act outside the library (auto-exports) is not taken;
- a removal: never of the catalog or of this member's own file.

What fails is refused: the commit merged is the remote's with each refused file as it is
here (or left out), made with git's plumbing in a private index (`vet`), so the rest of
what came in is merged and nothing here is overwritten by what was refused. Each refusal
is one line naming the file and who committed it.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...atomic_storage import StoreError, dump_json_lines
from ..files import ANNOTATIONS_FILE, CATALOG_FILE, SETTINGS_TABLE
from .changes import MEMBERS_DIR
from .remote_files import LOCAL_SETTINGS, MAX_BYTES, member_name_problem, parse_store_file

_REGULAR = (b"100644", b"100755")
_KINDS = {b"120000": "a symbolic link", b"160000": "a submodule (a link to another repository)", b"040000": "a folder"}
_COMMENT = re.compile(r"^\s*(#.*)?$")
INDEX_FILE = "reader-tui-vet.index"
"""The private index (in git's folder) the refused files are taken out of."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A file of the remote's that was not taken: its name, who committed it, why."""

    path: str
    who: str
    why: str

    def line(self) -> str:
        return f"refused from the remote: {self.path} (from {self.who}): {self.why}; nothing here was changed by it"


@dataclass(frozen=True, slots=True)
class _Entry:
    path: bytes
    old_mode: bytes  # b"000000" when the file is not at the old commit
    old_oid: bytes
    new_mode: bytes  # b"000000" when the remote removed it
    new_oid: bytes


def vet(
    folder: Path,
    old: str | None,
    theirs: str,
    member: str | None,
    identity: Sequence[str],
    known_lines: Mapping[str, set[str]],
) -> tuple[str, list[Refusal]]:
    """The commit to merge for `theirs` (a commit the remote made), and what was refused
    of it. `old`: the commit the library's files are at (None: none yet, as in a clone);
    only what differs from it is checked. `member`: who this machine syncs as (None: a
    library of one person). `known_lines`: the lines `.gitattributes` and `.gitignore`
    may hold. When nothing is refused the commit is `theirs` itself."""
    folder = Path(folder)
    entries = _changed(folder, old, theirs)
    refusals: list[tuple[_Entry, str]] = []
    replaced: dict[bytes, bytes] = {}  # path -> a blob written here to take its place
    wanted: dict[bytes, tuple[_Entry, str]] = {}  # path -> (entry, kind) whose content is checked
    for entry in entries:
        why, kind = _name_problem(entry, member)
        if why is None and kind is not None and entry.new_mode != b"000000":
            wanted[entry.path] = (entry, kind)
        elif why is not None:
            refusals.append((entry, why))
    own = f"{MEMBERS_DIR}/{member}.json".encode() if member else ANNOTATIONS_FILE.encode()
    mine = wanted[own][0].old_oid if own in wanted and wanted[own][0].old_mode != b"000000" else None
    blobs = _read_blobs(folder, [e.new_oid for e, _ in wanted.values()] + ([mine] if mine else []))
    for path, (entry, kind) in wanted.items():
        raw = blobs.get(entry.new_oid)
        if raw is None:
            refusals.append((entry, f"more than the {MAX_BYTES['catalog'] // (1024 * 1024)} MB a store file may hold"))
            continue
        why, pinned = _content_problem(folder, kind, raw, known_lines, blobs.get(mine) if path == own and mine else None,
                                       own_file=path == own)
        if why is not None:
            refusals.append((entry, why))
        elif pinned is not None:
            replaced[path] = pinned
            refusals.append((entry, "a change of this machine's auto-exports (files written outside the library); "
                                    "the rest of the file is taken"))
    if not refusals:
        return theirs, []
    commit = _commit_without(folder, theirs, [e for e, _ in refusals if e.path not in replaced], replaced, identity)
    return commit, [Refusal(_shown(e.path), _who(folder, theirs, e.path), why) for e, why in refusals]


def _shown(path: bytes) -> str:
    return path.decode("utf-8", "replace")


def _name_problem(entry: _Entry, member: str | None) -> tuple[str | None, str | None]:
    """Why `entry` (a change of the remote's) is refused by its name or kind, or None,
    with the kind of store file it is ("annotations", "catalog", or a git file's name)."""
    try:
        name = entry.path.decode("utf-8")
    except UnicodeDecodeError:
        return "a file name that is not UTF-8", None
    removed = entry.new_mode == b"000000"
    own = f"{MEMBERS_DIR}/{member}.json" if member else None
    if removed:
        if name in (CATALOG_FILE, own):
            return "the remote removed it; the library keeps it", None
        return None, None
    if entry.new_mode not in _REGULAR:
        return _KINDS.get(entry.new_mode, f"not a regular file (git mode {_shown(entry.new_mode)})"), None
    if name == CATALOG_FILE:
        return None, "catalog"
    if name == ANNOTATIONS_FILE:
        if member:
            return "a reading group's library keeps annotations.json out of git (each member has members/NAME.json)", None
        return None, "annotations"
    if name in (".gitattributes", ".gitignore"):
        return None, name
    folder, _, file = name.partition("/")
    if folder == MEMBERS_DIR and "/" not in file and file.endswith(".json"):
        problem = member_name_problem(file[: -len(".json")])
        return (f"not a member's file: {problem}", None) if problem else (None, "annotations")
    return "not a file of the library (a sync takes only the store's own files)", None


def _content_problem(
    folder: Path, kind: str, raw: bytes, known_lines: Mapping[str, set[str]], old: bytes | None, *, own_file: bool
) -> tuple[str | None, bytes | None]:
    """Why a file of `kind` holding `raw` is refused (None: taken), and for this
    machine's own annotations (`own_file`; `old`: them as they are here), the oid of a
    blob written in their place that keeps this machine's auto-exports (None: the
    remote's blob as it is)."""
    if kind in known_lines:
        try:
            lines = raw.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            return "not UTF-8 text", None
        strange = [line for line in lines if line.strip() not in known_lines[kind] and not _COMMENT.match(line)]
        if strange:
            return f"a line reader-tui does not write ({strange[0][:60]!r}), and this file tells git what to run", None
        return None, None
    tables, problem = parse_store_file(raw, kind)
    if problem is not None or tables is None:
        return problem, None
    if not own_file:
        return None, None
    old_tables = parse_store_file(old, kind)[0] if old is not None else None
    mine, theirs = _settings(old_tables), _settings(tables)
    if all(mine.get(key) == theirs.get(key) for key in LOCAL_SETTINGS):
        return None, None
    settings = {k: v for k, v in theirs.items() if k not in LOCAL_SETTINGS}
    settings.update({k: mine[k] for k in LOCAL_SETTINGS if k in mine})
    tables[SETTINGS_TABLE] = {"1": settings}
    blob = b"".join(dump_json_lines(tables, sort=True))
    done = _git(folder, "hash-object", "-w", "--stdin", input=blob)
    return None, done.stdout.strip()


def _settings(tables: Mapping[str, Any] | None) -> dict[str, Any]:
    found = ((tables or {}).get(SETTINGS_TABLE) or {}).get("1")
    return found if isinstance(found, dict) else {}


# -- git's plumbing ---------------------------------------------------------------------


def _git(folder: Path, *args: str | bytes, input: bytes | None = None, env: Mapping[str, str] | None = None,
         check: bool = True) -> subprocess.CompletedProcess[bytes]:
    run_env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
    done = subprocess.run(["git", *args], cwd=folder, input=input, capture_output=True, env=run_env)  # sync found git
    if check and done.returncode != 0:
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise StoreError(f"{folder}: git {args[0]!s} failed while checking what the remote sent: {last}")
    return done


def _changed(folder: Path, old: str | None, theirs: str) -> list[_Entry]:
    """The files `theirs` holds differently from `old` (every file when `old` is None),
    with git's modes and object ids: one git command."""
    if old is None:
        out = _git(folder, "ls-tree", "-r", "-z", "--full-tree", theirs).stdout
        entries = []
        for record in out.split(b"\0"):
            if record:
                meta, _, path = record.partition(b"\t")
                mode, _, oid = meta.split(b" ")
                entries.append(_Entry(path, b"000000", b"", mode, oid))
        return entries
    out = _git(folder, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", old, theirs).stdout
    fields = out.split(b"\0")
    entries = []
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        if meta.startswith(b":"):
            old_mode, new_mode, old_oid, new_oid, _status = meta[1:].split(b" ")
            entries.append(_Entry(path, old_mode, old_oid, new_mode, new_oid))
    return entries


def _read_blobs(folder: Path, oids: Sequence[bytes]) -> dict[bytes, bytes]:
    """The contents of the blobs `oids`, read through one `git cat-file --batch`; a blob
    larger than a store file may be is left out (read past, never held)."""
    if not oids:
        return {}
    found: dict[bytes, bytes] = {}
    process = subprocess.Popen(
        ["git", "cat-file", "--batch"], cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env={**os.environ, "LC_ALL": "C"},
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(oid + b"\n" for oid in dict.fromkeys(oids)))
    process.stdin.close()
    limit = max(MAX_BYTES.values())
    try:
        for oid in dict.fromkeys(oids):
            header = process.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                continue  # missing (a damaged repository): refused as unreadable
            size = int(header[2])
            if size > limit:
                while size > 0:
                    size -= len(process.stdout.read(min(size, 1 << 20)) or b"\0" * size)
            else:
                found[oid] = process.stdout.read(size)
            process.stdout.read(1)  # the newline after each object
    finally:
        process.stdout.close()
        process.wait()
    return found


def _commit_without(
    folder: Path, theirs: str, refused: Sequence[_Entry], replaced: Mapping[bytes, bytes], identity: Sequence[str]
) -> str:
    """A commit on top of `theirs` whose files are `theirs`' except the `refused` ones,
    which are as they were at the old commit (or absent when they were not there), and
    the `replaced` ones (path -> blob). Made in a private index: the library's own index
    and files are not touched."""
    index = Path(folder).absolute() / ".git" / INDEX_FILE  # (git runs in the folder: a relative path would not do)
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        _git(folder, "read-tree", theirs, env=env)
        removals = [b"0 " + b"0" * len(e.new_oid) + b"\t" + e.path + b"\0" for e in refused if e.new_mode != b"000000"]
        restores = [e.old_mode + b" " + e.old_oid + b"\t" + e.path + b"\0" for e in refused if e.old_mode != b"000000"]
        swaps = [b"100644 " + oid + b"\t" + path + b"\0" for path, oid in replaced.items()]
        _git(folder, "update-index", "-z", "--index-info", input=b"".join(removals), env=env)
        if restores or swaps:
            _git(folder, "update-index", "-z", "--index-info", input=b"".join(restores + swaps), env=env)
        tree = _git(folder, "write-tree", env=env).stdout.decode().strip()
    finally:
        index.unlink(missing_ok=True)
    names = ", ".join(_shown(e.path) for e in refused) or ", ".join(_shown(p) for p in replaced)
    message = f"reader-tui: the remote's commit without what was refused ({names[:200]})"
    done = _git(folder, *identity, "commit-tree", tree, "-p", theirs, "-m", message)
    return done.stdout.decode().strip()


def _who(folder: Path, theirs: str, path: bytes) -> str:
    """Who committed the remote's version of `path`: the member whose file it is, and the
    author of the last commit that changed it (as the commit says: git does not check)."""
    done = _git(folder, "log", "-1", "--no-renames", "--format=%an", theirs, "--", path, check=False,
                env={"GIT_LITERAL_PATHSPECS": "1"})
    author = done.stdout.decode("utf-8", "replace").strip() or "?"
    name = _shown(path)
    if name.startswith(f"{MEMBERS_DIR}/") and name.endswith(".json") and "/" not in name[len(MEMBERS_DIR) + 1 :]:
        owner = name[len(MEMBERS_DIR) + 1 : -len(".json")]
        return f"member {owner}'s file, committed by {author}" if owner != author else f"member {owner}"
    return f"a commit by {author}"
