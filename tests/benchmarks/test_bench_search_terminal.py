"""The typed-search benchmark: the real TUI in a terminal, searches typed a key at a time,
each timed until the status line's count and the first hit the same store gives in
process are on screen. A small library, so a run takes seconds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import bench_search_terminal
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

TITLES = [
    "Graph neural networks for molecules",
    "Molten salt simulation with graph networks",
    "Diffusion models for protein design",
    "Sparse autoencoders find features",
    "Offline reinforcement learning with world models",
]


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "lib"
    opened = Library.open(folder)
    opened.import_papers([Paper(id=f"p{n}", title=title, abstract=f"Abstract {n} of {title.lower()}.")
                          for n, title in enumerate(TITLES)])
    opened.close()
    return folder


def test_the_answer_is_the_count_and_first_hit_the_store_gives(library: Path) -> None:
    answers = bench_search_terminal.expected_answers(library, ["graph mole", "protein"])
    mole, mol = answers["graph mole"]
    # between a space and " ·": a bare "1 paper of" is also the end of "11 paper of"
    assert mole.count == " 1 paper of 5 ·" and mole.first_title == "Graph neural networks for mo"
    assert mol.count == " 2 papers of 5 ·"  # "mol" is also the start of "molten"
    assert answers["protein"][0] == answers["protein"][1]  # its last key changes nothing


def test_a_query_whose_last_key_changes_nothing_is_not_timed(library: Path, monkeypatch) -> None:
    monkeypatch.setattr(bench_search_terminal, "measure_run", lambda folder, answers, at_start: {
        "seconds": dict.fromkeys(answers, 0.01), "wrong": {}, "peak_rss_mb": 1.0})
    figures = bench_search_terminal.measure(library, runs=2, queries=["graph mole", "protein"])
    assert figures["queries"] == ["graph mole"] and figures["not_timed"] == ["protein"]
    assert figures["searches"] == 2 and figures["wrong"] == 0


@pytest.mark.skipif(not shutil.which("tmux"), reason="no tmux")
def test_typed_searches_reach_the_screen_and_a_wrong_answer_is_counted(library: Path, monkeypatch) -> None:
    figures = bench_search_terminal.measure(library, runs=1, queries=["mole", "graph mole"])
    assert figures["wrong"] == 0 and figures["searches"] == 2
    assert len(figures["last_key_to_answer_ms"]["runs"]) == 2

    # an answer the TUI never shows is counted wrong, not timed
    real = bench_search_terminal.expected_answers

    def off_by_one(folder, queries):
        return {query: (bench_search_terminal.Answer(" 4 papers of 5 ·", None), less)
                for query, (_, less) in real(folder, queries).items()}

    monkeypatch.setattr(bench_search_terminal, "expected_answers", off_by_one)
    monkeypatch.setattr(bench_search_terminal, "ANSWER_TIMEOUT_S", 2.0)
    figures = bench_search_terminal.measure(library, runs=1, queries=["mole"])
    assert figures["wrong"] == 1 and figures["last_key_to_answer_ms"]["runs"] == []
    assert figures["wrong_shown"] == ["'mole': '1 paper of 5 · 0 read · 0 reading · search: mole'"]


def test_the_first_hit_counts_as_shown_only_above_the_first_hit_before_the_last_key() -> None:
    answer = bench_search_terminal.Answer(" 2 papers of 5 ·", "Graph neural networks", above="Molten salt")
    before = " ·  Molten salt simulation\n ·  Graph neural networks\n 2 papers of 5 · 0 read"
    after = " ·  Graph neural networks\n ·  Molten salt simulation\n 2 papers of 5 · 0 read"
    assert not answer.shown_in(before)  # on screen, as the second row: not the answer yet
    assert answer.shown_in(after)
    assert answer.shown_in(after.replace("Molten salt simulation", "Sparse autoencoders"))


def test_the_first_hit_before_the_last_key_is_the_one_to_pass(library: Path) -> None:
    molt, mol = bench_search_terminal.expected_answers(library, ["graph molt"])["graph molt"]
    assert molt.first_title == "Molten salt simulation with " and mol.first_title == "Graph neural networks for mo"
    assert molt.above == mol.first_title
