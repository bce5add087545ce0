"""Merging incoming papers into the catalog's records: the heart of `Library.import_papers`,
as a function of the records read from disk (it runs under the store's lock)."""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...model import Paper
from .records import Catalog

_WHY = {
    "doi": "the same DOI",
    "url": "the same url",
    "title": "a near-identical title and the same year",
    "abstract": "a near-identical abstract",
}


@dataclass(frozen=True, slots=True)
class MergeNote:
    """Incoming record `index` was folded into another paper: into the record `into_index`
    of the same import (when not None), else into the library's paper `into_key`/`into_title`;
    `why` says what made them one paper."""

    index: int
    into_index: int | None
    into_key: str
    into_title: str
    why: str


@dataclass(slots=True)
class ImportSummary:
    """What one import did to the catalog, every incoming record counted once:

    - new: added as a paper of its own;
    - updated / unchanged: a paper the library already had (the same id; for a BibTeX
      entry, the same citation key), which did / did not bring something new; also a
      record that matched a paper by DOI, url, title or abstract and brought nothing new
      (unless it is a BibTeX entry under another key: that one is merged);
    - merged: folded into another paper, one already in the library (by DOI, url, title
      or abstract) or another record of this import (the same DOI, url or key); `merges`
      says which, for `details`;
    - skipped: entries the importer could not take (counted by `add_problems`);
    - warnings: entries that got in but lost or changed something on the way.
    """

    new: int = 0
    updated: int = 0
    merged: int = 0
    unchanged: int = 0
    skipped: int = 0
    warnings: int = 0
    new_ids: list[str] = field(default_factory=list)
    id_map: dict[str, str] = field(default_factory=dict)
    """Incoming id -> the id of the paper it was merged into (only for merged papers)."""
    merges: list[MergeNote] = field(default_factory=list)
    problems: list[Any] = field(default_factory=list)
    """The importers' `ImportProblem`s, added by `add_problems`."""
    notes_added: list[str] = field(default_factory=list)
    """Ids of the papers whose notes got the file's notes added (below the user's own)."""
    tags_added: list[str] = field(default_factory=list)
    """Ids of the papers that got tags from the file."""
    added_to_own: dict[str, list[str]] = field(default_factory=dict)
    """"notes"/"tags" -> ids of the papers among those whose own notes/tags were not
    empty: the file's were added to the user's."""
    reattached: int = 0
    """Annotations left without their paper (a lost catalog) that moved onto the paper
    their record merged into."""
    reviews: Any = None
    """What the import did to the reviews store (`reviews_store.ReviewsWritten`), when the
    files brought reviews."""

    def add_problems(self, problems: Sequence[Any]) -> None:
        """Count the importers' problems: skipped entries and warnings, each as its kind says."""
        self.problems.extend(problems)
        for problem in problems:
            if getattr(problem, "kind", "skipped") == "warning":
                self.warnings += 1
            else:
                self.skipped += 1

    @property
    def entries(self) -> int:
        """How many entries the files held (each one is counted in exactly one bucket)."""
        return self.new + self.updated + self.merged + self.unchanged + self.skipped

    def __str__(self) -> str:
        # Every count grouped as "19,630 entries read" before it is: "19,630 entries
        # read: 19630 new" read as two different numbers.
        text = (
            f"{self.new:,} new, {self.updated:,} updated, {self.merged:,} merged, "
            f"{self.unchanged:,} unchanged, {self.skipped:,} skipped"
        )
        if self.warnings:
            text += f"; {self.warnings:,} warning{'s' if self.warnings != 1 else ''}"
        # The counts above are the catalog's; what the import did to the user's own
        # annotations is said too, or a re-import of an old export would read as no change.
        done = []
        if self.notes_added:
            done.append(f"notes added to {_papers(len(self.notes_added))}")
        if self.tags_added:
            done.append(f"tags added to {_papers(len(self.tags_added))}")
        if self.reattached:
            done.append(f"annotations of {_papers(self.reattached)} reattached")
        if self.reviews is not None:
            reviews = self.reviews
            text_reviews = f"reviews of {_papers(reviews.added + reviews.updated + reviews.unchanged)}: "
            text_reviews += f"{reviews.added:,} new, {reviews.updated:,} updated, {reviews.unchanged:,} unchanged"
            if reviews.moved:
                text_reviews += f" ({reviews.moved:,} review{'s' if reviews.moved != 1 else ''} changed scores)"
            done.append(text_reviews)
        return f"{text}; {', '.join(done)}" if done else text

    def details(self, labels: Sequence[str], *, merges: bool = True) -> list[str]:
        """One line per merged record (unless not `merges`), per kind of annotation the file
        added to the user's (notes, tags), then per skipped entry and warning (in file order).

        `labels[i]` names incoming record i ("refs.bib:12 entry 'smith2020'", see
        `ImportResult.label`).
        """
        def label(index: int) -> str:
            return labels[index] if index < len(labels) else f"record {index + 1}"

        lines = []
        for note in self.merges if merges else ():
            if note.into_index is not None:
                into = label(note.into_index)
            else:
                title = note.into_title if len(note.into_title) <= 60 else note.into_title[:59] + "…"
                into = f"the library's paper '{note.into_key}' ({title})" if note.into_key else f"the library's paper ({title})"
            lines.append(f"merged: {label(note.index)} into {into}: {note.why}")
        for what, ids in self.added_to_own.items():
            if ids:
                shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
                lines.append(
                    f"{what}: the file's {what} were added to your own on {_papers(len(ids))} ({shown}); "
                    "nothing of yours was removed or replaced (a .bib carries no change times)"
                )
        if self.reviews is not None:
            lines.extend(f"warning: {line}" for line in self.reviews.kept)
        for problem in self.problems:
            kind = getattr(problem, "kind", "skipped")
            text = str(problem)
            if kind == "warning":
                lines.append(f"warning: {text}")
            else:
                message = str(getattr(problem, "message", text))
                lines.append(text if message.startswith("skipped") else f"skipped: {text}")
        return lines


