"""The query side of `index.SearchIndex`: expanding a query word against the vocabulary
(prefixes, infixes, near words), matching tags and notes, phrases, combining the words'
values (AND, else OR) and the whole-query title re-rank. See `index` for the scheme."""

from __future__ import annotations

import math
import threading
from array import array
from bisect import bisect_left
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract
from rapidfuzz.utils import default_process

from ..process_tuning import load_numpy
from ..text.display import search_texts
from ..text.doi import normalise_doi
from ..text.tokens import fold, tokens
from .acronyms import singular
from .postings import FlatPostings

if TYPE_CHECKING:
    import numpy as np

TITLE, META, ABSTRACT = 0, 1, 2
#: A tag's and a note's BM25F weight (they are matched at query time, as short fields).
TAG_WEIGHT, NOTES_WEIGHT = 3.0, 2.5
#: BM25F's saturation and length normalisation, and each field's weight in it (title and
#: short name 3, keywords and authors 3, abstract 1: the textbook's).
K1, B = 1.2, 0.75
BM25F_WEIGHT = {TITLE: 3.0, META: 3.0, ABSTRACT: 1.0}
#: BM25F's values in the units of the bonuses added to them (coverage, the re-rank's).
BM25_SCALE = 0.5
#: Added for a query that is one of the paper's own keywords, whole: the authors' word
#: for what the paper is about.
KEYWORD_BONUS = 2.0
#: The re-rank's most for a display title like the whole query, and for the query's
#: words side by side (in the title or a keyword; half that in the abstract).
TITLE_LIKE, SIDE_BY_SIDE = 2.0, 1.5
EXACT, PREFIX, INFIX, FUZZY1, FUZZY2 = 1.0, 0.8, 0.7, 0.6, 0.45
#: Common words that say nothing about a paper: dropped unless the query has nothing else.
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it of on or the to via we with without".split()
    # a possessive's s ("LLM's")
    + ["s"]
    # the words a question is made of: "does reinforcement learning really improve reasoning"
    + "does do did how what which why can could really truly actually whether this that these those".split()
)
#: Prefixes written joined or hyphenated ("pretraining", "pre-training"), longest first.
_PREFIXES = tuple(sorted(
    "pre post multi self semi non co re sub cross fine meta few zero test inter intra over under out".split(),
    key=len, reverse=True,
))
_RERANK = 100  # how many leading hits the whole-query title match re-ranks
#: Query words' expansions kept: each is two arrays over the whole list (12 bytes a paper:
#: 7.5 MB for 32 at 19,630 papers, 38 MB at 100,000), whatever the word reaches.
_CACHE_SIZE = 32


class _Expansion(NamedTuple):
    """One query word's matches, as arrays over every paper's ordinal: a whole list's worth
    of numbers, each step over them one numpy operation: a common word or a short prefix
    reaches most of the list, and a step per paper in Python costs 0.1-0.3 s a key at
    100,000 papers."""

    values: np.ndarray  # float64: the value of the paper's best match for this word, 0 for none
    which: np.ndarray  # int32: the index in `names` of the word behind that value
    names: tuple[str, ...]

    def holders(self) -> np.ndarray:
        """The ordinals of the papers it matches, ascending."""
        return load_numpy().flatnonzero(self.values)

    def size(self) -> int:
        """How many papers it matches."""
        return int(load_numpy().count_nonzero(self.values))

    def word(self, o: int) -> str | None:
        """The word paper `o` matched, or None."""
        return self.names[self.which[o]] if self.values[o] else None


def _held(np, post, word: str) -> np.ndarray | None:
    """The ordinals holding `word` in one field's postings (flat, or a dict of arrays that
    can grow), as a numpy array; None when none do."""
    if isinstance(post, FlatPostings):
        return post.ordinal_array(np, word)
    ordinals = post.get(word)
    return np.asarray(ordinals, dtype=np.int64) if ordinals else None


def _size(post, word: str) -> int:
    """How many papers hold `word` in one field's postings, with no list made."""
    return post.size(word) if isinstance(post, FlatPostings) else len(post.get(word, ()))


