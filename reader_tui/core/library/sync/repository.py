"""Sync a library folder through git: `init` makes it a repository (or clones one), `sync`
commits, fetches, merges and pushes. Git is run as a program (`git` on the PATH).

What goes into git: catalog.json, annotations.json (or, in a reading group, each member's
own annotations under members/<name>.json), .gitattributes and .gitignore. Never:
backups/, the lock, temporary files, damaged files set aside, reviews.sqlite (re-imported
from the reviews file). The caches live outside the folder (`core.paths`).

The store files merge through reader-tui's merge driver (`merge`), installed in the
repository's .git/config and named for the files in .gitattributes, so a plain `git pull`
merges the same way. The store's lock is held while git rewrites the files (commit and
merge), never while talking to the remote; a TUI open on the library sees the new files
as it sees any other process's writes.

Every failure is a `SyncError`: one line, and nothing lost (local work is committed before
anything comes in; an unreachable remote leaves it committed for the next sync).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...atomic_storage import StoreError, write_file_atomically
from ..files import ANNOTATIONS_FILE, CATALOG_FILE, LOCK_FILE
from ..locks import exclusive
from ..safe_paths import check_inside, read_regular
from .changes import MEMBERS_DIR, count_waiting, describe_changes, list_waiting, new_conflicts
from .guard import vet
from .remote_files import MAX_BYTES, member_name_problem
from .state import MERGING_FILE, mark_synced, merge_cut_short

DRIVER = "reader-tui"
MEMBER_KEY = "reader-tui.member"
#: The files git merges with reader-tui's driver.
MERGED = (CATALOG_FILE, ANNOTATIONS_FILE, f"{MEMBERS_DIR}/*.json")
IGNORED = ("backups/", LOCK_FILE, "*.tmp", ".*.tmp", "reviews.sqlite*", "*.damaged-*", "*.conflict-*")
REMOTE = "origin"
#: What a sync commits when it is there: the store's files, a group's members, git's own.
SHARED = (CATALOG_FILE, ANNOTATIONS_FILE, f"{MEMBERS_DIR}/", ".gitattributes", ".gitignore")
#: git's attributes for the library, in .git/info/attributes: read before any
#: .gitattributes that came from the remote, so no commit can choose a filter, a diff
#: program, a merge driver or a conversion of the store's files (only this machine's
#: .git/config names the commands, and these lines name which of them run).
INFO_ATTRIBUTES = (
    "# reader-tui: what git runs on the library's files is chosen here, not by a .gitattributes from the remote",
    "* -filter -diff -text -ident -eol -working-tree-encoding merge=text",
    *(f"{pattern} merge={DRIVER}" for pattern in MERGED),
)
#: The lines a .gitattributes or .gitignore from the remote may hold (reader-tui's own).
KNOWN_LINES = {
    ".gitattributes": {f"{pattern} merge={DRIVER}" for pattern in MERGED},
    ".gitignore": {*IGNORED, ANNOTATIONS_FILE},
}


class SyncError(StoreError):
    """A sync could not be done (or finished). `str()` is one line; nothing was lost."""


@dataclass(slots=True)
class SyncReport:
    """What a sync did: the commit of local work, what came in, whether it was pushed."""

    committed: str = ""  # the summary of the local commit, "" when nothing was new
    received: str = ""  # the summary of what the merge brought in, "" when nothing came
    pushed: bool = False
    first_push: bool = False  # the remote had no library yet: the push sent all of it
    offline: str = ""  # why the remote was not reached ("" when it was)
    conflicts: list[str] = field(default_factory=list)  # papers with marked notes, new from this merge
    notes: list[str] = field(default_factory=list)  # other one-line remarks (a cut-short sync undone)
    refused: list[str] = field(default_factory=list)  # one line per file of the remote's not taken
    push_refused: str = ""  # why the remote refused the push (its hook, its rules), "" when it did not

    def lines(self) -> list[str]:
        out = list(self.notes)
        if self.committed:
            out.append(f"committed: {self.committed}")
        elif not self.pushed:
            out.append("nothing new to commit")
        if self.offline:
            out.append(f"offline: {self.offline}; your changes are committed here and go out at the next sync")
            return out
        if self.received:
            out.append(f"received: {self.received}")
        elif self.refused:
            out.append(f"received nothing that could be taken: {len(self.refused)} file(s) refused, each below")
        else:
            out.append("nothing new from the remote")
        out += self.refused
        if self.conflicts:
            out.append(
                f"{len(self.conflicts)} note(s) changed on both sides kept both versions, marked: "
                f"find them with is:conflict ({', '.join(self.conflicts[:5])}{'...' if len(self.conflicts) > 5 else ''})"
            )
        if self.push_refused:
            out.append(f"not pushed: the remote refused the push ({self.push_refused}); your changes are committed "
                       "here: ask whoever runs the remote what it refuses")
        elif self.first_push:
            out.append("pushed the whole library: the remote had none yet")
        elif self.pushed:
            out.append("pushed" if self.committed else "pushed what was committed here before")
        else:
            out.append("nothing to push")
        return out


# -- git --------------------------------------------------------------------------------


def git_program() -> str:
    found = shutil.which("git")
    if found is None:
        raise SyncError("git is not on the PATH: install git to sync (the library works as before, unsynced)")
    return found


def git(folder: Path, *args: str, check: bool = True, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run git in `folder`; a failure (when `check`) is a SyncError with git's last line."""
    run_env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
    done = subprocess.run(
        [git_program(), *args], cwd=folder, capture_output=True, text=True, encoding="utf-8", errors="replace", env=run_env
    )
    if check and done.returncode != 0:
        command = next((a for a in args if not a.startswith("-") and "=" not in a), "")
        raise SyncError(f"{folder}: git {command} failed: {_last_line(done)}")
    return done


