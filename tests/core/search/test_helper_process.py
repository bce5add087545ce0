"""A whole list's build that shares its abstracts with a child process (`helper`) is the
one-process build: the same postings, vocabulary, title order, acronyms and hits, however
the units of abstracts fall between the two; and whenever the child cannot start, fails,
answers garbage or hangs, the parent does the child's units itself and no child is left
running."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from array import array
from pathlib import Path

import pytest
from test_build_equivalence import QUERIES, _state, unicode_papers

from reader_tui.core.process_tuning import load_numpy
from reader_tui.core.search import acronyms
from reader_tui.core.search import helper as helper_module
from reader_tui.core.search import index as index_module
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.word_pairs import Pairs, distinct_pairs

ROOT = str(Path(helper_module.__file__).resolve().parents[3])

#: A stand-in child that claims every unit, as the real one would if the parent were slow,
#: then does `{then}` instead of answering.
FAKE = """
import os, sys
from array import array
sys.path.insert(0, {root!r})
from reader_tui.core.search import helper
fd = int(sys.argv[1])
sys.stdin.readline()
n = array("Q", os.pread(fd, 8, helper._CLAIMS + 16))[0]
while helper._claim(fd, n, back=True) is not None:
    pass
{then}
"""


def fake(then: str):
    code = FAKE.format(root=ROOT, then=then)
    return lambda fd: [sys.executable, "-c", code, str(fd)]


@pytest.fixture(autouse=True)
def idle(monkeypatch):
    """A machine with cores to spare, whatever the load of the one running the tests."""
    monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(helper_module, "_others_running", lambda: 0)
    monkeypatch.setattr(helper_module, "UNIT", 8)  # 15 units of the 120 papers, fewer near the end
    monkeypatch.setattr(helper_module, "MIN_UNIT", 2)


@pytest.fixture
def papers():
    return unicode_papers(120, seed=20)


@pytest.fixture
def reference(papers, monkeypatch):
    """The one-process build of `papers`, at once (numpy)."""
    monkeypatch.setattr(index_module, "BULK_MIN", 1)
    monkeypatch.setattr(helper_module, "HELPER_MIN", 10**9)
    index = SearchIndex.build(papers)
    monkeypatch.setattr(helper_module, "HELPER_MIN", 0)
    return index


def child_claims(child: helper_module.Helper) -> int:
    """How many texts the child has claimed so far."""
    return array("Q", os.pread(child._source.fileno(), 16, helper_module._CLAIMS))[1]


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


@pytest.mark.parametrize("first", [0, 3])
def test_a_child_sharing_the_abstracts_builds_the_same_index(first, papers, reference, children, monkeypatch):
    """The parent takes `first` units before the child is ready and the child at least one
    (the parent's titles wait for it), then both claim as they go."""
    claim = helper_module.Helper.claim
    early: list[range] = []

    def claim_early(self):
        return early.pop(0) if early else claim(self)

    monkeypatch.setattr(helper_module.Helper, "claim", claim_early)
    start = index_module.start_helper

    def start_and_claim(texts):
        child = start(texts)
        early.extend(claim(child) for _ in range(first))
        return child

    monkeypatch.setattr(index_module, "start_helper", start_and_claim)
    append = SearchIndex._append

    def titles_then_wait(self, *args, **kwargs):
        head = append(self, *args, **kwargs)
        deadline = time.monotonic() + 30
        while not child_claims(children[0][0]) and time.monotonic() < deadline:
            time.sleep(0.01)
        return head

    monkeypatch.setattr(SearchIndex, "_append", titles_then_wait)
    index = SearchIndex.build(papers)
    (child,), results = children
    assert results[0] is not None  # the child's answer was taken, not redone here
    assert child.taken >= 8 * first and child.taken < child.texts  # both did some
    assert child.process.poll() is not None
    assert reference._acronyms  # the fixture defines some
    _same(index, reference)



def parent_waits_for_every_claim(children, monkeypatch) -> None:
    """The parent, after its titles, waits until the stand-in child has claimed every
    unit: whatever the stand-in then does, all of the abstracts' work was its."""
    append = SearchIndex._append

    def titles_then_wait(self, *args, **kwargs):
        head = append(self, *args, **kwargs)
        child = children[0][0]
        deadline = time.monotonic() + 30
        while child_claims(child) < child.texts and time.monotonic() < deadline:
            time.sleep(0.01)
        return head

    monkeypatch.setattr(SearchIndex, "_append", titles_then_wait)


@pytest.mark.parametrize(
    "then",
    [
        "sys.exit(3)",  # fails
        "sys.stdout.buffer.write(helper._MAGIC + bytes(72)); sys.stdout.flush(); os._exit(0)",  # a short answer
        "sys.stdout.buffer.write(b'garbage'); sys.stdout.flush(); os._exit(0)",  # not its answer at all
    ],
)
def test_a_failing_child_leaves_its_units_to_the_parent(then, papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "_command", fake(then))
    parent_waits_for_every_claim(children, monkeypatch)
    index = SearchIndex.build(papers)
    (child,), results = children
    assert child.taken == 0 and results == [None]
    assert child.process.poll() is not None
    _same(index, reference)


def test_a_stuck_child_is_killed_and_its_units_done_here(papers, reference, children, monkeypatch):
    monkeypatch.setattr(helper_module, "_command", fake("import time; time.sleep(60)"))
    monkeypatch.setattr(helper_module, "WAIT_S", 0.5)
    monkeypatch.setattr(helper_module, "WAIT_PER_PAPER_S", 0.0)
    parent_waits_for_every_claim(children, monkeypatch)
    index = SearchIndex.build(papers)
    (child,), results = children
    assert results == [None]
    assert child.process.returncode is not None  # killed and reaped
    _same(index, reference)


def test_a_child_stopped_with_the_lock_held_does_not_hold_the_parent_up(papers, reference, children, monkeypatch):
    code = FAKE.format(root=ROOT, then="").replace(
        "while helper._claim", "import fcntl, time\nfcntl.lockf(fd, fcntl.LOCK_EX, 16, helper._CLAIMS)\ntime.sleep(60)\nwhile helper._claim"
    )
    monkeypatch.setattr(helper_module, "_command", lambda fd: [sys.executable, "-c", code, str(fd)])
    monkeypatch.setattr(helper_module, "WAIT_S", 0.5)
    monkeypatch.setattr(helper_module, "WAIT_PER_PAPER_S", 0.0)
    append = SearchIndex._append

    def titles_then_wait(self, *args, **kwargs):  # until the stand-in holds the lock
        import fcntl

        head = append(self, *args, **kwargs)
        fd = children[0][0]._source.fileno()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 16, helper_module._CLAIMS)
            except OSError:
                break  # (held by the child)
            fcntl.lockf(fd, fcntl.LOCK_UN, 16, helper_module._CLAIMS)
            time.sleep(0.01)
        return head

    monkeypatch.setattr(SearchIndex, "_append", titles_then_wait)
    index = SearchIndex.build(papers)
    (child,), results = children
    assert results == [None] and child.taken == 0
    assert child.process.returncode is not None
    _same(index, reference)


