"""The query side of `index.SearchIndex`: expanding a query word against the vocabulary
(prefixes, infixes, near words), matching tags and notes, phrases, combining the words'
values (AND, else OR) and the whole-query title re-rank. See `index` for the scheme."""

from __future__ import annotations

import math
import threading
from bisect import bisect_left
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from itertools import repeat
from typing import NamedTuple

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract
from rapidfuzz.utils import default_process

from ..text.display import search_texts
from ..text.tokens import fold, tokens

TITLE, META, ABSTRACT = 0, 1, 2
#: How much a match in each field is worth; tags and notes are matched at query time.
FIELD_WEIGHT = {TITLE: 4.0, META: 2.0, ABSTRACT: 1.0}
TAG_WEIGHT, NOTES_WEIGHT = 3.0, 2.5
EXACT, PREFIX, INFIX, FUZZY1, FUZZY2 = 1.0, 0.8, 0.7, 0.6, 0.45
#: Common words that say nothing about a paper: dropped unless the query has nothing else.
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it of on or the to via we with without".split()
)
_RERANK = 100  # how many leading hits the whole-query title match re-ranks
_CACHE_SIZE = 32

class _Expansion(NamedTuple):
    values: dict  # paper ordinal -> value of its best match for this word
    words: dict  # paper ordinal -> the vocabulary word behind that value



class Matching:
    """Query-time matching, mixed into `SearchIndex` (which owns the state it reads:
    postings, vocabulary, titles, records and the expansion cache)."""

    _ids: list[str]
    _records: list
    _post: tuple
    _titles: list[str]
    _vocab: list[str]
    _by_length: dict[int, list[str]]
    _title_vocab: list[str]
    _cache: OrderedDict
    _lock: threading.RLock

    def _rerank(self, ranked: list[int], scores: dict[int, float], text: str) -> None:
        """Add up to 2 points to the leading hits for a display title like the whole query."""
        head = ranked[:_RERANK]
        if not head or not text.strip():
            return
        text = fold(text).lower()
        for o in head:
            similarity = fuzz.WRatio(text, self._titles[o], processor=default_process)
            if similarity > 50:
                scores[o] += 2.0 * (similarity - 50) / 50
        head.sort(key=scores.__getitem__, reverse=True)
        ranked[: len(head)] = head

    def _match_word(self, word: str, tags: dict, notes: dict, last: bool = True) -> _Expansion:
        """The papers matching one query token, with values and matched words."""
        static = self._expand(word, last)
        dynamic: dict[int, tuple[float, str]] = {}

        def keep_best(o: int, value: float, matched: str) -> None:
            if value > dynamic.get(o, (0.0, ""))[0]:
                dynamic[o] = (value, matched)

        for o, paper_tags in tags.items():
            for tag in paper_tags:
                keep_best(o, TAG_WEIGHT * _quality(word, tag, inside=PREFIX, fuzzy_at=85), tag)
        for o, text in notes.items():
            keep_best(o, NOTES_WEIGHT * _quality(word, text, inside=EXACT, fuzzy_at=88), word)
        if not dynamic:
            return static
        values, words = dict(static.values), dict(static.words)
        for o, (value, matched) in dynamic.items():
            if value > values.get(o, 0.0):
                values[o] = value
                words[o] = matched
        return _Expansion(values, words)

    def _expand(self, word: str, last: bool = True) -> _Expansion:
        """The static (catalog) matches of one query token, cached (LRU).

        `last` says the word may still be being typed, so every completion counts;
        an earlier word that is itself in the vocabulary only takes its inflections
        (model -> models, modeling), which keeps common words cheap and on topic.
        """
        key = (word, last)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
        candidates: list[tuple[float, str]] = []  # (quality, vocabulary word)
        vocab = self._vocab
        df = self._df(word)
        if df:
            candidates.append((EXACT, word))
        if len(word) >= 3:
            start = bisect_left(vocab, word)
            end = bisect_left(vocab, word + "\U0010ffff", start)
            longest = 99 if last or not df else len(word) + 3
            candidates += [(PREFIX, v) for v in vocab[start:end] if v != word and len(v) <= longest]
        if len(word) >= 4:
            seen = {v for _, v in candidates}
            if df < 200:  # compound names (NorMuon); a common word's infixes are noise
                infix = [v for v in self._title_vocab if word in v and v not in seen]
                candidates += [(INFIX, v) for v in infix]
                seen.update(infix)
            if df < 3:  # a rare or unknown word is likely a typo: look for near words
                candidates += self._fuzzy(word, seen)
        n = max(len(self._ids), 2)
        # rare words weigh more, but only as typed: a rare completion or near word is
        # more likely noise than what the user meant
        bonus = 0.3 * max(math.log(n / (1 + df)) / math.log(n), 0.0)
        groups: dict[float, list] = defaultdict(list)  # value -> [(word, ordinals)]
        for quality, v in candidates:
            extra = bonus if v == word else 0.0
            for field, post in enumerate(self._post):
                if quality == INFIX and field != TITLE:
                    continue  # infix matches are for titles ("muon" in NorMuon) only
                ordinals = post.get(v)
                if ordinals:
                    groups[FIELD_WEIGHT[field] * (quality + extra)].append((v, ordinals))
        values: dict[int, float] = {}
        words: dict[int, str] = {}
        # ascending, so later updates leave each paper its best value
        for value in sorted(groups):
            for v, ordinals in groups[value]:
                words.update(zip(ordinals, repeat(v)))
                values.update(zip(ordinals, repeat(value)))
        expansion = _Expansion(values, words)
        with self._lock:
            self._cache[key] = expansion
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        return expansion

    def _fuzzy(self, word: str, seen: set[str]) -> list[tuple[float, str]]:
        """The nearest vocabulary words within 1 edit (2 for words of 8+ letters),
        transpositions counting as one edit. Only the nearest: "optimzer" means
        optimizer, not optimized."""
        max_edits = 1 if len(word) < 8 else 2
        found = []
        for length in range(len(word) - max_edits, len(word) + max_edits + 1):
            bucket = self._by_length.get(length)
            if bucket:
                hits = extract(word, bucket, scorer=OSA.distance, score_cutoff=max_edits, limit=None)
                found += [(distance, v) for v, distance, _ in hits if v not in seen]
        nearest = min((distance for distance, _ in found), default=0)
        return [(FUZZY1 if distance <= 1 else FUZZY2, v) for distance, v in found if distance == nearest]

    def _df(self, word: str) -> int:
        """How many papers use `word` in some field (an upper bound: fields overlap)."""
        return sum(len(post.get(word, ())) for post in self._post)

    def _phrase_matches(self, phrase: str, notes: dict) -> tuple[_Expansion, tuple[str, ...]]:
        """Papers whose title, notes, a keyword or author, or abstract contain `phrase`
        (whole words at its start, so `"linear atten"` finds "linear attention"), valued
        by field."""
        words = tokens(phrase)
        if not words:
            return _Expansion({}, {}), ()
        # the phrase may end mid-word ("linear atten"), so its last word is expanded
        candidates = set(self._expand(words[-1]).values)
        for w in words[:-1]:
            holders: set[int] = set()
            for post in self._post:
                holders.update(post.get(w, ()))
            candidates &= holders
        candidates.update(notes)
        needle = " " + " ".join(words)
        values = {}
        for o in candidates:
            record = self._records[o]
            if needle in " " + " ".join(tokens(self._titles[o])):
                values[o] = FIELD_WEIGHT[TITLE] * 1.5
            elif needle in " " + " ".join(tokens(notes.get(o, ""))):
                values[o] = NOTES_WEIGHT * 1.5
            elif needle in " " + " ".join(tokens(search_texts((*record.keywords, *record.authors)))):
                values[o] = FIELD_WEIGHT[META] * 1.5
            elif needle in " " + " ".join(tokens(record.abstract or "")):
                values[o] = FIELD_WEIGHT[ABSTRACT] * 1.5
        return _Expansion(values, dict.fromkeys(values, words[0])), tuple(words)