def _remote(folder: Path, *args: str, deadline: float | None, cancel: threading.Event | None) -> subprocess.CompletedProcess[str]:
    """Run a git command that talks to the remote (fetch, push). With a `deadline`
    (time.monotonic) or a `cancel` event, as the TUI runs it: away from the terminal (no
    password or host-key prompt can draw over the screen; what would ask fails instead),
    and killed, with its ssh, when the deadline passes or `cancel` is set. Killing a fetch
    or a push changes nothing here: git moves its refs only once the transfer is done."""
    if deadline is None and cancel is None:
        return git(folder, *args, check=False)
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    process = subprocess.Popen(
        [git_program(), *args], cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, encoding="utf-8", errors="replace", env=env, start_new_session=True,
    )
    while True:
        try:
            out, err = process.communicate(timeout=0.1)
            return subprocess.CompletedProcess(process.args, process.returncode, out, err)
        except subprocess.TimeoutExpired:
            stopped = cancel is not None and cancel.is_set()
            late = deadline is not None and time.monotonic() > deadline
            if not (stopped or late):
                continue
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            process.kill()
        process.communicate()
        why = "stopped" if stopped else "no answer in time"
        return subprocess.CompletedProcess(process.args, -signal.SIGKILL, "", why)


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    """What git said went wrong, as a sentence: its first `fatal:` or `error:` line (its
    last lines are often the tail of a sentence: "and the repository exists."), else its
    last line."""
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    said = next((line.split(":", 1)[1].strip() for line in lines if line.startswith(("fatal:", "error:"))), "")
    return said or (lines[-1] if lines else f"exit status {done.returncode}")


def is_repository(folder: Path) -> bool:
    return (Path(folder) / ".git").exists()


def driver_command() -> str:
    """The merge driver's command line as git runs it (%O base, %A ours, %B theirs, %P path):
    `driver`, which imports only the merge. A sync puts it back in a repository whose
    config holds another line (`reader-tui sync merge-driver` still merges the same)."""
    return f"{shlex.quote(sys.executable)} -m reader_tui.core.library.sync.driver %O %A %B %P"


def install(folder: Path, member: str | None = None) -> None:
    """What git needs in `folder` (a repository): the merge driver in .git/config, the
    store files bound to it in .gitattributes, a .gitignore for what never goes into git."""
    configure(folder, member)
    _add_lines(folder / ".gitattributes", [f"{pattern} merge={DRIVER}" for pattern in MERGED])
    ignored = list(IGNORED)
    if member:
        ignored.append(ANNOTATIONS_FILE)  # a member's own file is members/<name>.json
    _add_lines(folder / ".gitignore", ignored)


def configure(folder: Path, member: str | None = None) -> None:
    """git's configuration of a synced library, before git writes any file into it: the
    merge driver, the member, no symbolic links made by a checkout (a link in a commit
    becomes a plain file holding its target's name), and `INFO_ATTRIBUTES`."""
    git(folder, "config", f"merge.{DRIVER}.name", "reader-tui: merge store files by paper and field")
    git(folder, "config", f"merge.{DRIVER}.driver", driver_command())
    git(folder, "config", "core.symlinks", "false")
    if member:
        git(folder, "config", MEMBER_KEY, member)
    _info_attributes(folder)


