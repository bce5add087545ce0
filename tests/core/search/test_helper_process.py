"""A whole list's build with a child process taking a share of the abstracts (`helper`)
is the one-process build: the same postings, vocabulary, title order, acronyms and hits,
whichever share the child takes; and whenever the child cannot start, fails, answers
garbage or hangs, the parent does its share itself and no child is left running."""

from __future__ import annotations

import subprocess
import sys
from array import array

import pytest
from test_build_equivalence import QUERIES, _state, unicode_papers

from reader_tui.core.numeric import load_numpy
from reader_tui.core.search import acronyms
from reader_tui.core.search import helper as helper_module
from reader_tui.core.search import index as index_module
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.word_pairs import Pairs, distinct_pairs


@pytest.fixture
def papers():
    return unicode_papers(120, seed=20)


@pytest.fixture(autouse=True)
def idle(monkeypatch):
    """A machine with cores to spare, whatever the load of the one running the tests."""
    monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (0.0, 0.0, 0.0))


@pytest.fixture
def reference(papers, monkeypatch):
    """The one-process build of `papers`, at once (numpy)."""
    monkeypatch.setattr(index_module, "BULK_MIN", 1)
    monkeypatch.setattr(helper_module, "HELPER_MIN", 10**9)
    index = SearchIndex.build(papers)
    monkeypatch.setattr(helper_module, "HELPER_MIN", 0)
    return index


@pytest.fixture
def children(monkeypatch):
    """Every child started, and what each `result` gave."""
    started: list[helper_module.Helper] = []
    results: list = []
    start, result = helper_module.start, helper_module.Helper.result

    def spy_start(*args):
        child = start(*args)
        if child is not None:
            started.append(child)
        return child

    def spy_result(self, *args):
        results.append(result(self, *args))
        return results[-1]

    monkeypatch.setattr(index_module, "start_helper", spy_start)
    monkeypatch.setattr(helper_module.Helper, "result", spy_result)
    return started, results


def _same(index: SearchIndex, reference: SearchIndex) -> None:
    assert _state(index) == _state(reference)
    for query in QUERIES:
        assert index.search(query) == reference.search(query), query


@pytest.mark.parametrize("share", [0.5, 0.8, 1.0])
def test_a_child_taking_a_share_builds_the_same_index(share, papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "SHARE", share)
    index = SearchIndex.build(papers)
    started, results = children
    assert len(started) == 1 and started[0].split == round(len(papers) * (1 - share))
    assert results[0] is not None  # the child's answer was taken, not redone here
    assert started[0].process.poll() is not None
    assert reference._acronyms  # the fixture defines some, on both sides of the split
    _same(index, reference)


@pytest.mark.parametrize(
    "code",
    [
        "import sys; sys.exit(3)",  # fails
        "import sys; sys.stdout.buffer.write(b'reader-tui abstracts 1\\n' + bytes(70))",  # a short answer
        "import sys; sys.stdout.buffer.write(b'garbage')",  # not its answer at all
    ],
)
def test_a_failing_child_leaves_its_share_to_the_parent(code, papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "_command", lambda fd: [sys.executable, "-c", code])
    index = SearchIndex.build(papers)
    started, results = children
    assert len(started) == 1 and results == [None]
    assert started[0].process.poll() is not None
    _same(index, reference)