def test_a_child_that_takes_nothing_is_not_waited_for(papers, reference, children, monkeypatch):
    """A child still starting when the parent has done every unit (a slow start) is killed,
    not waited for."""
    monkeypatch.setattr(helper_module, "_command", lambda fd: [sys.executable, "-c", "import time; time.sleep(60)"])
    started = time.monotonic()
    index = SearchIndex.build(papers)
    assert time.monotonic() - started < helper_module.WAIT_S
    (child,), results = children
    assert results == [{}] and child.taken == child.texts
    assert child.process.returncode is not None
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


def test_the_child_alone_answers_for_every_unit(papers):
    """The real child, the parent claiming nothing: its answer, merged, is the pairs and
    the acronym definitions of every text."""
    texts = [paper.abstract for paper in papers]
    child = helper_module.start(texts)
    assert child is not None
    assert child.process.wait(timeout=60) == 0  # it claimed every unit and answered
    assert child.claim() is None and child.taken == 0
    numbers: dict[str, int] = {}

    def number(word: str) -> int:
        return numbers.setdefault(word, len(numbers))

    pairs = Pairs(load_numpy())
    seen = child.result(number, pairs)
    assert seen is not None
    assert list(seen.items()) == list(acronyms.definitions(texts).items())
    whole: dict[str, int] = {}
    expected = distinct_pairs(texts, lambda word: whole.setdefault(word, len(whole)))
    assert _spelled(pairs, numbers) == _spelled(expected, whole)
    assert len(pairs) == len(expected)


