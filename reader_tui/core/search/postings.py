"""The search index's postings, flat: one field's word -> ordinals as two arrays.

While an index takes papers one at a time (`SearchIndex.add`, or a titles-only build),
each field maps a word to an `array` of the ordinals of the papers that use it
(`defaultdict(array)`), which is what appending wants. A built index, and one loaded
from its cache, is only read, and 70,000 small arrays (one per word and field, each with
its header and spare room) and their words cost some 23 MB at 20,000 papers for 12 MB
of ordinals. `FlatPostings` keeps one field as two arrays over the index's sorted
vocabulary, which it shares: word `vocab[i]`'s ordinals are `flat[starts[i]:starts[i + 1]]`
(empty for a word the field lacks). A word is found by bisection. `thaw` gives the dict
back, for an index that grows again (an import into the running app).

Ordinals are stored in 16 bits (`array("H")`, half the size of 32-bit ones: 31 MB less
at 100,000 papers). A list of more than 65,536 papers is cut into *segments* of 65,536
ordinals: each word then has one run of `flat` per segment, holding its ordinals less
the segment's first, and `starts` has `segments` entries per word. A lookup of a word in
a single-segment list is a slice, as before; in a longer list it is a list of ordinals
put back together (about as fast to read: it holds the ints the caller iterates).

`word_pairs` and `lay_out` build a field's postings from the tokens of many papers at once with
numpy (sorting word/paper pairs instead of appending to 50,000 arrays: several times
faster), which `SearchIndex` uses for the abstracts of a whole list. numpy is imported
only there: loading and searching an index never need it.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import chain, compress, count, islice, repeat
from operator import add, ne, sub
from typing import Any

#: Ordinals per segment are 2**BITS: what an unsigned 16-bit item holds.
BITS = 16


def segments_for(papers: int, bits: int | None = None) -> int:
    """How many segments the ordinals of `papers` papers take (at least one)."""
    bits = BITS if bits is None else bits
    return max(1, ((papers - 1) >> bits) + 1)


class FlatPostings(Mapping[str, Sequence[int]]):
    """word -> ordinals (ascending) of one field, read-only, over a sorted vocabulary.

    `starts` (array "I") has `segments` entries per vocabulary word, plus one; `flat`
    (array "H") the ordinals, each less its segment's first (`segment << bits`)."""

    __slots__ = ("_bits", "_flat", "_segments", "_starts", "_vocab")

    def __init__(
        self, vocab: list[str], starts: array, flat: array, segments: int = 1, bits: int | None = None
    ) -> None:
        bits = BITS if bits is None else bits
        if (
            segments < 1 or len(starts) != len(vocab) * segments + 1 or starts[-1] != len(flat)
            or flat.typecode != "H" or starts.typecode != "I" or not 0 < bits <= 16
        ):
            raise ValueError("the postings do not line up with the vocabulary")
        self._vocab = vocab
        self._starts = starts
        self._flat = flat
        self._segments = segments
        self._bits = bits

    @classmethod
    def of(
        cls, vocab: list[str], postings: Mapping[str, Sequence[int]], papers: int, bits: int | None = None
    ) -> FlatPostings:
        """The postings of one field (a word -> ascending ordinals mapping whose words are
        all in `vocab`, sorted; ordinals below `papers`) made flat."""
        bits = BITS if bits is None else bits
        segments = segments_for(papers, bits)
        flat = array("H")
        starts = array("I", [0])
        get = postings.get
        if segments == 1:
            for word in vocab:
                ordinals = get(word)
                if ordinals:
                    flat.fromlist(ordinals.tolist() if isinstance(ordinals, array) else list(ordinals))
                starts.append(len(flat))
            return cls(vocab, starts, flat, 1, bits)
        for word in vocab:
            ordinals = get(word) or ()
            lo = 0
            for segment in range(segments):
                base = segment << bits
                hi = bisect_left(ordinals, base + (1 << bits), lo)
                if hi > lo:
                    flat.extend(map(sub, ordinals[lo:hi], repeat(base)))
                starts.append(len(flat))
                lo = hi
        return cls(vocab, starts, flat, segments, bits)

    def _cell(self, word: str) -> int:
        """The first `starts` entry of `word`, or -1 when it is not in the vocabulary."""
        vocab = self._vocab
        i = bisect_left(vocab, word)
        if i < len(vocab) and vocab[i] == word:
            return i * self._segments
        return -1

    def _ordinals(self, k: int) -> Sequence[int] | None:
        starts, flat, segments = self._starts, self._flat, self._segments
        start, end = starts[k], starts[k + segments]
        if start == end:
            return None
        if segments == 1:
            return flat[start:end]
        # a list, not an array: the callers iterate it once or twice, and a list holds
        # the ints (an array makes them again at every pass)
        found: list[int] = []
        bits = self._bits
        for segment in range(segments):
            lo, hi = starts[k + segment], starts[k + segment + 1]
            if lo != hi:
                found += map(add, flat[lo:hi], repeat(segment << bits)) if segment else flat[lo:hi].tolist()
        return found

    def get(self, word: str, default=None):  # type: ignore[override]
        k = self._cell(word)
        found = self._ordinals(k) if k >= 0 else None
        return default if found is None else found

    def __getitem__(self, word: str) -> Sequence[int]:
        found = self.get(word)
        if found is None:
            raise KeyError(word)
        return found

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        k = self._cell(word)
        return k >= 0 and self._starts[k] != self._starts[k + self._segments]

    def _words_start(self) -> array:
        starts = self._starts
        return starts if self._segments == 1 else starts[:: self._segments]

    def __iter__(self) -> Iterator[str]:
        """The field's words, in the vocabulary's (sorted) order."""
        starts = self._words_start()
        return compress(self._vocab, map(ne, starts, starts[1:]))

    def __len__(self) -> int:
        starts = self._words_start()
        return sum(map(ne, starts, starts[1:]))

    @property
    def arrays(self) -> tuple[array, array]:
        """(starts, flat): what the cache stores (with `segments` and `bits`)."""
        return self._starts, self._flat

    @property
    def segments(self) -> int:
        return self._segments

    @property
    def bits(self) -> int:
        return self._bits

    def columns(self) -> tuple[Any, Any]:
        """(indptr, ordinals) as numpy arrays (int64, int32): word `vocab[i]`'s ordinals
        are `ordinals[indptr[i]:indptr[i + 1]]`, the shape of a CSC matrix's columns."""
        import numpy as np

        starts = np.array(self._starts, dtype=np.int64) if self._starts else np.zeros(1, np.int64)
        ordinals = np.array(self._flat, dtype=np.int32) if self._flat else np.zeros(0, np.int32)
        if self._segments > 1:
            segment = np.tile(np.arange(self._segments, dtype=np.int32), len(self._vocab))
            ordinals += np.repeat(segment << self._bits, np.diff(starts))
        return starts[:: self._segments], ordinals

    def thaw(self, order: Iterable[str] | None = None) -> defaultdict[str, array]:
        """The same postings as a word -> array dict that can grow, its words in `order`
        (the title words' first-seen order, which the infix search goes by) or sorted."""
        thawed: defaultdict[str, array] = defaultdict(partial(array, "I"))
        for word in self if order is None else order:
            ordinals = self.get(word)
            if ordinals is not None:
                thawed[word] = array("I", ordinals)
        return thawed