def _expansion_of(n: int, values: Mapping[int, float], words: Mapping[int, str]) -> _Expansion:
    """An `_Expansion` over `n` papers from per-ordinal values and words (a few papers)."""
    np = load_numpy()
    dense = np.zeros(n)
    which = np.zeros(n, dtype=np.int32)
    if values:
        ordinals = np.fromiter(values, dtype=np.int64, count=len(values))
        dense[ordinals] = np.fromiter(values.values(), dtype=np.float64, count=len(values))
        names = tuple(dict.fromkeys(words.values()))
        number = {name: k for k, name in enumerate(names)}
        which[ordinals] = np.fromiter((number[words[o]] for o in values), dtype=np.int32, count=len(values))
        return _Expansion(dense, which, names)
    return _Expansion(dense, which, ())



class Matching:
    """Query-time matching, mixed into `SearchIndex` (which owns the state it reads:
    postings, vocabulary, titles, records and the expansion cache)."""

    _ids: list[str]
    _records: list
    _post: tuple
    _tf: tuple
    _titles: list[str]
    _vocab: list[str]
    _by_length: dict[int, list[str]] | None
    _title_vocab: list[str]
    _cache: OrderedDict
    _lock: threading.RLock

    _acronyms: dict[str, tuple[str, ...]]
    _keys: dict[str, int] | None
    _keywords: dict[str, list[int]] | None
    _ordinal: dict[str, int]
    _removed: set[int]

    def _rerank(
        self, ranked: list[int], scores: np.ndarray, text: str, matches: Sequence[_Expansion] = (),
    ) -> None:
        """Re-rank the leading hits by what the postings cannot see: up to TITLE_LIKE for a
        display title like the whole query, up to SIDE_BY_SIDE for the query's words side
        by side (in the title or a keyword, else the abstract). `scores` is per ordinal."""
        head = ranked[:_RERANK]
        if not head or not text.strip():
            return
        text = fold(text).lower()
        head_scores = dict(zip(head, scores[head].tolist()))
        for o in head:
            similarity = fuzz.WRatio(text, self._titles[o], processor=default_process)
            if similarity > 50:
                head_scores[o] += TITLE_LIKE * (similarity - 50) / 50
            if len(matches) > 1:
                head_scores[o] += SIDE_BY_SIDE * self._side_by_side(o, [m.word(o) for m in matches])
        head.sort(key=head_scores.__getitem__, reverse=True)
        ranked[: len(head)] = head
        scores[head] = [head_scores[o] for o in head]

    def _side_by_side(self, o: int, found: list[str | None]) -> float:
        """The share of the query's neighbouring words (as `found` in paper `o`, in query
        order) that the paper has side by side: 1 a pair in its title or a keyword, half
        in its abstract."""
        if not any(found):
            return 0.0
        title = " " + self._titles[o] + " "
        # rapidfuzz's C preprocessing (lower case, punctuation to spaces), not the
        # tokeniser: ten times cheaper, and a stray accent only costs a bonus
        paper = getattr(self._records[o], "paper", self._records[o])
        abstract = f" {default_process(paper.abstract or '')} "
        # keywords apart (the spaces a separator leaves stop a pair across two)
        keywords = f" {default_process(' ; '.join(paper.keywords))} "
        near = 0.0
        for a, b in zip(found, found[1:]):
            if not a or not b:
                continue
            pair = f" {a} {b} "
            if pair in title or pair in keywords:
                near += 1.0
            elif pair in abstract:
                near += 0.5
        return near / (len(found) - 1)

    def _with_acronyms(self, words: list[str], matches: list[_Expansion]) -> list[_Expansion]:
        """Each word's matches widened by the corpus's acronyms, both ways: "rl" also
        matches papers that write "reinforcement learning", and the words "reinforcement
        learning" in a query also match papers that write "RL"."""
        matches = self._with_compounds(words, list(matches))
        acronyms = self._acronyms
        if not acronyms:
            return matches
        for i, word in enumerate(words):
            expansion = acronyms.get(word) or acronyms.get(singular(word))
            if expansion and len(expansion) > 1:
                matches[i] = _merge(matches[i], self._all_words(expansion, word))
        # spans of the query that spell an expansion: "large language models" -> llm
        spans = {}
        for acronym, expansion in acronyms.items():
            spans.setdefault(expansion, acronym)
        content = [singular(w) for w in words]
        for size in (2, 3, 4):
            for start in range(len(words) - size + 1):
                acronym = spans.get(tuple(content[start : start + size]))
                if acronym is None or acronym in words:
                    continue
                # a little below the words themselves ("DLM" may mean another model), and
                # no rarer than each: a rare acronym must not outweigh the words it spells
                base = self._expand(acronym, last=False)
                rarity = self._idf(self._largest_df(acronym))
                for i in range(start, start + size):
                    scale = 0.8 * min(1.0, self._idf(self._largest_df(words[i])) / rarity)
                    matches[i] = _merge(matches[i], base._replace(values=base.values * scale))
        return matches

    def _with_compounds(self, words: list[str], matches: list[_Expansion]) -> list[_Expansion]:
        """Hyphenation folded both ways: the words "pre training" (typed "pre-training")
        also match papers that write "pretraining", and "pretraining" also matches papers
        that write "pre-training" (a known prefix, then a word)."""
        vocab_has = self._df
        for i, (a, b) in enumerate(zip(words, words[1:])):
            joined = a + b
            if vocab_has(joined):
                alias = self._expand(joined, last=False)
                matches[i] = _merge(matches[i], alias)
                matches[i + 1] = _merge(matches[i + 1], alias)
        for i, word in enumerate(words):
            for prefix in _PREFIXES:
                rest = word[len(prefix):]
                if word.startswith(prefix) and len(rest) >= 3 and vocab_has(prefix) and vocab_has(rest):
                    # titles and keywords only: "over" and "smoothing" somewhere in an
                    # abstract say little about "over-smoothing"
                    matches[i] = _merge(matches[i], self._all_words((prefix, rest), word, (TITLE, META)))
                    break
        return matches

    def _all_words(self, words: Sequence[str], shown: str, fields: Sequence[int] = (TITLE, META, ABSTRACT)) -> _Expansion:
        """Papers holding every one of `words` in one of `fields`, valued in BM25F's units as
        the word `shown` (which they stand for) once in the best such field."""
        found: dict[int, int] = {}  # ordinal -> its best field
        for field in reversed(fields):  # (the best field, the title, last)
            post = self._post[field]
            common: set[int] | None = None
            for w in dict.fromkeys(words):
                holders = post.get(w) or post.get(w + "s")
                if not holders:
                    common = set()
                    break
                common = set(holders) if common is None else common.intersection(holders)
            found.update(dict.fromkeys(common or (), field))
        idf = self._idf(self._largest_df(shown) or len(found))
        value = {field: BM25_SCALE * idf * (K1 + 1) * w / (K1 + w) for field, w in BM25F_WEIGHT.items()}
        return _expansion_of(len(self._ids), {o: value[field] for o, field in found.items()}, dict.fromkeys(found, shown))

    def _keyword_papers(self, words: Sequence[str]) -> Sequence[int]:
        """The ordinals of the papers that list the words `words` (plurals folded) as one
        of their keywords, whole."""
        table = self._keywords
        if table is None:
            table = defaultdict(list)
            # a keyword's keys once per distinct keyword: thousands of papers share each
            keys_of: dict[str, list[str]] = {}
            for o, r in enumerate(self._records):
                paper = getattr(r, "paper", r)  # a PaperView's own fields, not through __getattr__
                for keyword in paper.keywords:
                    keys = keys_of.get(keyword)
                    if keys is None:
                        # rapidfuzz's C preprocessing, as the tokeniser does for plain text
                        parts = (" ".join(map(singular, default_process(part).split()))
                                 for part in keyword.replace(",", ";").split(";"))
                        keys = keys_of[keyword] = [key for key in parts if key]
                    for key in keys:
                        held = table[key]
                        if not held or held[-1] != o:
                            held.append(o)
            self._keywords = table = dict(table)
        return table.get(" ".join(map(singular, words)), ())

    def _named(self, query) -> int | None:
        """The ordinal of the paper the query names by its OpenReview id, DOI or
        citation key (typed alone, any case), or None."""
        if len(query.terms) != 1 or query.phrases:
            return None
        text = query.terms[0].strip()
        o = self._ordinal.get(text)
        if o is not None:
            return o
        if not any(c.isdigit() for c in text) or len(text) < 5:
            return None  # DOIs and citation keys have digits: spare the lookup table
        keys = self._keys
        if keys is None:
            keys = {}
            for o, r in enumerate(self._records):
                paper = getattr(r, "paper", r)  # a PaperView's own fields, not through __getattr__
                for key in (normalise_doi(paper.doi), r.citekey, *paper.aliases):
                    if key:
                        keys.setdefault(key.lower(), o)
            for pid, o in self._ordinal.items():
                keys.setdefault(pid.lower(), o)
            self._keys = keys
        text = normalise_doi(text)
        o = keys.get(text)
        return o if o is not None and o not in self._removed else None

    def _match_word(self, word: str, tags: dict, notes: dict, last: bool = True) -> _Expansion:
        """The papers matching one query token, with values and matched words."""
        static = self._expand(word, last)
        dynamic: dict[int, tuple[float, str]] = {}

        def keep_best(o: int, value: float, matched: str) -> None:
            if value > dynamic.get(o, (0.0, ""))[0]:
                dynamic[o] = (value, matched)

        # in BM25F's units: the word's idf, a tag or a note saturated as a short field
        idf = BM25_SCALE * self._idf(static.size())
        tag_value = idf * TAG_WEIGHT * (K1 + 1) / (K1 + TAG_WEIGHT)
        notes_value = idf * NOTES_WEIGHT * (K1 + 1) / (K1 + NOTES_WEIGHT)
        for o, paper_tags in tags.items():
            for tag in paper_tags:
                keep_best(o, tag_value * _quality(word, tag, inside=PREFIX, fuzzy_at=85), tag)
        for o, text in notes.items():
            keep_best(o, notes_value * _quality(word, text, inside=EXACT, fuzzy_at=88), word)
        dynamic = {o: found for o, found in dynamic.items() if found[0] > static.values[o]}
        if not dynamic:
            return static
        values, which, names = static.values.copy(), static.which.copy(), list(static.names)
        for o, (value, matched) in dynamic.items():
            values[o] = value
            which[o] = len(names)
            names.append(matched)
        return _Expansion(values, which, tuple(names))

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
        # a completion, near word or inflection is worth no more than the word as typed:
        # a rare one is more likely noise than what the user meant
        ceiling = self._idf(self._largest_df(word)) if df else math.inf
        one = singular(word)  # "models" finds "model" (and, as a prefix, "models" finds "model")
        if one != word and self._df(one):
            candidates.append((EXACT * 0.95, one))
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
        np = load_numpy()
        n = len(self._ids)
        weights = [np.frombuffer(w, dtype=np.float64) for w in self._field_weights()]
        scored = []
        for quality, v in candidates:
            fields = [(field, ordinals) for field, post in enumerate(self._post)
                      if (quality != INFIX or field == TITLE) and (ordinals := _held(np, post, v)) is not None]
            if fields:
                # BM25's idf of the vocabulary word, read off its largest field (the
                # fields overlap, so their sum would overcount a common word)
                idf = min(self._idf(max(len(ordinals) for _, ordinals in fields)), ceiling)
                scored.append((BM25_SCALE * quality * idf, v, fields))
        # ascending, so later ones leave each paper (nearly always) its best value
        scored.sort(key=lambda item: item[0])
        values = np.zeros(n)
        which = np.zeros(n, dtype=np.int32)
        tilde = np.zeros(n)
        for k, (scale, v, fields) in enumerate(scored):
            # BM25F: the word's term frequency in each field times the field's weight over
            # its length normalisation, summed over the fields, then saturated once (k1)
            if len(fields) == 1:
                field, held = fields[0]
                sums = weights[field][held] * self._frequencies(np, field, v)
            else:
                every = [ordinals for _, ordinals in fields]
                for (field, _), at in zip(fields, every):
                    tilde[at] += weights[field][at] * self._frequencies(np, field, v)
                # a rare word's few papers, or a scan of the whole list for a common one
                reach = sum(map(len, every))
                held = np.unique(np.concatenate(every)) if reach * 16 < n else np.flatnonzero(tilde)
                sums = tilde[held]
                tilde[held] = 0.0
            values[held] = sums * (scale * (K1 + 1)) / (sums + K1)
            which[held] = k
        expansion = _Expansion(values, which, tuple(v for _, v, _ in scored))
        with self._lock:
            self._cache[key] = expansion
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        return expansion

    def _frequencies(self, np, field: int, word: str):
        """How often each paper holding `word` in `field` uses it, in its postings' order
        (1 for all when the postings keep no counts)."""
        counts = self._counts(field, word)
        if counts is None:
            return 1.0
        return np.asarray(counts) if isinstance(counts, array) else np.asarray(counts, dtype=np.float64)

    def _counts(self, field: int, word: str) -> Sequence[int] | None:
        """How often each paper holding `word` in `field` uses it, in the order of its
        postings; None when every count is 1."""
        post = self._post[field]
        if isinstance(post, FlatPostings):
            return post.frequencies(word)
        return self._tf[field].get(word)

    def _fuzzy(self, word: str, seen: set[str]) -> list[tuple[float, str]]:
        """The nearest vocabulary words within 1 edit (2 for words of 8+ letters),
        transpositions counting as one edit. Only the nearest: "optimzer" means
        optimizer, not optimized."""
        max_edits = 1 if len(word) < 8 else 2
        found = []
        for length in range(len(word) - max_edits, len(word) + max_edits + 1):
            bucket = self._length_buckets().get(length)
            if bucket:
                hits = extract(word, bucket, scorer=OSA.distance, score_cutoff=max_edits, limit=None)
                found += [(distance, v) for v, distance, _ in hits if v not in seen]
        nearest = min((distance for distance, _ in found), default=0)
        near = [(FUZZY1 if distance <= 1 else FUZZY2, v) for distance, v in found if distance == nearest]
        # and their plurals: "netwrok" means networks as much as network
        plurals = [(quality, v + "s") for quality, v in near if self._df(v + "s") and v + "s" not in seen]
        return near + [p for p in plurals if p not in near]

    def _length_buckets(self) -> dict[int, list[str]]:
        """The vocabulary by word length, which the typo search looks in: made when first
        needed (a list that is opened and not searched goes without: 0.4 MB at 19,630)."""
        buckets = self._by_length
        if buckets is None:
            by_length: dict[int, list[str]] = defaultdict(list)
            for word in self._vocab:
                by_length[len(word)].append(word)
            self._by_length = buckets = dict(by_length)
        return buckets

    def _idf(self, df: int) -> float:
        """BM25's idf of a word that `df` of the papers hold."""
        n = max(len(self._ids), 2)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def _largest_df(self, word: str) -> int:
        """How many papers use `word` in the field that most use it in (BM25's df here)."""
        return max(_size(post, word) for post in self._post)

    def _df(self, word: str) -> int:
        """How many papers use `word` in some field (an upper bound: fields overlap)."""
        return sum(_size(post, word) for post in self._post)

    def _phrase_matches(self, phrase: str, notes: dict) -> tuple[_Expansion, tuple[str, ...]]:
        """Papers whose title, notes, a keyword or author, or abstract contain `phrase`
        (whole words at its start, so `"linear atten"` finds "linear attention"), valued
        in BM25F's units as a word that rare, once in the best field holding it."""
        words = tokens(phrase)
        if not words:
            return _expansion_of(len(self._ids), {}, {}), ()
        # the phrase may end mid-word ("linear atten"), so its last word is expanded
        candidates = set(self._expand(words[-1]).holders().tolist())
        for w in words[:-1]:
            holders: set[int] = set()
            for post in self._post:
                holders.update(post.get(w, ()))
            candidates &= holders
        candidates.update(notes)
        needle = " " + " ".join(words)
        weights = {o: w for o in candidates if (w := self._phrase_weight(o, needle, notes))}
        idf = BM25_SCALE * self._idf(len(weights))
        values = {o: idf * (K1 + 1) * w / (K1 + w) for o, w in weights.items()}
        return _expansion_of(len(self._ids), values, dict.fromkeys(values, words[0])), tuple(words)

    def _phrase_weight(self, o: int, needle: str, notes: dict) -> float:
        """The BM25F weight of the best field of paper `o` that holds `needle` (a phrase's
        tokens, a space before each), or 0."""
        record = self._records[o]
        if needle in " " + " ".join(tokens(self._titles[o])):
            return BM25F_WEIGHT[TITLE]
        if needle in " " + " ".join(tokens(notes.get(o, ""))):
            return NOTES_WEIGHT
        if needle in " " + " ".join(tokens(search_texts((*record.keywords, *record.authors)))):
            return BM25F_WEIGHT[META]
        if needle in " " + " ".join(tokens(record.abstract or "")):
            return BM25F_WEIGHT[ABSTRACT]
        return 0.0


