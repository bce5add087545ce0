"""The search index's postings as loaded from its cache: one flat array per field.

While an index is built, each field maps a word to an `array` of the ordinals of the
papers that use it (`defaultdict(array)`), which is what appending wants. Loaded from
its cache, an index is only read, and 70,000 small arrays (one per word and field, each
with its header and spare room) and their words cost some 23 MB at 20,000 papers for
12 MB of ordinals. `FlatPostings` keeps one field as two arrays over the index's sorted
vocabulary, which it shares: word `vocab[i]`'s ordinals are `flat[starts[i]:starts[i + 1]]`
(empty for a word the field lacks). A word is found by bisection; a lookup returns a
fresh array, as the dict did. `thaw` gives the dict back, for an index that grows again
(an import into the running app).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from itertools import compress
from operator import ne


class FlatPostings(Mapping[str, array]):
    """word -> ordinals (ascending) of one field, read-only, over a sorted vocabulary."""

    __slots__ = ("_flat", "_starts", "_vocab")

    def __init__(self, vocab: list[str], starts: array, flat: array) -> None:
        if len(starts) != len(vocab) + 1 or (starts and starts[-1] != len(flat)):
            raise ValueError("the postings do not line up with the vocabulary")
        self._vocab = vocab
        self._starts = starts
        self._flat = flat

    @classmethod
    def of(cls, vocab: list[str], postings: Mapping[str, array]) -> FlatPostings:
        """The postings of one field (a word -> ordinals mapping whose words are all in
        `vocab`, sorted) made flat."""
        flat = array("I")
        starts = array("I", [0])
        get = postings.get
        for word in vocab:
            ordinals = get(word)
            if ordinals:
                flat.extend(ordinals)
            starts.append(len(flat))
        return cls(vocab, starts, flat)

    def _place(self, word: str) -> tuple[int, int]:
        vocab = self._vocab
        i = bisect_left(vocab, word)
        if i < len(vocab) and vocab[i] == word:
            return self._starts[i], self._starts[i + 1]
        return 0, 0

    def get(self, word: str, default=None):  # type: ignore[override]
        start, end = self._place(word)
        return self._flat[start:end] if start != end else default

    def __getitem__(self, word: str) -> array:
        start, end = self._place(word)
        if start == end:
            raise KeyError(word)
        return self._flat[start:end]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        start, end = self._place(word)
        return start != end

    def __iter__(self) -> Iterator[str]:
        """The field's words, in the vocabulary's (sorted) order."""
        starts = self._starts
        return compress(self._vocab, map(ne, starts, starts[1:]))

    def __len__(self) -> int:
        starts = self._starts
        return sum(map(ne, starts, starts[1:]))

    @property
    def arrays(self) -> tuple[array, array]:
        """(starts, flat): what the cache stores."""
        return self._starts, self._flat

    def thaw(self, order: Iterable[str] | None = None) -> defaultdict[str, array]:
        """The same postings as a word -> array dict that can grow, its words in `order`
        (the title words' first-seen order, which the infix search goes by) or sorted."""
        thawed: defaultdict[str, array] = defaultdict(partial(array, "I"))
        for word in self if order is None else order:
            ordinals = self.get(word)
            if ordinals is not None:
                thawed[word] = ordinals
        return thawed


__all__ = ["FlatPostings"]