def _spelled(pairs: Pairs, numbers: dict[str, int]) -> set[tuple[str, int]]:
    words = {v: k for k, v in numbers.items()}
    return {(words[w], o) for w, o in zip(pairs.words[:].tolist(), pairs.ordinals[:].tolist())}


def test_pairs_of_parts_added_into_one_are_the_pairs_of_the_whole(papers):
    texts = [paper.abstract for paper in papers]
    numbers: dict[str, int] = {}

    def number(word: str) -> int:
        return numbers.setdefault(word, len(numbers))

    pairs = Pairs(load_numpy())
    for at in range(0, len(texts), 13):
        assert distinct_pairs(texts[at : at + 13], number, at, into=pairs) is pairs
    whole: dict[str, int] = {}
    expected = distinct_pairs(texts, lambda word: whole.setdefault(word, len(whole)))
    assert _spelled(pairs, numbers) == _spelled(expected, whole)
    assert len(pairs) == len(expected)


def test_a_child_only_for_a_large_list_with_a_core_to_spare(monkeypatch):
    def machine(cores: int, load: float, others: int | None) -> None:
        monkeypatch.setattr(helper_module.os, "sched_getaffinity", lambda pid: set(range(cores)))
        monkeypatch.setattr(helper_module.os, "getloadavg", lambda: (load, 0.3, 0.3))
        monkeypatch.setattr(helper_module, "_others_running", lambda: others)

    machine(2, 0.3, 0)
    assert not helper_module.wanted(helper_module.HELPER_MIN - 1)
    assert helper_module.wanted(helper_module.HELPER_MIN)
    machine(2, 0.9, 0)  # the average still holds this process's own last minute: no matter
    assert helper_module.wanted(helper_module.HELPER_MIN)
    machine(2, 0.9, 1)  # another thread running right now: no core to spare
    assert not helper_module.wanted(helper_module.HELPER_MIN)
    machine(2, 1.8, 0)  # a machine kept busy, between two of its jobs
    assert not helper_module.wanted(helper_module.HELPER_MIN)
    machine(4, 1.2, 1)
    assert helper_module.wanted(helper_module.HELPER_MIN)
    machine(1, 0.0, 0)
    assert not helper_module.wanted(helper_module.HELPER_MIN)
    machine(2, 0.3, None)  # nothing says what runs now (no /proc): the load average alone
    assert helper_module.wanted(helper_module.HELPER_MIN)
    machine(2, 1.2, None)
    assert not helper_module.wanted(helper_module.HELPER_MIN)


def test_what_runs_now_is_read_from_the_kernels_count(tmp_path, monkeypatch):
    loadavg = tmp_path / "loadavg"
    monkeypatch.undo()  # the autouse fixture's stand-in for `_others_running` among them
    monkeypatch.setattr(helper_module, "LOADAVG", str(loadavg))
    loadavg.write_text("0.57 1.12 2.77 3/82 11055\n")
    assert helper_module._others_running() == 2  # besides the thread reading it
    loadavg.write_text("0.57 1.12 2.77 1/80 11055\n")
    assert helper_module._others_running() == 0
    loadavg.write_text("not what the kernel writes\n")
    assert helper_module._others_running() is None
    loadavg.unlink()
    assert helper_module._others_running() is None


def test_acronym_definitions_of_parts_add_up_to_the_whole(papers):
    texts = [paper.abstract for paper in papers]
    whole = acronyms.definitions(texts)
    assert whole
    for split in range(0, len(texts) + 1, 7):
        known: dict = {}  # (the expansions made for one part, kept for the next)
        seen = acronyms.definitions(texts[:split], known)
        acronyms.add(seen, acronyms.definitions(texts[split:], known if split % 2 else None))
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


def test_the_child_is_a_fresh_interpreter_not_a_fork(papers, monkeypatch):
    """The TUI builds in a worker thread: the child is started by `subprocess` as a new
    interpreter (`-S -P -m`), never forked from this process."""
    commands = []
    popen = subprocess.Popen

    def spy(command, *args, **kwargs):
        commands.append(command)
        return popen(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    child = helper_module.start([p.abstract for p in papers])
    assert child is not None
    child.close()
    assert child.process.returncode is not None
    assert commands[0][:5] == [sys.executable, "-S", "-P", "-m", "reader_tui.core.search.helper"]
