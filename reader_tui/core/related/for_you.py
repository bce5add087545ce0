""""For you": the undecided papers ranked by a model of the user's own decisions.

It starts from arxiv-sanity-lite's recipe (TF-IDF and a linear SVM) and adds what the
library holds besides the decisions. Each paper is a TF-IDF vector over the words of its
title and short name, its keywords and authors, and its abstract (one block of columns
per field, the title's weighing most), built straight from the search index's postings,
so nothing is tokenised again, with its TL;DR's words and, once the reviews are
imported, its reviewers' summaries' added to the abstract's columns (`Features`, once
per index and reviews store). The SVM also sees each paper's latent topics (LSA: a
truncated SVD of those rows, fitted with them), which a few decisions share with the
rest of their topic when they share few words. A scikit-learn linear SVM is trained on
the user's decisions (`train`):

* positive: to-read, reading, read, or any tag (for a tag's model, "more like tag:X":
  the papers with that tag);
* negative: skipped;
* weakly negative: papers the user saw and left undecided (`seen`, e.g. passed over in
  triage).

The SVM is then trained again three times with the thirty papers it is surest of as
positives, half as many again each round (self-training on the unlabelled papers): a
handful of decisions holds few of a topic's words, and this widens them; each thing the
user keeps (a topic of three kept papers or more) gets its share of them, so the
densest does not take them all. The user's notes
add their words to their papers' rows. A paper's score is the SVM's margin, and the top
of the order is made broad (`diversify`, maximal marginal relevance in the same TF-IDF
space): the user who keeps papers on four sub-topics sees all four near the top, not
only the densest one.
A retrain builds nothing of the size of the list: the features are made once per index,
and the notes change only their own papers' rows.
`benchmarks.bench_for_you` measures all this against the plain recipe, area by area.
Every ranked paper can say why (`ForYou.explain`): the words that weigh most for it and
the one or two of the user's papers it is closest to.

scikit-learn, numpy and scipy are imported by the functions that need them, never at
module import, so the TUI's start-up does not pay for them. Training is meant to run
off the UI thread, after each decision, debounced (see `train`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Status
from ..process_tuning import release_free_memory
from .similar import STOP_WORDS

#: Statuses that say "I want this paper".
POSITIVE = frozenset({Status.TO_READ, Status.READING, Status.READ})
#: How many positive and negative decisions "for you" needs before it is offered in triage.
MIN_POSITIVE, MIN_NEGATIVE = 3, 3
#: Sample weights: a decision, a paper seen and left undecided.
WEIGHT_DECIDED, WEIGHT_SEEN = 1.0, 0.3
#: Column weights of the fields (title and short name above keywords/authors above abstract).
FIELD_WEIGHTS = (2.0, 1.0, 1.0)
#: Self-training: rounds, how many of the surest papers join the positives (of 20,000, in
#: proportion on a shorter list), how many times more each round, and their weight.
SELF_TRAIN_ROUNDS, SELF_TRAIN_TOP, SELF_TRAIN_GROWTH, SELF_TRAIN_WEIGHT = 3, 30, 1.5, 1.0
#: A topic of the kept papers (`kept_topics`, in `Features.topics`) with at least this
#: many is a thing the user keeps: self-training widens each such topic by its share of
#: the kept papers, and the broad top gives each at least `FAIR_SHARE` of its share of the
#: places. Left to the margin alone, self-training drifts to the densest of them: seven
#: papers kept on each of offline RL, world models and bandits gave a top 30 of robot
#: learning, the first bandit paper 699th. By topic, the tuning seeds' top 20 reaches 3.08
#: clusters of the kept papers, not 2.88, for 0.007 of precision@50.
TOPIC_MIN, FAIR_SHARE = 3, 0.5
#: The value a word of the user's notes adds to its paper's row (a title word's is about
#: 2 times its idf): the user's own words say what the paper is about to them.
NOTES_WEIGHT = 4.0
#: Active triage (`triage_pick`): one paper in `EXPLORE_EVERY` is the one the model is
#: least sure of, the others the ones it ranks first.
EXPLORE_EVERY = 4
#: The weight of a paper's TL;DR beside the rest of its row (both of unit length): a
#: second summary, in the authors' fewest words.
TEXT_WEIGHT = 0.5
#: The weight of a paper's reviewers' summaries beside the rest of its row (both of unit
#: length), when the library holds its reviews: three or four readers retell the paper in
#: the field's common words, which a few decisions share with the rest of their topic
#: (precision@50 +0.056 in `benchmarks.bench_for_you`'s tuning seeds; 1.5 to 2.5 alike).
REVIEWS_WEIGHT = 2.0
#: Latent topics (LSA: a truncated SVD of the TF-IDF rows) joined to each row for the SVM,
#: at `LATENT_WEIGHT` of the words' length: a handful of decisions shares few words with the
#: rest of its topic, but many of its directions (precision@50 +0.03 in
#: `benchmarks.bench_for_you`). Fitted on a sample of `LATENT_SAMPLE` rows, on lists of
#: `LATENT_MIN_PAPERS` at least (a short list has too few papers to find topics in).
LATENT_DIMENSIONS, LATENT_WEIGHT, LATENT_SAMPLE, LATENT_MIN_PAPERS = 128, 1.0, 4000, 1000
#: The weight of the whole keywords' columns (rows of unit length) beside the words': an
#: author's "offline reinforcement learning" says more than its three words apart.
KEYWORD_WEIGHT = 0.5
#: SVM regularisation (liblinear's C): small, since the labels are few and noisy.
C = 0.1
#: Breadth (maximal marginal relevance): the best `DIVERSE_POOL` undecided papers (of those
#: with a positive score) are put
#: in an order where each next paper is the one whose score (in standard deviations)
#: less `DIVERSITY` times its cosine to the closest paper already above it is highest, so
#: the top follows each of the things the user keeps, not only the densest one.
DIVERSE_POOL, DIVERSITY = 300, 1.5
#: ... and less `COVERAGE` times log(1 + n), n the papers above it of the same topic of kept
#: papers as it (`kept_topics`): each thing the user keeps gets a place near the top, not
#: only the densest one (on `benchmarks.bench_for_you`'s tuning seeds, clusters of the kept
#: papers reached in the top 20: 2.58 of 4 at 0.3, 2.88 at 1.0, 3.08 at 2.0, for 0.010 and
#: 0.022 of precision@50; tried by hand, 7 papers kept on each of offline RL, world models
#: and bandits gave a top 20 of offline RL alone at 0.3).
COVERAGE = 1.0
#: ... once at least this many papers have a positive score.
DIVERSE_MIN = 50
#: ... for the first `BROAD_TOP` places (about a screen of the list); the rest of the pool
#: follows in the score's order: past the top the user reads first, each paper breadth
#: lifts pushes down one the model rates higher, and buys no breadth that is seen
#: (precision@50 +0.005 on the tuning seeds at 20 to 30, the top 20 as broad as before).
BROAD_TOP = 30
#: The head's scores (`ForYou.order`): the best margin, plus this much per place above.
HEAD_STEP = 1e-3
#: Kept papers at least this alike on average (cosine of their latent topics) are one topic.
TOPIC_LINK = 0.35


def readiness(views: Iterable[Any]) -> tuple[bool, str]:
    """Whether "for you" has enough decisions to be offered, and a line that says so or
    says how many more it needs ("for you needs 2 more papers kept and 3 skipped")."""
    kept = skipped = 0
    for view in views:
        if view.status == Status.SKIPPED:
            skipped += 1
        elif view.status in POSITIVE or view.tags:
            kept += 1
    if kept >= MIN_POSITIVE and skipped >= MIN_NEGATIVE:
        return True, f"for you: learned from {kept} papers kept and {skipped} skipped"
    need = []
    if kept < MIN_POSITIVE:
        need.append(f"{MIN_POSITIVE - kept} more kept (to-read, reading, read or tagged)")
    if skipped < MIN_NEGATIVE:
        need.append(f"{MIN_NEGATIVE - skipped} more skipped")
    return False, "for you needs " + " and ".join(need)


class Features:
    """The TF-IDF matrix of every paper of a search index (rows in its ordinal order),
    built from the index's postings; `words[j]` names column j ("title:muon")."""

    def __init__(self, index: Any, papers: Iterable[Any] = (), reviews: Iterable[tuple[str, str]] = ()) -> None:
        """`papers`: the index's records (or views), for what the index does not hold:
        their TL;DRs' words join their rows in the abstract's columns at `TEXT_WEIGHT` of
        the row's length, and their keywords, each whole, are columns of their own for the
        SVM (`KEYWORD_WEIGHT`). `reviews`: (paper id, its reviewers' summaries), whose
        words join their rows at `REVIEWS_WEIGHT` (`ReviewStore.summaries`)."""
        import numpy as np
        from scipy import sparse

        ids, vocab, posts = index.field_postings()
        n = len(ids)
        stop = np.flatnonzero([w in STOP_WORDS or len(w) < 2 or w.isdigit() for w in vocab])
        blocks, words, weights = [], [], []
        names = ("title", "meta", "abstract")
        for name, weight, flat in zip(names, FIELD_WEIGHTS, posts):
            indptr, rows = flat.columns()
            df = np.diff(indptr)
            # words in 2 papers at least and in at most a quarter of them: the rest say nothing
            keep = (df >= 2) & (df <= n // 4 + 1) & ~np.isin(np.arange(len(vocab)), stop)
            idf = np.log((1 + n) / (1 + df)) + 1.0
            column = sparse.csc_matrix(
                (np.ones(len(rows), dtype=np.float32), rows, indptr), shape=(n, len(vocab))
            )[:, keep]
            blocks.append(column @ sparse.diags((weight * idf[keep]).astype(np.float32)))
            weights.append((weight * idf[keep]).astype(np.float32))
            kept = np.flatnonzero(keep)
            words += [f"{name}:{vocab[j]}" for j in kept]
        matrix = sparse.hstack(blocks, format="csr", dtype=np.float32)
        self.ids: list[str] = ids
        self.ordinal: dict[str, int] = dict(zip(ids, range(n)))
        self.words: list[str] = words
        self.column: dict[str, int] = {w: j for j, w in enumerate(words)}
        self._abstract_columns: dict[str, int] | None = None  # word -> its abstract column, made at first use
        self.matrix = _normalised(matrix)
        papers = list(papers)
        texts = [(paper.id, tldr) for paper in papers if (tldr := getattr(paper, "tldr", ""))]
        if texts:
            extra = self._words_of(texts)
            if extra is not None:
                extra = _normalised(extra @ sparse.diags(np.concatenate(weights)))
                self.matrix = _normalised(self.matrix + TEXT_WEIGHT * extra)
        latent = n >= LATENT_MIN_PAPERS
        said = self._words_of(reviews)
        own = None
        if said is not None:
            own = _latent(self.matrix) if latent else self.matrix  # the papers' own words, before the reviews'
            # weighed by how few of the reviews use a word: "paper", "proposes" and
            # "method" are in nearly every summary and say nothing of the topic
            used = np.bincount(said.indices, minlength=said.shape[1])
            reviewed = np.count_nonzero(np.diff(said.indptr))
            idf = np.log((1 + reviewed) / (1 + used)) + 1.0
            said = _normalised(said @ sparse.diags(idf.astype(np.float32)))
            self.matrix = _normalised(self.matrix + REVIEWS_WEIGHT * said)
        self.keywords = self._keywords(papers)
        """Each paper's keywords, whole ("offline reinforcement learning"), TF-IDF rows of
        unit length (None: no paper has a keyword two papers share)."""
        self.latent = _latent(self.matrix) if latent else None
        """Each paper's latent topics (rows of unit length), None on a short list."""
        self.topics = self.latent if own is None else own
        """Where the topics of the kept papers and the breadth of the top are found: the
        latent topics of each paper's own words, without its reviews' (on a short list,
        its own words' rows; None on a short list without reviews, where `train` uses
        the words with the notes). The reviewers' common words, which widen the model's
        reach over a field, also blur its sub-topics: offline RL, world models and
        bandits, seven papers kept on each, read as one "reinforcement learning", and the
        top 20 held no bandit paper."""
        keywords = None if self.keywords is None else (KEYWORD_WEIGHT * self.keywords).tocsr()
        self._svm = _Joined([self.matrix, keywords], self.latent)
        self._noted: tuple[frozenset[tuple[str, str]], Any, Any] | None = None
        # what the build dropped (the decoded reviews, the triplets of their words, the
        # SVDs' work arrays) lies between what stays, and glibc kept it: at 19,630 papers
        # with reviews the process stayed 221 MB larger, of which the features hold 85
        release_free_memory()

    def svm_matrix(self, notes: Mapping[str, str] | None = None) -> Any:
        """What the SVM sees, with the words of `notes` (id -> text) in their papers' rows:
        the words, the whole keywords and the latent topics (rows and `@` only)."""
        return _Patched(self._svm, self._notes_delta(notes or {})[1])

    def _notes_delta(self, notes: Mapping[str, str]) -> tuple[Any, Any]:
        """The rows `notes` change, as (words, SVM's columns) matrices of their differences,
        None without notes; the last notes' are kept, since most decisions leave the notes
        as they were."""
        key = frozenset((pid, text) for pid, text in notes.items() if text)
        noted = self._noted  # read once: a second training thread may replace it meanwhile
        if noted is not None and noted[0] == key:
            return noted[1], noted[2]
        words = svm = None
        extra = self._words_of(key) if key else None
        if extra is not None:
            words = _row_changes(self.matrix, extra)
            svm = _padded(words, self._svm.shape[1])
        self._noted = (key, words, svm)
        return words, svm

    def _keywords(self, papers: Sequence[Any]) -> Any:
        """The TF-IDF of the papers' keywords as typed, each a term (lower case, a
        ";"- or ","-separated list split), in 2 papers at least and a twentieth (or 10) at most."""
        import math
        import re
        from collections import Counter

        import numpy as np
        from scipy import sparse

        n = len(self.ids)
        terms: dict[int, set[str]] = {}
        for paper in papers:
            o = self.ordinal.get(paper.id)
            if o is None:
                continue
            found = {" ".join(part.lower().split()) for k in getattr(paper, "keywords", ()) for part in re.split(r"[;,]", k)}
            found.discard("")
            if found:
                terms[o] = found
        df = Counter(t for found in terms.values() for t in found)
        column = {t: j for j, t in enumerate(sorted(t for t, c in df.items() if 2 <= c <= max(10, n // 20)))}
        rows, cols, values = [], [], []
        for o, found in terms.items():
            for t in found:
                j = column.get(t)
                if j is not None:
                    rows.append(o)
                    cols.append(j)
                    values.append(math.log((1 + n) / (1 + df[t])) + 1.0)
        if not rows:
            return None
        return _normalised(sparse.csr_matrix((np.asarray(values, dtype=np.float32), (rows, cols)), shape=(n, len(column))))

    def _words_of(self, texts: Iterable[tuple[str, str]]) -> Any:
        """A 0/1 matrix of the words of `texts` ((id, text) pairs) in the abstract's
        columns, None when none of them is there."""
        import numpy as np
        from scipy import sparse

        from ..text.tokens import tokens

        if self._abstract_columns is None:
            self._abstract_columns = {w[9:]: j for w, j in self.column.items() if w.startswith("abstract:")}
        column = self._abstract_columns.get
        rows, cols = [], []
        for pid, text in texts:  # a conference's reviews: 50 MB of text, a few seconds
            o = self.ordinal.get(pid)
            if o is None or not text:
                continue
            found = [j for j in map(column, set(tokens(text))) if j is not None]
            rows += [o] * len(found)
            cols += found
        if not rows:
            return None
        return sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=self.matrix.shape)

    def __len__(self) -> int:
        return len(self.ids)

    def with_notes(self, notes: Mapping[str, str]) -> Any:
        """The words' matrix with the words of the user's `notes` (id -> text) added to
        their papers' rows (`NOTES_WEIGHT`, in the abstract words' columns; rows and `@` only)."""
        return _Patched(self.matrix, self._notes_delta(notes)[0])


class _Joined:
    """The sparse column blocks (the words, the whole keywords) and the dense latent topics
    side by side, never joined whole: a retrain takes the rows it fits on and one product
    per block (the latent block dense, where numpy is fastest), and no block is copied
    (at 19,630 papers with reviews, a joined copy of the words was 28 MB)."""

    def __init__(self, blocks: Sequence[Any], latent: Any) -> None:
        import numpy as np

        self.blocks = [block for block in blocks if block is not None]
        if latent is not None and LATENT_WEIGHT != 1.0:
            latent = (LATENT_WEIGHT * latent).astype(np.float32)
        self.latent = latent
        self.widths = [block.shape[1] for block in self.blocks] + ([] if latent is None else [latent.shape[1]])
        self.shape = (self.blocks[0].shape[0], sum(self.widths))

    def __getitem__(self, rows: Any) -> Any:
        import numpy as np
        from scipy import sparse

        parts = [block[rows] for block in self.blocks]
        if self.latent is not None:
            parts.append(sparse.csr_matrix(self.latent[rows]))
        return parts[0] if len(parts) == 1 else sparse.hstack(parts, format="csr", dtype=np.float32)

    def __matmul__(self, vector: Any) -> Any:
        out, start = 0, 0
        for block, width in zip([*self.blocks, self.latent], self.widths):
            out = out + block @ vector[start:start + width]
            start += width
        return out


class _Patched:
    """A large matrix with a few rows changed by `delta` (None: none), never copied:
    `rows[...]` and `@ vector` give what the changed matrix would."""

    def __init__(self, base: Any, delta: Any) -> None:
        self.base, self.delta = base, delta
        self.shape = base.shape

    def __getitem__(self, rows: Any) -> Any:
        sub = self.base[rows]
        return sub if self.delta is None else (sub + self.delta[rows]).tocsr()

    def __matmul__(self, vector: Any) -> Any:
        out = self.base @ vector
        return out if self.delta is None else out + self.delta @ vector


def _row_changes(matrix: Any, extra: Any) -> Any:
    """`matrix`'s rows with `NOTES_WEIGHT` times `extra` added and scaled to unit length,
    less the rows as they were: zero but in the rows `extra` touches."""
    import numpy as np
    from scipy import sparse

    touched = np.flatnonzero(np.diff(extra.indptr))
    before = matrix[touched]
    change = _normalised(before + NOTES_WEIGHT * extra[touched]) - before
    place = sparse.csr_matrix((np.ones(len(touched), dtype=np.float32), (touched, np.arange(len(touched)))),
                              shape=(matrix.shape[0], len(touched)))
    return (place @ change).tocsr()


def _padded(matrix: Any, width: int) -> Any:
    """`matrix` with empty columns after its own, up to `width`."""
    from scipy import sparse

    return sparse.csr_matrix((matrix.data, matrix.indices, matrix.indptr), shape=(matrix.shape[0], width))


def _latent(matrix: Any) -> Any:
    """LSA of `matrix`: a truncated SVD fitted on a regular sample of its rows, every row
    projected on it, each of unit length."""
    import numpy as np
    from sklearn.decomposition import TruncatedSVD

    n = matrix.shape[0]
    sample = matrix[:: max(1, n // LATENT_SAMPLE)]
    svd = TruncatedSVD(n_components=LATENT_DIMENSIONS, n_iter=3, random_state=0).fit(sample)
    latent = np.asarray(matrix @ svd.components_.T.astype(np.float32), dtype=np.float32)
    norms = np.linalg.norm(latent, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return latent / norms


def _normalised(matrix: Any) -> Any:
    """Rows scaled to unit length (a paper with no kept word stays zero)."""
    import numpy as np
    from scipy import sparse

    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return (sparse.diags((1.0 / norms).astype(np.float32)) @ matrix).tocsr()


@dataclass(frozen=True)
class Reason:
    """Why a paper ranks where it does: its words that weigh most in the model (the word
    and its weight) and the user's papers closest to it (id and cosine)."""

    words: tuple[tuple[str, float], ...]
    like: tuple[tuple[str, float], ...]

    def describe(self, titles: Mapping[str, str] | None = None) -> str:
        """One line: "words: muon, optimizer, orthogonal · like: NorMuon (0.41)"."""
        text = "words: " + ", ".join(w for w, _ in self.words) if self.words else "words: none"
        if self.like:
            named = [f"{(titles or {}).get(pid, pid)} ({sim:.2f})" for pid, sim in self.like]
            text += " · like: " + "; ".join(named)
        return text


@dataclass
class ForYou:
    """A trained model: `scores` of every paper (by id), `rank` and `explain`."""

    features: Features
    coef: Any  # one weight per column: the words', the whole keywords', the latent topics'
    margin: Any  # the SVM's margin, one per paper (ordinal order)
    positives: tuple[str, ...]
    decided: frozenset[str]
    tag: str | None = None
    _matrix: Any = field(default=None, repr=False)  # the words' rows, notes added
    order: Any = None
    """The score the papers are ordered by: the margin, but the first `BROAD_TOP`
    undecided papers of the broad (`diversify`) order scored above every other paper, in
    that order (None: the margin)."""
    kept: int = 0
    """How many papers the model learned "yes" from (kept, or with the tag)."""
    skipped: int = 0
    """How many papers it learned "no" from (skipped; for a tag, decided without it)."""

    @property
    def score(self) -> Any:
        """Each paper's score, in the features' ordinal order (the broad order's)."""
        return self.margin if self.order is None else self.order

    def learned(self) -> str:
        """What the model learned from, in words: "learned from 12 kept and 30 skipped"."""
        return f"learned from {self.kept} kept and {self.skipped} skipped"

    def scores(self) -> dict[str, float]:
        """Paper id -> score, for every paper (`core.search.sorting`'s "for-you" sort)."""
        return dict(zip(self.features.ids, self.score.tolist()))

    def rank(self, candidates: Iterable[str] | None = None, *, undecided: bool = True) -> list[tuple[str, float]]:
        """(id, score) of `candidates` (None: every paper), best first; the papers the
        user has decided on (or, for a tag's model, tagged) are left out unless
        `undecided` is False. Ties keep the candidates' order."""
        import numpy as np

        ordinal = self.features.ordinal
        ids = self.features.ids if candidates is None else [pid for pid in candidates if pid in ordinal]
        if undecided:
            ids = [pid for pid in ids if pid not in self.decided]
        values = self.score[np.fromiter(map(ordinal.__getitem__, ids), dtype=np.int64, count=len(ids))]
        order = np.argsort(-values, kind="stable").tolist()  # numpy's sort: 20,000 papers in a few ms
        values = values.tolist()
        return [(ids[j], values[j]) for j in order]

    def explain(self, paper_id: str, words: int = 4, like: int = 2) -> Reason:
        """The words that weigh most for `paper_id` (its TF-IDF value times the model's
        weight, positive ones only) and the `like` positive papers closest to it."""
        import numpy as np

        o = self.features.ordinal[paper_id]
        row = self._matrix[o]
        contribution = row.data * self.coef[row.indices]
        order = np.argsort(-contribution)[:words]
        found = tuple(
            (self.features.words[row.indices[j]].split(":", 1)[1], round(float(contribution[j]), 4))
            for j in order if contribution[j] > 0
        )
        found = tuple(dict((w, c) for w, c in reversed(found)).items())[::-1]  # a word once
        found = tuple(sorted(found, key=lambda item: -item[1]))
        near: list[tuple[str, float]] = []
        positives = [pid for pid in self.positives if pid != paper_id]
        if positives:
            rows = [self.features.ordinal[pid] for pid in positives]
            sims = (self._matrix[rows] @ row.T).toarray().ravel()
            for j in np.argsort(-sims)[:like]:
                if sims[j] > 0:
                    near.append((positives[j], round(float(sims[j]), 3)))
        return Reason(found, tuple(near))


def labels(
    views: Iterable[Any], *, tag: str | None = None, seen: Collection[str] = ()
) -> tuple[list[str], list[str], list[str]]:
    """(positive, negative, seen-and-undecided) ids of `views` as `train` reads them.
    With `tag`, the positives are the papers with that tag (any case) and the negatives
    the skipped papers and those decided on without it."""
    positive, negative, weak = [], [], []
    wanted = tag.casefold() if tag else None
    seen = set(seen)
    for view in views:
        status = view.status
        if wanted is not None:
            if any(t.casefold() == wanted for t in view.tags):
                positive.append(view.id)
            elif status == Status.SKIPPED or status in POSITIVE or view.tags:
                negative.append(view.id)
            elif view.id in seen:
                weak.append(view.id)
            continue
        if status in POSITIVE or view.tags:
            positive.append(view.id)
        elif status == Status.SKIPPED:
            negative.append(view.id)
        elif view.id in seen:
            weak.append(view.id)
    return positive, negative, weak


def train(
    features: Features,
    views: Iterable[Any],
    *,
    tag: str | None = None,
    seen: Collection[str] = (),
    notes: Mapping[str, str] | None = None,
) -> ForYou | None:
    """A model of the user's interest from their decisions on `views` (see the module
    docstring), or None when there is no positive paper to learn from (or every paper of
    the list is one).

    About a tenth of a second at 19,630 papers once `features` exists (build that once per
    search index: a few seconds): nothing of the size of the list is built again, the
    SVMs are fitted on the papers decided and the few chosen by self-training, and the
    notes change only their papers' rows. The TUI should call this in a thread worker
    (`@work(thread=True, exclusive=True, group="for-you")`) a short while (0.3 s) after
    the last decision, so a run of decisions trains once, and apply the result on the UI
    thread.
    """
    import numpy as np

    views = list(views)
    positive, negative, weak = labels(views, tag=tag, seen=seen)
    if not positive or len(set(positive) & set(features.ordinal)) == len(features):
        return None  # nothing kept, or everything: no paper to tell the kept ones from
    if notes is None:
        notes = {v.id: v.notes for v in views if v.notes}
    words, seen_by_svm = features.with_notes(notes), features.svm_matrix(notes)
    n = len(features)
    ordinal = features.ordinal
    pos = [ordinal[pid] for pid in positive if pid in ordinal]
    neg = [ordinal[pid] for pid in negative if pid in ordinal]
    low = [ordinal[pid] for pid in weak if pid in ordinal]
    y, weight, rows = _labelled(n, pos, neg, low)
    undecided = np.ones(n, dtype=bool)
    undecided[pos] = undecided[neg] = False
    candidates = np.flatnonzero(undecided)
    space = features.topics if features.topics is not None else words
    shares = _topic_shares(space, pos, candidates)
    margin, coef = _self_trained(seen_by_svm, y, weight, rows, candidates, shares)
    decided_ids = {v.id for v in views if v.status != Status.UNREAD or v.tags}
    if tag is not None:
        decided_ids |= set(positive)
    undecided[[ordinal[pid] for pid in decided_ids if pid in ordinal]] = False
    order = margin.copy()
    if tag is None:  # a tag is one thing the user keeps: its model ranks by score alone
        pool = diversify(margin, words, np.flatnonzero(undecided), pool=DIVERSE_POOL, kept=pos,
                         topics=features.topics, head=BROAD_TOP)
        head = pool[:BROAD_TOP]
        # the broad head above every other paper, a thousandth apart; below it each paper
        # keeps its own margin, so a paper breadth passed over stays where its score puts it
        if len(head):
            order[head] = margin[pool].max() + HEAD_STEP * np.arange(len(head), 0, -1)
    return ForYou(features, coef, margin, tuple(positive), frozenset(decided_ids), tag, words, order,
                  len(pos), len(neg))


def _labelled(n: int, pos: list[int], neg: list[int], low: list[int]) -> tuple[Any, Any, Any]:
    """(label, sample weight, rows to fit on) of the decisions: the positives, the
    negatives and the papers seen and left undecided (weak negatives)."""
    import numpy as np

    y = np.zeros(n, dtype=np.int8)
    y[pos] = 1
    weight = np.zeros(n, dtype=np.float64)
    weight[low] = WEIGHT_SEEN
    weight[neg] = weight[pos] = WEIGHT_DECIDED
    rows = np.union1d(np.union1d(pos, neg), low).astype(np.int64)
    if len(np.unique(y[rows])) < 2:
        # nothing said no yet: the papers of the list at large stand in as weak negatives
        rows = np.union1d(rows, np.arange(0, n, max(1, n // 500)))
        weight[rows[y[rows] == 0]] = np.maximum(weight[rows[y[rows] == 0]], WEIGHT_SEEN)
    return y, weight, rows


def _topic_shares(space: Any, kept: Sequence[int], candidates: Any) -> tuple[Any, Any] | None:
    """(the topic of each of `candidates`: that of the closest kept paper, the share of
    the kept papers of each topic, 0 for a topic under `TOPIC_MIN`), or None when no
    topic has `TOPIC_MIN` kept papers. Rows of `space`, unit length."""

    if len(kept) < TOPIC_MIN:
        return None
    group = kept_topics(space[list(kept)])
    share = _kept_shares(group)
    if not share.any():
        return None
    return group[_closest(space[candidates], space, kept)], share


def _kept_shares(group: Any) -> Any:
    """Each topic's share of the kept papers (`group`: the topic of each), 0 for a topic
    of fewer than `TOPIC_MIN`."""
    import numpy as np

    size = np.bincount(group) if len(group) else np.zeros(1, dtype=np.int64)
    return np.where(size >= TOPIC_MIN, size / max(1, len(group)), 0.0)


def _self_trained(matrix: Any, y: Any, weight: Any, rows: Any, candidates: Any,
                  shares: tuple[Any, Any] | None = None) -> tuple[Any, Any]:
    """The SVM's margins and weights after self-training: fitted on the decisions, then
    `SELF_TRAIN_ROUNDS` times again with the undecided papers it is surest of as positives
    (`SELF_TRAIN_TOP` of 20,000 papers, in proportion on a shorter list, `SELF_TRAIN_GROWTH`
    times more each round): a handful of decisions holds few of a topic's words, and
    this widens them (+0.025 precision@50 in benchmarks.bench_for_you, tuning seeds).
    With `shares` (`_topic_shares`), each topic the user keeps gets its share of those
    papers, its surest ones, and the margin picks the rest."""
    import numpy as np

    margin, coef = _fit(matrix, y, weight, rows)
    surest = min(SELF_TRAIN_TOP, max(1, len(y) * SELF_TRAIN_TOP // 20000))
    for _ in range(SELF_TRAIN_ROUNDS):
        order = np.argsort(-margin[candidates], kind="stable")
        ranked = candidates[order]
        top = ranked[:surest]
        if shares is not None:
            owner, share = shares[0][order], shares[1]
            picked = np.concatenate([ranked[owner == t][:int(surest * part)] for t, part in enumerate(share)])
            top = np.concatenate([picked, ranked[~np.isin(ranked, picked)][:max(0, surest - len(picked))]])
        y2, w2 = y.copy(), weight.copy()
        y2[top], w2[top] = 1, SELF_TRAIN_WEIGHT
        margin, coef = _fit(matrix, y2, w2, np.union1d(rows, top))
        surest = int(surest * SELF_TRAIN_GROWTH)
    return margin, coef


def diversify(score: Any, matrix: Any, candidates: Any, pool: int = DIVERSE_POOL,
              weight: float = DIVERSITY, kept: Sequence[int] = (), coverage: float = COVERAGE,
              topics: Any = None, head: int = BROAD_TOP) -> Any:
    """The best `pool` of `candidates` (ordinals) by `score`, those with a positive score
    only, the first `head` in maximal-marginal-relevance order, the rest after them in
    the score's: each next one of the head maximises its score (in
    standard deviations of the candidates' scores) less `weight` times its cosine (rows of
    `matrix`, unit length) to the most similar paper already chosen, less `coverage`
    times log(1 + n), n the papers already chosen that belong to its topic: the topic of
    the closest of the `kept` papers (ordinals), the kept papers grouped by `kept_topics`
    over the rows of `topics` (each paper's latent topics; `matrix` when None). When the
    user keeps two things or more (topics of `TOPIC_MIN` kept papers), each has its best
    papers in the pool and at least `FAIR_SHARE` of its share of the head's places. A
    few milliseconds for 300 papers."""
    import numpy as np

    ranked = candidates[np.argsort(-score[candidates], kind="stable")]
    # only the papers the model says yes to (a positive score) are spread: breadth must not
    # lift a paper of a topic the user skips above one of a topic they keep
    ranked = ranked[score[ranked] > 0]
    top = ranked[:pool]
    if len(top) < DIVERSE_MIN or weight <= 0:
        return top  # a short list is seen whole: its order stays the score's
    space = matrix if topics is None else topics
    group = kept_topics(space[list(kept)]) if len(kept) else np.zeros(0, dtype=np.int64)
    share = _kept_shares(group)
    kept_things = np.flatnonzero(share)
    if len(kept_things) >= 2:
        # each thing the user keeps has its best papers in the pool, however far below the
        # densest one's they score
        owner = group[_closest(space[ranked], space, kept)]
        best = [ranked[owner == t][:head] for t in kept_things]
        top = ranked[np.isin(ranked, np.concatenate([top, *best]))]  # in the score's order
    # in standard deviations of every candidate's score: a pool of clear "yes" stays apart
    # from the papers below it, however short the list
    spread = float(np.std(score[candidates]))
    relevance = score[top].astype(np.float64) / (spread if spread > 0 else 1.0)
    rows = matrix[top]
    similar = (rows @ rows.T).toarray()
    owner = group[_closest(space[top], space, kept)] if len(kept) else np.zeros(len(top), dtype=np.int64)
    shown = np.zeros(len(share))
    redundancy = np.zeros(len(top))
    left = np.ones(len(top), dtype=bool)
    chosen = []
    for _ in range(min(head, len(top))):
        allowed = left
        if len(kept_things) >= 2:
            # a thing kept with fewer places above than FAIR_SHARE of its share (in whole
            # places: the first is always the best paper's) takes this one
            due = [t for t in kept_things if shown[t] < int(FAIR_SHARE * share[t] * (len(chosen) + 1))
                   and (left & (owner == t)).any()]
            if due:
                allowed = left & (owner == min(due, key=lambda t: shown[t] / share[t]))
        value = np.where(allowed, relevance - weight * redundancy - coverage * np.log1p(shown[owner]), -np.inf)
        j = int(np.argmax(value))
        chosen.append(j)
        left[j] = False
        np.maximum(redundancy, similar[j], out=redundancy)
        shown[owner[j]] += 1
    return np.concatenate([top[chosen], top[left]])  # `top` is in the score's order


def _closest(rows: Any, matrix: Any, kept: Sequence[int]) -> Any:
    """For each of `rows`, which of the `kept` rows of `matrix` it is closest to (all 0
    without kept papers)."""
    import numpy as np

    if not len(kept):
        return np.zeros(rows.shape[0], dtype=np.int64)
    products = rows @ matrix[list(kept)].T
    return np.asarray(products.toarray() if hasattr(products, "toarray") else products).argmax(axis=1).ravel()


def kept_topics(rows: Any, link: float = TOPIC_LINK) -> Any:
    """The topic of each of `rows` (the kept papers' vectors, unit length): groups whose
    papers are on average at least `link` alike (cosine; average linkage). A user who
    keeps seven papers on each of three things keeps three topics, not twenty-one, and
    the breadth of the top is counted by topic: counted by kept paper, the densest
    topic's seven papers each claimed a share of the top."""
    import numpy as np
    from scipy.cluster.hierarchy import fcluster, linkage

    dense = rows.toarray() if hasattr(rows, "toarray") else np.asarray(rows)
    # a paper with no word the features keep (a title-only index's short title) is like
    # none: a topic of its own, outside the cosines it has none of
    known = np.flatnonzero(np.linalg.norm(dense, axis=1) > 0)
    topic = np.arange(len(dense), dtype=np.int64)
    if len(known) >= 2:
        tree = linkage(dense[known], method="average", metric="cosine")
        topic[known] = fcluster(tree, t=1.0 - link, criterion="distance").astype(np.int64) - 1
        alone = np.setdiff1d(np.arange(len(dense)), known)
        topic[alone] = topic[known].max() + 1 + np.arange(len(alone))
    return np.unique(topic, return_inverse=True)[1].astype(np.int64)  # numbered 0, 1, ...


def _fit(matrix: Any, y: Any, weight: Any, rows: Any) -> tuple[Any, Any]:
    """A linear SVM (liblinear) on `rows`: every paper's margin, and the weights."""
    import numpy as np
    from sklearn.svm import LinearSVC

    svm = LinearSVC(C=C, tol=1e-3, max_iter=2000, class_weight="balanced", random_state=0)
    svm.fit(matrix[rows], y[rows], sample_weight=weight[rows])
    coef = svm.coef_.ravel().astype(np.float32)
    return np.asarray(matrix @ coef).ravel() + float(svm.intercept_[0]), coef


def triage_pick(model: ForYou, candidates: Sequence[str], turn: int, every: int = EXPLORE_EVERY) -> str | None:
    """The paper triage in "for you" order shows next, of `candidates` (undecided ids):
    the one ranked first, except on every `every`-th `turn` (0: never), when it is the one
    the model is least sure of (its margin nearest 0) among the 300 it ranks first, since
    the user's answer on that one teaches the model most (active learning)."""
    ranked = model.rank(candidates)
    if not ranked:
        return None
    if every and turn % every == every - 1:
        ordinal = model.features.ordinal
        unsure = [(abs(float(model.margin[ordinal[pid]])), pid) for pid, _ in ranked[:DIVERSE_POOL]]
        return min(unsure)[1]
    return ranked[0][0]


def for_you_order(model: ForYou, ids: Sequence[str]) -> list[str]:
    """`ids` (the current list, filtered or searched) in "for you" order: the undecided
    papers by score, then the decided ones in their given order."""
    ranked = [pid for pid, _ in model.rank(ids)]
    taken = set(ranked)
    return ranked + [pid for pid in ids if pid not in taken]


__all__ = [
    "MIN_NEGATIVE", "MIN_POSITIVE", "POSITIVE", "Features", "ForYou", "Reason", "diversify", "for_you_order", "labels", "triage_pick",
    "readiness", "train",
]
