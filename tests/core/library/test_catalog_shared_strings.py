"""The catalog keeps each repeated venue, source, entry type, import time, keyword and
author once."""

from pathlib import Path

from reader_tui.core.library.catalog.records import Catalog


def _record(pid: str) -> dict:
    # built at run time, so that each record has its own string objects, as a parser makes them
    year = str(2026)
    return {"id": pid, "title": f"Paper {pid}", "venue": "ICLR " + year, "source": "openreview:" + year,
            "entry_type": "in" + "proceedings", "added": year + "-01-01T00:00:00+00:00"}


def test_repeated_values_are_one_string_each(tmp_path: Path):
    first, second = _record("a"), _record("b")
    assert first["venue"] is not second["venue"]
    catalog = Catalog({"1": first, "2": second}, tmp_path / "catalog.json")
    a, b = catalog["a"], catalog["b"]
    for field in ("venue", "source", "entry_type", "added"):
        assert getattr(a, field) == getattr(b, field)
        assert getattr(a, field) is getattr(b, field), field
    assert a.title == "Paper a" and b.title == "Paper b"


def test_repeated_keywords_and_authors_are_one_string_each(tmp_path: Path):
    def record(pid: str) -> dict:
        words = "large language models"
        return {**_record(pid), "keywords": [words[:5] + words[5:], pid], "authors": ["Ada " + "Lovelace"]}

    catalog = Catalog({"1": record("a"), "2": record("b")}, tmp_path / "catalog.json")
    a, b = catalog["a"], catalog["b"]
    assert a.keywords == ("large language models", "a") and b.keywords == ("large language models", "b")
    assert a.keywords[0] is b.keywords[0] and a.authors[0] is b.authors[0]


def test_a_damaged_keyword_list_is_still_refused(tmp_path: Path):
    catalog = Catalog({"1": {**_record("a"), "keywords": ["x", 5]}}, tmp_path / "catalog.json", placeholders=True)
    assert catalog["a"].title.startswith("(damaged record")
    assert catalog.problems and "keywords must be a list of strings" in catalog.problems[0]
