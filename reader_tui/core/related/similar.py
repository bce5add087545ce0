"""Related papers: TF-IDF cosine similarity over titles, keywords and abstracts.

No model, no numpy: each paper becomes a sparse TF-IDF vector (a dict), truncated to its
`top_terms` highest-weighted terms and L2-normalised. An inverted index maps each term to
the papers that kept it, so `related()` only touches the postings of the query paper's
own few terms instead of comparing against all 20k papers.

Truncating the vectors is what bounds the cost (the index holds about 30 entries per
paper, and common terms rarely make a paper's top 30); the price is that scores are the
cosine of the truncated vectors, which ranks the way the full cosine does in practice.

Build cost is dominated by splitting ~4M words into tokens, so tokenising runs through
C-level string methods (`lower`, `bytes.translate`, `split`, `Counter`) rather than a
per-word Python loop.
"""

from __future__ import annotations

import hashlib
import heapq
import marshal
import math
import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import accumulate, chain, compress, repeat
from operator import ge, gt, mul, sub
from pathlib import Path

from ..cache_file import head_piece, read_array, read_head_piece, reading_cache, write_cache
from ..model import PaperView
from ..process_tuning import gc_paused

#: Words too common in English or in ML abstracts to say what a paper is about, plus the
#: LaTeX and URL debris that survives tokenising ("\textbf{x}" -> "textbf x").
STOP_WORDS = frozenset(
    """
    a about above across after again against all almost along also although always am among
    an and another any are around as at be because been before being below between both but
    by can cannot could did do does doing done down due during each either else enough etc
    even ever every few for from further given had has have having he her here hers him his
    how however i if in into is it its itself just least less like made make makes making many
    may might more most much must my neither no nor not now of off often on once one only onto
    or other others otherwise our ours out over own per rather same several she should since so
    some still such than that the their theirs them themselves then there therefore these they
    this those though through thus to too toward towards under unless until up upon us use used
    uses using very via was we well were what when where whether which while who whom whose
    why will with within without would yet you your
    able across addition additionally based better can different effective effectively enable
    enables existing first furthermore help how including introduce key large moreover new novel
    paper propose proposed provide provides recent remains results second show shows significant
    significantly specifically state study three two various work works achieve achieves
    approach approaches method methods demonstrate experiments extensive performance outperforms
    art framework task tasks
    textbf textit emph mathbf mathcal mathrm mathbb boldsymbol cite citep citet url href http https
    www com org github io html pdf arxiv anonymous
    """.split()
)

# bytes.translate table: keep ASCII letters and digits, turn everything else (punctuation,
# hyphens, LaTeX braces, every byte of a non-ASCII character) into a space.
_KEEP = b"abcdefghijklmnopqrstuvwxyz0123456789"
_TABLE = bytes(c if c in _KEEP else 32 for c in range(256))

# Bump when tokenising, weighting or the cache's body change, so old caches are rebuilt.
# 3: the body of a `core.cache_file`; 4: weights in single precision (`WEIGHT_TYPE`), the
# columns raw after the ids and words
_CACHE_FORMAT = 4
#: The array type of the weights: single precision. A term weight needs no more than its
#: seven digits (the ranking is the same but for ties closer than that), and at 100,000
#: papers the two weight columns take 25 MB instead of 50.
WEIGHT_TYPE = "f"
CACHE_KIND = "related index"
#: How many of its heaviest terms each paper keeps.
TOP_TERMS = 30

# Sublinear term frequency 1 + ln(tf), looked up instead of computed per (paper, term) pair.
_SUBLINEAR = [0.0] + [1.0 + math.log(n) for n in range(1, 1024)]


def tokenize(text: str) -> list[str]:
    """The lower-cased ASCII words of `text` (letters and digits; everything else splits).

    Stop words are not removed here: the index drops them (and numbers, one-letter words)
    from its vocabulary once, which is cheaper than filtering every occurrence.
    """
    return text.lower().encode("utf-8").translate(_TABLE).decode("ascii").split()


