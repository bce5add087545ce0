"""The search index's postings, flat: one field's word -> ordinals as two arrays.

While an index takes papers one at a time (`SearchIndex.add`, a titles-only build, a
list of fewer than `index.BULK_MIN` papers), each field maps a word to an `array` of the
ordinals of the papers that use it (`defaultdict(array)`), which is what appending wants.
A whole list's build, and an index loaded from its cache, are only read, and 70,000
small arrays (one per word and field, each with its header and spare room) and their
words cost some 23 MB at 20,000 papers for 12 MB of ordinals. `FlatPostings` keeps one
field as two arrays over the index's sorted vocabulary, which it shares: word
`vocab[i]`'s ordinals are `flat[starts[i]:starts[i + 1]]`
(empty for a word the field lacks). A word is found by bisection. `thaw` gives the dict
back, for an index that grows again (an import into the running app).

Each pair's term frequency (how often the paper's field uses the word, at most 255: BM25's
saturation makes more no different) is a byte in `counts`, beside its ordinal in `flat`;
a word's counts are `counts[starts[i]:starts[i + segments]]`, its ordinals' order. One byte
a pair: a third of what its ordinal costs. Postings made without counts have none (every
count 1).

Ordinals are stored in 16 bits (`array("H")`, half the size of 32-bit ones: 31 MB less
at 100,000 papers). A list of more than 65,536 papers is cut into *segments* of 65,536
ordinals: each word then has one run of `flat` per segment, holding its ordinals less
the segment's first, and `starts` has `segments` entries per word. A lookup of a word in
a single-segment list is a slice, as before; in a longer list it is a list of ordinals
put back together (about as fast to read: it holds the ints the caller iterates).

A whole list's postings are laid out at once (`FlatPostings.of_pairs`): its words numbered
as they come, each paper's distinct word numbers are its pairs, and numpy lays them out
by a counting sort, a chunk of papers at a time (each word's run counted, then each
chunk's (word, segment, ordinal) keys sorted and written in place); pairs that come as
runs (`word_pairs`: a word in a chunk of papers) are laid out by sorting the runs, not
the pairs (`FlatPostings.of_runs`). That replaces 2.6
million appends at 19,630 papers and leaves the index flat, as its cache stores it (the
cache file is byte for byte the same); numpy is imported only for such a build, never to
load or search an index. The appends were not the whole cost: numbering a word costs
about what appending its pair did, since both hash a fresh string and look it up in a
dict of 50,000 words; `word_pairs` now makes a field's pairs without a string per word
(see `SearchIndex.build`).
"""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import compress, repeat
from operator import add, ne, sub
from types import ModuleType
from typing import Any

from ..process_tuning import load_numpy

#: Ordinals per segment are 2**BITS: what an unsigned 16-bit item holds.
BITS = 16
#: Papers (or pairs) per chunk of `FlatPostings.of_pairs`: bounds its temporary arrays.
_CHUNK_PAPERS = 1024
_CHUNK_PAIRS = 1 << 19


def segments_for(papers: int, bits: int | None = None) -> int:
    """How many segments the ordinals of `papers` papers take (at least one)."""
    bits = BITS if bits is None else bits
    return max(1, ((papers - 1) >> bits) + 1)


