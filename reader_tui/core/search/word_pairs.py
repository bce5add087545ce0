"""A whole field of a paper list tokenised at once: its distinct (word, paper) pairs.

`tokens(text)` costs CPython about 0.3 µs a word: a string made for each word
(`str.split`), hashed, and looked up in a dict of 50,000 words to number it. The
abstracts of 19,630 papers hold 3.8 million words, so that alone was 1.2-1.5 s of the
cold build. `distinct_pairs` gives the same pairs with numpy doing the per-word work,
and Python only once per *distinct* word of a chunk of papers:

1. Each text is `prepared` as `tokens` prepares it (LaTeX read, accents folded), and
   rapidfuzz's `default_process` (lower case, every other character a space) applied to
   the texts that are not ASCII (a third of the abstracts, most for their punctuation);
   a chunk of texts (about 1 MB: the fastest size measured) is encoded in UTF-8, one
   space between two texts.
2. A byte table does `default_process` for ASCII: each byte becomes a digit, 0 for a
   space or ASCII punctuation, 1-36 for 0-9 and a-z (either case), 37 for any byte of a
   non-ASCII character. A word is a run of non-zero digits: exactly the words that
   `default_process(text).split()` makes (a test holds the table to `default_process`).
3. A word of up to 12 ASCII letters and digits is numbered without a string: its digits
   read in base 37 fit in 64 bits, and the chunk's bytes read as overlapping 8-byte
   integers give each word's value in a few numpy passes over the words, none over the
   bytes (see `_packed`). The others (longer words, 2.5% of them, and words with a
   non-ASCII letter) are sliced out as strings and numbered in the caller's dict, as
   `tokens` would have.
4. A word and its paper are one 64-bit key, the paper in the low bits: a word of up to
   10 letters (91% of them) as its value, the others' values hashed into the high bits by
   a multiplier checked to give each of the chunk's distinct words its own hash. One numpy
   sort of each kind makes the pairs distinct and groups them by word, papers ascending
   (the short words' values come out sorted, with no sort of their own).
5. The chunk's distinct words are found in a sorted array of the words of earlier
   chunks (`_Known`); only a word not seen before is spelled out as a string and
   numbered in the caller's dict (50,000 at 19,630 papers).

The pairs are kept per chunk as runs (`Pairs`), 2 bytes a pair, and how often the text
uses the word (the sort puts a word's repeats side by side: their run is the count), 1 byte.

The pairs are exactly those of `set(tokens(text))` for each text (a property test holds
them to it over the whole of Unicode). numpy is imported when this runs, for a whole
list's build only (`index.BULK_MIN` papers or more).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate, repeat
from operator import add
from typing import Any

from rapidfuzz.utils import default_process

from ..process_tuning import load_numpy
from ..text.tokens import prepared

#: Digits per packed word: 37**12 < 2**64 (37 letters: none, 0-9, a-z).
PACKED = 12
_BASE = 37
#: Packed values are below this; a word numbered as a string is given this plus its number.
_STRING_WORD = _BASE**PACKED
_NON_ASCII = 37
_MASK64 = (1 << 64) - 1
#: Odd multipliers tried in turn until one hashes a chunk's distinct words apart (the first
#: nearly always does: 15,000 words in 53 bits).
_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x2545F4914F6CDD1D, 0x94D049BB133111EB)
#: Bytes of text per chunk: bounds the 64-bit temporaries (8 bytes per byte of text).
_CHUNK_BYTES = 1 << 20
#: Papers per chunk at most: their index within the chunk takes the keys' low bits.
#: 11 bits (2,048 papers; a megabyte of abstracts is 700) leave 53 for a word's value:
#: every word of up to 10 letters, where 12 bits left 9 (10-letter words are 6% of an
#: abstract's; a hashed word costs a sort more).
_DOC_BITS = 11


def _digit_table() -> bytes:
    """Byte -> digit, made from `default_process` itself so the two cannot disagree."""
    table = bytearray(256)
    for byte in range(128):
        char = default_process(chr(byte))
        if char:
            table[byte] = 1 + "0123456789abcdefghijklmnopqrstuvwxyz".index(char)
    for byte in range(128, 256):
        table[byte] = _NON_ASCII
    return bytes(table)


_DIGITS = _digit_table()
#: Digit -> its character, for reading a packed value back (0 as a space: a word's padding).
_LETTERS = b" 0123456789abcdefghijklmnopqrstuvwxyz"


def _tables(np: Any) -> tuple[Any, Any, Any, Any]:
    """Per word length L (0 to `PACKED`), what `_packed` needs: the masks keeping the
    word's bytes of its first and second 8-byte windows (min(L, 8) and L - 8 bytes), and
    the factors that turn each window's 8-digit value into the word's value (the first's
    times 37**(L - 8) past 8 digits, each divided by 37**(8 - its digits): exact, by the
    inverse of 37**k modulo 2**64, the value being a multiple)."""
    inverse = [pow(_BASE, -k, 1 << 64) for k in range(9)]
    first_mask, second_mask, first_factor, second_factor = [], [], [], []
    for length in range(PACKED + 1):
        first, second = min(length, 8), max(length - 8, 0)
        first_mask.append((1 << (8 * first)) - 1)
        second_mask.append((1 << (8 * second)) - 1)
        first_factor.append(inverse[8 - first] * _BASE**second & _MASK64)
        second_factor.append(inverse[8 - second])
    return tuple(np.array(t, dtype=np.uint64) for t in (first_mask, second_mask, first_factor, second_factor))


#: `_tables`, made with numpy when first needed
_TABLES: tuple[Any, Any, Any, Any] | None = None
#: Zero bytes after a chunk's digits: room for the 8-byte windows read from a word's start + 8.
_PAD = bytes(16)


def _value8(np: Any, x: Any) -> Any:
    """Each item's 8 bytes (little-endian: the first digit lowest) read as a base-37
    number of 8 digits, the first digit highest: pairs of digits, then pairs of those,
    then the two halves, combined within the 64 bits (SWAR), a few numpy passes in all."""
    pairs = np.bitwise_and(x, np.uint64(0x00FF00FF00FF00FF))
    pairs *= np.uint64(_BASE)
    x >>= np.uint64(8)
    x &= np.uint64(0x00FF00FF00FF00FF)
    pairs += x  # 16-bit lanes: digit 2i * 37 + digit 2i + 1
    quads = np.bitwise_and(pairs, np.uint64(0x0000FFFF0000FFFF))
    quads *= np.uint64(_BASE**2)
    pairs >>= np.uint64(16)
    pairs &= np.uint64(0x0000FFFF0000FFFF)
    quads += pairs  # 32-bit lanes: four digits each
    value = np.bitwise_and(quads, np.uint64(0xFFFFFFFF))
    value *= np.uint64(_BASE**4)
    quads >>= np.uint64(32)
    value += quads
    return value


def _packed(np: Any, data: bytes, starts: Any, ends: Any) -> Any:
    """Each word's digits read as a base-37 number (words of up to `PACKED` digits; a
    longer word gets some value, which the caller replaces).

    `data` is the chunk's digits, one byte each, followed by `_PAD`. Read as overlapping
    8-byte integers (a view with a stride of one byte, no copy), a word's first 8 digits
    are the integer at its start and the next ones the integer 8 bytes on: each masked
    to the word's length and read in base 37 (`_value8`), then put together by its
    length's factors (`_tables`). A few passes over the words, none over the chunk's bytes.
    """
    global _TABLES
    if _TABLES is None:
        _TABLES = _tables(np)
    first_mask, second_mask, first_factor, second_factor = _TABLES
    windows = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    lengths = ends - starts
    np.minimum(lengths, PACKED, out=lengths)
    first = windows[starts]
    first &= first_mask[lengths]
    value = _value8(np, first)
    value *= first_factor[lengths]
    longer = np.flatnonzero(lengths > 8)  # (a fifth of the words: the others have no second window)
    if len(longer):
        lengths = lengths[longer]
        second = windows[starts[longer] + 8]
        second &= second_mask[lengths]
        rest = _value8(np, second)
        rest *= second_factor[lengths]
        value[longer] += rest
    return value


class Pairs:
    """A field's distinct (word, text) pairs as `distinct_pairs` makes them, kept small:
    per chunk of texts its runs (a word's number, how many of the chunk's texts have it)
    and each pair's text as 16 bits within its chunk: about 2 bytes a pair, where word
    numbers and ordinals of 32 bits each took 8 (100 MB at 100,000 papers).

    `words[a:b]` and `ordinals[a:b]` give pairs a..b whole, as int64 numpy arrays: what
    `FlatPostings.of_pairs` reads, a chunk at a time. Each word's ordinals ascend. `counts`
    gives each pair's term frequency (at most 255), one byte a pair."""

    def __init__(self, np: Any) -> None:
        self._np = np
        self._run_words = array("I")
        self._run_sizes = array("I")
        self._local = array("H")
        self._counts = array("B")
        self._chunk_starts: list[int] = []  # the index of each chunk's first pair
        self._chunk_firsts: list[int] = []  # the ordinal of each chunk's first text
        self._chunk_runs: list[int] = []  # how many runs each chunk has
        self._run_ends: Any = None

    def _add(self, words: Any, sizes: Any, local: Any, counts: Any, first: int) -> None:
        self._chunk_starts.append(len(self._local))
        self._chunk_firsts.append(first)
        self._chunk_runs.append(len(words))
        self._run_words.frombytes(words.astype(self._np.uint32).tobytes())
        self._run_sizes.frombytes(sizes.astype(self._np.uint32).tobytes())
        self._local.frombytes(local.astype(self._np.uint16).tobytes())
        self._counts.frombytes(self._np.minimum(counts, 255).astype(self._np.uint8).tobytes())
        self._run_ends = None

    def __len__(self) -> int:
        return len(self._local)

    def runs(self) -> tuple[Any, Any, Any, Any]:
        """The pairs as runs, for `FlatPostings.of_runs`: each run's word number, its size
        and the ordinal its texts count from (its chunk's first), and every pair's text
        within its chunk (16 bits), run after run. No run has a word twice or spans more
        than a chunk of texts (within a slab of 2,048: never two segments of 65,536)."""
        np = self._np
        firsts = np.repeat(np.asarray(self._chunk_firsts, dtype=np.int64), self._chunk_runs)
        return (np.frombuffer(self._run_words, dtype=np.uint32), np.frombuffer(self._run_sizes, dtype=np.uint32),
                firsts, np.frombuffer(self._local, dtype=np.uint16))

    @property
    def counts(self) -> Any:
        """Each pair's term frequency (a numpy uint8 array, the pairs' order)."""
        return self._np.frombuffer(self._counts, dtype=self._np.uint8)

    @property
    def words(self) -> _Slicer:
        """Pairs' word numbers, by slice."""
        return _Slicer(self, self._words)

    @property
    def ordinals(self) -> _Slicer:
        """Pairs' text ordinals, by slice."""
        return _Slicer(self, self._ordinals)

    def _words(self, a: int, b: int) -> Any:
        np = self._np
        if self._run_ends is None:
            self._run_ends = np.cumsum(np.frombuffer(self._run_sizes, dtype=np.uint32), dtype=np.int64)
        ends = self._run_ends
        if b <= a:
            return np.zeros(0, dtype=np.int64)
        first, last = np.searchsorted(ends, [a, b - 1], side="right").tolist()
        sizes = np.diff(np.concatenate(([a], ends[first:last], [b])))
        return np.repeat(np.frombuffer(self._run_words, dtype=np.uint32)[first : last + 1].astype(np.int64), sizes)

    def _ordinals(self, a: int, b: int) -> Any:
        np = self._np
        found = np.frombuffer(self._local, dtype=np.uint16)[a:b].astype(np.int64)
        starts = self._chunk_starts
        for k in range(max(0, bisect_right(starts, a) - 1), bisect_left(starts, b)):
            end = starts[k + 1] if k + 1 < len(starts) else len(self._local)
            found[max(starts[k], a) - a : min(end, b) - a] += self._chunk_firsts[k]
        return found