def is_content_term(term: str) -> bool:
    """True for a token worth indexing: two or more characters, not a number, not a stop word."""
    return len(term) > 1 and not term.isdigit() and term not in STOP_WORDS


def paper_terms(view: PaperView) -> Counter[str]:
    """How often each token occurs in the paper's title, keywords and abstract. Title and
    keywords count twice: they name the topic more reliably than any abstract sentence."""
    head = tokenize(" ".join((view.title, *view.keywords)))
    return Counter(tokenize(view.paper.abstract) + head + head)


class RelatedIndex:
    """Papers most similar to a given one. Build once (`RelatedIndex.build`), query often.

    Immutable after building, so one index may be queried from any thread.
    """

    def __init__(
        self,
        ids: list[str],
        vocab: list[str],
        terms: array,
        weights: array,
        starts: array,
    ) -> None:
        # One flat array per column, sliced by offsets, not an array per paper and per
        # term: at 20k papers the 80,000 small arrays (and their headers) took some 25 MB,
        # the flat ones take under 15. Each paper's vector is
        # _terms[_starts[o]:_starts[o + 1]] (term ids) with the same slice of _weights.
        self._ids = ids
        self._ordinal = {pid: n for n, pid in enumerate(ids)}
        self._vocab = vocab
        if len(terms) != len(weights) or len(starts) != len(ids) + 1 or starts[-1] != len(terms):
            raise ValueError("the vectors do not line up with the papers")
        self._terms = terms
        self._weights = weights
        self._starts = starts
        self._posting_papers, self._posting_weights, self._posting_starts = _postings(
            len(vocab), self._starts, self._terms, self._weights
        )

    @classmethod
    def build(cls, views: Iterable[PaperView], *, top_terms: int = TOP_TERMS, max_df: float = 0.2) -> RelatedIndex:
        """Index `views`. Each paper keeps its `top_terms` heaviest terms. Terms found in
        only one paper (they can match nothing) or in more than `max_df` of them (their
        weight is small, and they make the postings long) are dropped."""
        with gc_paused():
            return cls._build(list(views), top_terms, max_df)

    @classmethod
    def _build(cls, views: list[PaperView], top_terms: int, max_df: float) -> RelatedIndex:
        ids = [v.id for v in views]
        # Count each paper's tokens while its fresh strings are still in the CPU cache,
        # and keep its terms as the first-seen string object of each word: the document
        # frequency and weighting passes then touch some 50k shared strings instead of
        # 2.5 million scattered ones, and dropping the counters frees no strings.
        canonical: dict[str, str] = {}
        intern = canonical.setdefault
        term_lists: list[list[str]] = []
        tf_lists: list[list[int]] = []
        for v in views:
            c = paper_terms(v)
            term_lists.append(list(map(intern, c, c)))
            tf_lists.append(list(c.values()))
        df = Counter(chain.from_iterable(term_lists))
        n = len(views)
        # In a small library df fractions are noise: only prune common terms in a big one.
        ceiling = max(int(max_df * n), min(n, 20))
        # every word gets a weight, 0.0 for the ones not indexed: one C-level lookup per
        # (paper, term) pair instead of a set intersection per paper
        idf = dict.fromkeys(df, 0.0)
        idf.update(
            (term, math.log(n / k)) for term, k in df.items() if 2 <= k <= ceiling and is_content_term(term)
        )
        weight_of = idf.__getitem__
        sublinear = _SUBLINEAR.__getitem__
        clamp = len(_SUBLINEAR) - 1
        vocab: list[str] = []
        term_ids: dict[str, int] = {}
        vector_terms = array("I")
        vector_weights = array(WEIGHT_TYPE)
        starts = array("Q", [0])
        for terms, tfs in zip(term_lists, tf_lists):
            # map/zip/sorted keep the work per (paper, term) pair in C: there are about
            # 2.5 million such pairs at 20k papers, and this loop is most of the build.
            if tfs and max(tfs) > clamp:  # a pathological abstract: clamp
                tfs = [min(t, clamp) for t in tfs]
            weights = list(map(mul, map(sublinear, tfs), map(weight_of, terms)))
            # Sorting (weight, term) pairs compares strings on every tie and was a third
            # of the build: find the cut-off weight among bare floats first, then sort
            # only the pairs at or above it (the same pairs, in the same order).
            floor = sorted(weights, reverse=True)[top_terms - 1] if len(weights) > top_terms else 0.0
            keep = map(ge, weights, repeat(floor)) if floor > 0 else map(gt, weights, repeat(0.0))
            top = sorted(compress(zip(weights, terms), keep), reverse=True)[:top_terms]
            norm = math.sqrt(sum(w * w for w, _ in top)) or 1.0
            kept = array("I")
            for _, term in top:
                tid = term_ids.get(term)
                if tid is None:
                    tid = term_ids[term] = len(vocab)
                    vocab.append(term)
                kept.append(tid)
            vector_terms.extend(kept)
            vector_weights.extend(w / norm for w, _ in top)
            starts.append(len(vector_terms))
        return cls(ids, vocab, vector_terms, vector_weights, starts)

    @classmethod
    def load_or_build(cls, views: Iterable[PaperView], cache: Path, *, top_terms: int = TOP_TERMS) -> RelatedIndex:
        """The index of `views`, read from the `cache` file when it was made from exactly
        these papers' texts, else built and written there (atomically) for next time.

        Building reads every word of every abstract (seconds at 20k papers on a slow
        machine); loading the cache only reads each paper's few kept terms. A missing,
        stale or damaged cache is rebuilt, and a cache that cannot be written is skipped.
        """
        views = list(views)
        index = cls.load(views, cache, top_terms=top_terms)
        if index is None:
            index = cls.build(views, top_terms=top_terms)
            index.save(cache, fingerprint(views, top_terms))
        return index

    @classmethod
    def load(cls, views: Iterable[PaperView], cache: Path, *, top_terms: int = TOP_TERMS) -> RelatedIndex | None:
        """The index of `views` from the `cache` file, or None when there is none made from
        exactly these papers' texts by this version (never raises for a bad file)."""
        # One pass over `views`, which may be an iterator (`indexing.load_related_index`
        # makes each view as it is read: a list of 100,000 would be 6 MB for a moment).
        ids: list[str] = []
        key = fingerprint(_noting_ids(views, ids), top_terms)
        with reading_cache(Path(cache), CACHE_KIND, _CACHE_FORMAT, key) as body:
            if body is None:
                return None  # no cache yet, or not one made from these papers by this version
            try:
                with gc_paused():
                    data = marshal.loads(read_head_piece(body))
                # the columns straight from the file into their arrays, no bytes in between
                starts = read_array(body, "Q", data["papers"] + 1)
                terms = read_array(body, "I", starts[-1])
                weights = read_array(body, WEIGHT_TYPE, starts[-1])
                if body.read(1) or data["byteorder"] != sys.byteorder or data["papers"] != len(ids):
                    return None
                # The ids are the papers' own strings: the key (the fingerprint) covers
                # every id in order, so the file need not hold copies of them (6 MB of
                # strings at 100,000 papers for a moment, 1 MB kept at 20,000).
                return cls(ids, data["vocab"], terms, weights, starts)
            except (EOFError, ValueError, TypeError, KeyError, IndexError, OverflowError):
                return None  # well signed but not of this shape: rebuild

    def save(self, cache: Path, papers_fingerprint: str) -> None:
        """Write this index to the `cache` file (`core.cache_file`: atomically, with fsync),
        keyed by its papers' fingerprint (which covers their ids): the words (marshal),
        then the vectors' columns raw. A read-only or full disk costs the next start a rebuild, nothing more."""
        head = marshal.dumps({"vocab": self._vocab, "papers": len(self._ids), "byteorder": sys.byteorder})
        write_cache(
            Path(cache), CACHE_KIND, _CACHE_FORMAT, papers_fingerprint,
            [head_piece(head), self._starts, self._terms, self._weights],
        )

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._ordinal

    def terms(self, paper_id: str) -> list[tuple[str, float]]:
        """The paper's indexed terms with their weights, heaviest first (why it matches
        what it matches). Empty for a paper the index does not know."""
        ordinal = self._ordinal.get(paper_id)
        if ordinal is None:
            return []
        vocab, start, end = self._vocab, self._starts[ordinal], self._starts[ordinal + 1]
        return [(vocab[t], w) for t, w in zip(self._terms[start:end], self._weights[start:end])]

    def related(self, paper_id: str, k: int = 5) -> list[tuple[str, float]]:
        """The `k` papers most similar to `paper_id` as (id, cosine) pairs, best first,
        without the paper itself. Only papers sharing an indexed term appear, so fewer than
        `k` may come back; a paper added after the build gets an empty list."""
        ordinal = self._ordinal.get(paper_id)
        if ordinal is None or k <= 0:
            return []
        scores: dict[int, float] = {}
        get = scores.get
        papers, weights, starts = self._posting_papers, self._posting_weights, self._posting_starts
        start, end = self._starts[ordinal], self._starts[ordinal + 1]
        for term, weight in zip(self._terms[start:end], self._weights[start:end]):
            first, last = starts[term], starts[term + 1]
            for other, other_weight in zip(papers[first:last], weights[first:last]):
                scores[other] = get(other, 0.0) + weight * other_weight
        scores.pop(ordinal, None)
        # Ties go to the earlier paper so the answer never depends on dict order.
        best = heapq.nsmallest(k, scores.items(), key=lambda item: (-item[1], item[0]))
        # (two papers with the same terms: 1, not the 1.0000001 that rounding may make)
        return [(self._ids[other], min(score, 1.0)) for other, score in best]

    def more_like_this(self, paper_id: str, k: int = 50) -> list[tuple[str, float]]:
        """`related` with a longer list: what the "more like this" filter shows."""
        return self.related(paper_id, k)