def _matched(*words: str) -> tuple[str, ...]:
    """The distinct non-empty matched words of one hit (phrases count as their words)."""
    found = [w for chunk in words if chunk for w in chunk.split(" ")]
    return tuple(dict.fromkeys(found)) if len(found) > 1 else tuple(found)


def _combine(matches: Sequence[_Expansion], allowed: set[int] | None) -> tuple[dict[int, float], bool]:
    """Sum the values of the allowed papers matching every word (AND), or, when none
    does, of those matching any (OR, `partial` True)."""
    by_size = sorted(matches, key=lambda m: len(m.values))
    common = by_size[0].values.keys()
    if allowed is not None:
        common = common & allowed
    for m in by_size[1:]:
        common = common & m.values.keys()
    if common or len(matches) == 1:
        first = by_size[0].values
        scores = {o: first[o] for o in common}
        for m in by_size[1:]:
            values = m.values
            scores = {o: s + values[o] for o, s in scores.items()}
        return scores, False
    scores: dict[int, float] = defaultdict(float)
    for m in matches:
        for o, v in m.values.items():
            if allowed is None or o in allowed:
                scores[o] += v
    return dict(scores), True


def _quality(word: str, text: str, *, inside: float, fuzzy_at: int) -> float:
    """How well `word` matches a tag or a note: EXACT when it is the whole text, `inside`
    when the text holds it, FUZZY1 when a word of 4+ letters is close enough (rapidfuzz's
    partial ratio at least `fuzzy_at`), else 0."""
    if word == text:
        return EXACT
    if word in text:
        return inside
    if len(word) >= 4 and fuzz.partial_ratio(word, text) >= fuzzy_at:
        return FUZZY1
    return 0.0