class _Slicer:
    """`pairs.words` / `pairs.ordinals`: a slice of them as a numpy array."""

    __slots__ = ("_get", "_pairs")

    def __init__(self, pairs: Pairs, get: Callable[[int, int], Any]) -> None:
        self._pairs = pairs
        self._get = get

    def __len__(self) -> int:
        return len(self._pairs)

    def __getitem__(self, which: slice) -> Any:
        a, b, step = which.indices(len(self._pairs))
        if step != 1:
            raise ValueError("pairs are read by contiguous slices")
        return self._get(a, b)


def distinct_pairs(texts: Sequence[str | None], number: Callable[[str], int], first: int = 0) -> Pairs:
    """The distinct (word, text) pairs of `texts`, the words as `tokens` makes them and
    numbered by `number` (a dict's `__getitem__` that numbers new words, such as
    `defaultdict(count().__next__)`'s), the texts by ordinal from `first`. Each word's
    ordinals ascend, as `FlatPostings.of_pairs` needs (the pairs come a chunk of texts at
    a time, grouped by word within a chunk). A text may be None or empty."""
    np = load_numpy()

    known = _Known(np, number)
    pairs = Pairs(np)
    # a slab of texts encoded by one map (its papers fit the keys' low bits), then cut
    # into chunks of about _CHUNK_BYTES
    slab = 1 << _DOC_BITS
    for low in range(0, len(texts), slab):
        encoded = list(map(_encoded, texts[low : low + slab]))
        # where each text starts in its chunk's bytes, a space before each: offsets[k] - offsets[a] + 1
        offsets = list(accumulate(map(add, map(len, encoded), repeat(1)), initial=0))  # (C-level: no lambda per text)
        a = 0
        while a < len(encoded):
            b = max(a + 1, bisect_right(offsets, offsets[a] + _CHUNK_BYTES) - 1)
            found = _chunk_pairs(np, encoded[a:b], [at - offsets[a] + 1 for at in offsets[a:b]], known)
            if found is not None:
                pairs._add(*found, first + low + a)
            a = b
    return pairs


