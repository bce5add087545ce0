"""Issue 13: a reload read off the UI thread (`read_disk`) and applied on it
(`apply_disk`) keeps every change the Library made in between: fields, the status
history and settings, with another process's change of the same paper's other fields."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status


def test_changes_made_between_read_and_apply_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(3)])
    a = Library.open(folder, background_writes=True)
    b = Library.open(folder)
    b.set_tags("p1", ["from-b"])  # another process: p1's tags, p2's notes
    b.set_notes("p2", "b's note")

    found = a.read_disk()  # the worker's half: nothing in `a` changes
    assert found is not None and a.annotation("p1").tags == ()
    a.set_status(["p1"], Status.READ)  # the user, while the read is on its way
    a.set_setting("theme", "nord")
    a.flush()
    assert a.apply_disk(found) == {"p1", "p2"}

    assert a.annotation("p1").status is Status.READ
    assert [s for _when, s in a.annotation("p1").history] == ["read"]
    assert a.annotation("p1").tags == ("from-b",)
    assert a.annotation("p2").notes == "b's note"
    assert a.settings["theme"] == "nord"
    a.reload_if_changed()  # what a later poll finds agrees
    disk = Library.open(folder)
    for lib in (a, disk):
        assert lib.annotation("p1").status is Status.READ and lib.annotation("p1").tags == ("from-b",)
        assert lib.settings["theme"] == "nord"
    a.close()


def test_an_older_read_applied_after_a_newer_one_changes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers([Paper(id="p0", title="Paper 0")])
    a = Library.open(folder)
    b = Library.open(folder)
    b.set_tags("p0", ["one"])
    older = a.read_disk()
    b.set_tags("p0", ["two"])
    newer = a.read_disk()
    assert older is not None and newer is not None
    a.apply_disk(newer)
    assert a.apply_disk(older) == frozenset()
    assert a.annotation("p0").tags == ("two",)
