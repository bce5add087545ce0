"""Merging incoming papers into the catalog's records: the heart of `Library.import_papers`,
as a function of the records read from disk (it runs under the store's lock)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalog import Catalog
from .model import Paper


@dataclass(slots=True)
class ImportSummary:
    """What one import did to the catalog."""

    new: int = 0
    updated: int = 0
    merged: int = 0
    unchanged: int = 0
    skipped: int = 0
    new_ids: list[str] = field(default_factory=list)
    id_map: dict[str, str] = field(default_factory=dict)
    """Incoming id -> the id of the paper it was merged into (only for merged papers)."""

    def __str__(self) -> str:
        return (
            f"{self.new} new, {self.updated} updated, {self.merged} merged, "
            f"{self.unchanged} unchanged, {self.skipped} skipped"
        )


def merge_papers(
    records: dict[str, Any],
    incoming: Sequence[Paper],
    summary: ImportSummary,
    when: str,
    effective_citekey: Callable[[Paper], str],
    catalog_path: Path,
) -> dict[str, Any] | None:
    """The catalog table (`records`, as read from `catalog_path`) with `incoming` merged in,
    or None when nothing changed. A paper already there (same id, DOI, url, title or
    abstract) is merged, not doubled; new papers get a unique citation key and `when` as
    the date they were added. Counts go to `summary`. `effective_citekey` gives a
    paper's key as the user sees it (an edited one included), so none is given twice.
    """
    from .citekeys import CitekeyAllocator
    from .matching import match_papers, merge_paper

    on_disk = Catalog(records, catalog_path)
    papers = {pid: on_disk[pid] for pid in on_disk}
    changed: set[str] = set()
    keys = CitekeyAllocator(effective_citekey(p) for p in papers.values())
    for match in match_papers(list(papers.values()), list(incoming)):
        new = incoming[match.incoming_index]
        if match.existing_id is None:
            if new.id in papers:  # two records of one paper inside this import
                summary.unchanged += 1
                continue
            key = new.citekey if new.citekey and keys.claim(new.citekey) else keys.make(new)
            papers[new.id] = new.evolve(citekey=key, added=new.added or when)
            changed.add(new.id)
            summary.new += 1
            summary.new_ids.append(new.id)
            continue
        old = papers[match.existing_id]
        summary.id_map[new.id] = old.id
        merged = merge_paper(old, new)
        if merged == old:
            summary.unchanged += 1
            continue
        if match.reason == "id":
            summary.updated += 1
        else:
            summary.merged += 1
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
