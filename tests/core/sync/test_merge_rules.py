"""The merge rules of a synced library's files (core.library.sync.merge), without git."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reader_tui.core.library.sync.merge import (
    merge_annotation,
    merge_annotation_tables,
    merge_catalog_tables,
    merge_tags,
    merge_text,
)
from reader_tui.core.library.sync.repository import driver_command
from reader_tui.core.model import has_conflict

T1, T2, T3 = "2026-01-01T10:00:00+00:00", "2026-01-02T10:00:00+00:00", "2026-01-03T10:00:00+00:00"


def ann(status="unread", tags=(), notes="", changed=None, **extra):
    return {"paper_id": "p", "status": status, "tags": list(tags), "notes": notes, "changed": changed or {},
            "history": [], "overrides": {}, **extra}


def test_the_later_status_change_wins_whichever_side_is_ours() -> None:
    base = ann()
    ours = ann("read", changed={"status": T2})
    theirs = ann("skipped", changed={"status": T3})
    assert merge_annotation(base, ours, theirs)["status"] == "skipped"
    assert merge_annotation(base, theirs, ours)["status"] == "skipped"
    assert merge_annotation(base, ours, base)["status"] == "read"  # changed on one side only


def test_tags_merge_as_additions_and_removals() -> None:
    base = ["a", "b", "c"]
    ours = ["a", "b", "c", "mine"]  # added
    theirs = ["a", "c", "theirs"]  # b removed, one added
    assert merge_tags(base, ours, theirs) == ["a", "c", "mine", "theirs"]
    assert sorted(merge_tags(base, theirs, ours)) == sorted(["a", "c", "mine", "theirs"])
    assert merge_tags([], ["X"], ["x"]) == ["X"]  # one tag, any case


def test_notes_changed_on_different_lines_are_both_kept() -> None:
    base = "one\ntwo\nthree\nfour"
    assert merge_text(base, "ONE\ntwo\nthree\nfour", "one\ntwo\nthree\nFOUR 𝔘🧪") == "ONE\ntwo\nthree\nFOUR 𝔘🧪"


def test_notes_changed_on_the_same_lines_keep_both_marked_and_the_same_on_both_machines() -> None:
    base = "intro\nmiddle\nend"
    ours, theirs = "intro\nmine שלום\nend", "intro\ntheirs e\u0301\nend"
    merged = merge_text(base, ours, theirs)
    assert "mine שלום" in merged and "theirs e\u0301" in merged and has_conflict(merged)
    assert merged.startswith("intro\n") and merged.endswith("\nend")
    assert merge_text(base, theirs, ours) == merged
    a = merge_annotation(ann(notes=base), ann(notes=ours, changed={"notes": T2}), ann(notes=theirs, changed={"notes": T3}))
    b = merge_annotation(ann(notes=base), ann(notes=theirs, changed={"notes": T3}), ann(notes=ours, changed={"notes": T2}))
    assert a == b and has_conflict(a["notes"]) and a["changed"]["notes"] == T3


def test_annotation_files_merge_paper_by_paper_and_settings_key_by_key() -> None:
    def file(docs, settings):
        return {"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs, "settings": {"1": settings}}

    base = file({"1": ann(paper_id="p1")}, {"theme": "dark", "x": 1})
    ours = file({"1": ann("read", paper_id="p1", changed={"status": T2}), "2": ann(paper_id="p2", notes="n")},
                {"theme": "light", "x": 1})
    theirs = file({"1": ann(paper_id="p1", tags=["t"], changed={"tags": T2}), "3": ann(paper_id="p3", tags=["u"])},
                  {"theme": "dark", "x": 1, "y": 2})
    merged = merge_annotation_tables(base, ours, theirs)
    docs = merged["annotations"]
    assert docs["1"]["status"] == "read" and docs["1"]["tags"] == ["t"]
    assert docs["2"]["notes"] == "n" and docs["3"]["tags"] == ["u"]
    assert merged["settings"]["1"] == {"theme": "light", "x": 1, "y": 2}


def _catalog(*records):
    return {"_meta": {"1": {"format": 1, "kind": "catalog"}}, "papers": {str(n): r for n, r in enumerate(records, 1)}}


def test_catalogs_unite_papers_and_keep_keys_unique() -> None:
    base = _catalog({"id": "a", "title": "A", "citekey": "ka"})
    ours = _catalog({"id": "a", "title": "A fixed", "citekey": "ka"}, {"id": "b", "title": "B", "citekey": "smith2026", "added": T1})
    theirs = _catalog({"id": "a", "title": "A", "citekey": "ka", "doi": "10.1/x"},
                      {"id": "c", "title": "C", "citekey": "smith2026", "added": T2})
    merged = merge_catalog_tables(base, ours, theirs)
    papers = {r["id"]: r for r in merged["papers"].values()}
    assert papers["a"] == {"id": "a", "title": "A fixed", "citekey": "ka", "doi": "10.1/x"}
    assert papers["b"]["citekey"] == "smith2026" and papers["c"]["citekey"] == "smith2026b"
    assert list(merged["papers"]) == ["1", "2", "3"]
    other = {r["id"]: r for r in merge_catalog_tables(base, theirs, ours)["papers"].values()}
    assert other == papers  # the same keys on both machines


#: How git runs the driver: the command `sync init` writes into .git/config now (a module
#: that imports only the merge), and the one repositories set up before it still hold.
DRIVERS = {
    "sync.driver": lambda o, a, b, path: shlex.split(driver_command().replace("%P", path or "").replace(
        "%O", shlex.quote(str(o))).replace("%A", shlex.quote(str(a))).replace("%B", shlex.quote(str(b)))),
    "reader-tui sync merge-driver": lambda o, a, b, path: [
        sys.executable, "-m", "reader_tui", "sync", "merge-driver", str(o), str(a), str(b), *([path] if path else [])],
}


def _run_driver(command: str, o: Path, a: Path, b: Path, path: str = "") -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[3]
    return subprocess.run(DRIVERS[command](o, a, b, path), env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("command", DRIVERS)
def test_git_merge_file_is_not_what_merges_but_the_driver_is_callable_as_git_calls_it(tmp_path: Path, command: str) -> None:
    def write(name, docs):
        path = tmp_path / name
        path.write_text(json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": docs}), "utf-8")
        return path

    o = write("O", {"1": ann(paper_id="p1", notes="a\nb\nc")})
    a = write("A", {"1": ann(paper_id="p1", notes="a\nB1\nc", changed={"notes": T2})})
    b = write("B", {"1": ann(paper_id="p1", notes="a\nB2\nc", changed={"notes": T3}), "2": ann(paper_id="p2", status="read")})
    done = _run_driver(command, o, a, b, "annotations.json")
    assert done.returncode == 0, done.stderr
    merged = json.loads(a.read_text("utf-8"))["annotations"]
    assert merged["2"]["status"] == "read" and has_conflict(merged["1"]["notes"])
    assert a.read_text("utf-8").count("\n") >= 5  # written in the store's line shape


@pytest.mark.parametrize("command", DRIVERS)
def test_the_driver_refuses_a_damaged_file_in_one_line(tmp_path: Path, command: str) -> None:
    for name in "OAB":
        (tmp_path / name).write_text('{"_meta":{"1":{"format":1,"kind":"annotations"}},"annotations":{}}', "utf-8")
    (tmp_path / "B").write_text("{not json", "utf-8")
    done = _run_driver(command, *(tmp_path / n for n in "OAB"))
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1 and "B" in done.stderr
    assert (tmp_path / "A").read_text("utf-8").startswith('{"_meta"')  # ours untouched


def test_the_driver_module_loads_the_merge_and_not_the_command() -> None:
    # git starts the driver once per store file merged: it imports no more than the merge
    root = Path(__file__).resolve().parents[3]
    code = ("import sys, runpy; sys.argv = ['x']\ntry: runpy.run_module('reader_tui.core.library.sync.driver', run_name='__main__')\n"
            "except SystemExit as e: assert e.code == 2\n"
            "from reader_tui.core.library.sync.driver import main; import reader_tui.core.library.sync.merge\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('reader_tui.', 'filelock', 'argparse', 'textual')))))")
    done = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert "reader_tui.core.library.sync.merge" in loaded
    assert not {m for m in loaded if m.startswith(("reader_tui.cli", "reader_tui.tui", "filelock", "argparse", "textual"))}
    assert "reader_tui.core.library.library" not in loaded


def test_a_status_set_back_later_than_the_other_sides_change_wins() -> None:
    base = ann("read", changed={"status": T1})
    back = ann("read", changed={"status": T3})  # read -> skipped -> read again, at T3
    other = ann("to-read", changed={"status": T2})
    assert merge_annotation(base, back, other)["status"] == "read"
    assert merge_annotation(base, other, back)["status"] == "read"
    older_back = ann("read", changed={"status": T1.replace("10:00", "09:00")})
    assert merge_annotation(base, ann("read", changed={"status": T1}), other)["status"] == "to-read"
    assert older_back  # (an untouched side keeps the base's time: the other side's change wins)


def test_settings_that_are_objects_keep_both_sides_additions() -> None:
    def file(settings):
        return {"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": {}, "settings": {"1": settings}}

    base = file({"exported_citekeys": {"p1": "k1"}, "theme": "dark"})
    ours = file({"exported_citekeys": {"p1": "k1", "p2": "k2"}, "theme": "dark"})
    theirs = file({"exported_citekeys": {"p1": "k1", "p3": "k3"}, "theme": "light"})
    merged = merge_annotation_tables(base, ours, theirs)["settings"]["1"]
    assert merged == {"exported_citekeys": {"p1": "k1", "p2": "k2", "p3": "k3"}, "theme": "light"}


def test_a_view_setting_stays_as_this_machine_has_it_and_is_not_news() -> None:
    """The cursor, sort, search and filter are one person's view on one machine (issue 34,
    item 9): a merge keeps ours, takes none of theirs, and a sync does not report them."""
    from reader_tui.core.library.files import VIEW_SETTINGS
    from reader_tui.core.library.sync.changes import _annotation_changes
    from reader_tui.tui.dialogs.export_dialog import EXPORT_SETTING
    from reader_tui.tui.list_order import SETTING as SORT_SETTING
    from reader_tui.tui.navigation import CURSOR_SETTING, VIEW_SETTING
    from reader_tui.tui.screens.triage_screen import POSITION_SETTING

    assert {CURSOR_SETTING, VIEW_SETTING, SORT_SETTING, POSITION_SETTING, EXPORT_SETTING} == VIEW_SETTINGS

    def file(settings):
        return {"_meta": {"1": {"format": 1, "kind": "annotations"}}, "annotations": {}, "settings": {"1": settings}}

    base = file({"sort": {"key": "title"}, "saved_searches": {}})
    ours = file({"sort": {"key": "title"}, "saved_searches": {}})
    theirs = file({"sort": {"key": "added"}, "cursor": {"paper": "p9"}, "saved_searches": {"rl": "area:rl"}})
    merged = merge_annotation_tables(base, ours, theirs)["settings"]["1"]
    assert merged == {"sort": {"key": "title"}, "saved_searches": {"rl": "area:rl"}}
    counts = _annotation_changes(ours, theirs, " by alice")
    assert counts["setting by alice"] == 1  # the saved search, not the sort or the cursor
