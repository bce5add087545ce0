"""The command line with reviews: import into a list, list --sort rating and its score
column, --json carrying the scores, show --reviews (text as data), markdown --scores,
the rating distribution in stats, and a bad line refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import Run

REVIEWS = Path(__file__).parents[1] / "fixtures" / "import_reviews"


@pytest.fixture
def reviewed(run: Run) -> Run:
    assert run("--no-seed", "import", str(REVIEWS / "snapshot1.jsonl")).returncode == 0
    assert run("mark", "to-read", "PaperCCCC3").returncode == 0
    result = run("import", str(REVIEWS / "snapshot2.jsonl"))
    assert result.returncode == 0, result.stderr
    assert "reviews of 4 papers: 0 new, 1 updated, 3 unchanged (1 review changed scores)" in result.stdout
    return run


def test_list_sorts_by_rating_with_a_score_column_withdrawn_last(reviewed: Run) -> None:
    lines = reviewed("list", "--sort", "rating").stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["PaperCCCC3", "PaperAAAA1", "PaperDDDD4", "PaperBBBB2"]
    assert "6.0 4-8" in lines[0] and "5.3 2-8" in lines[1] and lines[3].endswith("(withdrawn)")
    lowest = reviewed("list", "--sort", "rating", "--reverse").stdout.splitlines()
    assert [line.split()[0] for line in lowest][:2] == ["PaperAAAA1", "PaperCCCC3"]
    found = reviewed("list", "--search", "area:interp rating:>=5.5", "--sort", "spread").stdout.splitlines()
    assert [line.split()[0] for line in found] == ["PaperCCCC3"]


def test_list_and_show_json_carry_the_scores(reviewed: Run) -> None:
    papers = {p["id"]: p for p in json.loads(reviewed("list", "--json").stdout)}
    a = papers["PaperAAAA1"]
    assert a["scores"]["rating"] == 5.33 and a["scores"]["previous_ratings"] == [4, 8, 2]
    assert a["scores"]["captured"] and a["tldr"] and a["area"] and a["pdf_url"]
    assert papers["PaperBBBB2"]["withdrawn"] is True and papers["PaperDDDD4"]["scores"] is None
    assert papers["PaperCCCC3"]["status"] == "to-read"  # kept through the second import
    shown = json.loads(reviewed("show", "PaperCCCC3", "--json").stdout)
    assert shown["scores"]["reviews"] == 4 and shown["scores"]["weighted_rating"] == 6.0


def test_show_reviews_prints_the_thread_with_control_characters_made_visible(reviewed: Run) -> None:
    result = reviewed("show", "PaperAAAA1", "--reviews")
    assert result.returncode == 0
    text = result.stdout
    assert "rating 6 (was 4)" in text and "Comment by Authors" in text
    assert "Esc ␛[31m red and ␇ bell." in text and "\x1b" not in text and "\x07" not in text
    assert text.index("We thank the reviewer") < text.index("Review by Reviewer_z3w4")  # the rebuttal under its review
    data = json.loads(reviewed("show", "PaperAAAA1", "--reviews", "--json").stdout)
    assert data["notes"][0]["history"][0]["scores"]["rating"] == 4


def test_show_prints_scores_tldr_and_area(reviewed: Run) -> None:
    text = reviewed("show", "PaperAAAA1").stdout
    assert "rating 5.3 (2-8, 3 reviews; 4.7 -> 5.3 since" in text
    assert "tldr     Linear attention, long contexts." in text and "area     interpretability" in text


def test_show_and_json_give_the_links_and_tldr_a_reopened_catalog_keeps_packed(reviewed: Run) -> None:
    # (each command opens the store afresh: these come from the catalog's packed texts)
    lines = reviewed("show", "PaperAAAA1").stdout.splitlines()
    assert "url      https://openreview.net/forum?id=PaperAAAA1" in lines
    assert "pdf      https://openreview.net/pdf/paperaaaa1hash.pdf" in lines
    papers = {p["id"]: p for p in json.loads(reviewed("list", "--json").stdout)}
    assert [(papers[pid]["url"], papers[pid]["pdf_url"]) for pid in ("PaperAAAA1", "PaperDDDD4")] == [
        ("https://openreview.net/forum?id=PaperAAAA1", "https://openreview.net/pdf/paperaaaa1hash.pdf"),
        ("https://openreview.net/forum?id=PaperDDDD4", "https://openreview.net/pdf/paperdddd4hash.pdf"),
    ]
    assert papers["PaperAAAA1"]["tldr"] == "Linear attention, long contexts." and papers["PaperBBBB2"]["tldr"] == ""


def test_markdown_export_with_scores_and_tldr(reviewed: Run) -> None:
    plain = reviewed("export", "--format", "markdown").stdout
    assert "TL;DR" not in plain and "rating" not in plain
    text = reviewed("export", "--format", "markdown", "--scores").stdout
    assert "TL;DR: SAEs find features." in text and "rating 6.0 (4-8, 4 reviews)" in text and "withdrawn" in text


def test_stats_shows_the_rating_distribution_per_area(reviewed: Run) -> None:
    text = reviewed("stats").stdout
    assert "mean rating per paper (2 papers with reviews; 1 withdrawn left out" in text
    assert "interpretability and explainable AI" in text
    data = json.loads(reviewed("stats", "--json").stdout)["ratings"]
    assert data["rated"] == 2 and data["histogram"]["5-6"] == 1 and data["histogram"]["6-7"] == 1
    assert data["per_area"][0] == {"area": "interpretability and explainable AI", "rated": 2, "mean": 5.67, "rated_6_or_more": 1}


def test_a_bad_line_is_one_line_naming_file_and_line(run: Run, db: Path) -> None:
    assert run("--no-seed", "import", str(REVIEWS / "snapshot1.jsonl")).returncode == 0
    before = (db / "reviews.sqlite").read_bytes()
    result = run("import", str(REVIEWS / "bad_line.jsonl"))
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert f"{REVIEWS / 'bad_line.jsonl'}:2: not valid JSON" in result.stderr
    assert (db / "reviews.sqlite").read_bytes() == before


def test_a_damaged_reviews_store_is_one_line(run: Run, db: Path) -> None:
    assert run("--no-seed", "import", str(REVIEWS / "snapshot1.jsonl")).returncode == 0
    (db / "reviews.sqlite").write_bytes(b"garbage" * 100)
    result = run("show", "PaperAAAA1", "--reviews")
    assert result.returncode == 1
    assert result.stderr == f"reader-tui: {db / 'reviews.sqlite'}: not a reviews store (not an SQLite database), so it was left untouched\n"
    assert run("list").returncode == 0  # the list still works


def test_show_reviews_of_a_paper_whose_forum_is_empty_says_so(reviewed: Run) -> None:
    assert "no reviews, comments or decision yet" in reviewed("show", "PaperDDDD4", "--reviews").stdout
