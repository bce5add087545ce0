"""A reading group with a hostile member, for the tests of what a sync takes from the
remote: alice's library synced through a bare repository, a file outside her library
that must not change or leak (the canary), and `Mallory`, who writes the remote with
git's plumbing, as anyone with push access can: any name, any mode, any bytes."""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.model import Paper, Status

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY----- alice's own secret\n"
SYMLINK, REGULAR, GITLINK = "120000", "100644", "160000"


def git(folder: Path, *args: str | bytes, input: bytes | None = None, env: dict | None = None) -> bytes:
    done = subprocess.run(["git", *args], cwd=folder, input=input, capture_output=True, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def tree_digest(folder: Path) -> str:
    """A digest of every file under `folder` (names, kinds, bytes; links by their target),
    git's own folder left out: equal before and after means nothing there changed."""
    digest = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files) + [d for d in dirs if Path(root, d).is_symlink()]:
            path = Path(root, name)
            digest.update(str(path.relative_to(folder)).encode(errors="surrogateescape"))
            digest.update(os.readlink(path).encode() if path.is_symlink() else path.read_bytes())
    return digest.hexdigest()


@dataclass
class Group:
    root: Path
    remote: Path
    alice: Path
    outside: Path  # a folder beside the library: its files are alice's other files
    canary: Path  # outside/key: must never change, never reach the remote
    branch: str

    def outside_digest(self) -> str:
        return tree_digest(self.outside)

    def remote_holds_secret(self) -> bool:
        objects = git(self.remote, "cat-file", "--batch-all-objects", "--batch")
        return SECRET.strip() in objects

    def push(self, changes: dict[str | bytes, tuple[str, bytes] | None], author: str = "mallory") -> str:
        """Mallory's commit on top of the remote's branch: path -> (git mode, bytes) or
        None to remove it. Returns the commit."""
        mallory = self.root / "mallory.git"
        if not mallory.exists():
            git(self.root, "clone", "--quiet", "--bare", str(self.remote), str(mallory))
        git(mallory, "fetch", "--quiet", "origin", f"+refs/heads/{self.branch}:refs/heads/{self.branch}")
        env = {"GIT_INDEX_FILE": str(self.root / "mallory.index"), "GIT_AUTHOR_NAME": author,
               "GIT_AUTHOR_EMAIL": "m@x", "GIT_COMMITTER_NAME": author, "GIT_COMMITTER_EMAIL": "m@x"}
        git(mallory, "read-tree", self.branch, env=env)
        lines = []
        for path, spec in changes.items():
            name = path if isinstance(path, bytes) else path.encode()
            if spec is None:
                lines.append(b"0 " + b"0" * 40 + b"\t" + name + b"\0")
            else:
                mode, content = spec
                oid = git(mallory, "hash-object", "-w", "--stdin", input=content).strip()
                if mode == GITLINK:
                    oid = b"1" * 40  # a commit of another repository, never fetched
                lines.append(mode.encode() + b" " + oid + b"\t" + name + b"\0")
        git(mallory, "update-index", "-z", "--index-info", input=b"".join(lines), env=env)
        tree = git(mallory, "write-tree", env=env).decode().strip()
        commit = git(mallory, "commit-tree", tree, "-p", self.branch, "-m", "hostile", env=env).decode().strip()
        git(mallory, "push", "--quiet", "origin", f"{commit}:refs/heads/{self.branch}")
        git(mallory, "update-ref", f"refs/heads/{self.branch}", commit)
        return commit

    def remote_file(self, name: str) -> bytes:
        return git(self.remote, "show", f"{self.branch}:{name}")


def make_group(root: Path, *, member: str | None = "alice") -> Group:
    """alice's library (three papers, one marked, tagged and noted), synced with
    `member`; a canary file outside it."""
    remote, alice, outside = root / "remote.git", root / "alice", root / "outside"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    outside.mkdir()
    canary = outside / "key"
    canary.write_bytes(SECRET)
    (outside / "notes.txt").write_text("alice's other files\n", "utf-8")
    library = Library.open(alice)
    library.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(3)])
    library.set_status(["p1"], Status.READ)
    library.retag(["p1"], add=["mine"])
    library.set_notes("p1", "alice's note")
    library.close()
    sync.init(alice, str(remote), member=member)
    sync.sync(alice)
    branch = git(alice, "symbolic-ref", "--short", "HEAD").decode().strip()
    return Group(root, remote, alice, outside, canary, branch)


def marks(folder: Path) -> tuple[str, tuple[str, ...], str]:
    """alice's marks of p1, as her library opens them."""
    library = Library.open(folder)
    try:
        ann = library.annotation("p1")
        return ann.status.value, tuple(ann.tags), ann.notes
    finally:
        library.close()


ALICE_MARKS = ("read", ("mine",), "alice's note")
