"""A shared remote is written by other people: a hostile member's commits are refused
file by file, nothing outside the victim's library changes, nothing local leaks to the
remote, the victim's marks stay, and the rest of the sync goes on (issue 31; the threat
model is docs/sync-threat-model.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile import ALICE_MARKS, GITLINK, REGULAR, SECRET, SYMLINK, Group, git, make_group, marks, tree_digest

from reader_tui.core.library.files import StoreFiles
from reader_tui.core.library.library import Library
from reader_tui.core.library.sync import repository as sync
from reader_tui.core.model import Status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # git runs the merge driver from this checkout
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def group(tmp_path: Path) -> Group:
    return make_group(tmp_path)


def member_file(marks: dict[str, str] | None = None, **settings) -> bytes:
    """A valid members/<name>.json: paper id -> status."""
    from reader_tui.core.library.files import annotation_doc_id

    docs = {annotation_doc_id(pid): {"paper_id": pid, "status": status} for pid, status in (marks or {}).items()}
    tables = {"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs,
              "settings": {"1": settings} if settings else {}}
    return json.dumps(tables).encode()


DEEP: list = [1]
for _ in range(30):
    DEEP = [DEEP]


def assert_unharmed(group: Group, before: str) -> None:
    assert group.outside_digest() == before, "a file outside the library changed"
    assert not group.remote_holds_secret(), "a local file reached the remote"
    assert marks(group.alice) == ALICE_MARKS
    links = [p for p in group.alice.rglob("*") if p.is_symlink() and ".git" not in p.parts]
    assert not links, links


@pytest.mark.parametrize("target", ["../../outside/key", "{outside}/key", "../../outside/nothing-here"],
                         ids=["relative", "absolute", "dangling"])
def test_a_symlink_for_alices_own_file_is_refused_and_nothing_leaks(group: Group, target: str) -> None:
    before = group.outside_digest()
    group.push({"members/alice.json": (SYMLINK, target.format(outside=group.outside).encode()),
                "members/bob.json": (REGULAR, member_file({"p2": "to-read"}))})
    report = sync.sync(group.alice)
    assert report.received == "1 status change by bob"  # the rest of the sync goes on
    [line] = report.refused
    assert "members/alice.json" in line and "symbolic link" in line and "mallory" in line
    assert report.pushed
    sync.sync(group.alice)  # the next sync commits and pushes nothing of the target
    assert_unharmed(group, before)
    assert json.loads(group.remote_file("members/alice.json"))["annotations"]  # healed: her own file again


def test_a_symlink_to_a_folder_for_backups_and_a_dangling_reviews_store_are_refused(group: Group) -> None:
    before = group.outside_digest()
    group.push({"backups": (SYMLINK, str(group.outside).encode()),
                "reviews.sqlite": (SYMLINK, str(group.outside / "made.sqlite").encode())})
    report = sync.sync(group.alice)
    assert {line.split(" (")[0] for line in report.refused} == {
        "refused from the remote: backups", "refused from the remote: reviews.sqlite"}
    assert "nothing that could be taken" in "\n".join(report.lines())  # not "nothing new from the remote"
    library = Library.open(group.alice)
    library.set_status(["p0"], Status.SKIPPED)
    library.files.backup_annotations()
    library.close()
    assert_unharmed(group, before)
    assert not (group.outside / "made.sqlite").exists()


def test_links_made_in_the_library_by_hand_are_not_written_through(group: Group) -> None:
    # the second wall: a link that got into the folder some other way (an older sync, git pull)
    from reader_tui.core.atomic_storage import StoreError
    from reader_tui.core.library.reviews_store import ReviewStore

    before = group.outside_digest()
    shutil.rmtree(group.alice / "backups", ignore_errors=True)
    (group.alice / "backups").symlink_to(group.outside)
    (group.alice / "reviews.sqlite").symlink_to(group.outside / "made.sqlite")
    files = StoreFiles(group.alice)
    with pytest.raises(StoreError, match="symbolic link"):
        files.backup_annotations()
    with pytest.raises(StoreError, match="symbolic link"):
        ReviewStore(group.alice / "reviews.sqlite").write({"p0": object()})  # type: ignore[dict-item]
    (group.alice / ".lock").unlink(missing_ok=True)
    (group.alice / ".lock").symlink_to(group.canary)
    with pytest.raises(StoreError, match="symbolic link"), files.locked():
        pass
    assert group.outside_digest() == before and not (group.outside / "made.sqlite").exists()


def test_a_hard_link_to_a_file_outside_is_replaced_never_written_through(group: Group) -> None:
    # git stores no hard links; one made here by hand must not carry a sync's writes out
    mine = group.alice / "annotations.json"
    shutil.copy(mine, group.outside / "linked.json")
    before = group.outside_digest()
    mine.unlink()
    os.link(group.outside / "linked.json", mine)
    group.push({"members/bob.json": (REGULAR, member_file({"p0": "read"}))})
    library = Library.open(group.alice)
    library.set_status(["p2"], Status.READING)
    library.close()
    sync.sync(group.alice)
    assert group.outside_digest() == before


def test_alices_own_file_made_invalid_json_is_refused_with_a_line(group: Group) -> None:
    before = group.outside_digest()
    group.push({"members/alice.json": (REGULAR, b'{"_meta": {"1": {"format": 1, "kind": "annot')})
    report = sync.sync(group.alice)
    [line] = report.refused
    assert "members/alice.json" in line and "not valid JSON" in line
    assert_unharmed(group, before)


@pytest.mark.parametrize("content, why", [
    (b"[" * 5000 + b"]" * 5000, "nested deeper"),
    (member_file({"p0": "read"})[:-1] + b', "x": {}}', "a table"),
    (json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}},
                 "annotations": {"1": {"paper_id": "p0", "overrides": {"title": DEEP}}},
                 "settings": {}}).encode(), "nested deeper"),
    (json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}},
                 "annotations": {"1": {"paper_id": "p0", "tags": "not a list"}}}).encode(), "tags must be"),
    (json.dumps({"_meta": {"1": {"format": 99, "kind": "annotations"}}}).encode(), "newer reader-tui"),
], ids=["deep-array", "unknown-table", "deep-in-a-field", "bad-shape", "newer-format"])
def test_a_member_file_of_the_wrong_shape_is_refused(group: Group, content: bytes, why: str) -> None:
    group.push({"members/bob.json": (REGULAR, content)})
    report = sync.sync(group.alice)
    assert len(report.refused) == 1 and "members/bob.json" in report.refused[0] and why in report.refused[0]
    assert not (group.alice / "members" / "bob.json").exists()
    assert marks(group.alice) == ALICE_MARKS


def test_a_huge_member_file_is_refused_without_being_read_whole(group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    from reader_tui.core.library.sync import remote_files

    monkeypatch.setitem(remote_files.MAX_BYTES, "annotations", 4096)
    group.push({"members/bob.json": (REGULAR, member_file({f"p{i}": "read" for i in range(200)}))})
    report = sync.sync(group.alice)
    assert len(report.refused) == 1 and "may hold" in report.refused[0]


@pytest.mark.parametrize("name", [
    b"members/..json", b"members/...json", b"members/-rf.json", b"members/a\x1b]0;PWNED\x07b.json",
    b"members/\xff\xfe.json", b"members/a/b.json", b"members/.hidden.json", b".gitmodules", b"refs.bib",
    b"catalog.json.tmp",
], ids=["dot", "dots", "dash", "control", "not-utf8", "nested", "hidden", "gitmodules", "other", "tmp"])
def test_names_that_are_not_the_stores_are_refused(group: Group, name: bytes) -> None:
    group.push({name: (REGULAR, member_file({"p0": "read"}))})
    report = sync.sync(group.alice)
    assert len(report.refused) == 1, report.refused
    assert git(group.alice, "ls-files", "-z").split(b"\0").count(name) == 0


def test_a_submodule_and_a_gitmodules_file_are_refused(group: Group) -> None:
    group.push({".gitmodules": (REGULAR, b'[submodule "x"]\n\tpath = members/x\n\turl = ../outside\n'),
                "members/x": (GITLINK, b"")})
    report = sync.sync(group.alice)
    assert sorted(line.split(" (")[0] for line in report.refused) == [
        "refused from the remote: .gitmodules", "refused from the remote: members/x"]
    assert "submodule" in "\n".join(report.refused)
    assert not (group.alice / ".gitmodules").exists() and not (group.alice / "members" / "x").exists()


def test_gitattributes_from_the_remote_cannot_choose_what_git_runs(group: Group) -> None:
    marker = group.root / "driver-ran"
    # a command this machine's git knows (as a user's global configuration could name one)
    git(group.alice, "config", "merge.evil.driver", f"touch {marker}")
    git(group.alice, "config", "filter.evil.smudge", f"touch {marker}; cat")
    group.push({".gitattributes": (REGULAR, b"* merge=evil filter=evil\n")})
    report = sync.sync(group.alice)
    assert len(report.refused) == 1 and ".gitattributes" in report.refused[0]
    # and were it in the folder: .git/info/attributes comes first
    (group.alice / ".gitattributes").write_text("* merge=evil filter=evil diff=evil\n", "utf-8")
    said = git(group.alice, "check-attr", "merge", "filter", "diff", "--", "members/bob.json", "catalog.json").decode()
    assert "evil" not in said and "members/bob.json: merge: reader-tui" in said
    assert not marker.exists()


def test_the_remote_cannot_set_alices_auto_exports(group: Group) -> None:
    target = group.outside / "profile.md"
    mine = json.loads((group.alice / "members" / "alice.json").read_bytes())
    mine["settings"] = {"1": {"auto_exports": [{"path": str(target), "format": "markdown"}], "theme": "nord"}}
    group.push({"members/alice.json": (REGULAR, json.dumps(mine).encode())})
    report = sync.sync(group.alice)
    assert len(report.refused) == 1 and "auto-exports" in report.refused[0]
    library = Library.open(group.alice)
    assert "auto_exports" not in library.settings and library.settings.get("theme") == "nord"  # the rest is taken
    library.close()
    assert not target.exists()


def test_the_remote_cannot_remove_the_catalog_or_alices_file(group: Group) -> None:
    group.push({"catalog.json": None, "members/alice.json": None})
    report = sync.sync(group.alice)
    assert len(report.refused) == 2
    assert marks(group.alice) == ALICE_MARKS and (group.alice / "catalog.json").is_file()
    assert len(Library.open(group.alice).papers) == 3


def test_a_new_member_cloning_a_remote_with_a_symlink_for_their_file(group: Group) -> None:
    before = group.outside_digest()
    group.push({"members/bob.json": (SYMLINK, str(group.canary).encode()),
                "members/carol.json": (REGULAR, member_file({"p0": "to-read"}))})
    bob = group.root / "bob"
    said = sync.init(bob, str(group.remote), member="bob")
    assert "cloned" in said and "refused from the remote: members/bob.json" in said
    assert not any(p.is_symlink() for p in bob.rglob("*"))
    assert not (bob / "annotations.json").exists() or SECRET not in (bob / "annotations.json").read_bytes()
    report = sync.sync(bob)
    assert report.pushed
    assert group.outside_digest() == before and not group.remote_holds_secret()
    assert tree_digest(bob)  # readable: no link left to follow


def test_a_remote_that_looks_like_an_option_is_a_remote(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for remote in (f"--upload-pack=touch {marker}", f"-u touch {marker}", f"-c core.sshCommand=touch {marker}"):
        folder = tmp_path / "clone"
        with pytest.raises(sync.SyncError, match="does not exist|not appear to be a git repository"):
            sync.init(folder, remote)
        assert not folder.exists() and not marker.exists()
    library = Library.open(tmp_path / "lib")
    library.close()
    sync.init(tmp_path / "lib", "-uevil")
    url = git(tmp_path / "lib", "config", "remote.origin.url").decode().strip()
    # a local path, made absolute (as every relative remote is): never an option to git
    assert url == os.path.abspath("-uevil") and not marker.exists()


def test_a_push_refused_by_the_remotes_hook_says_so(group: Group) -> None:
    hook = group.remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes are closed for the exam week' >&2\nexit 1\n")
    hook.chmod(0o755)
    library = Library.open(group.alice)
    library.set_status(["p0"], Status.READ)
    library.close()
    report = sync.sync(group.alice)  # once: no "the remote kept moving" after three tries
    assert not report.pushed and "exam week" in report.push_refused
    assert any(line.startswith("not pushed: the remote refused the push") for line in report.lines())


def test_a_damaged_object_is_not_counted_as_every_annotation_changed(group: Group) -> None:
    bob = member_file({f"p{i}": "to-read" for i in range(3)})
    group.push({"members/bob.json": (REGULAR, bob)})
    sync.sync(group.alice)
    old = git(group.alice, "rev-parse", "HEAD:members/bob.json").decode().strip()
    changed = json.loads(bob)
    next(iter(changed["annotations"].values()))["tags"] = ["new"]
    group.push({"members/bob.json": (REGULAR, json.dumps(changed).encode())})
    git(group.alice, "fetch", "--quiet", "origin")  # (the new blob may come as a delta of the old)
    loose = group.alice / ".git" / "objects" / old[:2] / old[2:]
    assert loose.exists()
    loose.chmod(0o644)
    loose.write_bytes(b"damaged")
    report = sync.sync(group.alice)
    assert "status change" not in report.received and "not counted" in report.received


def test_an_init_cut_short_by_a_full_disk_leaves_no_half_made_repository(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.faults import full_disk

    folder = tmp_path / "lib"
    Library.open(folder).close()
    with monkeypatch.context() as patched:
        full_disk(patched)
        with pytest.raises(sync.SyncError, match="undone"):
            sync.init(folder)
    assert not (folder / ".git").exists()
    assert "made a repository" in sync.init(folder)


def test_a_half_made_repository_is_explained_with_the_command_that_fixes_it(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    Library.open(folder).close()
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("", "utf-8")
    for call in (lambda: sync.sync(folder), lambda: sync.init(folder)):
        with pytest.raises(sync.SyncError, match=r"half-made repository .* remove it with `rm -rf .*\.git`"):
            call()


def test_files_left_over_from_refusals_never_reach_alices_index(group: Group) -> None:
    group.push({"members/alice.json": (SYMLINK, b"../../outside/key")})
    sync.sync(group.alice)
    index = git(group.alice, "ls-files", "-s", "members/alice.json").decode()
    assert index.startswith("100644 ")
    assert not (group.alice / ".git" / "reader-tui-vet.index").exists()
    assert subprocess.run(["git", "status", "--porcelain"], cwd=group.alice, capture_output=True, text=True).stdout == ""