def _encoded(text: str | None) -> bytes:
    """A text's UTF-8 bytes once `tokens` has prepared it, and `default_process` has read
    a non-ASCII one (the byte table reads ASCII); most texts are ASCII without LaTeX,
    read as they are."""
    text = text or ""
    if "\\" in text or "{" in text or not text.isascii():
        text = prepared(text)
        if not text.isascii():
            text = default_process(text)
    return text.encode("utf-8", "surrogatepass")


def _chunk_pairs(
    np: Any, chunk: list[bytes], text_starts: list[int], known: _Known
) -> tuple[Any, Any, Any, Any] | None:
    """One chunk's distinct pairs (`_distinct`), or None."""
    # a space before each text and after the last, then the padding (room for `_packed`'s
    # windows; zero bytes, which read as spaces): one join, one translation
    data = b" ".join([b"", *chunk, _PAD])
    translated = data.translate(_DIGITS)
    digits = np.frombuffer(translated, dtype=np.uint8)
    # word edges: a space (digit 0) then a letter starts a word, a letter then a space ends one
    # (compared as booleans: numpy's flatnonzero is four times faster on a boolean array
    # than on np.diff's int8 one, 1 against 4 ms a chunk)
    in_word = digits != 0
    edges = np.flatnonzero(in_word[1:] != in_word[:-1])
    starts = edges[0::2] + 1
    ends = edges[1::2] + 1
    if not len(starts):
        return None
    # each word's text, by where the texts start
    per_text = np.diff(np.searchsorted(starts, text_starts).tolist() + [len(starts)])
    text_of = np.repeat(np.arange(len(chunk), dtype=np.uint64), per_text)
    # words numbered as strings: too long to pack, or holding a non-ASCII letter (rare)
    lengths = ends - starts
    as_string = lengths > PACKED
    wide = np.flatnonzero(digits == _NON_ASCII)
    plain = as_string.copy()  # (ASCII ones)
    if len(wide):
        wide = np.searchsorted(starts, wide, side="right") - 1
        as_string[wide] = True
        plain[wide] = False
    # An ASCII word of 13 to 24 letters is two packed halves, which say exactly which
    # word it is: only one of each distinct pair is spelled out (a chunk's 4,000 such
    # words are some 600 distinct ones)
    halves = np.flatnonzero(plain & (lengths <= 2 * PACKED))
    middle = starts[halves] + PACKED
    found = _packed(np, translated, np.concatenate((starts, starts[halves], middle)),
                    np.concatenate((ends, middle, ends[halves])))
    values = found[: len(starts)]
    if len(halves):
        first, second = found[len(starts) : len(starts) + len(halves)], found[len(starts) + len(halves) :]
        order = np.lexsort((second, first))
        first, second = first[order], second[order]
        new = np.concatenate(([True], (first[1:] != first[:-1]) | (second[1:] != second[:-1])))
        ones = halves[order[new]]
        numbered = _numbered(data, starts[ones], ends[ones], known)
        values[halves[order]] = numbered[np.cumsum(new) - 1]
        as_string[halves] = False
    spelled = np.flatnonzero(as_string)
    if len(spelled):
        values[spelled] = _numbered(data, starts[spelled], ends[spelled], known)
    return _distinct(np, values, text_of, known)