#: Papers tokenised and paired with their words per step of `word_pairs` (bounds the
#: memory of the pairs not yet made distinct).
_CHUNK = 4096


def word_pairs(docs: Iterable[Iterable[str]], first: int = 0) -> tuple[list[str], list[Any]]:
    """The distinct (word, paper) pairs of many papers: `docs` yields each paper's words
    (repeats allowed), the first paper being ordinal `first`. Returns the words in
    first-seen order and the pairs, for `lay_out`: per chunk of at most 65,536 papers, its
    first ordinal, the numbers of its words (ascending), how many of its papers use each,
    and those papers (16-bit offsets from the first, ascending per word). At 100,000 papers
    the 15 million pairs take 38 MB so, 120 MB as 64-bit keys.

    Every word gets its number the first time it is seen, by a C-level dict lookup (a
    `defaultdict` whose factory counts); the pairs are made distinct by sorting 64-bit
    keys, a chunk at a time, not appended one by one.
    """
    import numpy as np

    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    number = numbers.__getitem__
    docs = iter(docs)
    parts = []
    o = first
    while True:
        chunk = list(islice(docs, _CHUNK))
        if not chunk:
            break
        lengths = np.fromiter(map(len, chunk), dtype=np.int64, count=len(chunk))
        ids = np.fromiter(map(number, chain.from_iterable(chunk)), dtype=np.int64, count=int(lengths.sum()))
        papers = np.repeat(np.arange(o, o + len(chunk), dtype=np.int64), lengths)
        start, o = o, o + len(chunk)
        del chunk
        keys = _distinct((ids << 32) | papers)
        del ids, papers
        numbered = keys >> 32
        runs = np.flatnonzero(np.concatenate(([True], numbered[1:] != numbered[:-1]))) if len(keys) else keys
        parts.append((
            start,
            numbered[runs].astype(np.uint32),
            np.diff(np.append(runs, len(keys))).astype(np.uint32),
            ((keys & 0xFFFFFFFF) - start).astype(np.uint16),
        ))
    return list(numbers), parts