def _info_attributes(folder: Path) -> None:
    path = folder / ".git" / "info" / "attributes"
    try:
        existing = read_regular(path, 1 << 20).decode("utf-8", "replace").splitlines()
    except OSError:
        existing = []
    if existing[: len(INFO_ATTRIBUTES)] != list(INFO_ATTRIBUTES):
        # first, so that nothing the user added later in the file comes before them
        others = [line for line in existing if line not in INFO_ATTRIBUTES]
        write_file_atomically(path, "\n".join([*INFO_ATTRIBUTES, *others, ""]).encode("utf-8"))


def _add_lines(path: Path, lines: Sequence[str]) -> None:
    check_inside(path.parent, path)
    try:
        existing = read_regular(path, 1 << 20).decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        existing = []
    except OSError as error:  # a link or a folder where git's file belongs: replaced, never followed
        existing = []
        if not path.is_symlink():
            raise SyncError(f"{path}: cannot be read ({error}); move it away and run `reader-tui sync init` again") from None
    missing = [line for line in lines if line not in existing]
    if missing or path.is_symlink():
        write_file_atomically(path, "\n".join([*existing, *missing, ""]).encode("utf-8"))


def member_of(folder: Path) -> str | None:
    """The reading-group member this machine syncs as (None: the library is one person's)."""
    if not is_repository(folder):
        return None
    try:
        done = git(folder, "config", "--get", MEMBER_KEY, check=False)
    except SyncError:  # no git here: the library reads as one person's
        return None
    name = done.stdout.strip()
    return name or None


def _member_from_git(folder: Path) -> str:
    """A member name for a reading group's library that names none: git's user.name."""
    name = git(folder, "config", "user.name", check=False).stdout.strip()
    if not name or member_name_problem(name):
        raise SyncError(
            f"{folder}: this library is a reading group's: name yourself with `reader-tui sync init --member NAME`"
        )
    return name


def _identity(folder: Path, config: Mapping[str, str] | None = None) -> list[str]:
    """`-c` options giving commits an author when git has none configured (`config`: the
    repository's configuration as `_config` read it, else asked of git)."""
    if config is None:
        found = git(folder, "config", "--get-regexp", r"^user\.(name|email)$", check=False).stdout.splitlines()
        config = dict((*line.split(" ", 1), "")[:2] for line in found)  # the last value of a key wins, as in git
    have = config.get("user.name", "").strip() and config.get("user.email", "").strip()
    return [] if have else ["-c", "user.name=reader-tui", "-c", "user.email=reader-tui@localhost"]


def _config(folder: Path) -> dict[str, str]:
    """The repository's configuration as git reads it (system, global, the repository's,
    the environment's), the last value of each key winning as with `git config --get`:
    one git call for what a sync reads (the member, the identity, the remote, the
    upstream) instead of one call for each. Empty when git cannot read it."""
    done = git(folder, "config", "--list", "-z", check=False)
    values: dict[str, str] = {}
    for entry in _names(done.stdout) if done.returncode == 0 else []:
        key, _, value = entry.partition("\n")
        values[key] = value
    return values


# -- init -------------------------------------------------------------------------------


def init(folder: Path, remote: str | None = None, member: str | None = None) -> str:
    """Make `folder` a synced library: a new repository, the library's own made into one,
    or `remote` cloned into a new library folder. Returns what was done: one line, then one
    line per file of the remote's that was refused (`guard`). An init that fails
    removes the repository it began (and a clone's files), so the next one starts afresh."""
    folder = Path(folder)
    git_program()
    remote = absolute_remote(remote) if remote else remote
    if member is not None and (problem := member_name_problem(member)):
        raise SyncError(f"member name {member!r}: {problem}: use a plain name")
    has_library = (folder / CATALOG_FILE).exists() or (folder / ANNOTATIONS_FILE).exists()
    if is_repository(folder):
        check_usable(folder)
        install(folder, member)
        if remote:
            _set_remote(folder, remote)
        if member:
            _own_to_member(folder, member)
        return f"{folder}: already a repository; merge driver, .gitattributes and .gitignore checked"
    cloning = bool(remote) and not has_library and not (folder.exists() and any(folder.iterdir()))
    made_folder = not folder.exists()
    try:
        if cloning:
            return _clone(folder, str(remote), member)
        return _init_here(folder, remote, member)
    except (StoreError, OSError) as error:
        _remove_half_made(folder, made_folder, clone=cloning)
        reason = str(error) if isinstance(error, StoreError) else f"{error.strerror or error}"
        raise SyncError(f"{reason}; sync init undone (no half-made repository is left): run it again once that is fixed") from None


def absolute_remote(remote: str) -> str:
    """`remote` with a relative local path made absolute from the current folder: git
    reads a remote's path from inside the library, where `shared.git` is not found. URLs
    (`https://`, `ssh://`, `file://`) and `host:path` are kept as given."""
    if "://" in remote or _SCP_LIKE.match(remote):
        return remote
    return os.path.abspath(os.path.expanduser(remote))


