"""The CLI's words (issue 14, "Words and names"): counts with the right plural, a status
is "set", never "marked" (marking is selecting, in the TUI), `show` names the venue as
a person would and says when a title was derived, and finds a merged paper by the
other source's id."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from reader_tui.cli import main

ABSTRACT = (
    "Graphs are everywhere and message passing is slow. We introduce QuickGraph, a sampler for large"
    " graphs that keeps every hub node and drops the rest at random, which scales to billions of edges."
)


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        monkeypatch.setenv("READER_TUI_BACKGROUND_INDEX", "0")
        monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
        try:
            code = main([*args, "--db", str(tmp_path / "db"), "--no-seed"])
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 0
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def one_paper(tmp_path: Path, run) -> str:
    seed = tmp_path / "list.txt"
    seed.write_text(f"ICLR 2026 论文列表\n\n{ABSTRACT}\n", encoding="utf-8")
    code, out, err = run("import", str(seed))
    assert code == 0, err
    assert out.startswith("1 entry read: 1 new")  # not "1 entries"
    return json.loads(run("list", "--json")[1])[0]["id"]


def test_status_says_which_papers_already_had_it(run, one_paper: str) -> None:
    """`status read ID` on a paper already read said "1 paper set to read", and a paper
    named twice counted twice: now what changed is counted, and the rest said (found by hand)."""
    run("status", "read", one_paper)
    code, out, _ = run("status", "read", one_paper, one_paper[:5])
    assert (code, out) == (0, "1 paper already read: nothing changed\n")
    code, out, _ = run("status", "unread", one_paper)
    assert (code, out) == (0, "1 paper set to unread\n")


def test_a_status_is_set_not_marked(run, one_paper: str) -> None:
    code, out, _ = run("mark", "read", one_paper)  # the old name keeps working
    assert (code, out) == (0, "1 paper set to read\n")
    code, out, _ = run("status", "to-read", one_paper[:5])
    assert (code, out) == (0, "1 paper set to to-read\n")
    assert json.loads(run("show", one_paper, "--json")[1])["status"] == "to-read"
    code, out, _ = run("status", "--help")
    assert code == 0 and "marked" not in out and "'mark' is the same command" in out


def test_counts_in_messages_agree_with_their_nouns(run, one_paper: str, tmp_path: Path) -> None:
    code, _, err = run("export", "-o", str(tmp_path / "one.bib"))
    assert code == 0 and err.strip().endswith(f"wrote 1 paper to {tmp_path / 'one.bib'}")
    assert run("stats")[1].startswith("1 paper\n")
    code, out, _ = run("note", one_paper, "--set", "x")
    assert out.endswith("notes saved (1 character)\n")


def test_show_says_the_title_was_derived(run, one_paper: str) -> None:
    out = run("show", one_paper)[1]
    assert out.splitlines()[:2] == [
        "QuickGraph: a sampler for large graphs that keeps every hub node and drops the rest at random…",
        "(title derived from the abstract)",
    ]
    run("edit", one_paper, "--title", "My Own Title")
    assert "derived" not in run("show", one_paper)[1]


def test_show_names_the_venue_and_finds_a_merged_paper_by_its_other_id(run, one_paper: str, tmp_path: Path) -> None:
    dump = tmp_path / "iclr.jsonl"
    note = {
        "id": "QuIcK12345",
        "content": {
            "title": {"value": "QuickGraph: Sampling Hubs at Scale"},
            "abstract": {"value": ABSTRACT},
            "venue": {"value": "ICLR 2026 Conference Withdrawn Submission"},
        },
    }
    dump.write_text(json.dumps(note) + "\n", encoding="utf-8")
    code, out, err = run("import", str(dump))
    assert code == 0 and out.startswith("1 entry read: 0 new, 0 updated, 1 merged"), (out, err)
    code, out, _ = run("show", "QuIcK12345")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "QuickGraph: Sampling Hubs at Scale"
    assert f"id       {one_paper}" in lines and "other id QuIcK12345" in lines
    assert "venue    ICLR 2026 withdrawn submission" in lines  # not "ICLR 2026 Conference ..."
    assert "derived" not in out
    assert run("status", "read", "QuIcK")[1] == "1 paper set to read\n"  # any command, by a prefix too


def test_export_remembers_the_keys_it_gave(run, one_paper: str, tmp_path: Path) -> None:
    from reader_tui.core.library.library import Library

    assert not Library.open(tmp_path / "db").exported_citekeys()
    run("export", "--id", one_paper)
    assert Library.open(tmp_path / "db").exported_citekeys() == {one_paper}