def merge_papers(
    records: dict[str, Any],
    incoming: Sequence[Paper],
    summary: ImportSummary,
    when: str,
    effective_citekey: Callable[[Paper], str],
    catalog_path: Path,
    pinned: Container[str] = frozenset(),
) -> dict[str, Any] | None:
    """The catalog table (`records`, as read from `catalog_path`) with `incoming` merged in,
    or None when nothing changed. A paper already there (same id, DOI, url, title or
    abstract) is merged, not doubled; new papers get a unique citation key and `when` as
    the date they were added. Counts go to `summary`. `effective_citekey` gives a
    paper's key as the user sees it (an edited one included), so none is given twice.

    A paper whose title was derived from its abstract and now gets a real one from
    another source (a seed paper merged with the OpenReview list) gets a key made from
    the real title, unless its key is the user's, came from a .bib, or is in `pinned`
    (the ids of papers whose keys were exported: someone may cite them).

    Two records of this import are one paper only when they have the same id (the same
    DOI, OpenReview url, or citation key and title; see the importers): the later one
    fills in what the first lacks. Fuzzy matching never joins two BibTeX entries with
    different keys (`same_paper.distinct_entries`).
    """
    from ...formats.identifiers import BIBTEX_SOURCE
    from ...text.citekeys import CitekeyAllocator
    from .same_paper import distinct_entries, match_papers, merge_paper

    on_disk = Catalog(records, catalog_path)
    papers = {pid: on_disk[pid] for pid in on_disk}
    changed: set[str] = set()
    keys = CitekeyAllocator(effective_citekey(p) for p in papers.values())
    # Incoming id -> (the catalog id it landed on, the incoming record that brought it).
    landed: dict[str, tuple[str, int]] = {}

    def distinct(old: Paper, new: Paper) -> bool:
        return distinct_entries(old, new, effective_citekey(old))

    for match in match_papers(list(papers.values()), list(incoming), distinct):
        index = match.incoming_index
        new = incoming[index]
        if new.id in landed:  # another record of this import had the same id: one paper
            target, first = landed[new.id]
            summary.merges.append(MergeNote(index, first, "", "", _same_id_why(incoming[first], new)))
            summary.merged += 1
            if target != new.id:
                summary.id_map[new.id] = target
            merged = merge_paper(papers[target], new, refresh=False)  # the first record leads
            if merged != papers[target]:
                papers[target] = merged
                changed.add(target)
            continue
        if match.existing_id is None:
            key = new.citekey if new.citekey and keys.claim(new.citekey) else keys.make(new)
            papers[new.id] = new.evolve(citekey=key, added=new.added or when)
            landed[new.id] = (new.id, index)
            changed.add(new.id)
            summary.new += 1
            summary.new_ids.append(new.id)
            continue
        old = papers[match.existing_id]
        landed[new.id] = (old.id, index)
        summary.id_map[new.id] = old.id
        merged = merge_paper(old, new)
        if new.entry_type and new.citekey:  # a BibTeX entry is the paper's own under its key only
            same_entry = new.citekey.casefold() in (old.citekey.casefold(), effective_citekey(old).casefold())
        else:
            same_entry = match.reason == "id"
        # A BibTeX entry folded into a paper under another key is always reported: its key
        # is not the paper's, so a `\cite` of it would not find the paper after an export.
        if not same_entry and (merged != old or (new.entry_type and new.citekey)):
            why = _WHY.get(match.reason) or _same_id_why(old, new)
            if new.entry_type and new.citekey:
                # The user cites the entry's key: a paper whose key the app made up takes it
                # (when no other paper holds it); a key the user chose or that came from a
                # .bib stays, and the line says the entry's key is not the paper's.
                if _generated_key(old, effective_citekey) and new.source.startswith(BIBTEX_SOURCE) and keys.claim(new.citekey):
                    keys.taken_lower.discard(old.citekey.lower())  # the paper gives it up
                    merged = merged.evolve(citekey=new.citekey)
                    why += f"; key '{new.citekey}' replaces the generated key '{old.citekey}'"
                else:
                    merged, rekeyed = _rekey(old, merged, keys, effective_citekey, pinned)
                    why += f"; the entry's key '{new.citekey}' is not the paper's ('{effective_citekey(merged)}')"
                    if rekeyed:
                        why += f", made from its real title in place of '{old.citekey}'"
            else:
                merged, rekeyed = _rekey(old, merged, keys, effective_citekey, pinned)
                if rekeyed:
                    why += f"; key '{merged.citekey}' made from its real title replaces the generated key '{old.citekey}'"
            summary.merges.append(MergeNote(index, None, effective_citekey(old), old.title, why))
            summary.merged += 1
        elif merged == old:
            summary.unchanged += 1
        else:
            summary.updated += 1
        if merged != old:
            papers[old.id] = merged
            changed.add(old.id)
    if not changed:
        return None
    # Records that did not change are written back as they were read.
    by_id = {record["id"]: record for record in records.values()}
    return {
        str(n): (p.to_dict() if pid in changed else by_id[pid])
        for n, (pid, p) in enumerate(papers.items(), start=1)
    }