def _postings(size: int, starts: array, terms: array, weights: array) -> tuple[array, array, array]:
    """The inverted index, flat: term id t's papers (ascending) are
    papers[offsets[t]:offsets[t + 1]], with their weights for t at the same places."""
    # A counting sort of the (paper, term) pairs by term, into arrays sized up front: no
    # per-term arrays, not even for a moment (a sort with a key took three times longer).
    owners = chain.from_iterable(map(repeat, range(len(starts) - 1), map(sub, starts[1:], starts)))
    counts = Counter(terms)
    offsets = array("Q", accumulate((counts.get(t, 0) for t in range(size)), initial=0))
    free = offsets.tolist()  # the next free place of each term
    # (sized by repeating one zero: `array(t, bytes(n))` would first make n zero bytes)
    papers = array("I", [0]) * len(terms)
    values = array(WEIGHT_TYPE, [0.0]) * len(terms)
    for term, owner, weight in zip(terms, owners, weights):
        place = free[term]
        free[term] = place + 1
        papers[place] = owner
        values[place] = weight
    return papers, values, offsets


def _noting_ids(views: Iterable[PaperView], ids: list[str]) -> Iterator[PaperView]:
    """`views`, appending each one's id to `ids` as it passes."""
    for view in views:
        ids.append(view.id)
        yield view


def fingerprint(views: Iterable[PaperView], top_terms: int = TOP_TERMS) -> str:
    """A digest of exactly what the index is made from, so a cache goes stale whenever a
    paper, its order, or the indexing rules change."""
    rules = f"{_CACHE_FORMAT}:{top_terms}:{' '.join(sorted(STOP_WORDS))}"
    digest = hashlib.blake2b(rules.encode(), digest_size=16)
    for v in views:
        digest.update("\x00".join((v.id, v.title, *v.keywords, v.paper.abstract, "\x01")).encode("utf-8", "replace"))
    return digest.hexdigest()


__all__ = ["TOP_TERMS", "RelatedIndex", "fingerprint", "STOP_WORDS", "is_content_term", "paper_terms", "tokenize"]
