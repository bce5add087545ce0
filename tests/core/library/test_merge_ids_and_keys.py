"""A seed paper merged with a richer source: found by that source's id too, and its key,
made from a derived title, made again from the real one unless someone may cite it
(exported, or set by the user) (issue 14, "Words and names")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.formats.seed import read_seed
from reader_tui.core.library.library import IdError, Library

ABSTRACT = (
    "Large language models are everywhere. Mechanistic interpretability has led to various methods for"
    " assessing layer relevance, with cosine similarity a widely used tool. We propose a more robust"
    " metric for assessing layer relevance: the actual drop in model accuracy resulting from the removal"
    " of a layer. Our findings have implications for pruning."
)
OTHER = (
    "Graphs are everywhere and message passing is slow. We introduce QuickGraph, a sampler for large"
    " graphs that keeps every hub node and drops the rest at random, which scales to billions of edges."
)
FORUM = "AbCdEf1234"


def seed_library(tmp_path: Path) -> tuple[Library, str]:
    seed = tmp_path / "seed.txt"
    seed.write_text(f"ICLR 2026 论文列表\n\n{ABSTRACT}\n\n{OTHER}\n", encoding="utf-8")
    library = Library.open(tmp_path / "db")
    library.import_papers(read_seed(seed).papers)
    [pid] = [pid for pid in library.papers if library.papers[pid].abstract == ABSTRACT]
    return library, pid


def openreview_file(tmp_path: Path) -> Path:
    path = tmp_path / "iclr.jsonl"
    record = {
        "id": FORUM,
        "forum": FORUM,
        "content": {
            "title": {"value": "Rethinking Layer Relevance in Large Language Models"},
            "abstract": {"value": ABSTRACT},
            "venue": {"value": "ICLR 2026 Conference Submission"},
        },
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def merge_openreview(library: Library, tmp_path: Path) -> list[str]:
    result = read_openreview(openreview_file(tmp_path))
    summary = library.import_papers(result.papers)
    assert summary.merged == 1 and summary.new == 0
    return summary.details([result.label(i) for i in range(len(result.papers))])


def test_a_merged_seed_paper_is_found_by_the_richer_sources_id(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    with pytest.raises(IdError):
        library.resolve_id(FORUM)
    merge_openreview(library, tmp_path)
    assert library.resolve_id(FORUM) == pid  # the seed's id stays the paper's
    assert library.resolve_id(FORUM[:6]) == pid  # and a prefix of the other one works
    assert library.resolve_id(pid) == pid
    assert library.papers[pid].aliases == (FORUM,)
    # On disk too: a new process finds it.
    assert Library.open(tmp_path / "db").resolve_id(FORUM) == pid


def test_the_alias_matches_by_id_on_the_next_import(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    merge_openreview(library, tmp_path)
    # A .bib entry of the OpenReview paper (its id is the forum id) lands on the seed paper by id.
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{x,\n  title = {Another Title Entirely},\n"
        f"  url = {{https://openreview.net/forum?id={FORUM}}},\n  year = {{2026}},\n}}\n",
        encoding="utf-8",
    )
    summary = library.import_papers(read_bibtex(bib).papers)
    assert summary.new == 0 and summary.id_map[FORUM] == pid
    assert len(library.papers) == 2


def test_a_generated_key_is_made_again_from_the_real_title(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    old = library.papers[pid].citekey
    assert old.startswith("metric")  # made from "More robust metric for assessing ..."
    details = merge_openreview(library, tmp_path)
    paper = library.papers[pid]
    assert paper.title == "Rethinking Layer Relevance in Large Language Models" and not paper.title_derived
    assert paper.citekey == "layerrelevance2026"
    assert details and f"key 'layerrelevance2026' made from its real title replaces the generated key '{old}'" in details[0]


def test_an_exported_key_never_changes(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    old = library.papers[pid].citekey
    library.keep_citekeys([pid])
    assert pid in Library.open(tmp_path / "db").exported_citekeys()  # remembered on disk
    details = merge_openreview(library, tmp_path)
    assert library.papers[pid].citekey == old
    assert library.papers[pid].title.startswith("Rethinking")  # the title does change
    assert "replaces the generated key" not in details[0]


def test_a_key_the_user_set_never_changes(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    library.edit(pid, citekey="mine2026")
    merge_openreview(library, tmp_path)
    assert library.view(pid).citekey == "mine2026"
    assert library.papers[pid].citekey.startswith("metric")  # the catalog's key was not re-made either


def test_only_papers_with_derived_titles_are_remembered_as_exported(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    merge_openreview(library, tmp_path)  # now a real title: its key can no longer change
    [other] = [p for p in library.papers if p != pid]
    library.keep_citekeys([pid, other])
    assert library.exported_citekeys() == {other}


def test_a_key_made_from_the_short_name_stays_and_keeps_no_suffix(tmp_path: Path) -> None:
    """QuickGraph's key comes from its name, which the real title does not change; another
    paper named QuickGraph... in the same import must not push it to a suffix."""
    library, _ = seed_library(tmp_path)
    [pid] = [p for p in library.papers if library.papers[p].short_name == "QuickGraph"]
    assert library.papers[pid].citekey == "quickgraph2026"
    path = tmp_path / "more.jsonl"
    records = [
        {"id": "Other00001", "content": {"title": {"value": "QuickGraph: Another Paper"},
                                         "abstract": {"value": "Something else entirely, about graphs and hubs."}}},
        {"id": "Quick00001", "content": {"title": {"value": "QuickGraph: Sampling Hubs at Scale"},
                                         "abstract": {"value": OTHER}}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    library.import_papers(read_openreview(path, year=2026).papers)
    assert library.papers[pid].title == "QuickGraph: Sampling Hubs at Scale"
    assert library.papers[pid].citekey == "quickgraph2026"
    assert library.papers["Other00001"].citekey == "quickgraph2026a"


def test_a_merged_seed_paper_takes_the_richer_sources_venue(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    assert library.papers[pid].venue == "ICLR"
    merge_openreview(library, tmp_path)
    assert library.papers[pid].venue == "ICLR 2026 Conference Submission"


def test_annotations_exported_under_the_other_id_land_on_the_merged_paper(tmp_path: Path) -> None:
    """Another machine imported only the OpenReview list: its annotations name the forum id."""
    from reader_tui.core.library.transfer import import_annotations

    library, pid = seed_library(tmp_path)
    merge_openreview(library, tmp_path)
    document = {
        "reader_tui_annotations": 1,
        "papers": [{"id": FORUM, "status": "read", "tags": ["layers"], "changed": {"status": "2026-01-01T00:00:00+00:00"}}],
    }
    result = import_annotations(library, document, keep_unmatched=False)
    assert not result.unmatched
    assert library.annotation(pid).status.value == "read" and library.annotation(pid).tags == ("layers",)


def test_a_damaged_exported_keys_setting_is_read_as_none(tmp_path: Path) -> None:
    library, pid = seed_library(tmp_path)
    library.set_setting("exported_citekeys", ["not", "a", "dict"])
    assert library.exported_citekeys() == frozenset()
    library.keep_citekeys([pid])
    assert library.exported_citekeys() == {pid}
