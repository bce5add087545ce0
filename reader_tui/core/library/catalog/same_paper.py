"""Recognise the same paper arriving from two sources, and merge the two records.

`match_papers` decides, for each incoming paper, which existing paper it is (if any),
by these rules, strongest first:

1. "id": the same paper id (a re-import of the same list, or an OpenReview forum id
   that both the OpenReview and BibTeX importers use), or the id of a record merged
   into the paper before (`Paper.aliases`);
2. "doi" / "url": the same DOI (case-insensitive, `https://doi.org/` and `doi:` dropped)
   or the same url (scheme, `www.`, fragment and trailing slash ignored; OpenReview
   forum/pdf links and arXiv abs/pdf/version links reduced to the paper they name);
3. "title": near-identical titles (`fold`ed, rapidfuzz ratio >= 95) and the same
   year, or a year missing on either side. Derived titles (made from the abstract) never
   take part: two papers can share a first sentence;
4. "abstract": near-identical abstracts (ratio >= 92: abstracts get small edits between
   versions); abstracts shorter than 80 characters do not count ("n/a", one line).

Rules are applied as passes over the whole incoming list, so a stronger match wins over
a weaker one; within one rule, the first incoming record to reach an existing paper wins
and later ones are reported as "new" (never two incoming records merged into one paper).
Incoming records are matched against the existing papers only, never against each other.

The fuzzy rules (title, abstract) also skip a pair the caller's `distinct` says are
different papers: two BibTeX entries with different citation keys are (`distinct_entries`),
whatever their titles, unless an identifier (id, DOI, url) joins them.

Nothing compares all pairs. Exact rules are dict look-ups. For the fuzzy rules each
existing paper is indexed under its few rarest words (by document frequency among the
existing papers), and an incoming paper is compared only with the papers indexed under
its own rarest words. Near-identical texts share nearly all their words, so their rarest words
coincide and they meet in the index. The fuzzy indexes are built only when some
incoming paper is left after the exact rules.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from ...formats.identifiers import (
    BIBTEX_SOURCES,
    OWN_EXPORT_SOURCE,
    fold,
    normalise_doi,
    normalise_url,
)
from ...model import Paper
from ...process_tuning import gc_paused
from ...reviews import merge_scores

TITLE_THRESHOLD = 95.0
ABSTRACT_THRESHOLD = 92.0
MIN_ABSTRACT_CHARS = 80

REASONS = ("id", "doi", "url", "title", "abstract", "new")


@dataclass(frozen=True, slots=True)
class Match:
    """What `incoming[incoming_index]` is: `existing_id` by `reason`, or `None` and "new"."""

    incoming_index: int
    existing_id: str | None
    reason: str

    @property
    def is_new(self) -> bool:
        return self.existing_id is None


# --- matching --------------------------------------------------------------------


Distinct = Callable[[Paper, Paper], bool]


def distinct_entries(existing: Paper, incoming: Paper, existing_key: str = "") -> bool:
    """True when `incoming`, a BibTeX entry, and `existing`, a paper first read from a
    BibTeX entry, have different citation keys: different papers, however alike their
    titles (two chapters of one book). `existing_key` is the existing paper's key as the
    user set it, if that differs from its imported one (an export of the library carries it).

    A paper that came from elsewhere (a seed list, OpenReview) has a key the app made up,
    so a `.bib` entry of the same paper may still be recognised by its title.
    """
    if not (incoming.entry_type and incoming.citekey) or not existing.source.startswith(BIBTEX_SOURCES):
        return False
    key = incoming.citekey.casefold()
    return key != existing.citekey.casefold() and key != existing_key.casefold()


def match_papers(
    existing: Sequence[Paper], incoming: Sequence[Paper], distinct: Distinct | None = None
) -> list[Match]:
    """One `Match` per incoming paper, in order: which existing paper it is, and why.

    See the module docstring for the rules. `distinct(existing, incoming)`, when given,
    keeps the fuzzy rules from joining a pair known to be two papers (default:
    `distinct_entries`). Runs in about linear time: no pair of papers is compared unless
    they share an identifier or rare words.
    """
    with gc_paused():
        return _match_papers(existing, incoming, distinct or distinct_entries)


def _match_papers(existing: Sequence[Paper], incoming: Sequence[Paper], distinct: Distinct) -> list[Match]:
    found: list[Match | None] = [None] * len(incoming)
    claimed: set[str] = set()

    def claim(index: int, existing_id: str, reason: str) -> None:
        found[index] = Match(index, existing_id, reason)
        claimed.add(existing_id)

    if existing:
        # A paper is also known by the ids of the records merged into it before.
        ids = {paper.id: paper.id for paper in existing}
        for paper in existing:
            for alias in paper.aliases:
                ids.setdefault(alias, paper.id)
        for index, paper in enumerate(incoming):
            target = ids.get(paper.id)
            if target is not None and target not in claimed:
                claim(index, target, "id")

        pending = [i for i, m in enumerate(found) if m is None]
        if pending:
            _match_identifiers(existing, incoming, pending, claimed, claim)
        pending = [i for i, m in enumerate(found) if m is None]
        if pending:
            _match_titles(existing, incoming, pending, claimed, claim, distinct)
        pending = [i for i, m in enumerate(found) if m is None]
        if pending:
            _match_abstracts(existing, incoming, pending, claimed, claim, distinct)

    return [m if m is not None else Match(i, None, "new") for i, m in enumerate(found)]


Claim = Callable[[int, str, str], None]


def _match_identifiers(
    existing: Sequence[Paper], incoming: Sequence[Paper], pending: list[int], claimed: set[str], claim: Claim
) -> None:
    by_doi: dict[str, str] = {}
    by_url: dict[str, str] = {}
    for paper in existing:
        if paper.doi:
            by_doi.setdefault(normalise_doi(paper.doi), paper.id)
        if paper.url:
            by_url.setdefault(normalise_url(paper.url), paper.id)
    for index in pending:
        paper = incoming[index]
        doi = normalise_doi(paper.doi) if paper.doi else ""
        existing_id = by_doi.get(doi) if doi else None
        if existing_id is not None and existing_id not in claimed:
            claim(index, existing_id, "doi")
            continue
        url = normalise_url(paper.url) if paper.url else ""
        existing_id = by_url.get(url) if url else None
        if existing_id is not None and existing_id not in claimed:
            claim(index, existing_id, "url")


def _years_agree(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _match_titles(
    existing: Sequence[Paper], incoming: Sequence[Paper], pending: list[int], claimed: set[str], claim: Claim,
    distinct: Distinct,
) -> None:
    wanted = [i for i in pending if not incoming[i].title_derived and incoming[i].title.strip()]
    if not wanted:
        return
    candidates = [p for p in existing if not p.title_derived and p.title.strip()]
    if not candidates:
        return
    texts = [fold(p.title) for p in candidates]
    exact: dict[str, list[int]] = defaultdict(list)
    for position, text in enumerate(texts):
        if text:
            exact[text].append(position)
    leftovers: list[tuple[int, str]] = []
    for i in wanted:
        paper = incoming[i]
        text = fold(paper.title)
        if not text:
            continue
        for position in exact.get(text, ()):
            other = candidates[position]
            if other.id not in claimed and _years_agree(paper.year, other.year) and not distinct(other, paper):
                claim(i, other.id, "title")
                break
        else:
            leftovers.append((i, text))
    if not leftovers:
        return
    index = _RareWordIndex(texts, [text for _, text in leftovers], keep=3)
    for query, (i, text) in enumerate(leftovers):
        paper = incoming[i]
        chosen = _best(
            text, index.candidates(query, probe=6), texts.__getitem__, candidates, claimed,
            TITLE_THRESHOLD, lambda other: _years_agree(paper.year, other.year) and not distinct(other, paper),
        )
        if chosen is not None:
            claim(i, chosen.id, "title")


def _match_abstracts(
    existing: Sequence[Paper], incoming: Sequence[Paper], pending: list[int], claimed: set[str], claim: Claim,
    distinct: Distinct,
) -> None:
    wanted = [i for i in pending if len(incoming[i].abstract) >= MIN_ABSTRACT_CHARS]
    if not wanted:
        return
    candidates = [p for p in existing if len(p.abstract) >= MIN_ABSTRACT_CHARS]
    if not candidates:
        return
    # Blocking works on the raw abstracts: folding every abstract would cost more than
    # the rest together. Only papers that meet a candidate are folded and compared.
    index = _RareWordIndex(
        [p.abstract for p in candidates], [incoming[i].abstract for i in wanted], keep=4, plain_words=True
    )
    folded: dict[int, str] = {}

    def folded_text(position: int) -> str:
        if position not in folded:
            folded[position] = fold(candidates[position].abstract)
        return folded[position]

    for query, i in enumerate(wanted):
        positions = index.candidates(query, probe=8)
        if not positions:
            continue
        text = fold(incoming[i].abstract)
        if len(text) < MIN_ABSTRACT_CHARS:
            continue
        paper = incoming[i]
        chosen = _best(
            text, positions, folded_text, candidates, claimed, ABSTRACT_THRESHOLD,
            lambda other: not distinct(other, paper),
        )
        if chosen is not None:
            claim(i, chosen.id, "abstract")


def _best(
    text: str,
    positions: set[int],
    text_at: Callable[[int], str],
    candidates: Sequence[Paper],
    claimed: set[str],
    threshold: float,
    acceptable: Callable[[Paper], bool],
) -> Paper | None:
    """The unclaimed, acceptable candidate most like `text` at or above `threshold`."""
    best: Paper | None = None
    best_score = threshold
    # Ratio >= t bounds the length ratio, so far shorter or longer texts are skipped unscored.
    floor = threshold / (200.0 - threshold)
    for position in sorted(positions):  # in list order: ties go to the earlier paper
        other = candidates[position]
        if other.id in claimed or not acceptable(other):
            continue
        other_text = text_at(position)
        shorter, longer = sorted((len(text), len(other_text)))
        if longer == 0 or shorter / longer < floor:
            continue
        score = fuzz.ratio(text, other_text, score_cutoff=best_score)
        if score > best_score or (best is None and score >= threshold):
            best, best_score = other, score
    return best


class _RareWordIndex:
    """Texts filed under their `keep` rarest words; each query probes its own rarest.

    Words are the whitespace-split pieces of a text, as written (titles arrive folded;
    for abstracts the versions of one paper keep their case, and folding 20k abstracts
    would cost more than all the rest). Rarity is document
    frequency over the indexed texts and the queries together: a word that is rare
    among 19 indexed papers but common among 20k queries ("however") would otherwise
    send every query to them. Ties are broken by the word's hash, the same way on both
    sides. Two near-duplicates share nearly all their words, so their rarest words
    coincide; a query probes more words than were filed (`probe` > `keep`) so that a
    few edited words do not hide a near-duplicate. Only words of the indexed texts are
    kept for the queries: no other word can lead anywhere. With `plain_words` only
    words made of letters and digits count (raw abstracts: see `__init__`).
    """

    def __init__(self, texts: Sequence[str], queries: Sequence[str], *, keep: int, plain_words: bool = False) -> None:
        word_sets = [set(text.split()) for text in texts]
        if plain_words:
            # Raw texts: only words of letters and digits are filed. "66%" and its export
            # "66\%", or "agents’" and "agents{\textquoteright}", are the rarest words of
            # an abstract and differ between the two copies, which then would never meet.
            word_sets = [{word for word in words if word.isalnum()} for words in word_sets]
        df: Counter[str] = Counter()
        for words in word_sets:
            df.update(words)
        # `set.intersection(list)` walks the query's words only, without building a set
        # of them (a dict or keys view on the left would be copied or walked whole).
        vocabulary = set(df)
        self._queries: list[set[str]] = []
        # The queries' counts are estimated from about 2,000 of them: enough to tell a
        # common word from a rare one, at a tenth of the cost for 20k queries.
        step = max(1, len(queries) // 2000)
        for number, text in enumerate(queries):
            known = vocabulary.intersection(text.split())
            self._queries.append(known)
            if number % step == 0:
                for word in known:  # not Counter.update: its Mapping check costs more
                    df[word] += step
        # One integer per word, rarest first: sorting by it runs entirely in C
        # (faster than heapq.nsmallest for a hundred words).
        self._rank = {word: (count << 32) | (hash(word) & 0xFFFFFFFF) for word, count in df.items()}
        rank = self._rank.__getitem__
        self._postings: dict[str, list[int]] = defaultdict(list)
        for position, words in enumerate(word_sets):
            for word in sorted(words, key=rank)[:keep]:
                self._postings[word].append(position)

    def candidates(self, query: int, *, probe: int) -> set[int]:
        """Positions of indexed texts filed under one of query number `query`'s rarest words."""
        found: set[int] = set()
        for word in sorted(self._queries[query], key=self._rank.__getitem__)[:probe]:
            found.update(self._postings.get(word, ()))
        return found


