"""OpenReview importer: flat and API v2 notes, JSON/JSONL/gzip, and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.openreview import read_openreview

FIXTURES = Path(__file__).parents[2] / "fixtures" / "import_openreview"
IDS = ["FlatOne01", "Withdrawn2", "Dot3", "Forum4", "Forum5"]


@pytest.mark.parametrize("name", ["notes.json", "notes.jsonl", "notes.jsonl.gz"])
def test_every_container_gives_the_same_papers(name):
    result = read_openreview(FIXTURES / name)
    assert [p.id for p in result.papers] == IDS
    assert all(p.source == f"openreview:{name}" for p in result.papers)


def test_flat_note():
    paper = read_openreview(FIXTURES / "notes.json").papers[0]
    assert paper.title == "Untrimmed Title One"
    assert paper.abstract.startswith("An abstract with $x^2$ math")
    assert paper.keywords == ("Reinforcement Learning", "Signal Temporal Logic", "Agents")
    assert paper.venue == "ICLR 2026 Conference Submission"
    assert paper.year == 2026
    assert paper.url == "https://openreview.net/forum?id=FlatOne01"


def test_withdrawn_placeholders_keep_the_title():
    papers = read_openreview(FIXTURES / "notes.json").papers
    assert [(p.title, p.abstract) for p in papers[1:3]] == [("A Withdrawn Paper", ""), ("Another Withdrawn", "")]


def test_nested_api_v2_note_uses_the_forum_id():
    paper = read_openreview(FIXTURES / "notes.json").papers[3]
    assert paper.id == "Forum4"
    assert paper.url == "https://openreview.net/forum?id=Forum4"
    assert paper.title == "Nested API v2 Title"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.keywords == ("graphs", "GNN", "message passing")
    assert paper.year == 2025  # from the venue, not the creation time (2024)


def test_year_from_timestamp_then_default():
    paper = read_openreview(FIXTURES / "notes.json").papers[4]
    assert paper.year == 2024  # pdate missing, cdate 2024-10-01
    assert read_openreview(FIXTURES / "notes.json", year=2030).papers[4].year == 2030


def test_api_response_object_with_notes():
    assert [p.id for p in read_openreview(FIXTURES / "api_response.json").papers] == ["Forum4", "Forum5"]


def test_missing_title_is_derived_from_the_abstract(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "X1", "abstract": "We propose SOCOP, a solver for things. It is fast."}\n')
    paper = read_openreview(path).papers[0]
    assert paper.title_derived and paper.short_name == "SOCOP"


def test_array_of_non_notes_fails(tmp_path):
    path = tmp_path / "a.json"
    path.write_text("[1, 2]")
    with pytest.raises(ImportFailure, match="no usable note"):
        read_openreview(path)


def test_long_lines_stream_in_chunks(tmp_path):
    # Lines longer than the 1 MB read size, and many of them, still come out whole.
    path = tmp_path / "big.jsonl"
    abstract = "word " * 300_000
    with path.open("w") as out:
        for i in range(3):
            out.write(f'{{"id": "L{i}", "title": "T{i}", "abstract": "{abstract}"}}\r\n')
    papers = read_openreview(path).papers
    assert [p.id for p in papers] == ["L0", "L1", "L2"]
    assert all(len(p.abstract) == len(abstract.strip()) for p in papers)
