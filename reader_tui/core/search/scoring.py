"""The query side of `index.SearchIndex`: expanding a query word against the vocabulary
(prefixes, infixes, near words), matching tags and notes, phrases, combining the words'
values (AND, else OR) and the whole-query title re-rank. See `index` for the scheme."""

from __future__ import annotations

import math
import threading
from bisect import bisect_left
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Sequence
from itertools import chain, compress, repeat
from operator import add, mul, or_, truediv
from typing import NamedTuple

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract
from rapidfuzz.utils import default_process

from ..text.display import search_texts
from ..text.doi import normalise_doi
from ..text.tokens import fold, tokens
from .acronyms import singular
from .postings import FlatPostings

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
_CACHE_SIZE = 32
#: ... holding at most this many times the list's papers in all: a common word or a short
#: prefix reaches most of the list, and each paper it reaches costs about 100 bytes (32 of
#: them held 35 MB more after a few searches at 19,630 papers, 300 MB at 100,000), while
#: a query typed needs its few words' expansions kept.
_CACHE_LISTS = 4

class _Expansion(NamedTuple):
    values: dict  # paper ordinal -> value of its best match for this word
    words: dict  # paper ordinal -> the vocabulary word behind that value



class Matching:
    """Query-time matching, mixed into `SearchIndex` (which owns the state it reads:
    postings, vocabulary, titles, records and the expansion cache)."""

    _ids: list[str]
    _records: list
    _post: tuple
    _tf: tuple
    _titles: list[str]
    _vocab: list[str]
    _by_length: dict[int, list[str]]
    _title_vocab: list[str]
    _cache: OrderedDict
    _lock: threading.RLock

    _acronyms: dict[str, tuple[str, ...]]
    _keys: dict[str, int] | None
    _keywords: dict[str, list[int]] | None
    _ordinal: dict[str, int]
    _removed: set[int]

    def _rerank(
        self, ranked: list[int], scores: dict[int, float], text: str, matches: Sequence[_Expansion] = (),
    ) -> None:
        """Re-rank the leading hits by what the postings cannot see: up to TITLE_LIKE for a
        display title like the whole query, up to SIDE_BY_SIDE for the query's words side
        by side (in the title or a keyword, else the abstract)."""
        head = ranked[:_RERANK]
        if not head or not text.strip():
            return
        text = fold(text).lower()
        for o in head:
            similarity = fuzz.WRatio(text, self._titles[o], processor=default_process)
            if similarity > 50:
                scores[o] += TITLE_LIKE * (similarity - 50) / 50
            if len(matches) > 1:
                scores[o] += SIDE_BY_SIDE * self._side_by_side(o, [m.words.get(o) for m in matches])
        head.sort(key=scores.__getitem__, reverse=True)
        ranked[: len(head)] = head

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
                    alias = _Expansion(dict(zip(base.values, map(mul, base.values.values(), repeat(scale)))), base.words)
                    matches[i] = _merge(matches[i], alias)
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
        return _Expansion({o: value[field] for o, field in found.items()}, dict.fromkeys(found, shown))

    def _keyword_papers(self, words: Sequence[str]) -> Sequence[int]:
        """The ordinals of the papers that list the words `words` (plurals folded) as one
        of their keywords, whole."""
        table = self._keywords
        if table is None:
            table = defaultdict(list)
            for o, r in enumerate(self._records):
                paper = getattr(r, "paper", r)  # a PaperView's own fields, not through __getattr__
                for keyword in paper.keywords:
                    # rapidfuzz's C preprocessing, as the tokeniser does for plain text
                    for part in keyword.replace(",", ";").split(";"):
                        key = " ".join(map(singular, default_process(part).split()))
                        if key and (not table[key] or table[key][-1] != o):
                            table[key].append(o)
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
        idf = BM25_SCALE * self._idf(len(static.values))
        tag_value = idf * TAG_WEIGHT * (K1 + 1) / (K1 + TAG_WEIGHT)
        notes_value = idf * NOTES_WEIGHT * (K1 + 1) / (K1 + NOTES_WEIGHT)
        for o, paper_tags in tags.items():
            for tag in paper_tags:
                keep_best(o, tag_value * _quality(word, tag, inside=PREFIX, fuzzy_at=85), tag)
        for o, text in notes.items():
            keep_best(o, notes_value * _quality(word, text, inside=EXACT, fuzzy_at=88), word)
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
        values: dict[int, float] = {}
        words: dict[int, str] = {}
        weights = self._field_weights()
        scored = []
        for quality, v in candidates:
            fields = [(field, ordinals) for field, post in enumerate(self._post)
                      if (quality != INFIX or field == TITLE) and (ordinals := post.get(v))]
            if fields:
                # BM25's idf of the vocabulary word, read off its largest field (the
                # fields overlap, so their sum would overcount a common word)
                idf = min(self._idf(max(len(ordinals) for _, ordinals in fields)), ceiling)
                scored.append((BM25_SCALE * quality * idf, v, fields))
        # ascending, so later updates leave each paper (nearly always) its best value
        scored.sort(key=lambda item: item[0])
        for scale, v, fields in scored:
            # BM25F: the word's term frequency in each field times the field's weight over
            # its length normalisation, summed over the fields, then saturated once (k1); every step
            # a C-level map, as a common word reaches most of the list
            tilde: dict[int, float] = {}
            for field, ordinals in fields:
                weighted = map(weights[field].__getitem__, ordinals)
                counts = self._counts(field, v)
                if counts is not None:
                    weighted = map(mul, weighted, counts)
                tilde.update(zip(ordinals, map(add, weighted, map(tilde.get, ordinals, repeat(0.0)))))
            keys = list(tilde)
            sums = list(tilde.values())
            saturated = map(truediv, map(mul, sums, repeat(scale * (K1 + 1))), map(add, sums, repeat(K1)))
            values.update(zip(keys, saturated))
            words.update(zip(keys, repeat(v)))
        expansion = _Expansion(values, words)
        with self._lock:
            self._cache[key] = expansion
            budget = _CACHE_LISTS * len(self._ids)
            while len(self._cache) > 1 and (
                len(self._cache) > _CACHE_SIZE or sum(len(e.values) for e in self._cache.values()) > budget
            ):
                self._cache.popitem(last=False)
        return expansion

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
            bucket = self._by_length.get(length)
            if bucket:
                hits = extract(word, bucket, scorer=OSA.distance, score_cutoff=max_edits, limit=None)
                found += [(distance, v) for v, distance, _ in hits if v not in seen]
        nearest = min((distance for distance, _ in found), default=0)
        near = [(FUZZY1 if distance <= 1 else FUZZY2, v) for distance, v in found if distance == nearest]
        # and their plurals: "netwrok" means networks as much as network
        plurals = [(quality, v + "s") for quality, v in near if self._df(v + "s") and v + "s" not in seen]
        return near + [p for p in plurals if p not in near]

    def _idf(self, df: int) -> float:
        """BM25's idf of a word that `df` of the papers hold."""
        n = max(len(self._ids), 2)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def _largest_df(self, word: str) -> int:
        """How many papers use `word` in the field that most use it in (BM25's df here)."""
        return max(len(post.get(word, ())) for post in self._post)

    def _df(self, word: str) -> int:
        """How many papers use `word` in some field (an upper bound: fields overlap)."""
        return sum(len(post.get(word, ())) for post in self._post)

    def _phrase_matches(self, phrase: str, notes: dict) -> tuple[_Expansion, tuple[str, ...]]:
        """Papers whose title, notes, a keyword or author, or abstract contain `phrase`
        (whole words at its start, so `"linear atten"` finds "linear attention"), valued
        in BM25F's units as a word that rare, once in the best field holding it."""
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
        weights = {o: w for o in candidates if (w := self._phrase_weight(o, needle, notes))}
        idf = BM25_SCALE * self._idf(len(weights))
        values = {o: idf * (K1 + 1) * w / (K1 + w) for o, w in weights.items()}
        return _Expansion(values, dict.fromkeys(values, words[0])), tuple(words)

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
    """One query word's expansion `a` widened by `b`: a paper in both keeps `a`'s value
    (dict unpacking keeps this in C; it runs over thousands of papers per keystroke)."""
    if not b.values:
        return a
    return _Expansion({**b.values, **a.values}, {**b.words, **a.words})


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


