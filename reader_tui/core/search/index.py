"""Ranked, typo-tolerant search over a paper list, fast enough to run per keystroke.

How a query runs (`SearchIndex.search`):

1. Each free word is tokenised like the papers and every token is *expanded* against
   the vocabulary: itself, words it starts ("atten" -> attention), title words that
   contain it ("muon" -> normuon), and, for words of 4+ letters that are rare or absent
   (typos), words within 1-2 edits ("attenton" -> attention). Expansions are cached,
   since typing extends the query one key at a time.
2. The postings of the expansions give, per word, the papers it matches and a value:
   BM25F's (the word's term frequency in each field, weighted by field, title and short
   name 3, keywords and authors 3, abstract 1, over the field's length normalisation,
   summed and saturated, times the word's idf) times match quality (exact 1 > prefix >
   infix > fuzzy). Tags and notes change often, so they are matched at query time by
   substring and rapidfuzz over the few papers that have any, valued as a short field.
   A word that is an acronym the abstracts define ("reinforcement learning (RL)",
   `acronyms`) also matches papers holding its expansion, and words of the query that
   spell an expansion also match the acronym; a plural also matches its singular, and
   hyphenation is folded ("pre training" finds "pretraining", "pretraining" finds
   "pre-training" in titles and keywords).
3. Coverage, not all-or-any: a paper's score is the sum of its words' values plus
   `COVERAGE` times the share of the query's words it has, each word weighted by its
   rarity (idf), so a long question's common words count little. Queries of up to three
   words need every word; longer ones most of them (`required_words`), or their rarest
   ones (`LISTED` of the query by rarity), and a text pasted (`PASTED` words or more: a
   TL;DR, whose paper paraphrases it) any of them. Papers covering
   the query (`COVERED`) rank first. `SearchResult.complete` says how many hits have every
   word, `partial` that none has (the best partial matches are listed instead, so a
   stray word never empties the list).
4. The best hundred are re-ranked by what the postings cannot see: how well the display
   title matches the whole query (rapidfuzz WRatio, so "conformal singleton" puts
   "Singleton-Optimized Conformal Prediction" first), query words side by side in the
   title or abstract (a phrase or proximity bonus). Ties never fall to id order: the better-rated paper, then the shorter title, first.
5. An OpenReview id, DOI or citation key typed alone puts that paper first
   (`SearchResult.found`).

Filters, phrases and exclusions narrow the result (a phrase no paper holds counts as its
words instead); a query of filters only keeps the
list's own order (score 0). The review fields (`rating:`, `reviews:`, `spread:`, `area:`,
`decision:`, `is:withdrawn`) read columns taken from each record's `scores`, `area` and
`withdrawn` when the index is built or loaded (never cached: a review import changes
them without changing the texts). Ranked results put withdrawn submissions last unless
the query asks for them (`is:withdrawn`); one that covers the query still comes before
the papers that do not.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import chain, count, filterfalse, islice, repeat
from types import SimpleNamespace
from typing import Any, NamedTuple

from ..model import PaperView, Status, has_conflict
from ..process_tuning import bulk_allocations, gc_paused, load_numpy, release_free_memory
from ..reviews import decision_tier
from ..text.display import search_text, search_texts, to_display
from ..text.tokens import fold, tokens
from .acronyms import mine as mine_acronyms
from .postings import FlatPostings
from .query import Query, in_bounds, number_bounds, parse_query, year_bounds
from .scoring import (
    ABSTRACT,
    BM25F_WEIGHT,
    EXACT,
    FUZZY1,
    FUZZY2,
    INFIX,
    KEYWORD_BONUS,
    META,
    NOTES_WEIGHT,
    PREFIX,
    STOPWORDS,
    TAG_WEIGHT,
    TITLE,
    B,
    Matching,
    _combine,
    _Expansion,
    _matched,
)

#: the field weights and match qualities stay importable from here, where the scheme is told
__all__ = [
    "ABSTRACT", "EXACT", "FUZZY1", "FUZZY2", "INFIX", "META", "NOTES_WEIGHT", "PREFIX",
    "STOPWORDS", "TAG_WEIGHT", "TITLE", "Hit", "SearchIndex", "SearchResult", "tokens",
]


def tag_keys(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags as search matches them: lower case, accents folded."""
    return tuple(fold(t).lower() for t in tags)


def notes_key(notes: str) -> str:
    """Notes as search matches them: lower case, accents folded."""
    return fold(notes).lower()


@lru_cache(maxsize=4096)  # a list has few venues, each repeated thousands of times
def venue_key(venue: str | None) -> str:
    """A venue as `venue:` matches it: its display text, lower case, accents folded."""
    return fold(to_display(venue or "")).lower()


_NAN = float("nan")


def _moved(scores: Any, ratings: tuple[int, ...]) -> float:
    """How far the mean rating moved since the capture before (`Scores.previous`), NaN
    when it did not (no earlier ratings, or the same mean)."""
    previous = scores.previous if scores is not None and ratings else ()
    if not previous:
        return _NAN
    change = sum(ratings) / len(ratings) - sum(previous) / len(previous)
    return change if abs(change) > 1e-9 else _NAN
#: From this many papers on, a whole list is indexed at once with numpy (`_build_all`, and
#: `_index_all_abstracts` for the abstracts after a titles-only build); fewer are appended
#: one by one (no numpy to import: the TUI builds such a list in its own thread).
BULK_MIN = 2000
_AREA_STOPWORDS = frozenset({"and", "or", "of", "to", "for", "the", "in", "on", "other", "e", "g", "eg", "etc", "including"})