def _numbered(data: bytes, starts: Any, ends: Any, known: _Known) -> Any:
    """The words data[starts:ends] spelled out and numbered as strings (plus
    `_STRING_WORD`, above any packed value)."""
    np = known.np
    # `default_process` ran on every non-ASCII text already; an ASCII text's word only
    # needs lower case
    strings = [data[s:e].lower().decode("utf-8", "surrogatepass") for s, e in zip(starts.tolist(), ends.tolist())]
    numbered = np.fromiter(map(known.number, strings), dtype=np.uint64, count=len(strings))
    return numbered + np.uint64(_STRING_WORD)


def _distinct(np: Any, values: Any, text_of: Any, known: _Known) -> tuple[Any, Any, Any, Any]:
    """The distinct (value, text) pairs, grouped by word, texts ascending: the runs' word
    numbers, the runs' sizes, each pair's text and how many times the text has the pair.

    A word whose value leaves the keys' low bits free (below 2**53 at 2,048 texts a chunk:
    every word of up to 10 letters, 91% of them) and its text are one key as they are: one
    sort makes those pairs distinct, and their runs' words come out sorted, ready to look
    up. The others' values are hashed into the high bits (`_hashed`). Runs of the two
    kinds follow each other; a word's runs within a chunk are one either way."""
    exact = values < np.uint64(1 << (64 - _DOC_BITS))
    if bool(exact.all()):
        return _exact(np, values, text_of, known)
    if not exact.any():
        return _hashed(np, values, text_of, known)
    one = _exact(np, values[exact], text_of[exact], known)
    other = _hashed(np, values[~exact], text_of[~exact], known)
    return tuple(np.concatenate((a, b)) for a, b in zip(one, other))  # type: ignore[return-value]


