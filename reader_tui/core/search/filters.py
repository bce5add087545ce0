"""The list filter: which papers a list shows, one model for the TUI's list, its
saved-search counts and triage, and the CLI's `list` and `export` selection.

A `ListFilter` holds statuses (any of them), tags (all of them, or any with
`any_tag`), whether only marked papers count, and a search query. `matches` is its
predicate over one `PaperView`; `keep` applies the same predicate to ids and their
annotations (no views built: the TUI refilters 100,000 papers per key press);
`search_hits` ranks the kept papers by the query through a search index. Tags compare
case-insensitively, as everywhere else.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..model import Annotation, PaperView, Status


class _Annotated(Protocol):  # a PaperView or an Annotation: what the predicate reads
    status: Status
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ListFilter:
    """Papers whose status is one of `statuses` (empty: any), carrying every tag of
    `tags` (or, with `any_tag`, at least one; empty: any), marked if `marked_only`, and
    matching the search query `search` (blank: every paper, in list order)."""

    statuses: frozenset[Status] = frozenset()
    tags: tuple[str, ...] = ()
    any_tag: bool = False
    marked_only: bool = False
    search: str = ""

    @classmethod
    def of(
        cls, *, status: Status | None = None, tag: str | None = None, tags: Iterable[str] = (), search: str | None = None
    ) -> ListFilter:
        """The filter of one optional status and tag(s), as the filter dialog and the
        CLI's --status/--tag/--search give them."""
        wanted = (*(() if tag is None else (tag,)), *tags)
        return cls(frozenset(() if status is None else (status,)), wanted, search=(search or "").strip())

    @property
    def is_empty(self) -> bool:
        """True when every paper passes, in list order."""
        return not (self.statuses or self.tags or self.marked_only or self.search.strip())

    @property
    def has_conditions(self) -> bool:
        """True when the status, tag or marked conditions leave papers out (the search aside)."""
        return bool(self.statuses or self.tags or self.marked_only)

    def matches(self, view: PaperView, marked: Collection[str] = frozenset()) -> bool:
        """True when `view` passes the status, tag and marked conditions (the search is
        `search_hits`'s: it ranks as well as selects)."""
        return self._passes(view.id, view, marked)

    def keep(
        self, ids: Iterable[str], annotations: Mapping[str, Annotation], marked: Collection[str] = frozenset()
    ) -> list[str]:
        """The ids, in order, whose annotation (`Library.annotations`; none: unread and
        untagged) passes the status, tag and marked conditions."""
        if not self.has_conditions:
            return list(ids)
        default = Annotation()
        passes = self._passes
        return [pid for pid in ids if passes(pid, annotations.get(pid, default), marked)]

    def search_hits(self, index: Any, allowed: Collection[str] | None = None, marked: Collection[str] = frozenset()) -> list[Any]:
        """The search index's hits for `search` (best first) among `allowed` ids (None:
        all), as the index's `SearchResult` (which says whether every word matched).
        Raises `QueryError` for a query the parser cannot read."""
        hits = index.search(self.search, marked=marked)
        if allowed is None:
            return hits
        allowed = allowed if isinstance(allowed, (set, frozenset, dict)) else set(allowed)
        kept = type(hits)(hit for hit in hits if hit.id in allowed)
        # what the search says of its hits (partial, complete, found), for those kept
        kept.__dict__.update(getattr(hits, "__dict__", {}))
        if hasattr(hits, "complete"):
            kept.complete = sum(1 for hit in kept[: hits.complete] if hit.id in allowed)
        return kept

    def ranking(self, index: Any, allowed: Collection[str] | None = None, marked: Collection[str] = frozenset()) -> Any:
        """`search_hits` as columns: the index's `Ranking` (ids, scores, matched words),
        with no Hit made per paper. Raises `QueryError` as `search_hits` does."""
        ranking = index.rank(self.search, marked=marked)
        if allowed is None:
            return ranking
        allowed = allowed if isinstance(allowed, (set, frozenset, dict)) else set(allowed)
        kept = [i for i, pid in enumerate(ranking.ids) if pid in allowed]
        whole = None if ranking.whole is None else [ranking.whole[i] for i in kept]
        return type(ranking)(
            [ranking.ids[i] for i in kept], [ranking.scores[i] for i in kept], [ranking.matched[i] for i in kept],
            ranking.partial, len(kept) if whole is None else sum(whole), ranking.found, whole,
        )

    def describe(self) -> str:
        """A status-line description, "status:read tag:llm", or "" when nothing is set."""
        return " ".join(self._conditions(quoted=False))

    def as_query(self) -> str:
        """The filter as one search query ("status:to-read,reading tag:llm attention"),
        for saved searches and triage's resume key: it selects the same papers (several
        statuses as `status:a,b`, any of the tags as `tag:a,b`)."""
        return " ".join([*self._conditions(quoted=True), self.search.strip()]).strip()

    def _conditions(self, *, quoted: bool) -> list[str]:
        parts = []
        if self.statuses:
            parts.append("status:" + ",".join(s.value for s in sorted(self.statuses, key=list(Status).index)))

        def shown(tag: str) -> str:
            return f'"{tag}"' if quoted and " " in tag else tag

        if self.any_tag and len(self.tags) > 1:
            joined = ",".join(self.tags)
            parts.append(f'tag:"{joined}"' if quoted and " " in joined else f"tag:{joined}")
        else:
            parts += [f"tag:{shown(t)}" for t in self.tags]
        if self.marked_only:
            parts.append("is:marked")
        return parts

    def _passes(self, pid: str, annotated: _Annotated, marked: Collection[str]) -> bool:
        if self.statuses and annotated.status not in self.statuses:
            return False
        if self.marked_only and pid not in marked:
            return False
        if self.tags:
            have = {t.casefold() for t in annotated.tags}
            wanted = (t.casefold() for t in self.tags)
            return any(t in have for t in wanted) if self.any_tag else all(t in have for t in wanted)
        return True


__all__ = ["ListFilter"]