def rescore(
    before: dict[str, Any], after: dict[str, Any] | None, forums: dict[str, dict[str, Any]], catalog_path: Path
) -> dict[str, Any] | None:
    """The catalog table `after` (what `merge_papers` made of `before`; None: unchanged)
    with the scores of each paper in `forums` (paper id -> its forum record as the
    reviews store now holds it) made from that record and merged over the scores the
    paper had in `before` (`reviews.merge_scores`). None when nothing changed."""
    from ...reviews import merge_scores, summarize

    table = after if after is not None else before
    old, now = Catalog(before, catalog_path), Catalog(table, catalog_path)
    keys = {record["id"]: key for key, record in table.items() if record.get("id") in forums}
    out = dict(table)
    changed = False
    for pid, record in forums.items():
        if pid not in keys:
            continue
        paper = now[pid]
        scores = merge_scores(old[pid].scores if pid in old else None, summarize(record, paper.venue))
        if scores != paper.scores:
            out[keys[pid]] = paper.evolve(scores=scores).to_dict()
            changed = True
    return out if changed or after is not None else None


def _papers(count: int) -> str:
    return f"{count:,} paper{'s' if count != 1 else ''}"


def _rekey(
    old: Paper, merged: Paper, keys: Any, effective_citekey: Callable[[Paper], str], pinned: Container[str]
) -> tuple[Paper, bool]:
    """`merged` with a key made from its real title when `old`'s key was made from a
    derived one and nobody can have cited it (see `merge_papers`); True when it changed."""
    if not (old.title_derived and not merged.title_derived and old.citekey) or old.id in pinned:
        return merged, False
    if not _generated_key(old, effective_citekey):
        return merged, False
    from ...text.citekeys import citekey_base

    if citekey_base(merged) == citekey_base(old):  # the same stem (its short name): the key stays
        return merged, False
    keys.taken_lower.discard(old.citekey.lower())  # the paper gives it up
    return merged.evolve(citekey=keys.make(merged)), True


def _generated_key(paper: Paper, effective_citekey: Callable[[Paper], str]) -> bool:
    """True when `paper`'s citation key is one the app made up: the paper came from no
    .bib (nor took an entry of one in), and the user set no key of their own."""
    from ...formats.identifiers import BIBTEX_SOURCES

    if paper.source.startswith(BIBTEX_SOURCES) or paper.entry_type:
        return False
    return not effective_citekey(paper.evolve(citekey=""))  # only an override is left


def _same_id_why(first: Paper, later: Paper) -> str:
    """Why two records of one import got the same id (see the importers' id rules)."""
    from ...formats.identifiers import normalise_doi, openreview_forum_id

    if first.doi and normalise_doi(first.doi) == normalise_doi(later.doi):
        return "the same DOI"
    if openreview_forum_id(first.url) and openreview_forum_id(first.url) == openreview_forum_id(later.url):
        return "the same OpenReview paper"
    if first.citekey and first.citekey.casefold() == later.citekey.casefold():
        return "the same citation key and title"
    return "the same id"
