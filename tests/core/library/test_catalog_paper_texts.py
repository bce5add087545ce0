"""A catalog's Papers keep their TL;DR and pdf link packed with other papers' (in blocks,
`model.PaperTexts`), a url holding the paper's id as the shared text around it, and each
year once: what the attributes give is the same as ever."""

from __future__ import annotations

import gc
import json
import sys
import threading
from pathlib import Path

import pytest
from test_catalog_threads import _as_texts  # the records as a catalog of the line shape gives them

from reader_tui.core import model
from reader_tui.core.library.catalog import Catalog
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, PaperTexts, Scores


def _record(i: int) -> dict:
    # built at run time, so that each record has its own objects, as a parser makes them
    pid = f"Forum{i:05d}"
    record = Paper(
        id=pid, title=f"Paper {i}", year=int(str(2026)), url="https://openreview.net/forum?id=" + pid,
        area="interpretability", pdf_url=f"https://openreview.net/pdf/{i:040x}.pdf",
        scores=Scores(ratings=(4, 6)),
    ).to_dict()
    if i % 3:
        record["tldr"] = f"TL;DR {i}: naïve — ∑ over 𝔽 ✓" + " long" * (i % 7)
    if i % 5 == 0:
        del record["pdf_url"]
    return record


def _plain(record: dict) -> Paper:
    return Paper.from_dict(record)


@pytest.mark.parametrize("shape", ["parsed", "texts"])
def test_papers_give_back_their_tldr_pdf_link_and_url(tmp_path: Path, monkeypatch, shape: str) -> None:
    monkeypatch.setattr(PaperTexts, "BLOCK", 7)  # several blocks, full (packed) and filling
    records = {str(i): _record(i) for i in range(1, 60)}
    catalog = Catalog(records if shape == "parsed" else _as_texts(records), tmp_path / "catalog.json")
    order = list(catalog)[::-1] + list(catalog)  # built out of file order, then read again
    for pid in order:
        paper, expected = catalog[pid], _plain(records[str(int(pid[5:]))])
        assert (paper.tldr, paper.pdf_url, paper.url) == (expected.tldr, expected.pdf_url, expected.url)
        assert paper == expected and hash(paper) == hash(expected)
        assert paper.to_dict() == expected.to_dict()
        assert repr(paper) == repr(expected)
        changed = paper.evolve(title="Another")
        assert (changed.tldr, changed.pdf_url, changed.url) == (expected.tldr, expected.pdf_url, expected.url)


def test_papers_hold_no_tldr_pdf_link_or_url_string_of_their_own(tmp_path: Path) -> None:
    records = {str(i): _record(i) for i in range(1, 600)}
    catalog = Catalog(records, tmp_path / "catalog.json")
    papers = [catalog[pid] for pid in catalog]
    assert all(paper.tldr for paper in papers[1::3]) and all(paper.pdf_url for paper in papers[:4])
    for paper in papers:
        strings = [value for value in gc.get_referents(paper) if type(value) is str]
        for name in ("tldr", "pdf_url", "url"):
            value = getattr(paper, name)
            assert not value or value not in strings, (paper.id, name)
    # the url's text around the id is one object for all of them, and so is the year
    assert len({id(v) for p in papers for v in gc.get_referents(p) if type(v) is tuple and v[:1] == ("https://openreview.net/forum?id=",)}) == 1
    assert len({id(p.year) for p in papers}) == 1


def _size(value: object) -> int:
    """The bytes of `value` and of what it holds (a url's texts, a block's data and ends)."""
    parts = value if type(value) is tuple else [getattr(value, name) for name in getattr(value, "__slots__", ())]
    return sys.getsizeof(value) + sum(sys.getsizeof(part) for part in parts if part is not None)


