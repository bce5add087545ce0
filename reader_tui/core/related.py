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

import heapq
import math
from collections import Counter
from collections.abc import Iterable
from itertools import chain
from operator import mul

from .model import PaperView

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


def paper_text(view: PaperView) -> str:
    """The text a paper is compared by. Title and keywords appear twice: they name the
    topic more reliably than any sentence of the abstract."""
    head = " ".join((view.title, *view.keywords))
    return f"{head} {head} {view.paper.abstract}"


class RelatedIndex:
    """Papers most similar to a given one. Build once (`RelatedIndex.build`), query often.

    Immutable after building, so one index may be queried from any thread.
    """

    def __init__(
        self,
        ids: list[str],
        vectors: list[list[tuple[str, float]]],
        postings: dict[str, list[tuple[int, float]]],
    ) -> None:
        self._ids = ids
        self._ordinal = {pid: n for n, pid in enumerate(ids)}
        self._vectors = vectors
        self._postings = postings

    @classmethod
    def build(cls, views: Iterable[PaperView], *, top_terms: int = 30, max_df: float = 0.2) -> "RelatedIndex":
        """Index `views`. Each paper keeps its `top_terms` heaviest terms. Terms found in
        only one paper (they can match nothing) or in more than `max_df` of them (their
        weight is small, and they make the postings long) are dropped."""
        views = list(views)
        ids = [v.id for v in views]
        counts = [Counter(tokenize(paper_text(v))) for v in views]
        df = Counter(chain.from_iterable(counts))
        n = len(views)
        # In a small library df fractions are noise: only prune common terms in a big one.
        ceiling = max(int(max_df * n), min(n, 20))
        idf = {
            term: math.log(n / k)
            for term, k in df.items()
            if 2 <= k <= ceiling and is_content_term(term)
        }
        vocabulary = idf.keys()
        weight_of = idf.__getitem__
        vectors: list[list[tuple[str, float]]] = []
        postings: dict[str, list[tuple[int, float]]] = {}
        for ordinal, c in enumerate(counts):
            # Every step below is a C-level map/sort over the paper's few hundred terms:
            # a Python loop per (paper, term) pair would triple the build time.
            terms = list(c.keys() & vocabulary)
            tfs = list(map(c.__getitem__, terms))
            if tfs and max(tfs) >= len(_SUBLINEAR):  # a pathological abstract: clamp
                tfs = [min(t, len(_SUBLINEAR) - 1) for t in tfs]
            weights = map(mul, map(_SUBLINEAR.__getitem__, tfs), map(weight_of, terms))
            top = [(w, t) for w, t in sorted(zip(weights, terms), reverse=True)[:top_terms] if w > 0]
            if not top:
                vectors.append([])
                continue
            norm = math.sqrt(sum(w * w for w, _ in top))
            vector = [(term, w / norm) for w, term in top]
            vectors.append(vector)
            for term, w in vector:
                postings.setdefault(term, []).append((ordinal, w))
        return cls(ids, vectors, postings)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._ordinal

    def terms(self, paper_id: str) -> list[tuple[str, float]]:
        """The paper's indexed terms with their weights, heaviest first (why it matches
        what it matches). Empty for a paper the index does not know."""
        ordinal = self._ordinal.get(paper_id)
        return [] if ordinal is None else list(self._vectors[ordinal])

    def related(self, paper_id: str, k: int = 5) -> list[tuple[str, float]]:
        """The `k` papers most similar to `paper_id` as (id, cosine) pairs, best first,
        without the paper itself. Only papers sharing an indexed term appear, so fewer than
        `k` may come back; a paper added after the build gets an empty list."""
        ordinal = self._ordinal.get(paper_id)
        if ordinal is None or k <= 0:
            return []
        scores: dict[int, float] = {}
        get = scores.get
        for term, weight in self._vectors[ordinal]:
            for other, other_weight in self._postings[term]:
                scores[other] = get(other, 0.0) + weight * other_weight
        scores.pop(ordinal, None)
        # Ties go to the earlier paper so the answer never depends on dict order.
        best = heapq.nsmallest(k, scores.items(), key=lambda item: (-item[1], item[0]))
        return [(self._ids[other], score) for other, score in best]

    def more_like_this(self, paper_id: str, k: int = 50) -> list[tuple[str, float]]:
        """`related` with a longer list: what the "more like this" filter shows."""
        return self.related(paper_id, k)


__all__ = ["RelatedIndex", "STOP_WORDS", "is_content_term", "paper_text", "tokenize"]
