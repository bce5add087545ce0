"""`core.reviews` exports its names as it did, each imported from its module on first
use: what a start needs (`one_line`) does not bring the forum's and records' modules."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import reader_tui.core.reviews as reviews


@pytest.mark.parametrize("name", reviews.__all__)
def test_every_exported_name_is_the_one_of_its_module(name: str) -> None:
    module = importlib.import_module(f"reader_tui.core.reviews.{reviews._SOURCES[name]}")
    assert getattr(reviews, name) is getattr(module, name)


def test_the_exports_are_the_names_it_maps() -> None:
    assert sorted(reviews.__all__) == sorted(reviews._SOURCES)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        reviews.Nothing  # noqa: B018


def test_the_scores_line_alone_leaves_the_forum_and_records_unloaded() -> None:
    code = (
        "import json, sys\n"
        "from reader_tui.core.reviews import compact_scores, scores_line\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('reader_tui.core.reviews'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == ["reader_tui.core.reviews", "reader_tui.core.reviews.one_line"]