def test_a_stuck_child_is_killed_and_its_share_done_here(papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "_command", lambda fd: [sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.setattr(helper_module, "WAIT_S", 0.3)
    monkeypatch.setattr(helper_module, "WAIT_PER_PAPER_S", 0.0)
    index = SearchIndex.build(papers)
    started, results = children
    assert results == [None]
    assert started[0].process.returncode is not None  # killed and reaped
    _same(index, reference)


def test_a_child_that_cannot_start_is_no_child(papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "_command", lambda fd: ["/nonexistent/python3"])
    index = SearchIndex.build(papers)
    assert children == ([], [])
    _same(index, reference)


def test_the_child_is_killed_when_the_parent_fails(papers, children, monkeypatch):
    monkeypatch.setattr(index_module, "BULK_MIN", 1)
    monkeypatch.setattr(helper_module, "HELPER_MIN", 0)
    monkeypatch.setattr(helper_module, "_command", lambda fd: [sys.executable, "-c", "import time; time.sleep(60)"])

    def broken(*args, **kwargs):
        raise RuntimeError("the titles failed")

    monkeypatch.setattr(SearchIndex, "_append", broken)
    with pytest.raises(RuntimeError):
        SearchIndex.build(papers)
    started, _ = children
    assert len(started) == 1 and started[0].process.returncode is not None


def test_a_child_only_for_a_large_list_with_a_core_to_spare(monkeypatch):
    monkeypatch.setattr(helper_module.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    assert not helper_module.wanted(helper_module.HELPER_MIN - 1)
    assert helper_module.wanted(helper_module.HELPER_MIN)
    monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (1.2, 0.3, 0.3))  # one core busy already
    assert not helper_module.wanted(helper_module.HELPER_MIN)
    monkeypatch.setattr(helper_module.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert helper_module.wanted(helper_module.HELPER_MIN)
    monkeypatch.setattr(helper_module.os, "sched_getaffinity", lambda pid: {0})
    monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not helper_module.wanted(helper_module.HELPER_MIN)


def test_the_split_keeps_a_chunk_within_a_segment_past_65536_papers():
    assert helper_module.split_at(100_000) % helper_module.ALIGN == 0
    assert helper_module.split_at(19_630) == round(19_630 * (1 - helper_module.SHARE))


def test_the_child_answers_over_the_protocol(papers):
    """The child's own code path, as `python -m` runs it: its answer merged into a
    parent's pairs of the texts before the split gives the pairs of all the texts."""
    texts = [paper.abstract for paper in papers]
    child = helper_module.start(texts, 50)
    assert child is not None
    numbers: dict[str, int] = {}

    def number(word: str) -> int:
        return numbers.setdefault(word, len(numbers))

    pairs = distinct_pairs(texts[:50], number)
    seen = acronyms.definitions(texts[:50])
    later = child.result(number, pairs)
    assert later is not None and child.process.returncode == 0
    acronyms.add(seen, later)
    assert acronyms.chosen(seen) == acronyms.mine(texts)
    whole: dict[str, int] = {}
    expected = distinct_pairs(texts, lambda word: whole.setdefault(word, len(whole)))

    def spelled(pairs: Pairs, numbers: dict[str, int]) -> set[tuple[str, int]]:
        words = {v: k for k, v in numbers.items()}
        return {(words[w], o) for w, o in zip(pairs.words[:].tolist(), pairs.ordinals[:].tolist())}

    assert spelled(pairs, numbers) == spelled(expected, whole)
    assert len(pairs) == len(expected)


def test_acronym_definitions_of_parts_add_up_to_the_whole(papers):
    texts = [paper.abstract for paper in papers]
    whole = acronyms.definitions(texts)
    assert whole
    for split in range(0, len(texts) + 1, 7):
        seen = acronyms.definitions(texts[:split])
        acronyms.add(seen, acronyms.definitions(texts[split:]))
        assert list(seen.items()) == list(whole.items())
        assert acronyms.chosen(seen) == acronyms.mine(texts)


def test_pairs_refuse_parts_that_do_not_fit():
    np = load_numpy()
    pairs = distinct_pairs(["a b", "b c"], {"a": 0, "b": 1, "c": 2}.__getitem__)
    before = [bytes(part) for part in pairs.parts()]
    words, sizes, local, starts, firsts, runs = (array(part.typecode, part) for part in pairs.parts())
    with pytest.raises(ValueError):  # more runs than the chunks say
        pairs.extend(words, sizes, local, starts, firsts, array("Q", [len(words) - 1]))
    with pytest.raises(ValueError):  # texts that do not come after these
        pairs.extend(words, sizes, local, starts, firsts, runs)
    assert [bytes(part) for part in pairs.parts()] == before
    later = array("Q", [f + 10 for f in firsts])
    pairs.extend(words, sizes, local, starts, later, runs)
    assert len(pairs) == 2 * len(local)
    assert np.asarray(pairs.ordinals[len(local) :]).tolist() == [o + 10 for o in pairs.ordinals[: len(local)].tolist()]


def test_the_child_is_started_with_subprocess_not_a_fork(papers, monkeypatch):
    """The TUI builds in a worker thread: the child is a fresh interpreter (`-S -P -m`)."""
    commands = []
    popen = subprocess.Popen

    def spy(command, *args, **kwargs):
        commands.append(command)
        return popen(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    child = helper_module.start([p.abstract for p in papers], 10)
    assert child is not None
    child.close()
    assert commands[0][:5] == [sys.executable, "-S", "-P", "-m", "reader_tui.core.search.helper"]
