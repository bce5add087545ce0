"""`FlatPostings.of_runs` lays a field's pairs out by their runs (one per word and chunk of
texts, as `word_pairs` makes them), sorting runs instead of pairs. Property: the same
postings as `of_pairs` over the same pairs, byte for byte, in one segment and in many,
laid out in one block or many; None (the caller then uses `of_pairs`) exactly when a run
spans two segments."""

from __future__ import annotations

from collections import defaultdict
from itertools import count

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reader_tui.core.search import postings, word_pairs
from reader_tui.core.search.postings import FlatPostings

WORDS = st.sampled_from("a b c d e f g h alpha beta gamma delta x1 y2".split())
TEXTS = st.lists(st.one_of(st.none(), st.lists(WORDS, max_size=8).map(" ".join)), max_size=40)


def _both(texts, bits):
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    pairs = word_pairs.distinct_pairs(texts, numbers.__getitem__)
    words = list(numbers)
    vocab = sorted(words)
    place = {w: i for i, w in enumerate(vocab)}
    ranks = np.array([place[w] for w in words], dtype=np.int64)
    by_pairs = FlatPostings.of_pairs(vocab, place, words, pairs.words, len(texts), ordinals=pairs.ordinals,
                                     ranks=ranks, bits=bits, counts=pairs.counts)
    by_runs = FlatPostings.of_runs(vocab, ranks, *pairs.runs(), len(texts), bits=bits, counts=pairs.counts)
    return by_pairs, by_runs, pairs


#: (texts a slab as bits, bytes a chunk, pairs laid out at a time): one chunk, chunks of 4
#: texts, chunks of 2 texts
CHUNKINGS = [(12, 1 << 20, 1 << 19), (2, 64, 5), (1, 16, 1)]


def _check(texts, bits):
    by_pairs, by_runs, pairs = _both(texts, bits)
    run_words, run_sizes, firsts, local = pairs.runs()
    ends = np.cumsum(run_sizes.astype(np.int64))
    spans = any((int(f) + int(local[e - s])) >> bits != (int(f) + int(local[e - 1])) >> bits
                for f, s, e in zip(firsts, run_sizes.astype(np.int64), ends))
    if spans:
        assert by_runs is None
        return
    assert by_runs is not None
    assert by_runs.arrays[0].tobytes() == by_pairs.arrays[0].tobytes()
    assert by_runs.arrays[1].tobytes() == by_pairs.arrays[1].tobytes()
    assert by_runs.counts.tobytes() == by_pairs.counts.tobytes()
    assert (by_runs.segments, by_runs.bits) == (by_pairs.segments, by_pairs.bits)
    assert dict(by_runs.items()) == dict(by_pairs.items())


# Each example is checked in every chunking: 150 examples for each, as when they were
# three runs of this test, drawn once (drawing them was most of the time).
@settings(max_examples=150, deadline=None)
@given(TEXTS, st.sampled_from([16, 3, 2, 1]))
def test_runs_lay_out_the_postings_of_the_pairs(texts, bits):
    kept = word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES, postings._CHUNK_PAIRS
    try:
        for doc_bits, chunk_bytes, block in CHUNKINGS:
            word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES = doc_bits, chunk_bytes
            postings._CHUNK_PAIRS = block  # blocks of pairs laid out at a time
            _check(texts, bits)
    finally:
        word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES, postings._CHUNK_PAIRS = kept


def test_chunks_within_segments_are_laid_out_by_runs(monkeypatch):
    monkeypatch.setattr(word_pairs, "_DOC_BITS", 1)  # two texts a chunk: never across 4
    monkeypatch.setattr(word_pairs, "_CHUNK_BYTES", 16)
    texts = ["a b", "b c", "a", "c d", "d a", "b", "a b c d", None, "a"]
    by_pairs, by_runs, _ = _both(texts, 2)
    assert by_runs is not None and by_runs.segments == 3
    assert by_runs.arrays[1].tobytes() == by_pairs.arrays[1].tobytes()
    assert list(by_runs["a"]) == [0, 2, 4, 6, 8]


def test_a_run_across_two_segments_is_left_to_of_pairs():
    texts = ["a", "a", "a"]  # one chunk of three texts: 0-1 and 2 are two segments at 1 bit
    _, by_runs, _ = _both(texts, 1)
    assert by_runs is None