# --- merging ---------------------------------------------------------------------


def merge_paper(old: Paper, new: Paper, *, refresh: bool | None = None) -> Paper:
    """`old` completed (and, for a re-import, refreshed) with what `new` knows.

    Policy:
    - `old.id` stays; `old.citekey` stays once given (filled from `new` only when empty).
    - A real title replaces a derived one (`title_derived` False wins); a derived title
      never replaces a real one.
    - authors, url, doi, keywords, venue, year, abstract, source: filled where `old` has
      none; otherwise `old` keeps its own (the first source of a paper stays its source),
      except the venue of a seed paper (the list header's "ICLR"), which another source
      that says more of it ("ICLR 2026 Conference Submission") replaces.
    - `short_name`: the new one when it has one, else the old one.
    - `aliases`: `new.id` (when it differs from `old.id`) and `new`'s own aliases join
      `old`'s, so the paper is found by the other source's id too.
    - tldr, area, pdf link: filled in, or refreshed on a re-import; withdrawn stays once
      set; scores: the newer capture's, the ratings it replaces kept (`merge_scores`).
    - A record read back from a file reader-tui exported (`OWN_EXPORT_SOURCE`) changes
      nothing: `old` as it is.
    - A re-import (`refresh`; by default when the ids are the same): the new non-empty
      title and abstract replace the old ones, so corrections in the source reach the
      library - except that a derived title still never replaces a real one.
    - The BibTeX entry (`entry_type`, `extra_fields`): `new`'s when `old` has none (a
      `.bib` entry of a seed or OpenReview paper) or on a re-import, else `old`'s. The
      venue follows the rule above: the entry's `journal`/`booktitle` stay in
      `extra_fields` as written, whatever the venue shown (on a re-import of a `.bib`
      entry the venue is refreshed from it too). A `year` kept as text in
      `extra_fields` goes once the paper has a year.
    """
    if new.source.startswith(OWN_EXPORT_SOURCE):
        # Our own export read back: the paper is already here and the file holds only
        # what the library had, in exported form ("..." for "…", protected capitals,
        # escaped abstracts). It brings the user's tags and notes, never catalog changes.
        return old
    refresh = old.id == new.id if refresh is None else refresh
    title, derived = old.title, old.title_derived
    new_title = new.title.strip()
    if new_title:
        if old.title_derived and not new.title_derived:
            title, derived = new.title, False
        elif refresh and (new.title_derived == old.title_derived):
            title, derived = new.title, new.title_derived
        elif not old.title.strip():
            title, derived = new.title, new.title_derived
    abstract = old.abstract
    if new.abstract.strip() and (refresh or not old.abstract.strip()):
        abstract = new.abstract
    entry_type, extra = old.entry_type, old.extra_fields
    if new.entry_type and (refresh or not old.entry_type):
        entry_type, extra = new.entry_type, new.extra_fields
    year = old.year if old.year is not None else new.year
    if year is not None and any(name == "year" for name, _ in extra):
        extra = tuple((name, value) for name, value in extra if name != "year")
    return old.evolve(
        title=title,
        title_derived=derived,
        abstract=abstract,
        authors=old.authors or new.authors,
        url=old.url or new.url,
        doi=old.doi or new.doi,
        keywords=old.keywords or new.keywords,
        # A re-imported entry's journal or booktitle may have changed: its venue follows.
        # A seed list's venue is its header's short name ("ICLR"): a source that says more
        # of the same venue ("ICLR 2026 Conference Withdrawn Submission") wins.
        venue=(new.venue or old.venue)
        if (refresh and new.entry_type and old.entry_type) or _refines_seed_venue(old, new)
        else (old.venue or new.venue),
        year=year,
        citekey=old.citekey or new.citekey,
        source=old.source or new.source,
        short_name=new.short_name or old.short_name,
        entry_type=entry_type,
        extra_fields=extra,
        aliases=_aliases(old, new),
        # What an OpenReview snapshot with reviews knows: the TL;DR, area and pdf link
        # filled in or refreshed, withdrawn once withdrawn, the newer capture's scores
        # (keeping the ratings they replace, `reviews.merge_scores`).
        tldr=new.tldr if new.tldr and (refresh or not old.tldr) else old.tldr,
        area=new.area if new.area and (refresh or not old.area) else old.area,
        pdf_url=new.pdf_url if new.pdf_url and (refresh or not old.pdf_url) else old.pdf_url,
        withdrawn=old.withdrawn or new.withdrawn,
        scores=merge_scores(old.scores, new.scores),
    )


def _refines_seed_venue(old: Paper, new: Paper) -> bool:
    return (
        old.source.startswith("seed:")
        and bool(old.venue)
        and len(new.venue) > len(old.venue)
        and old.venue.casefold() in new.venue.casefold()
    )


def _aliases(old: Paper, new: Paper) -> tuple[str, ...]:
    """`old`'s aliases with `new`'s id and aliases added (never `old.id` itself)."""
    added = [pid for pid in (new.id, *new.aliases) if pid != old.id and pid not in old.aliases]
    return old.aliases + tuple(dict.fromkeys(added)) if added else old.aliases