@lru_cache(maxsize=4096)
def area_matches(query: str, area: str) -> bool:
    """Whether `area:query` matches the primary area `area`, forgivingly: the query's
    text inside the area's, or each of its words the start of one of the area's words
    ("interp" in "interpretability and explainable AI"), or the initials of the area's
    words ("rl" for "reinforcement learning"), or each word within a typo of one of the
    area's (`interpretabilty`). Case and accents do not matter."""
    from rapidfuzz.distance import Levenshtein

    q = fold(query).lower().strip()
    a = fold(area).lower()
    if not q or not a:
        return False
    if q in a:
        return True
    words = [w for w in tokens(a) if w not in _AREA_STOPWORDS]
    initials = "".join(w[0] for w in words)
    wanted = [w for w in tokens(q) if w not in _AREA_STOPWORDS] or tokens(q)
    if len(wanted) == 1 and len(wanted[0]) >= 2 and initials.startswith(wanted[0]):
        return True

    def near(w: str) -> bool:
        if any(x.startswith(w) for x in words):
            return True
        if len(w) < 5:
            return False
        limit = 1 if len(w) < 8 else 2
        return any(Levenshtein.distance(w, x[: len(w) + limit], score_cutoff=limit) <= limit for x in words)

    return bool(wanted) and all(near(w) for w in wanted)


class _Head(NamedTuple):
    """What `_append` gives a whole list's build of the titles and meta fields: the title
    words' numbers paper by paper (each title's distinct words, as first seen), how often
    the title has each, and how many each paper has, how many title words there are
    (numbered first, in the order first seen), and the meta field's pairs (`word_pairs.Pairs`)."""

    title_pairs: array
    title_counts: array
    title_sizes: array
    title_words: int
    meta: Any


def _laid_out(vocab: list[str], place: dict[str, int], words: list[str], pairs: Any, papers: int, ranks: Any) -> Any:
    """A field's `word_pairs.Pairs` laid out flat: by their runs (`FlatPostings.of_runs`),
    or pair by pair where a run spans two segments."""
    flat = FlatPostings.of_runs(vocab, ranks, *pairs.runs(), papers, counts=pairs.counts)
    if flat is None:
        flat = FlatPostings.of_pairs(vocab, place, words, pairs.words, papers, ordinals=pairs.ordinals, ranks=ranks,
                                     counts=pairs.counts)
    return flat


#: Runs an iterator to its end in C (a map of appends)
_consume = deque(maxlen=0).extend


def _append_counted(post: defaultdict[str, array], tf: defaultdict[str, array], words: list[str], o: int) -> None:
    """Add paper `o` to the postings of each of its distinct `words` (in first-seen order),
    and how often it uses each beside (255 at most: what a byte holds)."""
    distinct = dict.fromkeys(words)
    # map(append, ...) keeps the per-word loop in C
    _consume(map(array.append, map(post.__getitem__, distinct), repeat(o)))
    if len(distinct) == len(words):  # (most titles and keywords: no Counter to make)
        counts: Iterable[int] = repeat(1, len(distinct))
    else:
        counted = Counter(words)
        counts = map(min, map(counted.__getitem__, distinct), repeat(255))
    _consume(map(array.append, map(tf.__getitem__, distinct), counts))


class Hit(NamedTuple):
    """One search result: the paper id, its score (0 for filter-only queries) and the
    vocabulary words that matched, one per query word, for highlighting."""

    id: str
    score: float
    matched: tuple[str, ...]


#: A Hit made from an (id, score, matched) tuple in C (a NamedTuple's own __new__ is Python:
#: 40,000 hits of a common word at 100,000 papers took 50 ms to make that way)
_make_hit = partial(tuple.__new__, Hit)


def _digits(number: int, bases: list[int]) -> list[int]:
    """The digits of `number` in the mixed radix `bases` (most significant first), each
    less one: the column values (-1 for none) it was made from."""
    digits = []
    for base in reversed(bases):
        number, digit = divmod(number, base)
        digits.append(digit - 1)
    return digits[::-1]


def _mask(np, n: int, ordinals) -> Any:
    """A boolean array over `n` ordinals, True at `ordinals` (a set)."""
    mask = np.zeros(n, dtype=bool)
    if ordinals:
        mask[_ordinals(np, ordinals)] = True
    return mask


def _ordinals(np, ordinals) -> Any:
    """A set of ordinals as an array, for numpy's indexing."""
    return np.fromiter(ordinals, dtype=np.int64, count=len(ordinals))


@dataclass(slots=True)
class Ranking:
    """A search's answer as columns, best first: each hit's id, score and matched words
    (one tuple object per distinct combination), and what `SearchResult` says of them."""

    ids: list[str]
    scores: list[float]
    matched: list[tuple[str, ...]]
    partial: bool = False
    complete: int = 0
    found: str | None = None
    whole: list[bool] | None = None
    """Per hit, whether it has every word (None: all do)."""


class SearchResult(list):
    """The hits, best first. `partial` is True when no paper matched every word and
    these are the best partial matches instead; `complete` is how many of the hits match
    every word (the others match most of a long query's words: see `scoring.required_words`);
    `found` is the id of a paper the query named (its id, DOI or citation key), listed first."""

    partial: bool = False
    complete: int = 0
    found: str | None = None