def _merge(a: _Expansion, b: _Expansion) -> _Expansion:
    """One query word's expansion `a` widened by `b`: a paper in both keeps `a`'s value."""
    np = load_numpy()
    from_b = (a.values == 0) & (b.values != 0)
    if not from_b.any():
        return a
    return _Expansion(np.where(from_b, b.values, a.values), np.where(from_b, b.which + len(a.names), a.which),
                      a.names + b.names)


def _matched(*words: str) -> tuple[str, ...]:
    """The distinct non-empty matched words of one hit (phrases count as their words)."""
    found = [w for chunk in words if chunk for w in chunk.split(" ")]
    return tuple(dict.fromkeys(found)) if len(found) > 1 else tuple(found)


#: How much covering every query word is worth, over the sum of the words' values: a
#: paper missing a word loses that word's share (by rarity) of it.
COVERAGE = 12.0


#: The share of the query (by rarity) a paper must cover to rank with those that cover it
#: all: a long query's common word ("really") may be missing.
COVERED = 0.85

#: The share of a long query (by rarity) that lists a paper with fewer than
#: `required_words`: a pasted TL;DR paraphrases its paper, which then holds its rare words
#: but not the common ones around them.
LISTED = 0.5


#: From this many words on, a query is a text pasted (a TL;DR, a sentence of an abstract):
#: its paper paraphrases it, so any of its rarer words lists a paper, and the rank decides.
PASTED = 7


