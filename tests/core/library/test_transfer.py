"""Annotations export/import: the portable document, and merging two machines' libraries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader_tui.cli.doctor import run_annotations_export, run_annotations_import
from reader_tui.core.library.library import Library
from reader_tui.core.library.transfer import (
    FORMAT_KEY,
    TransferError,
    export_annotations,
    import_annotations,
    parse_document,
)
from reader_tui.core.model import Paper, Status

PAPERS = [
    Paper(id="p1", title="Attention Is All You Need", doi="10.5555/attn", url="https://arxiv.org/abs/1706.03762"),
    Paper(id="p2", title="Deep Residual Learning", url="https://openreview.net/forum?id=abc123"),
    Paper(id="p3", title="Adam: A Method for Stochastic Optimization"),
    Paper(id="p4", title="Batch Normalization"),
]
T1, T2, T3 = "2026-01-01T10:00:00+00:00", "2026-01-02T10:00:00+00:00", "2026-01-03T10:00:00+00:00"


def make_library(folder: Path, papers: list[Paper] = PAPERS) -> Library:
    lib = Library.open(folder)
    lib.import_papers(papers)
    return lib


def doc(*entries: dict[str, Any]) -> dict[str, Any]:
    return {FORMAT_KEY: 1, "exported": T3, "papers": list(entries)}


def state(lib: Library) -> dict[str, dict[str, Any]]:
    return {pid: ann.to_dict() for pid, ann in sorted(lib.annotations.items())}


def test_export_holds_every_touched_paper_and_nothing_else(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a")
    lib.set_status(["p1"], Status.READ)
    lib.add_tags(["p2"], ["vision"])
    lib.set_notes("p2", "skim section 3")
    lib.edit("p3", title="Adam (my title)")
    document = export_annotations(lib)
    assert document[FORMAT_KEY] == 1 and document["exported"]
    by_id = {p["id"]: p for p in document["papers"]}
    assert set(by_id) == {"p1", "p2", "p3"}
    assert by_id["p1"]["status"] == "read" and by_id["p1"]["doi"] == "10.5555/attn"
    assert by_id["p1"]["history"][0][1] == "read" and by_id["p1"]["changed"]["status"]
    assert by_id["p2"]["tags"] == ["vision"] and by_id["p2"]["notes"] == "skim section 3"
    # The catalog's title travels for matching; the user's own title as an override.
    assert by_id["p3"]["title"] == "Adam: A Method for Stochastic Optimization"
    assert by_id["p3"]["overrides"] == {"title": "Adam (my title)"}
    assert set(by_id["p1"]) == {
        "id", "citekey", "title", "doi", "url", "status", "tags", "notes", "changed", "history", "overrides"
    }
    json.dumps(document)  # plain JSON all the way down


def test_round_trip_into_a_fresh_library_gives_the_same_annotations(tmp_path: Path) -> None:
    a = make_library(tmp_path / "a")
    a.set_status(["p1", "p4"], Status.READING)
    a.add_tags(["p1"], ["nlp", "classic"])
    a.set_notes("p3", "line one\nline two")
    a.edit("p2", citekey="he2016resnet")
    b = make_library(tmp_path / "b")
    result = import_annotations(b, parse_document(json.dumps(export_annotations(a))))
    assert result.changed == 4 and result.matched_by["id"] == 4 and not result.problems
    assert state(b) == state(a)
    assert state(Library.open(tmp_path / "b")) == state(a)  # on disk, not only in memory
    again = import_annotations(b, export_annotations(a))
    assert again.changed == 0 and again.unchanged == 4  # importing twice changes nothing


def test_later_change_wins_per_field_and_both_directions_agree(tmp_path: Path) -> None:
    # Machine A: p1 read at T1, notes at T3; p2 tagged at T2. Machine B: p1 skipped at T2,
    # notes at T1, tags at T1; p3 noted at T1.
    doc_a = doc(
        {"id": "p1", "status": "read", "notes": "A notes", "changed": {"status": T1, "notes": T3},
         "history": [[T1, "read"]]},
        {"id": "p2", "tags": ["from-a"], "changed": {"tags": T2}},
    )
    doc_b = doc(
        {"id": "p1", "status": "skipped", "notes": "B notes", "tags": ["b"],
         "changed": {"status": T2, "notes": T1, "tags": T1}, "history": [[T2, "skipped"]]},
        {"id": "p3", "notes": "B on p3", "changed": {"notes": T1}},
    )
    a = make_library(tmp_path / "a")
    import_annotations(a, doc_a)
    b = make_library(tmp_path / "b")
    import_annotations(b, doc_b)

    import_annotations(a, export_annotations(b))
    import_annotations(b, export_annotations(a))
    assert state(a) == state(b)
    p1 = a.annotation("p1")
    assert p1.status is Status.SKIPPED  # B's T2 beats A's T1
    assert p1.notes == "A notes"  # A's T3 beats B's T1
    assert p1.tags == ("b",)  # only B had tags
    assert p1.history == [[T1, "read"], [T2, "skipped"]]  # both histories kept
    assert p1.changed == {"status": T2, "notes": T3, "tags": T1}
    assert a.view("p2").tags == ("from-a",) and a.view("p3").notes == "B on p3"


def test_a_tie_is_decided_the_same_way_from_either_side(tmp_path: Path) -> None:
    one = doc({"id": "p1", "notes": "one", "changed": {"notes": T1}})
    two = doc({"id": "p1", "notes": "two", "changed": {"notes": T1}})
    a, b = make_library(tmp_path / "a"), make_library(tmp_path / "b")
    import_annotations(a, one)
    import_annotations(a, two)
    import_annotations(b, two)
    import_annotations(b, one)
    assert a.view("p1").notes == b.view("p1").notes


def test_an_older_export_does_not_undo_a_newer_change(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a")
    old = export_annotations(lib)
    lib.set_notes("p1", "newer")  # changed now, long after T1
    import_annotations(lib, doc({"id": "p1", "notes": "older", "changed": {"notes": T1}}, *old["papers"]))
    assert lib.view("p1").notes == "newer"


def test_the_merge_is_made_against_the_disk_not_a_stale_memory(tmp_path: Path) -> None:
    a = make_library(tmp_path / "a")
    other = Library.open(tmp_path / "a")  # another process, in effect
    other.set_notes("p1", "written elsewhere just now")
    result = import_annotations(a, doc({"id": "p1", "notes": "old", "changed": {"notes": T1}},
                                       {"id": "p2", "status": "read", "changed": {"status": T1}}))
    assert result.changed == 1
    assert a.view("p1").notes == "written elsewhere just now"  # and a's memory caught up
    assert Library.open(tmp_path / "a").view("p2").status is Status.READ


def test_subscribers_hear_which_papers_the_import_changed(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a", )
    heard: list[frozenset[str] | None] = []
    lib.subscribe(heard.append)
    import_annotations(lib, doc({"id": "p2", "status": "read", "changed": {"status": T1}}))
    assert heard == [frozenset({"p2"})] and lib.view("p2").status is Status.READ


def test_background_writes_are_flushed_before_merging(tmp_path: Path) -> None:
    Library.open(tmp_path / "a").import_papers(PAPERS)
    lib = Library.open(tmp_path / "a", background_writes=True)
    lib.set_notes("p1", "typed just now")
    import_annotations(lib, doc({"id": "p2", "notes": "imported", "changed": {"notes": T1}}))
    lib.close()
    fresh = Library.open(tmp_path / "a")
    assert fresh.view("p1").notes == "typed just now" and fresh.view("p2").notes == "imported"


def test_papers_are_found_by_doi_url_and_title_when_ids_differ(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a")
    result = import_annotations(
        lib,
        doc(
            {"id": "other-1", "doi": "https://doi.org/10.5555/ATTN", "notes": "by doi", "changed": {"notes": T1}},
            {"id": "other-2", "url": "http://www.openreview.net/forum?id=abc123/", "notes": "by url",
             "changed": {"notes": T1}},
            {"id": "other-3", "title": "adam:  a method for STOCHASTIC optimization", "notes": "by title",
             "changed": {"notes": T1}},
            {"id": "elsewhere", "title": "A paper this library lacks", "notes": "keep me", "changed": {"notes": T1}},
            {"title": "No id and no match", "notes": "lost cause", "changed": {"notes": T1}},
        ),
    )
    assert dict(result.matched_by) == {"doi": 1, "url": 1, "title": 1}
    assert [lib.view(p).notes for p in ("p1", "p2", "p3")] == ["by doi", "by url", "by title"]
    assert len(result.unmatched) == 2 and result.kept_unmatched == 1
    assert "'elsewhere'" in result.unmatched[0]
    assert "not in this library" in result.summary()
    # The kept one waits under its id and attaches when its paper is imported.
    lib.import_papers([Paper(id="elsewhere", title="A paper this library lacks")])
    assert lib.view("elsewhere").notes == "keep me"


def test_a_title_shared_by_two_papers_matches_neither(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a", PAPERS + [Paper(id="p5", title="Batch Normalization", year=2030)])
    result = import_annotations(lib, doc({"id": "x", "title": "Batch Normalization", "notes": "?", "changed": {"notes": T1}}), keep_unmatched=False)
    assert result.unmatched and not result.changed
    assert lib.view("p4").notes == "" and lib.view("p5").notes == ""
    assert "x" not in lib.annotations


def test_bad_entries_are_skipped_and_reported_one_line_each(tmp_path: Path) -> None:
    lib = make_library(tmp_path / "a")
    lib.edit("p4", citekey="taken2015")
    result = import_annotations(
        lib,
        doc(
            "not an object",
            {"id": "p1", "notes": 5},
            {"id": "p2", "tags": ["ok", "a,b"], "notes": "kept", "changed": {"tags": T1, "notes": T1}},
            {"id": "p3", "status": "read", "changed": {"status": "yesterday"}, "overrides": {"citekey": "taken2015", "venue": "x"}},
        ),
    )
    assert len(result.problems) == 5, result.problems
    assert all("\n" not in p for p in result.problems)
    assert lib.view("p2").notes == "kept" and lib.view("p2").tags == ()
    assert lib.view("p3").status is Status.READ  # a bad time counts as oldest, the value still lands
    assert lib.view("p3").citekey != "taken2015" and lib.view("p4").citekey == "taken2015"


@pytest.mark.parametrize(
    "text, says",
    [
        ("{", "not valid JSON"),
        ("[]", "not a reader-tui annotations export"),
        ('{"reader_tui_annotations": 2, "papers": []}', "newer reader-tui"),
        ('{"reader_tui_annotations": "1", "papers": []}', "not a number"),
        ('{"reader_tui_annotations": 1, "papers": {}}', "must be a list"),
    ],
)
def test_a_document_of_the_wrong_shape_is_refused(text: str, says: str) -> None:
    with pytest.raises(TransferError, match=says):
        parse_document(text)


HOSTILE = st.text() | st.sampled_from(["\x1b]52;c;ZWNobw==\x07", "[bold]x[/]", "\u202eevil", "\x00\x07", "👩‍🔬"])


@settings(max_examples=25, deadline=None)
@given(notes=HOSTILE, tags=st.lists(HOSTILE.filter(lambda t: "," not in t), max_size=4))
def test_hostile_text_survives_export_and_import(tmp_path_factory: pytest.TempPathFactory, notes: str, tags: list[str]) -> None:
    a = make_library(tmp_path_factory.mktemp("a"), PAPERS[:1])
    a.set_notes("p1", notes)
    a.set_tags("p1", tags)
    b = make_library(tmp_path_factory.mktemp("b"), PAPERS[:1])
    import_annotations(b, parse_document(json.dumps(export_annotations(a), ensure_ascii=False)))
    assert b.view("p1").notes == a.view("p1").notes and b.view("p1").tags == a.view("p1").tags


# -- the command functions -------------------------------------------------------------------


def test_cli_export_then_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = make_library(tmp_path / "a")
    a.set_status(["p1"], Status.READ)
    out = tmp_path / "notes.json"
    assert run_annotations_export(tmp_path / "a", out) == 0
    assert "1 annotated papers written" in capsys.readouterr().out
    assert run_annotations_export(tmp_path / "a", out) == 1  # never over a file unasked
    assert "already exists" in capsys.readouterr().err
    assert run_annotations_export(tmp_path / "a", out, force=True) == 0
    assert run_annotations_export(tmp_path / "a", tmp_path) == 1  # a folder
    assert "is a folder" in capsys.readouterr().err

    make_library(tmp_path / "b")
    assert run_annotations_import(tmp_path / "b", out) == 0
    assert "1 updated" in capsys.readouterr().out
    assert Library.open(tmp_path / "b").view("p1").status is Status.READ


def test_cli_export_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_library(tmp_path / "a").set_notes("p2", "\x1b[31mred")
    assert run_annotations_export(tmp_path / "a", None) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["papers"][0]["notes"] == "\x1b[31mred"  # JSON escapes it; the data stays exact


def test_cli_import_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_library(tmp_path / "a")
    bad = tmp_path / "bad.json"
    bad.write_text('{"something": "else"}')
    assert run_annotations_import(tmp_path / "a", bad) == 1
    assert run_annotations_import(tmp_path / "a", tmp_path / "missing.json") == 1
    assert run_annotations_import(tmp_path / "a", tmp_path) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("reader-tui: ") for line in err)
    assert "not a reader-tui annotations export" in err[0] and "no such file" in err[1]
    assert run_annotations_export(tmp_path / "nowhere", None) == 1