def _exact(np: Any, values: Any, text_of: Any, known: _Known) -> tuple[Any, Any, Any, Any]:
    """`_distinct` of values below 2**(64 - _DOC_BITS): each pair one key, word above text."""
    keys = values << np.uint64(_DOC_BITS)
    keys |= text_of
    keys.sort()
    keys, counts = _counted(np, keys)
    texts = keys & np.uint64((1 << _DOC_BITS) - 1)
    keys >>= np.uint64(_DOC_BITS)  # the words' values, ascending
    runs = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    words = known.numbers(keys[runs])
    sizes = np.diff(np.append(runs, len(keys)))
    return words, sizes, texts, counts


def _counted(np: Any, keys: Any) -> tuple[Any, Any]:
    """Sorted `keys` made distinct, and how many times each was there."""
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[first], np.diff(np.append(first, len(keys)))


def _hashed(np: Any, values: Any, text_of: Any, known: _Known) -> tuple[Any, Any, Any, Any]:
    """`_distinct` of any values: each hashed into the keys' high bits by a multiplier
    checked to hash the chunk's distinct values apart, the text in the low bits."""
    distinct = np.sort(values)  # (np.unique hashes in numpy 2: several times slower)
    distinct = distinct[np.concatenate(([True], distinct[1:] != distinct[:-1]))]
    low = np.uint64((1 << _DOC_BITS) - 1)
    high = np.uint64(_MASK64 ^ ((1 << _DOC_BITS) - 1))
    for multiplier in _MULTIPLIERS:
        hashed = (distinct * np.uint64(multiplier)) & high
        order = np.argsort(hashed)
        ordered = hashed[order]
        if bool((ordered[1:] != ordered[:-1]).all()):
            break
    else:  # pragma: no cover - eight 54-bit hashes all colliding
        raise RuntimeError("no multiplier hashes these words apart")
    keys = (values * np.uint64(multiplier)) & high
    keys |= text_of
    keys.sort()
    keys, counts = _counted(np, keys)
    texts = keys & low
    word_of = keys & high
    runs = np.flatnonzero(np.concatenate(([True], word_of[1:] != word_of[:-1])))
    # the runs' hashes ascend, as `ordered` does: run k is the word distinct[order[k]]
    words = known.numbers(distinct)[order]
    sizes = np.diff(np.append(runs, len(keys)))
    return words, sizes, texts, counts