def _combine(
    matches: Sequence[_Expansion], allowed: set[int] | None, weights: Sequence[float] | None = None
) -> tuple[dict[int, float], bool, set[int], set[int]]:
    """Score the allowed papers by the sum of their words' values plus `COVERAGE` times
    the share of the query's words (weighted by `weights`, their rarity) they match.

    A paper must match `required_words` of the words; when none does, any paper matching
    one is listed (`partial` True). Returns the scores, `partial`, the papers that match
    every word and those that cover at least `COVERED` of the query (they rank first)."""
    n = len(matches)
    weights = list(weights) if weights is not None else [1.0] * n
    total = sum(weights) or 1.0
    by_size = sorted(range(n), key=lambda i: len(matches[i].values))
    common = matches[by_size[0]].values.keys()
    if allowed is not None:
        common = common & allowed
    for i in by_size[1:]:
        common = common & matches[i].values.keys()
    complete = set(common)
    needed = required_words(n)
    if needed == n and (common or n == 1):
        first = matches[by_size[0]].values
        scores = {o: first[o] for o in common}
        for i in by_size[1:]:
            values = matches[i].values
            scores = {o: s + values[o] for o, s in scores.items()}
        return {o: s + COVERAGE for o, s in scores.items()}, False, complete, complete
    # Every per-paper step below is a C-level map or count: a long query over common
    # words reaches most of the list (loops in Python cost 50 ms at 20,000 papers).
    if needed == 1:
        listed = _holding_rare_words(matches, weights, allowed)
        partial = False
    else:
        counts = Counter(chain.from_iterable(m.values.keys() for m in matches))
        if allowed is not None:
            counts = Counter({o: c for o, c in counts.items() if o in allowed})
        if needed < n:
            listed = _with_share(matches, weights, counts, needed, LISTED * total)
        else:
            listed = [o for o, c in counts.items() if c >= needed]
        partial = not listed
        if partial:
            listed = list(counts)
    sums, cover = _sums_and_cover(matches, weights, listed)
    bar = COVERED * total
    covered = set(compress(listed, map(bar.__le__, cover)))
    scale = COVERAGE / total
    return dict(zip(listed, map(add, sums, map(mul, cover, repeat(scale))))), partial, complete, covered