# `[user@]host:path`, as git reads it: a colon before any slash (not a drive letter).
_SCP_LIKE = re.compile(r"^[^/\\]{2,}:")


def _clone(folder: Path, remote: str, member: str | None) -> str:
    """`remote` cloned into `folder` without checking anything out, then the files of its
    commit checked (`guard.vet`) before git writes any of them."""
    where = folder.parent if folder.parent.exists() else Path.cwd()
    done = git(where, "clone", "--quiet", "--no-checkout", "--", remote, str(folder), check=False)
    if done.returncode != 0:
        raise SyncError(f"{remote}: cannot clone: {_last_line(done)}")
    configure(folder)
    refused: list[str] = []
    empty = git(folder, "rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode != 0
    if not empty:
        remote_member = member
        if member is None and git(folder, "ls-tree", "--name-only", "HEAD", "--", MEMBERS_DIR, check=False).stdout.strip():
            remote_member = _member_from_git(folder)
        commit, refusals = vet(folder, None, "HEAD", remote_member, _identity(folder), KNOWN_LINES)
        git(folder, "reset", "--quiet", "--hard", commit)
        refused = [r.line() for r in refusals]
    if member is None and (folder / MEMBERS_DIR).is_dir():
        member = _member_from_git(folder)
    _install_and_commit(folder, member, _member_to_own, "reader-tui: sync set up on this machine")
    if empty:
        return (f"{folder}: {remote} is empty: nothing to clone yet, so this library starts empty; "
                "once a member has run `reader-tui sync`, run it here to bring in their library")
    lines = [f"{folder}: cloned from {remote}", *refused]
    if _has_review_scores(folder):
        lines.append("reviews are not shared: import the list's reviews here too to read them "
                     "(`reader-tui import FILE`, the OpenReview dump with replies)")
    return "\n".join(lines)


def _has_review_scores(folder: Path) -> bool:
    """Whether the catalog that came with a clone holds review scores (whose texts live in
    the reviews file, which stays on each machine)."""
    try:
        return b'"scores"' in read_regular(folder / CATALOG_FILE, MAX_BYTES["catalog"])
    except (OSError, StoreError):
        return False


def _init_here(folder: Path, remote: str | None, member: str | None) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "--quiet")
    _install_and_commit(folder, member, _own_to_member, "reader-tui: the library, as it was when sync was set up")
    if remote:
        _set_remote(folder, remote)
        return f"{folder}: made a repository; run `reader-tui sync` to merge it with {remote}"
    return f"{folder}: made a repository (add a remote with `reader-tui sync init REMOTE`)"


def _install_and_commit(folder: Path, member: str | None, move: Callable[[Path, str], None], message: str) -> None:
    """`install`, then, for a reading-group `member`, `move` their annotations between the
    library's own file and theirs, and commit the library as it now is."""
    install(folder, member)
    if member:
        move(folder, member)
    with exclusive(folder / LOCK_FILE):
        _commit(folder, message)


def _remove_half_made(folder: Path, made_folder: bool, *, clone: bool) -> None:
    """What a failed init made: the repository, and for a clone the files it wrote (the
    folder was new or empty, so nothing of the user's is there)."""
    if clone and made_folder:
        shutil.rmtree(folder, ignore_errors=True)
    elif clone:
        for child in list(folder.iterdir()) if folder.is_dir() else []:
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
    else:
        shutil.rmtree(folder / ".git", ignore_errors=True)


def check_usable(folder: Path) -> None:
    """Raise SyncError, with the one command that fixes it, when `folder`'s .git is not a
    repository git can use (what an init cut short by an older reader-tui, a full disk or
    a kill, can leave)."""
    done = git(folder, "rev-parse", "--git-dir", check=False)
    if done.returncode == 0:
        return
    dot_git = folder / ".git"
    history = any((dot_git / "refs" / "heads").glob("*")) or (dot_git / "packed-refs").exists()
    if history:
        raise SyncError(f"{folder}: git cannot use the repository in .git ({_last_line(done)}); "
                        f"`git -C {shlex.quote(str(folder))} fsck` says what is wrong (it holds history: do not delete it)")
    raise SyncError(f"{folder}: .git is a half-made repository with no history ({_last_line(done)}): "
                    f"remove it with `rm -rf {shlex.quote(str(dot_git))}` (the library's files are outside it), "
                    "then run `reader-tui sync init` again")


