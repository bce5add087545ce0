"""The catalog in memory: paper records as read from disk, turned into `Paper`s on demand.

A conference list is 20,000 records; building every `Paper` up front costs more than
reading the file, and the TUI's first screen needs forty of them. So the raw records are
kept, and each becomes a `Paper` (checked, then cached) the first time it is asked for.
`check_all` validates every record, for callers that want a damaged catalog found now
(the TUI runs it off the UI thread while building the search index).

Several threads read one Catalog at once (the TUI's list worker while its index thread
builds the same Papers), so a lookup never relies on a check-then-set window: see
`__getitem__`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..model import Paper
from ..atomic_storage import StoreError


class Catalog(Mapping[str, Paper]):
    """Paper id -> Paper, in file order, built lazily from the stored records."""

    def __init__(self, records: Mapping[str, Any], path: Path) -> None:
        self.path = path
        self._records: dict[str, dict[str, Any] | None] = {}
        self._papers: dict[str, Paper] = {}
        for doc_id, record in records.items():
            pid = record.get("id") if isinstance(record, dict) else None
            if not isinstance(pid, str) or not pid:
                raise StoreError(f"{path}: paper record {doc_id} has no id")
            self._records[pid] = record

    def __getitem__(self, paper_id: str) -> Paper:
        paper = self._papers.get(paper_id)
        if paper is not None:
            return paper
        record = self._records[paper_id]  # KeyError for an id the catalog does not hold
        if record is None:
            # Another thread built this Paper between our two looks: it stored the Paper
            # before dropping the record (the order below), so the Paper is there now.
            return self._papers[paper_id]
        try:
            paper = Paper.from_dict(record)
        except (TypeError, ValueError) as error:
            raise StoreError(f"{self.path}: paper {paper_id}: {error}") from None
        # Two threads may build the same Paper at once (the list worker and the index
        # thread do): setdefault is one atomic step, so both return the one stored first.
        paper = self._papers.setdefault(paper_id, paper)
        # The record's strings now live on in the Paper: drop the dict around them
        # (20k of them are some 20 MB), keeping the key for order and membership. Only
        # after the Paper is stored, so that a reader who finds None finds the Paper.
        self._records[paper_id] = None
        return paper

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._records

    def check_all(self) -> None:
        """Build every Paper now; raises StoreError naming the file at the first bad record."""
        for paper_id in self._records:
            self[paper_id]