APPEND_SLICE = 4096
"""Papers whose titles `_append` tokenises at a time (see there)."""


class SearchIndex(Matching):
    """A token index of a paper list; build with `SearchIndex.build(records)`.

    Records need id, title, short_name, abstract, authors, keywords, venue, year and the
    annotation fields status, tags, notes (`model.PaperView` has them all). Searching is
    safe from a worker thread while `update` runs on another.
    """

    #: A reading group's marks (`core.library.group.GroupMarks`: `.members`, name -> paper
    #: id -> annotation) for `by:`, `group:` and `is:group-*`; set by whoever loads the
    #: index of a synced library (`indexing.search_index`), none otherwise.
    group: Any = SimpleNamespace(members={})

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._ordinal: dict[str, int] = {}
        self._records: list = []
        self._removed: set[int] = set()
        # token -> ordinals, one map per field. Arrays, not lists: millions of list items
        # would make every full garbage collection of the app walk them (0.5 s seen)
        self._post = tuple(defaultdict(partial(array, "I")) for _ in range(3))
        # beside each growing field's ordinals, how often the paper uses the word (BM25's
        # term frequency; flat postings hold their own)
        self._tf = tuple(defaultdict(partial(array, "B")) for _ in range(3))
        self._titles: list[str] = []  # title + short name as their tokens, for the re-rank and phrases
        self._years: dict[int | None, list[int]] = defaultdict(list)
        self._venues: dict[str, list[int]] = defaultdict(list)
        self._status: list[Status] = []
        # review columns, by ordinal: mean rating, spread (NaN without ratings), number of
        # reviews; ordinals by primary area and by decision tier (arrays: lists of ints
        # were 4 MB at 100,000 papers, an int object each); withdrawn ordinals
        self._rating = array("d")
        self._spread = array("d")
        self._nreviews = array("I")
        self._moved = array("d")  # mean rating now less the capture's before (NaN: never moved)
        self._areas: dict[str, array] = defaultdict(partial(array, "I"))
        self._decisions: dict[str, array] = defaultdict(partial(array, "I"))
        self._withdrawn: set[int] = set()
        self._tags: dict[int, tuple[str, ...]] = {}  # only papers with tags (lower case)
        self._notes: dict[int, str] = {}  # only papers with notes (lower case)
        self._vocab: list[str] = []
        self._by_length: dict[int, list[str]] | None = None  # (made at the first typo: `_length_buckets`)
        self._title_vocab: list[str] = []
        self._abstracts_done = 0  # abstracts of ordinals below this are indexed
        #: A search that needs the abstracts indexes them first, unless this is turned off
        #: because another process is indexing them (it then searches the other fields).
        self.index_abstracts_on_search = True
        self._cache: OrderedDict[str, _Expansion] = OrderedDict()
        self._lock = threading.RLock()
        #: acronym -> the words of its expansion, as the abstracts define them (`acronyms`)
        self._acronyms: dict[str, tuple[str, ...]] = {}
        self._keys: dict[str, int] | None = None  # DOI / citation key / alias -> ordinal, made on first need
        self._keywords: dict[str, list[int]] | None = None  # keyword -> ordinals, made on first need
        self._prior: array | None = None  # tie breaks by ordinal (`_tie_breaks`)
        self._weights: tuple[array, array, array] | None = None  # BM25F's, by field and ordinal

    # -- building -------------------------------------------------------------------

    @classmethod
    def build(cls, records: Iterable, *, abstracts: bool = True) -> SearchIndex:
        """Index `records` (in list order, which filter-only queries keep).

        Tokenising abstracts is most of the work (3.8 million words at 20,000 papers:
        1.2-2 s of CPU word by word in Python on a slow 2-core machine). A list of
        `BULK_MIN` papers or more is built at once (`_build_all`): the abstracts, keywords
        and authors tokenised a chunk of texts at a time with numpy into their distinct
        (word, paper) pairs (`word_pairs`: a string made only per distinct word of a
        chunk, not per word), every word numbered in one dict, each field's postings laid
        out flat with numpy (`FlatPostings.of_runs` for the abstracts and meta fields,
        whose pairs come as runs; `of_pairs` for the titles), no pair appended. Titles are
        still tokenised one by one (the re-rank keeps each title's words), their words
        numbered in one pass. The build runs in this process alone: nobody waits for a
        cold build (an import leaves it to a background `reader-tui index`, and the TUI
        searches titles meanwhile: `indexing.provide_indexes`), so a second process would
        buy nothing a user sees. With `abstracts=False` the abstracts are left to
        `index_abstracts()`, which an app can run in a worker right after start-up; a
        search that needs abstracts before that runs it first.
        """
        index = cls()
        with gc_paused():
            if abstracts:
                records = records if isinstance(records, list) else list(records)
            if abstracts and len(records) >= BULK_MIN:
                index._build_all(records)
            else:
                index._append(records, refresh=not abstracts)
                if abstracts:
                    index.index_abstracts()
        return index

    @property
    def abstracts_indexed(self) -> bool:
        """True once every abstract is in the token index."""
        return self._abstracts_done == len(self._ids)

    def index_abstracts(self) -> None:
        """Tokenise the abstracts not yet indexed (idempotent, thread-safe)."""
        with self._lock, gc_paused():
            start = self._abstracts_done
            if start == len(self._ids):
                return
            self._thaw()
            abstracts = self._abstracts()  # (once for the tokeniser and the acronyms)
            if start == 0 and len(self._ids) >= BULK_MIN and not self._post[ABSTRACT]:
                with bulk_allocations():
                    self._index_all_abstracts(abstracts=abstracts)  # a whole list's: at once
            else:  # (the new papers', appended)
                post, tf = self._post[ABSTRACT], self._tf[ABSTRACT]
                for o in range(start, len(self._ids)):
                    abstract = abstracts[o]
                    if abstract:
                        _append_counted(post, tf, tokens(abstract), o)
                self._refresh_vocabulary()
            self._abstracts_done = len(self._ids)
            self._acronyms = mine_acronyms(abstracts)

    def _build_all(self, records: list) -> None:
        """Index a whole list at once, every field numbered in one dict and laid out flat
        by `_index_all_abstracts` (no title or meta word appended one by one)."""
        with self._lock, bulk_allocations():
            # (as `_abstracts` reads them; once for the tokeniser and the acronyms)
            abstracts = [(record.paper if type(record) is PaperView else record).abstract for record in records]
            numbers: defaultdict[str, int] = defaultdict(count().__next__)
            head = self._append(records, refresh=False, numbers=numbers)
            self._index_all_abstracts(numbers, head, abstracts)
            self._abstracts_done = len(self._ids)
            self._acronyms = mine_acronyms(abstracts)

    def _index_all_abstracts(
        self, numbers: defaultdict[str, int] | None = None, head: Any = None, abstracts: list[str | None] | None = None,
    ) -> None:
        """Index every abstract of a list at once, and leave every field flat over the new
        vocabulary, as a loaded index is (`FlatPostings.of_pairs`). The abstracts' distinct
        (word, paper) pairs come from `word_pairs.distinct_pairs`, which tokenises them all
        at once with numpy, each word numbered in `numbers` (a `defaultdict` whose factory
        counts); numpy then lays them out. The title and meta words were appended as they
        came (`_append`), or numbered in `numbers` already (`head`: their pairs, from
        `_append`). The caller mines the acronyms. Callers hold the lock."""
        np = load_numpy()

        from .word_pairs import distinct_pairs

        n = len(self._ids)
        if numbers is None:
            numbers = defaultdict(count().__next__)
        if abstracts is None:
            abstracts = self._abstracts()
        pairs = distinct_pairs(abstracts, numbers.__getitem__)
        # numpy's temporaries, a chunk of texts at a time, were freed into the C heap, which
        # glibc keeps while the words made after them live above (26 MB at 19,630 papers):
        # handed back before the layout's arrays are made
        release_free_memory()
        words = list(numbers)  # by number
        del numbers

        def numbered(pairs: array) -> Any:
            return np.frombuffer(pairs, dtype=np.uint32) if pairs else np.zeros(0, dtype=np.uint32)

        if head is None:
            title_post, meta_post, _ = self._post
            title_vocab = list(title_post)  # first-seen order, which the infix search goes by
            vocab = sorted(set(title_post).union(meta_post, words))
            place = dict(zip(vocab, range(len(vocab))))
            # each numbered word's place in the vocabulary, once for the three fields
            ranks = np.fromiter(map(place.__getitem__, words), dtype=np.int64, count=len(words))
        else:
            title_vocab = words[: head.title_words]
            # every word is numbered: the numbers sorted by their words give the vocabulary
            # and each number's place in it, with no dict of places (50,000 words)
            order = sorted(range(len(words)), key=words.__getitem__)
            vocab = list(map(words.__getitem__, order))
            ranks = np.empty(len(words), dtype=np.int64)
            ranks[np.array(order, dtype=np.int64)] = np.arange(len(words), dtype=np.int64)
            place = {}  # (the layouts read `ranks`)
        abstract = _laid_out(vocab, place, words, pairs, n, ranks)
        del pairs
        if head is None:
            title_tf, meta_tf, _ = self._tf
            fields = (FlatPostings.of_arrays(vocab, place, title_post, n, counts=title_tf),
                      FlatPostings.of_arrays(vocab, place, meta_post, n, counts=meta_tf))
        else:
            title = FlatPostings.of_pairs(
                vocab, place, words, numbered(head.title_pairs), n, lengths=numbered(head.title_sizes), ranks=ranks,
                counts=np.frombuffer(head.title_counts, dtype=np.uint8),
            )
            meta = _laid_out(vocab, place, words, head.meta, n, ranks)
            fields = (title, meta)
        self._post = (*fields, abstract)
        self._tf = tuple(defaultdict(partial(array, "B")) for _ in range(3))  # (the flat postings hold them)
        self._refresh_vocabulary(vocab, title_vocab)
        # (the layout's temporaries are handed back as `bulk_allocations` ends)

    def _abstracts(self) -> list[str | None]:
        """Every record's abstract, in ordinal order."""
        # a PaperView's catalog fields read off its Paper (its __getattr__ is the slow path:
        # 20 ms at 19,630 papers)
        return [(record.paper if type(record) is PaperView else record).abstract for record in self._records]

    def field_postings(self) -> tuple[list[str], list[str], tuple[FlatPostings, ...]]:
        """The ids in ordinal order, the vocabulary, and each field's postings laid out flat
        over it (title, meta, abstract): for a model that reads them as a matrix
        (`core.related.for_you.Features`), which may not import the search layer."""
        with self._lock:
            ids = list(self._ids)
            vocab = self._vocab
            posts = self._post
        n = len(ids)
        return ids, vocab, tuple(post if isinstance(post, FlatPostings) else FlatPostings.of(vocab, post, n) for post in posts)

    def __len__(self) -> int:
        return len(self._ids) - len(self._removed)

    def add(self, records: Iterable) -> None:
        """Index more papers (an import); a paper whose id is known replaces the old one."""
        records = list(records)
        self.remove(r.id for r in records if r.id in self._ordinal)
        complete = self.abstracts_indexed
        self._append(records, refresh=not complete)
        if complete:
            self.index_abstracts()

    def remove(self, ids: Iterable[str]) -> None:
        """Drop papers from the results. Their postings stay until the next `build`
        (cheap: removed ordinals are skipped), so rebuild after removing very many."""
        with self._lock:
            for pid in ids:
                o = self._ordinal.pop(pid, None)
                self._keys = None
                self._keywords = None
                if o is not None:
                    self._removed.add(o)
                    self._tags.pop(o, None)
                    self._notes.pop(o, None)

    def update(self, record) -> None:
        """Refresh the status, tags and notes of one indexed paper (cheap: no re-tokenising).

        Title or author overrides are not re-indexed; `add([record])` does that.
        """
        o = self._ordinal.get(record.id)
        if o is None:
            return
        self._status[o] = record.status
        tags = tag_keys(record.tags)
        if tags:
            self._tags[o] = tags
        else:
            self._tags.pop(o, None)
        if record.notes:
            self._notes[o] = notes_key(record.notes)
        else:
            self._notes.pop(o, None)

    def _thaw(self) -> None:
        """Make postings loaded flat from the cache (`FlatPostings`) growable again, for an
        index that takes more papers. Callers hold the lock."""
        if any(isinstance(post, FlatPostings) for post in self._post):
            self._tf = tuple(post.thaw_counts() if isinstance(post, FlatPostings) else tf
                             for post, tf in zip(self._post, self._tf))
            self._post = tuple(
                post.thaw(self._title_vocab if field == TITLE else None) if isinstance(post, FlatPostings) else post
                for field, post in enumerate(self._post)
            )

    def _append(self, records: Iterable, refresh: bool = True, numbers: defaultdict[str, int] | None = None) -> Any:
        """Index `records` after those indexed, all but their abstracts. With `numbers`
        (`_build_all`: a fresh dict, the index empty), their title and meta words are not
        appended to the postings but numbered there, and their pairs returned (`_Head`)."""
        if numbers is not None:
            np = load_numpy()  # (a whole list's build only: word_pairs needs it next)

            number = numbers.__getitem__
            title_pairs, title_counts, title_sizes, metas = array("I"), array("B"), array("I"), []
        with self._lock:
            self._thaw()
            title_post, meta_post, _ = self._post
            title_tf, meta_tf, _ = self._tf
            self._keys = None
            self._keywords = None
            ids, ordinal, kept, titles, status = self._ids, self._ordinal, self._records, self._titles, self._status
            years, venues, tags, notes = self._years, self._venues, self._tags, self._notes
            # a field at a time over a slice of the records, each a C-level map or a comprehension
            # (one loop doing all per record cost 0.25 s at 19,630 papers, mostly its own
            # bytecode and calls)
            records = records if isinstance(records, list) else list(records)
            # A slice at a time: its title words, made all at once, are freed before the
            # next slice's take their place. Made for a whole list, the 1.2 million word
            # strings of 100,000 titles, freed among the few that live on (the words the
            # postings keep), left some 80 MB of Python's small-object arenas held.
            for start in range(0, len(records), APPEND_SLICE):
                part = records[start : start + APPEND_SLICE]
                first = len(ids)
                ordinals = range(first, first + len(part))
                new_ids = [record.id for record in part]
                ids.extend(new_ids)
                ordinal.update(zip(new_ids, ordinals))
                kept.extend(part)
                # a PaperView's catalog fields read off its Paper (its __getattr__ is the slow path)
                papers = [record.paper if type(record) is PaperView else record for record in part]
                # titles, names and venues as the user reads them (LaTeX rendered), so
                # "Vélez" finds V{\'e}lez; abstracts are tokenised as they are (too long
                # to render at every build), the tokeniser reading their accents
                title_tokens = list(map(tokens, [f"{search_text(record.title)} {paper.short_name or ''}"
                                                for record, paper in zip(part, papers)]))
                titles.extend(map(" ".join, title_tokens))
                meta_texts = [search_texts((*paper.keywords, *record.authors)) for record, paper in zip(part, papers)]
                if numbers is None:
                    for o, words, meta in zip(ordinals, title_tokens, meta_texts):
                        # first-seen order (a Counter's): the title words' order is the infix search's
                        _append_counted(title_post, title_tf, words, o)
                        if meta:
                            _append_counted(meta_post, meta_tf, tokens(meta), o)
                else:
                    # every title word numbered in one C-level pass, in order (the first-seen order
                    # the infix search goes by), then each paper's distinct numbers by one sort of
                    # (paper, number) keys: their order within a paper does not matter to the layout
                    sizes = list(map(len, title_tokens))
                    flat = np.fromiter(map(number, chain.from_iterable(title_tokens)), dtype=np.uint64, count=sum(sizes))
                    keys = np.repeat(np.arange(len(sizes), dtype=np.uint64), sizes) << np.uint64(32)
                    keys |= flat
                    keys.sort()
                    if len(keys):
                        distinct = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
                        repeats = np.diff(np.append(distinct, len(keys)))
                        title_counts.frombytes(np.minimum(repeats, 255).astype(np.uint8).tobytes())
                        keys = keys[distinct]
                    title_pairs.frombytes(keys.astype(np.uint32).tobytes())  # the low 32 bits: the numbers
                    per_paper = np.bincount((keys >> np.uint64(32)).astype(np.int64), minlength=len(sizes))
                    title_sizes.frombytes(per_paper.astype(np.uint32).tobytes())
                    metas.extend(meta_texts)
                for o, paper in zip(ordinals, papers):
                    years[paper.year].append(o)
                venue_keys: dict[Any, str] = {}  # a list has few venues
                for o, paper in zip(ordinals, papers):
                    venue = paper.venue
                    key = venue_keys.get(venue)
                    if key is None:
                        key = venue_keys[venue] = venue_key(venue)
                    venues[key].append(o)
                # a PaperView's status, tags and notes read off its Annotation (one attribute
                # each, not a property each)
                annotations = [record.annotation if type(record) is PaperView else record for record in part]
                status.extend([annotation.status for annotation in annotations])
                self._index_reviews(first, papers)
                for o, annotation in zip(ordinals, annotations):
                    if annotation.tags:
                        tags[o] = tag_keys(annotation.tags)
                    if annotation.notes:
                        notes[o] = notes_key(annotation.notes)
            if refresh:
                self._refresh_vocabulary()
            if numbers is None:
                return None
            # the title words were numbered first, as first seen: the infix search's order
            title_words = len(numbers)
            from .word_pairs import distinct_pairs  # (numpy: a whole list's build only)

            return _Head(title_pairs, title_counts, title_sizes, title_words, distinct_pairs(metas, number, len(ids) - len(metas)))

    def _tie_breaks(self) -> array:
        """Per ordinal, what breaks a tie of scores: a ten-thousandth of the mean rating,
        less a ten-millionth of the title's length (made again after papers or reviews
        change)."""
        prior = self._prior
        if prior is None or len(prior) != len(self._ids):
            rating, titles = self._rating, self._titles
            # an array of doubles: a list of floats is four times the size (3 MB at 100,000)
            prior = array("d", [1e-4 * (r if r == r else 0.0) - 1e-7 * len(t) for r, t in zip(rating, titles)])
            self._prior = prior
        return prior

    def _field_weights(self) -> tuple[array, array, array]:
        """Per field (title, meta, abstract), per ordinal: the field's BM25F weight over its
        length normalisation, 1 - b + b * length / mean length (lengths in characters,
        which words follow closely and which cost no tokenising; made again after papers
        change)."""
        weights = self._weights
        if weights is None or len(weights[0]) != len(self._ids):
            papers = [record.paper if type(record) is PaperView else record for record in self._records]
            lengths = (
                list(map(len, self._titles)),
                [len(" ".join(p.keywords)) + len(" ".join(r.authors)) for p, r in zip(papers, self._records)],
                [len(p.abstract or "") for p in papers],
            )
            made = []
            for field, column in enumerate(lengths):
                # the mean of the papers that have the field: a list where few papers have
                # keywords must not find theirs long
                held = [x for x in column if x]
                mean = max(sum(held) / max(len(held), 1), 1.0)
                w = BM25F_WEIGHT[field]
                made.append(array("d", [w / (1 - B + B * x / mean) for x in column]))
            weights = self._weights = (made[0], made[1], made[2])
        return weights

    def _index_reviews(self, first: int, records: list) -> None:
        """Take the review columns of `records`, ordinals from `first` on, from the records
        (see `__init__`): a column at a time (per record, 5 µs each at a build)."""
        self._prior = None
        scores = [getattr(record, "scores", None) for record in records]
        ratings = [s.ratings if s is not None else () for s in scores]  # parsed from its bytes: once
        self._rating.extend([sum(r) / len(r) if r else _NAN for r in ratings])
        self._spread.extend([float(max(r) - min(r)) if r else _NAN for r in ratings])
        self._nreviews.extend(map(len, ratings))
        self._moved.extend([_moved(s, r) for s, r in zip(scores, ratings)])
        decisions, areas, withdrawn = self._decisions, self._areas, self._withdrawn
        for o, s in zip(count(first), scores):
            if s is not None:
                decision = s.decision
                if decision:
                    decisions[decision].append(o)
        for o, record in zip(count(first), records):
            area = getattr(record, "area", "")
            if area:
                areas[area].append(o)
            if getattr(record, "withdrawn", False):
                withdrawn.add(o)

    def _refresh_vocabulary(self, vocab: list[str] | None = None, title_vocab: list[str] | None = None) -> None:
        """Rebuild the sorted vocabulary (prefixes), its length buckets (typos) and the
        title words (infixes), unless given; drop cached expansions. Callers hold the lock."""
        title_post, meta_post, abstract_post = self._post
        self._vocab = sorted(set(title_post).union(meta_post, abstract_post)) if vocab is None else vocab
        self._by_length = None
        self._title_vocab = list(title_post) if title_vocab is None else title_vocab
        self._cache.clear()

    # -- searching ------------------------------------------------------------------

    def search(
        self, query: Query | str, *, marked: Iterable[str] = frozenset(), limit: int | None = None
    ) -> SearchResult:
        """The papers matching `query`, best first (see the module docstring).

        `query` may be text (parsed with `parse_query`, which may raise `QueryError`).
        `marked` is the set of ids `is:marked` refers to. `limit` caps the hits.
        """
        ranking = self.rank(query, marked=marked, limit=limit)
        result = SearchResult(map(_make_hit, zip(ranking.ids, ranking.scores, ranking.matched)))
        result.partial, result.complete, result.found = ranking.partial, ranking.complete, ranking.found
        return result

    def prepare_for_queries(self) -> None:
        """Make now what the first query would make: the table of the papers' keywords
        (0.6 s at 100,000 papers) and numpy. For a thread, as the search bar opens."""
        load_numpy()
        with self._lock:
            self._keyword_papers(())

    def rank(self, query: Query | str, *, marked: Iterable[str] = frozenset(), limit: int | None = None) -> Ranking:
        """`search`'s answer as columns, with no Hit made per paper (a list shows a few
        dozen of tens of thousands)."""
        if isinstance(query, str):
            query = parse_query(query)
        # Under the lock: a search reads arrays over every paper, which `add` (a title
        # edited, on the UI thread) would grow midway; it waits for the search instead.
        with self._lock:
            return self._rank(query, set(marked), limit)

    def _rank(self, query: Query, marked: set[str], limit: int | None) -> Ranking:
        if (
            not self.abstracts_indexed
            and self.index_abstracts_on_search
            and (query.has_text or query.excluded or query.excluded_phrases)
        ):
            self.index_abstracts()
        tags = dict(self._tags)  # snapshots: update() may run on another thread
        notes = dict(self._notes)
        allowed = self._allowed(query, tags, notes, marked)
        phrase_hits = [self._phrase_matches(p, notes) for p in query.phrases]
        # a phrase no paper holds (a quotation in a pasted TL;DR) counts as its words: it
        # never empties the list
        terms = [*query.terms, *(p for p, (m, _) in zip(query.phrases, phrase_hits) if not m.size())]
        phrase_hits = [hit for hit in phrase_hits if hit[0].size()]
        words = [t for term in terms for t in tokens(term)]
        if len(words) > 1 or not words:
            content = [w for w in words if w not in STOPWORDS]
            words = content or words
        if not words and not phrase_hits:
            ordinals = range(len(self._ids)) if allowed is None else sorted(allowed)
            removed = self._removed
            kept = filterfalse(removed.__contains__, ordinals) if removed else ordinals
            ids = list(islice(map(self._ids.__getitem__, kept), limit))
            # no words to cover: every hit fits the query whole
            return Ranking(ids, [0.0] * len(ids), [()] * len(ids), complete=len(ids))

        np = load_numpy()
        n = len(self._ids)
        words = list(dict.fromkeys(words))
        # earlier words are complete; the last one may still be being typed
        matches = [self._match_word(w, tags, notes, i == len(words) - 1) for i, w in enumerate(words)]
        matches = self._with_acronyms(words, matches)
        every = matches + [m for m, _ in phrase_hits]
        # a rare word weighs more in how much of the query a paper covers (idf)
        rarity = [math.log(1 + max(n, 2) / (1 + m.size())) for m in every]
        combined = _combine(every, None if allowed is None else _mask(np, n, allowed), rarity)
        scores, listed = combined.scores, combined.listed.copy()
        for m, _ in phrase_hits:  # phrases are never optional: only papers that contain all of them
            listed &= m.values != 0
        if self._removed:
            listed[_ordinals(np, self._removed)] = False
        found = self._named(query)
        # the query is one of the paper's keywords (its words as typed, stopwords too)
        every_word = [t for term in query.terms + query.phrases for t in tokens(term)]
        keyword_papers = self._keyword_papers(every_word)
        if keyword_papers:
            scores[np.asarray(keyword_papers, dtype=np.int64)] += KEYWORD_BONUS
        # ties never in id order: the better-rated paper, then the shorter title
        candidates = np.flatnonzero(listed)
        tie = scores[candidates] + np.frombuffer(self._tie_breaks(), dtype=np.float64)[candidates]
        ranked = candidates[np.argsort(-tie, kind="stable")].tolist()
        self._rerank(ranked, scores, " ".join(query.terms + query.phrases), matches)
        # papers that cover the query first, then those with fewer of its words (coverage);
        # withdrawn papers last in each, unless the query asks for them
        covered = combined.covered[ranked]
        withdrawn = self._withdrawn
        if any(f.field == "is" and f.value == "withdrawn" and not f.negated for f in query.filters):
            withdrawn = set()
        late = _mask(np, n, withdrawn)[ranked] if withdrawn else None
        if not covered.all() or (late is not None and late.any()):  # else the order stands (the usual case)
            # -2 covered, -1 covered and withdrawn, 0 neither, 1 withdrawn (the sort is stable)
            order = (late if late is not None else 0) - 2 * covered.astype(np.int8)
            ranked = np.asarray(ranked)[np.argsort(order, kind="stable")].tolist()
        named = None
        if found is not None and (allowed is None or found in allowed):
            ranked = [found] + [o for o in ranked if o != found]
            named = self._ids[found]
        complete = int(np.count_nonzero(combined.complete[ranked])) if ranked else 0
        if limit is not None:
            ranked = ranked[:limit]
        partial = not complete and any(o != found for o in ranked)
        # Tens of thousands of hits at 100k papers: the matched words are worked out once
        # per distinct combination (a few dozen), not once per hit.
        at = np.asarray(ranked, dtype=np.int64)
        names = [m.names for m in matches]
        columns = [np.where(m.values[at] != 0, m.which[at], -1) for m in matches]
        columns += [(m.values[at] != 0).astype(np.int32) - 1 for m, _ in phrase_hits]
        phrase_names = [(" ".join(phrase_words),) for _, phrase_words in phrase_hits]
        every_names = names + phrase_names
        if columns and len(ranked):
            bases = [len(word_names) + 1 for word_names in every_names]
            if math.prod(bases) < 2**62:
                # each hit's combination as one number (a digit per word, 0 for none), so
                # that the distinct ones are found with one sort of numbers, not of rows
                # (1 ms against 18 ms for 14,000 hits)
                key = np.zeros(len(ranked), dtype=np.int64)
                for column, base in zip(columns, bases):
                    key = key * base + (column + 1)
                distinct, inverse = np.unique(key, return_inverse=True)
                combos = [_digits(number, bases) for number in distinct.tolist()]
            else:  # (a long pasted text: too many digits for one number) distinct rows
                rows, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
                combos = rows.tolist()
            matched = [_matched(*(word_names[k] if k >= 0 else "" for word_names, k in zip(every_names, combo)))
                       for combo in combos]
            per_hit = list(map(matched.__getitem__, inverse.reshape(-1).tolist()))
        else:
            per_hit = [()] * len(ranked)
        hit_scores = scores[at].tolist()
        if found is not None and ranked and ranked[0] == found and not listed[found]:
            hit_scores[0] = 0.0  # named, not matched
        whole = combined.complete[at].tolist() if complete < len(ranked) else None
        return Ranking(list(map(self._ids.__getitem__, ranked)), hit_scores, per_hit, partial, complete, named, whole)

    # -- filters --------------------------------------------------------------------

    def _allowed(self, query: Query, tags: dict, notes: dict, marked: set[str]) -> set[int] | None:
        """Ordinals passing the filters and exclusions, or None when all pass."""
        allowed: set[int] | None = None
        banned: set[int] = set()
        for f in query.filters:
            passing = self._filter(f.field, f.value, tags, notes, marked)
            if f.negated:
                banned |= passing
            else:
                allowed = passing if allowed is None else allowed & passing
        for word in query.excluded:
            for w in tokens(word):
                for post in self._post:
                    banned.update(post.get(w, ()))
                banned.update(o for o, ts in tags.items() if any(w in t for t in ts))
                banned.update(o for o, text in notes.items() if w in text)
        for phrase in query.excluded_phrases:
            banned.update(self._phrase_matches(phrase, notes)[0].holders().tolist())
        if banned:
            if allowed is None:
                allowed = set(range(len(self._ids)))
            allowed -= banned
        return allowed

    def _filter(self, field: str, value: str, tags: dict, notes: dict, marked: set[str]) -> set[int]:
        if field == "tag":  # tag:a,b: either (tags never hold commas)
            wanted = {fold(v) for v in value.split(",") if v.strip()}
            return {o for o, ts in tags.items() if any(v in ts for v in wanted)}
        if field == "status":  # status:read,to-read: either
            statuses = {Status(v) for v in value.split(",")}
            return {o for o, s in enumerate(self._status) if s in statuses}
        if field == "is":
            if value == "marked":
                return {self._ordinal[i] for i in marked if i in self._ordinal}
            if value == "withdrawn":
                return set(self._withdrawn)
            if value == "reviewed":
                return {o for o, n in enumerate(self._nreviews) if n}
            if value == "moved":
                return {o for o, x in enumerate(self._moved) if x == x}
            if value == "conflict":
                return {o for o, text in notes.items() if has_conflict(text)}
            if value.startswith("group-"):
                wanted = Status(value.removeprefix("group-"))
                return {self._ordinal[pid] for anns in self.group.members.values()
                        for pid, ann in anns.items() if ann.status is wanted and pid in self._ordinal}
            return set(tags if value == "tagged" else notes)
        if field == "year":
            lo, hi = year_bounds(value)
            return {o for y, os in self._years.items() if y is not None and lo <= y <= hi for o in os}
        if field == "venue":
            value = fold(value)
            return {o for v, os in self._venues.items() if value in v for o in os}
        if field == "by":  # a reading group's member: the papers they touched
            return {self._ordinal[pid] for name, anns in self.group.members.items() if name.casefold() == value.casefold()
                    for pid in anns if pid in self._ordinal}
        if field == "group":  # how many members (you included) gave it a status
            bounds = number_bounds(value)
            counts = [int(s is not Status.UNREAD) for s in self._status]
            for anns in self.group.members.values():
                for pid, ann in anns.items():
                    if ann.status is not Status.UNREAD and pid in self._ordinal:
                        counts[self._ordinal[pid]] += 1
            return {o for o, n in enumerate(counts) if in_bounds(n, bounds)}
        if field in ("rating", "spread", "reviews", "moved"):
            bounds = number_bounds(value)
            column = {"reviews": self._nreviews, "rating": self._rating, "moved": self._moved}.get(field, self._spread)
            # NaN (no ratings) is in no range; `reviews:0` finds the papers without reviews
            return {o for o, x in enumerate(column) if x == x and in_bounds(x, bounds)}
        if field == "area":
            return {o for area, os in self._areas.items() if area_matches(value, area) for o in os}
        if field == "decision":
            if value == "accept":  # any acceptance: oral, spotlight, poster or unspecified
                return {o for tier, os in self._decisions.items() if tier != "reject" for o in os}
            return set(self._decisions.get(decision_tier(value) or value, ()))
        raise ValueError(f"unknown field {field!r}")