def _set_remote(folder: Path, remote: str) -> None:
    current = git(folder, "remote", "get-url", REMOTE, check=False)
    if current.returncode == 0:
        git(folder, "remote", "set-url", "--", REMOTE, remote)
    else:
        git(folder, "remote", "add", "--", REMOTE, remote)


def _own_to_member(folder: Path, member: str) -> None:
    own = folder / ANNOTATIONS_FILE
    if own.exists() or own.is_symlink():
        target = check_inside(folder, folder / MEMBERS_DIR / f"{member}.json")
        write_file_atomically(target, _read_store_file(folder, own))
        if git(folder, "ls-files", "--error-unmatch", ANNOTATIONS_FILE, check=False).returncode == 0:
            git(folder, "rm", "--cached", "--quiet", ANNOTATIONS_FILE)


def _member_to_own(folder: Path, member: str) -> None:
    mine = folder / MEMBERS_DIR / f"{member}.json"
    if mine.exists() or mine.is_symlink():
        write_file_atomically(check_inside(folder, folder / ANNOTATIONS_FILE), _read_store_file(folder, mine))


def _read_store_file(folder: Path, path: Path) -> bytes:
    """A store file copied between annotations.json and members/<me>.json: read without
    following a link (a link there would copy a file from elsewhere into the library,
    and from there to the remote)."""
    check_inside(folder, path)
    try:
        return read_regular(path, MAX_BYTES["annotations"])
    except OSError as error:
        raise SyncError(f"{path}: not a regular file of the library ({error.strerror or error}), so it was not copied; "
                        "move it away, then sync again") from None


# -- sync -------------------------------------------------------------------------------


def sync(
    folder: Path, *, attempts: int = 3, timeout: float | None = None, cancel: threading.Event | None = None
) -> SyncReport:
    """Commit local changes, fetch, merge, push (see `_sync`); then `git gc --auto`, so
    the repository packs its history as it grows (a year of daily syncs: 161 MB loose,
    12 MB packed). git runs it in the background when there is work, and says nothing."""
    try:
        return _sync(folder, attempts=attempts, timeout=timeout, cancel=cancel)
    finally:
        if is_repository(Path(folder)) and shutil.which("git"):
            git(Path(folder), "gc", "--auto", "--quiet", check=False)


def waiting_changes(folder: Path) -> int:
    """How many changes made here are not committed yet (the next sync commits and sends
    them): statuses, tags, notes, edits and settings per paper, and imported or changed
    papers. 0 for a folder that is not a repository."""
    folder = Path(folder)
    if not is_repository(folder):
        return 0
    member = member_of(folder)
    committed = f"{MEMBERS_DIR}/{member}.json" if member else ANNOTATIONS_FILE
    catalog = git(folder, "diff", "--quiet", "HEAD", "--", CATALOG_FILE, check=False).returncode == 1
    return count_waiting(folder, committed, catalog)


def waiting_list(folder: Path) -> list[tuple[str, str]]:
    """The changes `waiting_changes` counts, one (kind, paper title or setting name) each,
    for a user asking what "N changes waiting" are. [] for a folder that is not a
    repository."""
    folder = Path(folder)
    if not is_repository(folder):
        return []
    member = member_of(folder)
    committed = f"{MEMBERS_DIR}/{member}.json" if member else ANNOTATIONS_FILE
    catalog = git(folder, "diff", "--quiet", "HEAD", "--", CATALOG_FILE, check=False).returncode == 1
    return list_waiting(folder, committed, catalog)


