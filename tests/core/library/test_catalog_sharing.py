"""A catalog's Papers are the plain records `Paper.from_dict` makes of its records, with
what repeats from record to record kept once for the whole catalog (score columns,
decisions, years, areas, venues) and each id the catalog's own key string."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest
from test_catalog_threads import _as_texts  # the records as a catalog of the line shape gives them

from reader_tui.core.library.catalog.records import Catalog
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Scores


def _record(i: int) -> dict:
    # built at run time, so that each record has its own objects, as a parser makes them
    pid = f"Forum{i:05d}"
    record = Paper(
        id=pid, title=f"Paper {i}", year=int(str(2026)), url="https://openreview.net/forum?id=" + pid,
        area="".join(["interpret", "ability"]), pdf_url=f"https://openreview.net/pdf/{i:040x}.pdf",
        scores=Scores(ratings=(4, 6 + i % 2), confidences=(3, 4), decision="".join(["pos", "ter"]),
                      captured=f"2025-11-{1 + i % 28:02d}T00:00:00+00:00"),
    ).to_dict()
    if i % 3:
        record["tldr"] = f"TL;DR {i}: naïve — ∑ over 𝔽 ✓" + " long" * (i % 7)
    if i % 5 == 0:
        del record["pdf_url"]
    return record


@pytest.mark.parametrize("shape", ["parsed", "texts"])
def test_papers_are_the_records_as_from_dict_makes_them(tmp_path: Path, shape: str) -> None:
    records = {str(i): _record(i) for i in range(1, 60)}
    catalog = Catalog(records if shape == "parsed" else _as_texts(records), tmp_path / "catalog.json")
    order = list(catalog)[::-1] + list(catalog)  # built out of file order, then read again
    for pid in order:
        paper, expected = catalog[pid], Paper.from_dict(json.loads(json.dumps(records[str(int(pid[5:]))])))
        assert type(paper) is Paper and type(paper.scores) is Scores
        assert paper == expected and hash(paper) == hash(expected)
        assert paper.to_dict() == expected.to_dict() and repr(paper) == repr(expected)
        assert (paper.tldr, paper.pdf_url, paper.url) == (expected.tldr, expected.pdf_url, expected.url)


@pytest.mark.parametrize("shape", ["parsed", "texts"])
def test_repeated_values_are_kept_once(tmp_path: Path, shape: str) -> None:
    records = {str(i): _record(i) for i in range(1, 200)}
    catalog = Catalog(records if shape == "parsed" else _as_texts(records), tmp_path / "catalog.json")
    papers = [catalog[pid] for pid in catalog]
    assert all(paper.id is pid for paper, pid in zip(papers, catalog))  # the key's string, not a copy
    for name in ("year", "area"):
        assert len({id(getattr(p, name)) for p in papers}) == 1, name
    assert len({id(p.scores.ratings) for p in papers}) == 2  # (4, 6) and (4, 7)
    assert len({id(p.scores.confidences) for p in papers}) == 1
    assert len({id(p.scores.decision) for p in papers}) == 1
    assert papers[0].scores.previous is papers[1].scores.soundness_scores  # () once


def test_texts_with_any_characters_come_back_as_they_were(tmp_path: Path) -> None:
    odd = ["", "\x00nul\x00", "a\udc80lone surrogate", "€" * 40000, "tab\tnew\nline", "|,"]
    # the json module (TinyDB's) reads "\udc80" as a lone surrogate: such a record exists
    records = {str(i): json.loads(json.dumps({**_record(i + 1), "tldr": text, "pdf_url": text[::-1]}))
               for i, text in enumerate(odd, 1)}
    catalog = Catalog(records, tmp_path / "catalog.json")
    for (doc_id, record), pid in zip(records.items(), catalog):
        assert (catalog[pid].tldr, catalog[pid].pdf_url) == (record["tldr"], record["pdf_url"]), doc_id


def test_damaged_records_and_scores_are_refused_one_by_one(tmp_path: Path) -> None:
    records = {str(i): _record(i) for i in range(1, 12)}
    records["4"]["tldr"] = 42  # refused when its Paper is built
    records["6"]["scores"] = "not|scores"
    records["7"]["scores"] = "4,x|||||||||"
    records["8"]["scores"] = "4,6|3,4"  # columns seen before, but not the catalog's form
    catalog = Catalog(records, tmp_path / "catalog.json", placeholders=True)
    for doc_id, record in records.items():
        paper = catalog[record["id"]]
        if doc_id in ("4", "6", "7", "8"):
            assert paper.title.startswith("(damaged record"), doc_id
        else:
            assert paper == Paper.from_dict(_record(int(doc_id)))
    assert len(catalog.problems) == 4


def test_threads_building_papers_at_once_each_get_their_own(tmp_path: Path) -> None:
    records = {str(i): _record(i) for i in range(1, 1500)}
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        catalog = Catalog(_as_texts(records), tmp_path / "catalog.json")
        ids = list(catalog)
        start = threading.Barrier(3)
        errors: list[BaseException] = []

        def build(order: list[str]) -> None:
            start.wait()
            try:
                for pid in order:
                    catalog[pid].tldr  # noqa: B018
            except BaseException as error:  # noqa: BLE001
                errors.append(error)

        threads = [threading.Thread(target=build, args=(order,)) for order in (ids, ids[::-1], ids[::2] + ids[1::2])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old_interval)
    assert not errors
    for record in records.values():
        assert catalog[record["id"]] == Paper.from_dict(_record(int(record["id"][5:])))


def test_a_library_reopened_shows_the_texts_and_imports_them_again(tmp_path: Path) -> None:
    records = [_record(i) for i in range(1, 40)]
    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper.from_dict(r) for r in records])
    again = Library.open(tmp_path / "lib")
    for record in records:
        view = again.view(record["id"])
        assert (view.paper.tldr, view.paper.pdf_url, view.url) == (record.get("tldr", ""), record.get("pdf_url", ""), record["url"])
        assert view.paper.scores == Scores.from_text(record["scores"])
        assert view.to_dict()["tldr"] == record.get("tldr", "")
    # the catalog written back from these Papers holds the same texts
    changed = [Paper.from_dict({**r, "title": r["title"] + "!"}) for r in records[:3]]
    again.import_papers(changed)
    third = Library.open(tmp_path / "lib")
    assert all(third.papers[r["id"]].tldr == r.get("tldr", "") for r in records)