def _holding_rare_words(matches: Sequence[_Expansion], weights: Sequence[float], allowed: set[int] | None) -> list[int]:
    """The papers holding one of the rarer half of the words (by `weights`): what a text
    pasted lists. A paper with only its common words ranks too low to be its paper, and
    leaving them out spares a sum over most of the list (0.25 s for a TL;DR)."""
    median = sorted(weights, reverse=True)[(len(weights) - 1) // 2]
    listed = set().union(*(m.values.keys() for m, w in zip(matches, weights) if w >= median))
    return list(listed if allowed is None else listed & allowed)


def _words_for_share(weights: Sequence[float], share: float) -> int:
    """The fewest words whose weights reach `share`: the heaviest ones."""
    reached = 0.0
    for k, w in enumerate(sorted(weights, reverse=True), 1):
        reached += w
        if reached >= share:
            return k
    return len(weights)


def _with_share(
    matches: Sequence[_Expansion], weights: Sequence[float], counts: Counter, needed: int, share: float
) -> list[int]:
    """The papers with `needed` of the words, or with words of `share` of their weight."""
    # a paper with fewer words than the heaviest ones reaching `share` cannot have it
    fewest = _words_for_share(weights, share)
    if fewest >= needed:
        return [o for o, c in counts.items() if c >= needed]
    candidates = [o for o, c in counts.items() if c >= fewest]
    cover = _sums_and_cover(matches, weights, candidates)[1]
    return list(compress(candidates, map(or_, map(needed.__le__, map(counts.__getitem__, candidates)),
                                           map(share.__le__, cover))))


def _sums_and_cover(
    matches: Sequence[_Expansion], weights: Sequence[float], listed: list[int]
) -> tuple[list[float], list[float]]:
    """Per listed paper, the sum of its words' values and the weight of the words it has."""
    sums = [0.0] * len(listed)
    cover = [0.0] * len(listed)
    for m, w in zip(matches, weights):
        sums = list(map(add, sums, map(m.values.get, listed, repeat(0.0))))
        cover = list(map(add, cover, map(mul, map(m.values.__contains__, listed), repeat(w))))
    return sums, cover


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