class FlatPostings(Mapping[str, Sequence[int]]):
    """word -> ordinals (ascending) of one field, read-only, over a sorted vocabulary.

    `starts` (array "I") has `segments` entries per vocabulary word, plus one; `flat`
    (array "H") the ordinals, each less its segment's first (`segment << bits`); `counts`
    (array "B") each pair's term frequency, or nothing (every count 1)."""

    __slots__ = ("_bits", "_flat", "_held_counts", "_packed_counts", "_segments", "_starts", "_vocab")

    def __init__(
        self, vocab: list[str], starts: array, flat: array, segments: int = 1, bits: int | None = None,
        counts: array | None = None, packed_counts: Any = None,
    ) -> None:
        """`packed_counts`, in place of `counts`: them as `pack_counts` made them (a
        loaded cache's), unpacked at the first search that reads them."""
        bits = BITS if bits is None else bits
        counts = array("B") if counts is None else counts
        if (
            segments < 1 or len(starts) != len(vocab) * segments + 1 or starts[-1] != len(flat)
            or flat.typecode != "H" or starts.typecode != "I" or not 0 < bits <= 16
            or counts.typecode != "B" or len(counts) not in (0, len(flat))
            or (packed_counts is not None and len(counts))
        ):
            raise ValueError("the postings do not line up with the vocabulary")
        self._vocab = vocab
        self._starts = starts
        self._flat = flat
        self._segments = segments
        self._bits = bits
        self._held_counts = None if packed_counts is not None else counts
        self._packed_counts = packed_counts

    @property
    def _counts(self) -> array:
        # Packed, the counts are a quarter of their size (mostly ones): an app that only
        # opens the list never unpacks them (2.3 MB at 19,630 papers).
        packed = self._packed_counts
        if packed is None:
            return self._held_counts
        # (two searches may unpack at once: each its own copy, the packed bytes read once)
        held = array("B")
        held.frombytes(zlib.decompress(packed))
        self._held_counts = held
        self._packed_counts = None
        return held

    @classmethod
    def of(
        cls, vocab: list[str], postings: Mapping[str, Sequence[int]], papers: int, bits: int | None = None,
        counts: Mapping[str, Sequence[int]] | None = None,
    ) -> FlatPostings:
        """The postings of one field (a word -> ascending ordinals mapping whose words are
        all in `vocab`, sorted; ordinals below `papers`) made flat, with `counts` (a word ->
        term frequencies mapping, in its ordinals' order) when given."""
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
        else:
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
        flat_counts = array("B")
        if counts is not None:
            for word in vocab:
                if get(word):
                    flat_counts.extend(counts[word])
        return cls(vocab, starts, flat, segments, bits, flat_counts)

    @classmethod
    def of_pairs(
        cls, vocab: list[str], place: Mapping[str, int], words: Sequence[str], numbers: Any, papers: int, *,
        ordinals: Any = None, lengths: Any = None, bits: int | None = None, ranks: Any = None, counts: Any = None,
    ) -> FlatPostings:
        """One field's postings from its distinct (word, paper) pairs, at once: pair k is the
        word `words[numbers[k]]` (a numpy integer array) in the paper of ordinal
        `ordinals[k]`, or, given `lengths` instead, the pairs are paper by paper, `lengths[i]`
        of them for paper i. Each word's pairs come in ascending ordinal order. `place` gives
        each of `words` its index in the sorted `vocab` (or `ranks` gives them all, a numpy
        array: a caller laying out several fields over one vocabulary makes it once); ordinals
        are below `papers`. `counts`, sliced as `numbers` is, gives each pair's term frequency.

        A counting sort, a chunk of pairs at a time (their cells counted, then each chunk's
        64-bit keys sorted and its ordinals written in place): no array as long as all the
        pairs is made but the result (2.6 million pairs at 19,630 papers, 13 million at
        100,000, where sorting all their keys at once held 300 MB more)."""
        np = load_numpy()

        bits = BITS if bits is None else bits
        segments = segments_for(papers, bits)
        mask = (1 << bits) - 1
        cells = len(vocab) * segments  # one run per word and segment
        if ranks is None:
            ranks = np.fromiter(map(place.__getitem__, words), dtype=np.int64, count=len(words))
        rank = ranks.astype(np.int64) * segments
        if lengths is not None:
            sizes = np.asarray(lengths, dtype=np.int64)
            offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
            np.cumsum(sizes, out=offsets[1:])
            bounds = list(range(0, len(sizes), _CHUNK_PAPERS)) + [len(sizes)]
            chunks = [(int(offsets[lo]), int(offsets[hi]), lo, hi) for lo, hi in zip(bounds, bounds[1:])]
        else:
            bounds = list(range(0, len(numbers), _CHUNK_PAIRS)) + [len(numbers)]
            chunks = [(lo, hi, lo, hi) for lo, hi in zip(bounds, bounds[1:])]

        def cell(chunk) -> tuple[Any, Any]:
            """A chunk's pairs: their runs' cells (word and segment), and their ordinals."""
            a, b, lo, hi = chunk
            if lengths is not None:
                at = np.repeat(np.arange(lo, hi, dtype=np.int64), sizes[lo:hi])
            else:
                at = ordinals[a:b].astype(np.int64)
            found = rank[numbers[a:b]]
            if segments > 1:
                found += at >> bits
            return found, at

        # a pair's count rides below its ordinal in the sorted keys
        count_bits = 8 if counts is not None else 0

        run_sizes = np.zeros(cells, dtype=np.int64)
        for chunk in chunks:
            run_sizes += np.bincount(cell(chunk)[0], minlength=cells)
        ends = np.zeros(cells + 1, dtype=np.int64)
        np.cumsum(run_sizes, out=ends[1:])
        del run_sizes
        ordinals_out = array("H", [0]) * int(ends[-1])  # written through a numpy view: no copy
        flat = np.frombuffer(ordinals_out, dtype=np.uint16) if len(ordinals_out) else np.zeros(0, dtype=np.uint16)
        counts_out = array("B", [0]) * (int(ends[-1]) if counts is not None else 0)
        flat_counts = np.frombuffer(counts_out, dtype=np.uint8) if len(counts_out) else None
        cursor = ends[:-1].copy()  # where each run's next ordinal goes
        for chunk in chunks:
            keys, at = cell(chunk)
            if not len(keys):
                continue
            keys <<= bits
            keys |= at & mask
            del at
            if counts is not None:
                keys <<= count_bits
                keys |= np.minimum(counts[chunk[0] : chunk[1]], 255).astype(np.int64)
            keys.sort()
            at = keys >> (bits + count_bits)  # the cells, sorted: a run's pairs side by side, ascending
            first = np.flatnonzero(np.concatenate(([True], at[1:] != at[:-1])))
            size = np.diff(np.append(first, len(at)))
            within = np.arange(len(at), dtype=np.int64) - np.repeat(first, size)
            if flat_counts is not None:
                flat_counts[cursor[at] + within] = keys & 255
            flat[cursor[at] + within] = (keys >> count_bits) & mask
            cursor[at[first]] += size
        starts = array("I")
        starts.frombytes(ends.astype(np.uint32).tobytes())
        del ends, cursor, flat, flat_counts  # (the views: the arrays can grow again)
        return cls(vocab, starts, ordinals_out, segments, bits, counts_out)

    @classmethod
    def of_runs(
        cls, vocab: list[str], ranks: Any, run_words: Any, run_sizes: Any, run_firsts: Any, local: Any, papers: int,
        bits: int | None = None, counts: Any = None,
    ) -> FlatPostings | None:
        """One field's postings from its distinct (word, paper) pairs given as runs
        (`word_pairs.Pairs.runs`): run k is word number `run_words[k]` (`ranks` gives each
        number's place in the sorted `vocab`) in `run_sizes[k]` papers, whose ordinals are
        `run_firsts[k]` plus the next `run_sizes[k]` items of `local`, ascending, and
        `counts` (when given) the term frequency of each, beside `local`. A word's
        runs come in ascending ordinal order. None when a run spans two segments (a chunk
        of papers across a multiple of 2**bits, which `word_pairs`' chunks never are at 16
        bits): the caller lays such pairs out with `of_pairs`.

        The same result as `of_pairs` over the pairs, but what is sorted are the runs (one
        per word and chunk of papers: 435,000 at 19,630 papers), not the 2.6 million pairs:
        each cell's runs are put side by side in their order and their ordinals copied, a
        block of pairs at a time (0.14 -> 0.05 s of CPU for the abstracts)."""
        np = load_numpy()

        bits = BITS if bits is None else bits
        segments = segments_for(papers, bits)
        mask = (1 << bits) - 1
        cells = len(vocab) * segments  # one run per word and segment
        nruns = len(run_words)
        sizes = run_sizes.astype(np.int64)
        src = np.zeros(nruns + 1, dtype=np.int64)  # where each run's pairs are in `local`
        np.cumsum(sizes, out=src[1:])
        cell = ranks[run_words].astype(np.int64) * segments
        if segments > 1 and nruns:
            segment = (run_firsts + local[src[:-1]]) >> bits  # of each run's first ordinal
            if bool(((run_firsts + local[src[1:] - 1]) >> bits != segment).any()):
                return None
            cell += segment
        # the runs by cell, a cell's runs in their order: one sort of (cell, run) keys
        shift = max(1, nruns.bit_length())
        keys = cell << shift
        keys |= np.arange(nruns, dtype=np.int64)
        keys.sort()
        order = keys & ((1 << shift) - 1)
        del keys
        ends = np.zeros(cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, weights=sizes, minlength=cells).astype(np.int64), out=ends[1:])
        del cell
        src = src[order]
        sizes = sizes[order]
        firsts = run_firsts[order]
        del order
        dst = np.zeros(nruns + 1, dtype=np.int64)  # and where they go, runs in cell order
        np.cumsum(sizes, out=dst[1:])
        total = int(dst[-1])
        ordinals_out = array("H", [0]) * total  # written through a numpy view: no copy
        flat = np.frombuffer(ordinals_out, dtype=np.uint16) if total else np.zeros(0, dtype=np.uint16)
        counts_out = array("B", [0]) * (total if counts is not None else 0)
        flat_counts = np.frombuffer(counts_out, dtype=np.uint8) if len(counts_out) else None
        # blocks of about _CHUNK_PAIRS pairs (whole runs): bounds the temporaries
        # (ascending: its distinct items in order. Not np.unique, whose first call imports
        # numpy.ma, 13 ms of a cold build, to ask whether a handful of ints is masked)
        bounds = list(dict.fromkeys(np.searchsorted(dst[1:], np.arange(0, total, _CHUNK_PAIRS), side="right").tolist()))
        # At 16 bits an ordinal within its segment is its 16-bit sum with the run's first,
        # which wraps as `& mask` would: added in 16 bits, no 64-bit copy of every pair
        # (and the pairs' places in 32 bits when they fit: half the memory traffic)
        wrap = bits == 16 and local.dtype == np.uint16
        if wrap:
            firsts = (firsts & mask).astype(np.uint16)
        small = max(total, len(local)) < 1 << 31
        if small:
            src, dst = src.astype(np.int32), dst.astype(np.int32)
        for r0, r1 in zip(bounds, bounds[1:] + [nruns]):
            if r1 <= r0:
                continue
            a, b = int(dst[r0]), int(dst[r1])
            # pair j of the block reads local[src + (j - the run's dst)]
            at = np.repeat(src[r0:r1] - dst[r0:r1], sizes[r0:r1])
            at += np.arange(a, b, dtype=at.dtype)
            if wrap:
                found = local[at]
                found += np.repeat(firsts[r0:r1], sizes[r0:r1])
            else:
                found = local[at].astype(np.int64)
                found += np.repeat(firsts[r0:r1], sizes[r0:r1])
                found &= mask
            if flat_counts is not None:
                flat_counts[a:b] = counts[at]
            del at
            flat[a:b] = found
        starts = array("I")
        starts.frombytes(ends.astype(np.uint32).tobytes())
        del ends, flat, flat_counts  # (the views: the arrays can grow again)
        return cls(vocab, starts, ordinals_out, segments, bits, counts_out)

    @classmethod
    def of_arrays(
        cls, vocab: list[str], place: Mapping[str, int], postings: Mapping[str, array], papers: int,
        bits: int | None = None, counts: Mapping[str, array] | None = None,
    ) -> FlatPostings:
        """`of` for a word -> ordinals mapping of `array("I")`s (what a build appends to), and
        its word -> counts mapping of `array("B")`s when given, at once with numpy (`of_pairs`)."""
        np = load_numpy()

        words = list(postings)
        runs = list(postings.values())
        sizes = np.fromiter(map(len, runs), dtype=np.int64, count=len(runs))
        ordinals = np.frombuffer(b"".join(runs), dtype=np.uint32) if runs else np.zeros(0, dtype=np.uint32)
        numbers = np.repeat(np.arange(len(words), dtype=np.int64), sizes)
        frequencies = None
        if counts is not None:
            frequencies = np.frombuffer(b"".join(map(counts.__getitem__, words)), dtype=np.uint8)
        return cls.of_pairs(vocab, place, words, numbers, papers, ordinals=ordinals, bits=bits, counts=frequencies)

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

    def size(self, word: str) -> int:
        """How many papers hold `word` (0 when it is not in the vocabulary), with no list made."""
        k = self._cell(word)
        return self._starts[k + self._segments] - self._starts[k] if k >= 0 else 0

    def ordinal_array(self, np: ModuleType, word: str) -> Any:
        """The ordinals holding `word`, as a numpy array (None when none do): each segment
        offset at once, not an int at a time."""
        k = self._cell(word)
        if k < 0:
            return None
        starts, segments = self._starts, self._segments
        start, end = starts[k], starts[k + segments]
        if start == end:
            return None
        flat = np.frombuffer(self._flat, dtype=self._flat.typecode, count=end - start,
                             offset=start * self._flat.itemsize).astype(np.int64)
        if segments > 1:
            bounds = np.frombuffer(starts, dtype=starts.typecode, count=segments + 1,
                                   offset=k * starts.itemsize).astype(np.int64) - start
            flat += np.repeat(np.arange(segments, dtype=np.int64) << self._bits, np.diff(bounds))
        return flat

    def frequencies(self, word: str) -> Sequence[int] | None:
        """The term frequencies of `word`, in its ordinals' order; None when the postings
        hold no counts (every count 1) or lack the word."""
        k = self._cell(word) if self._counts else -1
        if k < 0:
            return None
        return self._counts[self._starts[k] : self._starts[k + self._segments]]

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
    def counts(self) -> array:
        """Each pair's term frequency beside `flat` (empty: every count 1)."""
        return self._counts

    def pack_counts(self) -> bytes:
        """`counts` packed (zlib), for the cache: what `packed_counts` takes."""
        return zlib.compress(self._counts, 1)

    @property
    def segments(self) -> int:
        return self._segments

    @property
    def bits(self) -> int:
        return self._bits

    def columns(self) -> tuple[Any, Any]:
        """(indptr, ordinals) as numpy arrays (int64, int32): word `vocab[i]`'s ordinals
        are `ordinals[indptr[i]:indptr[i + 1]]`, the shape of a CSC matrix's columns."""
        np = load_numpy()

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

    def thaw_counts(self) -> defaultdict[str, array]:
        """The counts beside `thaw`'s postings, as a word -> array("B") dict that can grow."""
        thawed: defaultdict[str, array] = defaultdict(partial(array, "B"))
        for word in self:
            found = self.frequencies(word)
            thawed[word] = array("B", found) if found is not None else array("B", [1]) * len(self[word])
        return thawed


__all__ = ["BITS", "FlatPostings", "segments_for"]