def test_texts_take_less_memory_than_strings(tmp_path: Path) -> None:
    records = {str(i): _record(i) for i in range(1, 2049)}
    catalog = Catalog(records, tmp_path / "catalog.json")
    papers = [catalog[pid] for pid in catalog]
    as_strings = sum(sys.getsizeof(p.tldr) + sys.getsizeof(p.pdf_url) + sys.getsizeof(p.url) for p in papers)
    kept = {id(value): value for paper in papers for value in gc.get_referents(paper)
            if type(value) not in (str, int, bool, type(None))}  # blocks and url texts, each once
    held = sum(map(_size, kept.values()))
    assert held < as_strings * 0.6, (held, as_strings)


def test_texts_with_any_characters_come_back_as_they_were(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(PaperTexts, "BLOCK", 2)
    odd = ["", "\x00nul\x00", "a\udc80lone surrogate", "€" * 40000, "tab\tnew\nline", "|,"]
    # the json module (TinyDB's) reads "\udc80" as a lone surrogate: such a record exists
    records = {str(i): json.loads(json.dumps({**_record(i + 1), "tldr": text, "pdf_url": text[::-1]}))
               for i, text in enumerate(odd, 1)}
    catalog = Catalog(records, tmp_path / "catalog.json")
    for (doc_id, record), pid in zip(records.items(), catalog):
        assert (catalog[pid].tldr, catalog[pid].pdf_url) == (record["tldr"], record["pdf_url"]), doc_id


def test_a_damaged_record_leaves_the_others_texts_in_place(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(PaperTexts, "BLOCK", 3)
    records = {str(i): _record(i) for i in range(1, 10)}
    records["4"]["tldr"] = 42  # refused when its Paper is built
    records["6"]["scores"] = "not|scores"
    catalog = Catalog(records, tmp_path / "catalog.json", placeholders=True)
    for doc_id, record in records.items():
        paper = catalog[record["id"]]
        if doc_id in ("4", "6"):
            assert paper.title.startswith("(damaged record")
        else:
            assert (paper.tldr, paper.pdf_url) == (record.get("tldr", ""), record.get("pdf_url", ""))
    assert len(catalog.problems) == 2


def test_threads_building_papers_at_once_each_get_their_own_texts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(PaperTexts, "BLOCK", 5)
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
        paper = catalog[record["id"]]
        assert (paper.tldr, paper.pdf_url, paper.url) == (record.get("tldr", ""), record.get("pdf_url", ""), record["url"])


def test_urls_without_the_id_or_too_many_shapes_stay_strings(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(model, "_links", {})
    monkeypatch.setattr(model, "_MAX_LINKS", 2)
    records = {str(i): {"id": f"id{i}", "title": "T", "url": url} for i, url in enumerate(
        ["https://example.org/x", "https://a.org/id2", "https://b.org/id3?v=1", "https://c.org/id4", ""], 1)}
    catalog = Catalog(records, tmp_path / "catalog.json")
    assert [catalog[f"id{i}"].url for i in range(1, 6)] == [r["url"] for r in records.values()]
    assert len(model._links) == 2  # the third shape kept as its string


def test_a_library_reopened_shows_the_texts_and_imports_them_again(tmp_path: Path) -> None:
    records = [_record(i) for i in range(1, 40)]
    library = Library.open(tmp_path / "lib")
    library.import_papers([Paper.from_dict(r) for r in records])
    again = Library.open(tmp_path / "lib")
    for record in records:
        view = again.view(record["id"])
        assert (view.paper.tldr, view.paper.pdf_url, view.url) == (record.get("tldr", ""), record.get("pdf_url", ""), record["url"])
        assert view.to_dict()["tldr"] == record.get("tldr", "")
    # the catalog written back from these Papers holds the same texts
    changed = [Paper.from_dict({**r, "title": r["title"] + "!"}) for r in records[:3]]
    again.import_papers(changed)
    third = Library.open(tmp_path / "lib")
    assert all(third.papers[r["id"]].tldr == r.get("tldr", "") for r in records)