def lay_out(
    words: list[str], parts: list[Any], place: Mapping[str, int], size: int, papers: int, bits: int | None = None
) -> tuple[array, array, int, int]:
    """`word_pairs`' output laid over a vocabulary of `size` words (`place`: word -> its
    index, for every word of `words`), as `FlatPostings` takes it: (starts, flat,
    segments, bits) for ordinals below `papers`.

    A counting sort: the runs' lengths first, then each chunk's ordinals written in place
    (a chunk holds each word's ordinals together and ascending, and the chunks come in
    ordinal order). No array as long as all the pairs is made but the result: at 100,000
    papers they are 15 million, and sorting them all at once held three 120 MB arrays.
    """
    import numpy as np

    bits = BITS if bits is None else bits
    segments = segments_for(papers, bits)
    cells = size * segments  # one run per word and segment
    rank = np.fromiter(map(place.__getitem__, words), dtype=np.int64, count=len(words)) * segments

    def cell(part) -> tuple[Any, Any]:
        """A chunk's pairs: their runs' cells, and their ordinals."""
        start, numbered, users, offsets = part
        ordinals = offsets.astype(np.int64) + start
        return np.repeat(rank[numbered], users) + (ordinals >> bits), ordinals

    counts = np.zeros(cells, dtype=np.int64)
    for part in parts:
        counts += np.bincount(cell(part)[0], minlength=cells)
    bounds = np.zeros(cells + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    del counts
    flat = np.empty(int(bounds[-1]), dtype=np.uint16)
    cursor = bounds[:-1].copy()  # where each run's next ordinal goes
    for part in parts:
        at, ordinals = cell(part)
        if not len(at):
            continue
        # a chunk's pairs of one cell are side by side: number them within their run
        first = np.flatnonzero(np.concatenate(([True], at[1:] != at[:-1])))
        length = np.diff(np.append(first, len(at)))
        within = np.arange(len(at), dtype=np.int64) - np.repeat(first, length)
        flat[cursor[at] + within] = ordinals & ((1 << bits) - 1)
        cursor[at[first]] += length
    starts = array("I")
    starts.frombytes(memoryview(bounds.astype(np.uint32)).cast("B"))
    ordinals = array("H")
    ordinals.frombytes(memoryview(flat).cast("B"))
    return starts, ordinals, segments, bits


def _distinct(keys):
    """`keys` sorted, each once (numpy's `unique` is far slower here)."""
    import numpy as np

    if not len(keys):
        return keys
    keys.sort()
    keep = np.empty(len(keys), dtype=bool)
    keep[0] = True
    np.not_equal(keys[1:], keys[:-1], out=keep[1:])
    return keys[keep]


__all__ = ["BITS", "FlatPostings", "lay_out", "segments_for", "word_pairs"]
