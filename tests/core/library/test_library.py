"""The Library: annotations kept apart from the catalog, atomic writes, undo, reloads."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.files import ANNOTATIONS_FILE, CATALOG_FILE, FORMAT_VERSION, list_backups
from reader_tui.core.library.library import IdError, Library, clean_tags
from reader_tui.core.model import Paper, Status


def make_papers(n: int, *, prefix: str = "p") -> list[Paper]:
    return [
        Paper(
            id=f"{prefix}{i:04d}",
            title=f"Paper number {i} about topic {i % 7}",
            abstract=f"We study problem {i} with a method we call M{i}. " * 3,
            venue="ICLR",
            year=2026,
        )
        for i in range(n)
    ]


@pytest.fixture
def library(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "db")
    lib.import_papers(make_papers(20))
    return lib


def test_a_new_store_takes_in_the_seed_list(tmp_path: Path, seed_path: Path) -> None:
    lib = Library.open(tmp_path / "db", seed=seed_path)
    assert len(lib) == 19
    assert all(lib.view(pid).venue == "ICLR" and lib.view(pid).year == 2026 for pid in lib.papers)
    # Opening again does not import the seed a second time.
    assert len(Library.open(tmp_path / "db", seed=seed_path)) == 19


def test_changes_survive_reopening(library: Library, tmp_path: Path) -> None:
    library.set_status(["p0001", "p0002"], Status.READ)
    library.add_tags(["p0001"], ["LLM", "llm", "  theory  "])
    library.set_notes("p0003", "Check the proof of Lemma 2.")
    library.edit("p0004", title="A better title", authors=["Ada Lovelace"])

    again = Library.open(tmp_path / "db")
    assert again.view("p0001").status is Status.READ
    assert again.view("p0002").status is Status.READ
    assert again.view("p0001").tags == ("LLM", "theory")
    assert again.view("p0003").notes == "Check the proof of Lemma 2."
    assert again.view("p0004").title == "A better title"
    assert again.view("p0004").authors == ("Ada Lovelace",)
    assert again.view("p0005").status is Status.UNREAD


def test_an_annotation_change_does_not_rewrite_the_catalog(library: Library, tmp_path: Path) -> None:
    catalog = tmp_path / "db" / CATALOG_FILE
    before = catalog.stat()
    library.set_status(["p0001"], Status.READING)
    library.set_notes("p0001", "notes")
    after = catalog.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def test_reimport_keeps_annotations_and_adds_nothing(library: Library) -> None:
    library.set_status(["p0001"], Status.READ)
    library.add_tags(["p0001"], ["keep"])
    summary = library.import_papers(make_papers(20))
    assert summary.new == 0
    assert len(library) == 20
    assert library.view("p0001").status is Status.READ
    assert library.view("p0001").tags == ("keep",)


def test_import_gives_unique_citekeys(library: Library) -> None:
    keys = [library.view(pid).citekey for pid in library.papers]
    assert all(keys)
    assert len({k.lower() for k in keys}) == len(keys)


def test_undo_and_redo(library: Library) -> None:
    library.set_status(["p0001"], Status.READ)
    library.add_tags(["p0001"], ["a"])
    assert library.undo() is not None
    assert library.view("p0001").tags == ()
    assert library.undo() is not None
    assert library.view("p0001").status is Status.UNREAD
    assert library.undo() is None
    library.redo()
    assert library.view("p0001").status is Status.READ
    library.redo()
    assert library.view("p0001").tags == ("a",)
    assert library.redo() is None


def test_consecutive_note_edits_undo_as_one(library: Library) -> None:
    for text in ("H", "He", "Hel", "Hello"):
        library.set_notes("p0002", text)
    library.undo()
    assert library.view("p0002").notes == ""


def test_status_history_is_kept_for_stats(library: Library) -> None:
    library.set_status(["p0001"], Status.READING)
    library.set_status(["p0001"], Status.READ)
    history = [status for _, status in library.annotation("p0001").history]
    assert history == ["reading", "read"]


def test_toggle_read(library: Library) -> None:
    library.set_status(["p0002"], Status.READ)
    library.toggle_read(["p0001", "p0002"])
    assert library.view("p0001").status is Status.READ
    assert library.view("p0002").status is Status.UNREAD


def test_listeners_hear_which_papers_changed(library: Library) -> None:
    heard: list = []
    library.subscribe(heard.append)
    library.set_status(["p0001", "p0002"], Status.SKIPPED)
    assert heard == [frozenset({"p0001", "p0002"})]


def test_resolve_id_by_prefix(library: Library) -> None:
    assert library.resolve_id("p0012") == "p0012"
    assert library.resolve_id("P0012") == "p0012"
    with pytest.raises(IdError, match="ambiguous"):
        library.resolve_id("p001")
    with pytest.raises(IdError, match="no paper"):
        library.resolve_id("zzz")


def test_tags_are_cleaned() -> None:
    assert clean_tags(["LLM", " llm ", "", "   ", "a  b"]) == ("LLM", "a b")
    with pytest.raises(ValueError):
        clean_tags(["a,b"])


def test_a_duplicate_citekey_is_refused(library: Library) -> None:
    taken = library.view("p0001").citekey
    with pytest.raises(ValueError, match="already used"):
        library.edit("p0002", citekey=taken)
    library.edit("p0002", citekey="mykey2026")
    assert library.view("p0002").citekey == "mykey2026"


def test_another_process_change_is_picked_up_and_not_overwritten(library: Library, tmp_path: Path) -> None:
    other = Library.open(tmp_path / "db")
    other.set_status(["p0005"], Status.READ)
    library.set_notes("p0006", "mine")  # written after the other's change: must keep it
    assert library.reload_if_changed() == frozenset({"p0005"}) or library.view("p0005").status is Status.READ
    third = Library.open(tmp_path / "db")
    assert third.view("p0005").status is Status.READ
    assert third.view("p0006").notes == "mine"


def test_same_field_later_writer_wins(library: Library, tmp_path: Path) -> None:
    other = Library.open(tmp_path / "db")
    library.set_status(["p0007"], Status.READING)
    other.set_status(["p0007"], Status.SKIPPED)
    assert Library.open(tmp_path / "db").view("p0007").status is Status.SKIPPED


def test_background_writes_reach_disk_on_flush(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "db", background_writes=True)
    lib.import_papers(make_papers(3))
    lib.set_notes("p0001", "typed in the TUI")
    assert lib.view("p0001").notes == "typed in the TUI"  # in memory at once
    lib.close()
    assert Library.open(tmp_path / "db").view("p0001").notes == "typed in the TUI"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (b"", "empty"),
        (b"[1, 2, 3]", "not a reader-tui store"),
        (b'{"papers": {}}', "no format version"),
        (json.dumps({"_meta": {"1": {"format": FORMAT_VERSION + 1, "kind": "annotations"}}}).encode(), "newer reader-tui"),
    ],
)
def test_an_unreadable_store_is_refused_and_left_alone(tmp_path: Path, content: bytes, message: str) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(make_papers(2))
    target = folder / ANNOTATIONS_FILE
    target.write_bytes(content)
    with pytest.raises(StoreError, match=message) as error:
        Library.open(folder)
    assert str(target) in str(error.value)
    assert target.read_bytes() == content


def test_a_corrupt_catalog_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(make_papers(2))
    catalog = folder / CATALOG_FILE
    damaged = catalog.read_bytes()[:-40]
    catalog.write_bytes(damaged)
    with pytest.raises(StoreError, match=str(catalog).replace("\\", "\\\\")):
        Library.open(folder)
    assert catalog.read_bytes() == damaged


def test_a_store_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x")
    with pytest.raises(StoreError, match="must be a folder"):
        Library.open(path)


def test_a_failed_write_leaves_the_old_file(library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library.set_notes("p0001", "safe")
    target = tmp_path / "db" / ANNOTATIONS_FILE
    before = target.read_bytes()

    def crash(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        library.set_notes("p0001", "lost")
    assert target.read_bytes() == before
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_backup_is_taken_per_session_and_rotated(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    for i in range(8):
        lib = Library.open(folder, background_writes=True)  # an interactive session
        if i == 0:
            lib.import_papers(make_papers(2))
        lib.set_notes("p0001", f"version {i}")
        lib.close()
    backups = list_backups(folder)
    assert len(backups) == 5
    assert b"version 6" in backups[0].read_bytes()
    assert b"version 2" in backups[-1].read_bytes()


def test_scripted_commands_do_not_rotate_away_session_backups(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    lib = Library.open(folder)
    lib.import_papers(make_papers(2))
    lib.set_notes("p0001", "from the session")
    Library.open(folder, background_writes=True).close()
    for i in range(8):
        Library.open(folder).set_notes("p0001", f"script {i}")
    backups = list_backups(folder)
    assert len(backups) == 1
    assert b"from the session" in backups[0].read_bytes()


def test_temp_files_of_killed_writers_are_cleared_on_open(library: Library, tmp_path: Path) -> None:
    stale = tmp_path / "db" / ".annotations.json.abc123.tmp"
    stale.write_text("half a write")
    Library.open(tmp_path / "db")
    assert not stale.exists()


def test_imported_annotations_join_the_users_own(library: Library) -> None:
    library.add_tags(["p0001"], ["mine"])
    library.set_notes("p0001", "my note")
    renamed = make_papers(2, prefix="p")[1].evolve(id="other-id")  # the same paper, matched by title
    summary = library.import_papers(
        [renamed, Paper(id="fresh", title="A fresh paper", year=2026)],
        {"other-id": {"tags": ("Imported", "MINE"), "notes": "from the file"}, "fresh": {"notes": "hello"}},
    )
    assert summary.new == 1
    assert library.view("p0001").tags == ("mine", "Imported")
    assert library.view("p0001").notes == "my note\n\nfrom the file"
    assert library.view("fresh").notes == "hello"
    library.import_papers([renamed], {"other-id": {"notes": "from the file"}})  # again: nothing doubles
    assert library.view("p0001").notes == "my note\n\nfrom the file"


def test_a_lost_catalog_with_annotations_is_refused_never_seeded(tmp_path: Path, seed_path: Path) -> None:
    folder = tmp_path / "db"
    lib = Library.open(folder, seed=seed_path)
    first = next(iter(lib.papers))
    lib.set_notes(first, "my reading notes")
    lib.set_status([first], Status.READ)
    (folder / CATALOG_FILE).unlink()
    with pytest.raises(StoreError) as caught:
        Library.open(folder, seed=seed_path)
    message = str(caught.value)
    assert str(folder) in message and "catalog.json is missing" in message and "holds 1 annotation," in message
    assert "reader-tui import" in message and "\n" not in message
    assert not (folder / CATALOG_FILE).exists()  # not seeded over the user's annotations
    # An import may rebuild it (without the seed): the annotations reattach by paper id.
    again = Library.open(folder, seed=seed_path, rebuilding_catalog=True)
    assert len(again) == 0
    from reader_tui.core.formats.seed import read_seed

    again.import_papers(read_seed(seed_path).papers)
    assert again.view(first).notes == "my reading notes" and again.view(first).status is Status.READ


def test_a_store_with_settings_only_is_still_new(tmp_path: Path, seed_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).set_setting("theme", "nord")  # no annotation of any paper
    assert len(Library.open(folder, seed=seed_path)) == 19


def test_setting_a_tag_trims_it_and_makes_each_run_of_whitespace_one_space() -> None:
    """What the round-trip table of docs/data.md says a tag becomes when it is set."""
    from reader_tui.core.library.library import clean_tags

    assert clean_tags([" tab\tx ", "a  b", "line\nbreak", "🎉", "e\u0301\u200b", "A B"]) == (
        "tab x", "a b", "line break", "🎉", "e\u0301\u200b",
    )
    with pytest.raises(ValueError, match="comma"):
        clean_tags(["a,b"])


def test_a_change_says_what_it_did_in_words(tmp_path):
    from reader_tui.core.library.library import Change

    title = {"a": "Attention", "b": "Graphs"}.get
    assert Change("status", {"a": Status.UNREAD}, {"a": Status.READ}).describe(title) == 'status unread → read: "Attention"'
    both = Change("status", {"a": Status.UNREAD, "b": Status.TO_READ}, {"a": Status.READ, "b": Status.READ})
    assert both.describe(title) == "status various → read: 2 papers"
    tags = Change("tags", {"a": ("old", "llm")}, {"a": ("LLM", "new")})
    assert tags.describe(title) == 'tags +new −old: "Attention"'
    assert Change("notes", {"a": "x"}, {"a": ""}).describe(title) == 'notes emptied: "Attention"'
    edit = Change("overrides", {"a": {}}, {"a": {"citekey": "k2026", "title": "T"}})
    assert edit.describe(title) == 'citation key, title edited: "Attention"'


def test_untouched_papers_share_one_default_annotation_that_no_change_reaches(library: Library) -> None:
    # the search index keeps a view of every paper: 20,000 fresh defaults were 5 MB
    first, second = library.view("p0000"), library.view("p0001")
    assert first.annotation is second.annotation and first.annotation.is_default
    library.set_status(["p0000"], Status.READ)
    library.set_tags("p0001", ["x"])
    assert library.view("p0000").status is Status.READ and library.view("p0001").tags == ("x",)
    assert first.annotation.is_default and library.view("p0002").annotation.is_default
    assert library.view("p0002").annotation is first.annotation