def required_words(n: int) -> int:
    """How many of `n` query words a paper must match to be listed: all of up to three,
    most of a longer query (a sentence typed as a question has words no paper needs), one
    of a pasted text (`PASTED`: one of its rarer half, see `_combine`)."""
    if n >= PASTED:
        return 1
    return n if n <= 3 else math.ceil(0.6 * n)


class Combined(NamedTuple):
    """The query's words combined: per ordinal, each listed paper's score, and which papers
    are listed, match every word, and cover at least `COVERED` of the query."""

    scores: np.ndarray
    listed: np.ndarray
    complete: np.ndarray
    covered: np.ndarray
    partial: bool


def _combine(matches: Sequence[_Expansion], allowed: np.ndarray | None, weights: Sequence[float] | None = None) -> Combined:
    """Score the allowed papers (a mask over the ordinals; None: all) by the sum of their
    words' values plus `COVERAGE` times the share of the query's words (weighted by
    `weights`, their rarity) they match.

    A paper must match `required_words` of the words; when none does, any paper matching
    one is listed (`partial` True). The papers that match every word and those that cover
    at least `COVERED` of the query rank first."""
    np = load_numpy()
    n = len(matches)
    weights = list(weights) if weights is not None else [1.0] * n
    total = sum(weights) or 1.0
    present = [m.values != 0 for m in matches]
    complete = np.logical_and.reduce(present) if n > 1 else present[0].copy()
    if allowed is not None:
        complete &= allowed
    needed = required_words(n)
    if needed == n and (complete.any() or n == 1):
        scores = np.add.reduce([m.values for m in matches]) + COVERAGE if n > 1 else matches[0].values + COVERAGE
        return Combined(np.where(complete, scores, 0.0), complete, complete, complete, False)
    partial = False
    cover = _cover(present, weights)
    if needed == 1:
        listed = _holding_rare_words(present, weights)
    else:
        counts = np.add.reduce([p.astype(np.int8) for p in present])
        if needed < n:
            listed = _with_share(weights, counts, cover, needed, LISTED * total)
        else:
            listed = counts >= needed
        if allowed is not None:
            listed &= allowed
        partial = not listed.any()
        if partial:
            listed = counts > 0
    if allowed is not None:
        listed &= allowed
    sums = np.add.reduce([np.where(listed, m.values, 0.0) for m in matches])
    covered = listed & (cover >= COVERED * total)
    return Combined(np.where(listed, sums + cover * (COVERAGE / total), 0.0), listed, complete, covered, partial)