def _sync(
    folder: Path, *, attempts: int = 3, timeout: float | None = None, cancel: threading.Event | None = None
) -> SyncReport:
    """Commit local changes, fetch, merge, push (fetch and merge again when the push is
    rejected). Raises SyncError for what stops it; an unreachable remote is not an error:
    the report says so and the work stays committed here.

    `timeout` (seconds for all the talking to the remote) and `cancel` (an event another
    thread sets) bound the sync, as the TUI's sync on quit needs: a fetch or push still
    running then is stopped and the report reads as offline. The local steps (commit,
    merge) are never cut short by them."""
    folder = Path(folder)
    deadline = None if timeout is None else time.monotonic() + timeout
    git_program()
    if not is_repository(folder):
        raise SyncError(f"{folder}: not a git repository: run `reader-tui sync init [REMOTE]` first")
    report = SyncReport()
    config = _config(folder)
    if "core.repositoryformatversion" not in config:  # (git init writes it): not a repository git reads
        check_usable(folder)
    member = config.get(MEMBER_KEY, "").strip() or None  # as `member_of` reads it
    identity = _identity(folder, config)
    # set up by a reader-tui that did not guard the remote, or whose driver was another
    # module or another Python (a plain `git pull` runs the line the config holds)
    if config.get("core.symlinks") != "false" or config.get(f"merge.{DRIVER}.driver") != driver_command():
        configure(folder, member)
    if member is None and (folder / MEMBERS_DIR).is_dir():
        member = _member_from_git(folder)
        install(folder, member)
        report.notes.append(f"syncing as reading-group member {member!r} (git's user.name)")
    with _store_lock(folder):
        report.notes += _recover(folder)
        if member:
            _own_to_member(folder, member)
        report.committed = _commit(folder, identity=identity)
    has_remote = f"remote.{REMOTE}.url" in config  # what `git remote get-url` needs
    if not has_remote:
        report.offline = "no remote set (add one with `reader-tui sync init REMOTE`)"
        return report
    branch = git(folder, "symbolic-ref", "--short", "HEAD").stdout.strip()
    for _ in range(attempts):
        fetched = _remote(folder, "fetch", "--quiet", "--no-recurse-submodules", REMOTE, deadline=deadline, cancel=cancel)
        if fetched.returncode != 0:
            report.offline = f"{_remote_url(folder)} not reached ({_last_line(fetched)})"
            return report
        mark_synced(folder)
        theirs = f"refs/remotes/{REMOTE}/{branch}"
        with _store_lock(folder):
            counts = _behind_ahead(folder, theirs)
            if counts is not None:
                if member:
                    _own_to_member(folder, member)
                late = _commit(folder, identity=identity)  # written while we fetched (a TUI open on it)
                if late:
                    report.committed = f"{report.committed}; {late}" if report.committed else late
                behind, ahead_before = counts
                if behind:
                    received, conflicts, member = _merge_theirs(folder, theirs, member, report, identity)
                    if received:
                        report.received = f"{report.received}; {received}" if report.received else received
                    report.conflicts += [c for c in conflicts if c not in report.conflicts]
        if counts is None:  # the remote has no such branch yet
            ahead = git(folder, "rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode == 0
        elif behind:
            ahead = git(folder, "rev-list", "--count", f"{theirs}..HEAD").stdout.strip() != "0"
        else:  # nothing came in: ahead when we were, or when a late change was committed
            ahead = ahead_before > 0 or bool(late)
        if not ahead:
            return report
        pushed = _remote(folder, "push", "--quiet", REMOTE, f"HEAD:refs/heads/{branch}", deadline=deadline, cancel=cancel)
        if pushed.returncode == 0:
            tracks = (config.get(f"branch.{branch}.remote"), config.get(f"branch.{branch}.merge"))
            if tracks != (REMOTE, f"refs/heads/{branch}"):  # set once: `git pull` and `git status` know it
                git(folder, "branch", "--quiet", f"--set-upstream-to={REMOTE}/{branch}", check=False)
            report.pushed = True
            report.first_push = counts is None
            return report
        text = (pushed.stderr or "").lower()
        if "failed to lock" in text or "cannot lock ref" in text:
            # a push to the remote cut short there left its lock; pushing again cannot help
            report.offline = f"{_remote_url(folder)}: push refused, the remote's branch is locked ({_last_line(pushed)})"
            return report
        if "[remote rejected]" in text:
            # the remote's own rules refused it (a hook, a protected branch): pushing again
            # cannot help, and the remote did not move
            report.push_refused = _refusal_reason(pushed)
            return report
        if "rejected" not in text and "fetch first" not in text and "non-fast-forward" not in text:
            report.offline = f"{_remote_url(folder)}: push failed ({_last_line(pushed)})"
            return report
    raise SyncError(f"{folder}: the remote kept moving while we merged ({attempts} tries): run `reader-tui sync` again")


def _refusal_reason(pushed: subprocess.CompletedProcess[str]) -> str:
    """Why the remote refused a push, as it said: its hook's own lines ("remote: ...")
    and the reason git gives in brackets."""
    lines = [line.strip() for line in (pushed.stderr or "").splitlines()]
    said = [line.removeprefix("remote:").strip() for line in lines if line.startswith("remote:")]
    said = [line for line in said if line]
    reason = next((line.split("(", 1)[-1].rstrip(")") for line in lines if "[remote rejected]" in line), "")
    return "; ".join([*said[-2:], reason] if reason else said[-2:]) or _last_line(pushed)


def _remote_url(folder: Path) -> str:
    return git(folder, "remote", "get-url", REMOTE, check=False).stdout.strip() or REMOTE


def _behind_ahead(folder: Path, theirs: str) -> tuple[int, int] | None:
    """How many commits `theirs` has that HEAD lacks, and HEAD has that `theirs` lacks; None
    when there is no `theirs`. One git call, so a sync with nothing to merge skips the merge
    (and its half-dozen git calls) altogether."""
    counted = git(folder, "rev-list", "--left-right", "--count", f"{theirs}...HEAD", check=False)
    if counted.returncode == 0:
        behind, ahead = (int(n) for n in counted.stdout.split())
        return behind, ahead
    if git(folder, "rev-parse", "--verify", "--quiet", theirs, check=False).returncode == 0:
        return 1, 0  # no commit here yet (an empty library): take theirs
    return None


def _merge_theirs(
    folder: Path, theirs: str, member: str | None, report: SyncReport, identity: list[str] | None = None
) -> tuple[str, list[str], str | None]:
    """Merge `theirs` (under the store's lock) and carry the member files across; returns
    what came in, the new conflicts and the member this library now syncs as."""
    merging = folder / ".git" / MERGING_FILE
    merging.touch()
    try:
        received, conflicts, before, refused = _merge(folder, theirs, identity, member)
        report.refused += [line for line in refused if line not in report.refused]
    finally:  # a merge git refused is undone already; only a kill leaves the mark
        merging.unlink(missing_ok=True)
    if member:
        _member_to_own(folder, member)
    elif not (folder / ANNOTATIONS_FILE).exists() and (own_before := _tracked_version(folder, ANNOTATIONS_FILE, before)) is not None:
        # The remote became a reading group's (a member's `sync init --member`
        # took annotations.json out of git): ours stay, under our member name.
        write_file_atomically(folder / ANNOTATIONS_FILE, own_before)
        member = _member_from_git(folder)
        install(folder, member)
        _own_to_member(folder, member)
        _commit(folder, f"reader-tui: {member} joins the reading group")
        report.notes.append(f"the library is now a reading group's: your marks are kept, shared as member {member!r}")
    return received, conflicts, member


@contextmanager
def _store_lock(folder: Path) -> Iterator[None]:
    with exclusive(check_inside(folder, folder / LOCK_FILE)):
        yield


def _recover(folder: Path) -> list[str]:
    """Undo what a sync cut short left (held under the store's lock, so no sync of ours is
    running): a stale index lock, store files a killed merge cut off, a merge in progress.
    Local work was committed before the merge began, so undoing the merge loses nothing."""
    notes = []
    dot_git = folder / ".git"
    stale = [*dot_git.glob("*.lock"), *dot_git.glob("refs/**/*.lock"), *dot_git.glob("logs/**/*.lock")]
    for lock in stale:
        lock.unlink(missing_ok=True)
    if stale:
        names = ", ".join(str(p.relative_to(dot_git)) for p in stale)
        notes.append(f"git lock file(s) left by an interrupted git command removed ({names})")
    if merge_cut_short(folder):
        # Nothing opened the library since the kill (opening restores and clears the mark),
        # so its files hold only what git was writing when it died: back to HEAD.
        notes += [f"{path}: cut off by a sync stopped while it merged; restored as last committed" for path in _restore_committed(folder)]
    if (dot_git / "MERGE_HEAD").exists():
        git(folder, "merge", "--abort", check=False)
        if (dot_git / "MERGE_HEAD").exists():
            # git refuses to abort when a merged file was changed since (the library was
            # opened, restored from HEAD, and a TUI or command wrote to it): drop the merge
            # state and its index, keep every file as it is now; the changes are committed
            # next and merged again with the remote's.
            git(folder, "reset", "--quiet", check=False)
        if (dot_git / "MERGE_HEAD").exists():
            raise SyncError(f"{folder}: a merge left unfinished could not be undone; run `git merge --abort` there, then sync again")
        notes.append("a merge left unfinished (a sync cut short?) was undone; merging again")
    return notes


def restore_cut_merge(folder: Path) -> list[str]:
    """A sync killed while git merged may have left a store file cut off (git writes the
    merged files in place). Local work was committed before the merge began, so the
    library's files as committed at HEAD lose nothing: they are written back, each
    atomically, and the next sync merges again. One line per file restored."""
    folder = Path(folder)
    with _store_lock(folder):
        if not merge_cut_short(folder):
            return []  # a sync that was running has finished its merge meanwhile
        restored = _restore_committed(folder)
    return [f"{path}: restored as last committed (a sync was stopped while it merged; sync again)" for path in restored]


def _restore_committed(folder: Path) -> list[Path]:
    """The store's files written back as committed at HEAD (each atomically, only those that
    differ), then the mark of a merge cut short removed; returns the files written."""
    restored = []
    listed = git(folder, "ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *SHARED, check=False)
    for name in _names(listed.stdout):
        committed = _tracked_version(folder, name)
        path = folder / name
        if committed is not None and (not path.is_file() or path.read_bytes() != committed):
            write_file_atomically(path, committed)
            restored.append(path)
    (folder / ".git" / MERGING_FILE).unlink(missing_ok=True)
    return restored


def _commit(folder: Path, message: str | None = None, identity: list[str] | None = None) -> str:
    """Stage the library's files and commit them; returns the summary ("" when nothing changed).
    Only the store's own files: whatever else the user keeps in the folder (an exported
    .bib, PDFs) stays out of git unless they add it themselves. (`identity`: `_identity`'s
    options, when the caller has them.)"""
    anything, new = _to_commit(folder)
    if not anything:
        return ""
    git(folder, "add", "--update", ".")  # changes and removals of what is tracked
    if new is None:  # git status could not say: the store's files that exist and are not ignored
        ignored = set(git(folder, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", check=False).stdout.split("\n"))
        new = [name for name in SHARED if (folder / name).exists() and name not in ignored]
    if new:
        git(folder, "add", "--all", "--", *new)
    staged = _names(git(folder, "diff", "--cached", "--name-only", "-z", "--no-renames").stdout)
    if not staged:
        return ""
    summary = describe_changes(folder, "HEAD", None, staged) or f"{len(staged)} file(s) changed"
    git(folder, *(_identity(folder) if identity is None else identity), "commit", "--quiet", "--no-verify", "-m", message or summary)
    return summary


def _to_commit(folder: Path) -> tuple[bool, list[str] | None]:
    """What `_commit` has to stage, from one `git status`: whether there is anything (a
    tracked file changed or removed, staged or not, or one of the store's files, `SHARED`,
    not tracked yet), and the store's files and folders not tracked yet (git leaves out
    what is ignored). Most often there is nothing, as in the second look of a sync: one git
    call instead of four. When git cannot tell: (True, None), and `_commit` asks git the
    long way, whose calls then say what is wrong."""
    done = git(folder, "status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=normal", check=False)
    if done.returncode != 0:
        return True, None
    tracked_changed, new = False, []
    for entry in _names(done.stdout):
        code, path = entry[:2], entry[3:]
        if code != "??":
            tracked_changed = True
        elif any(path == name or (name.endswith("/") and path.startswith(name)) for name in SHARED):
            new.append(path)
    return tracked_changed or bool(new), new


def _names(output: str) -> list[str]:
    """File names from git's `-z` output (a member's name may hold spaces)."""
    return [name for name in output.split("\0") if name]


def _tracked_version(folder: Path, name: str, rev: str = "HEAD") -> bytes | None:
    """`name` as committed at `rev`, None when it is not tracked there."""
    done = subprocess.run([git_program(), "show", f"{rev}:{name}"], cwd=folder, capture_output=True)
    return done.stdout if done.returncode == 0 else None


def _merge(
    folder: Path, theirs: str, identity: list[str] | None = None, member: str | None = None
) -> tuple[str, list[str], str, list[str]]:
    """Merge `theirs` into HEAD (the driver merges the store files), without what
    `guard.vet` refuses of it. Returns what came in, the papers whose notes newly
    hold a marked block, the commit merged into, and one line per file refused."""
    before = git(folder, "rev-parse", "HEAD").stdout.strip()
    identity = _identity(folder) if identity is None else identity
    taken, refusals = vet(folder, before, theirs, member, identity, KNOWN_LINES)
    refused = [refusal.line() for refusal in refusals]
    done = git(folder, *identity, "merge", "--no-edit", "--quiet", "--allow-unrelated-histories", taken, check=False)
    if done.returncode != 0:
        unmerged = _names(git(folder, "diff", "--name-only", "-z", "--diff-filter=U", check=False).stdout)
        git(folder, "merge", "--abort", check=False)
        what = ", ".join(unmerged) or _last_line(done)
        raise SyncError(f"{folder}: git could not merge {what}; your work is committed, nothing was lost")
    after, *parents = git(folder, "rev-list", "--parents", "-n", "1", "HEAD").stdout.split()
    if after == before:
        return "", [], before, refused
    changed = _names(git(folder, "diff", "--name-only", "-z", "--no-renames", before, after).stdout)
    versions: dict[tuple[str, str], Any] = {}  # each file at each commit read once
    received = describe_changes(folder, before, after, changed, versions)
    if received and len(parents) > 1:
        # a merge commit (not a fast-forward): say in `git log` what it brought in
        git(folder, *identity, "commit", "--amend", "--quiet", "--no-verify", "-m", f"merged: {received}")
    return received, new_conflicts(folder, before, after, changed, versions), before, refused