class _Known:
    """Word values seen in earlier chunks and their numbers, as two arrays sorted by value:
    a chunk's 15,000 distinct words are found by one `searchsorted`, and only the new
    ones spelled out and numbered."""

    def __init__(self, np: Any, number: Callable[[str], int]) -> None:
        self.np = np
        self.number = number
        self.values = np.zeros(0, dtype=np.uint64)
        self.numbers_ = np.zeros(0, dtype=np.uint32)

    def numbers(self, distinct: Any) -> Any:
        """The numbers of `distinct` (sorted word values)."""
        np = self.np
        values = self.values
        at = np.searchsorted(values, distinct)
        if len(values):
            seen = np.minimum(at, len(values) - 1)
            found = self.numbers_[seen]
            fresh = values[seen] != distinct  # (a value above them all meets the last one)
        else:
            found = np.zeros(len(distinct), dtype=np.uint32)
            fresh = np.ones(len(distinct), dtype=bool)
        if fresh.any():
            new = distinct[fresh]
            numbered = new - np.uint64(_STRING_WORD)  # the words numbered as strings already
            packed = new < np.uint64(_STRING_WORD)
            numbered[packed] = list(map(self.number, _spelled(np, new[packed])))
            numbered = numbered.astype(np.uint32)
            found[fresh] = numbered
            self.values = np.insert(values, at[fresh], new)
            self.numbers_ = np.insert(self.numbers_, at[fresh], numbered)
        return found


def _spelled(np: Any, values: Any) -> list[str]:
    """Packed values read back as words, in one pass for them all (a row of 12 digits
    and a space each, split at the spaces: no word is empty)."""
    packed = values.copy()
    digits = np.zeros((len(values), PACKED + 1), dtype=np.uint8)
    for place in range(PACKED - 1, -1, -1):
        packed, digits[:, place] = np.divmod(packed, np.uint64(_BASE))
    return np.frombuffer(_LETTERS, dtype=np.uint8)[digits].tobytes().decode("ascii").split()


__all__ = ["PACKED", "Pairs", "distinct_pairs"]