def _cover(present: Sequence[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """Per ordinal, the weight of the query's words the paper has."""
    np = load_numpy()
    return np.add.reduce([p * w for p, w in zip(present, weights)])


def _holding_rare_words(present: Sequence[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """The papers holding one of the rarer half of the words (by `weights`): what a text
    pasted lists. A paper with only its common words ranks too low to be its paper, and
    leaving them out spares a sum over most of the list."""
    np = load_numpy()
    median = sorted(weights, reverse=True)[(len(weights) - 1) // 2]
    return np.logical_or.reduce([p for p, w in zip(present, weights) if w >= median])


def _words_for_share(weights: Sequence[float], share: float) -> int:
    """The fewest words whose weights reach `share`: the heaviest ones."""
    reached = 0.0
    for k, w in enumerate(sorted(weights, reverse=True), 1):
        reached += w
        if reached >= share:
            return k
    return len(weights)


def _with_share(weights: Sequence[float], counts: np.ndarray, cover: np.ndarray, needed: int, share: float) -> np.ndarray:
    """The papers with `needed` of the words (`counts`), or with words of `share` of their
    weight (`cover`)."""
    # a paper with fewer words than the heaviest ones reaching `share` cannot have it
    fewest = _words_for_share(weights, share)
    if fewest >= needed:
        return counts >= needed
    return (counts >= fewest) & ((counts >= needed) | (cover >= share))


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
