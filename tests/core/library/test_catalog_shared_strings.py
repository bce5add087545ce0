"""The catalog keeps each repeated venue, source, entry type and import time once."""

from pathlib import Path

from reader_tui.core.library.catalog import Catalog


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
