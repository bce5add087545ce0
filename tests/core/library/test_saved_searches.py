"""Saved searches live with the library: named queries, unique names in any case."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.library.saved_searches import (
    SETTING,
    SavedSearch,
    delete_search,
    get_search,
    list_searches,
    rename_search,
    save_search,
)
from reader_tui.core.model import Paper


@pytest.fixture
def library(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "db")
    lib.import_papers([Paper(id=f"p{n}", title=f"Paper {n}", abstract=f"About {n} things.") for n in range(3)])
    return lib


def test_saved_searches_are_listed_by_name_and_survive_reopening(library: Library, tmp_path: Path) -> None:
    save_search(library, "to-read llm", "status:to-read tag:llm")
    save_search(library, "Agents", "agents planning")
    save_search(library, "  diffusion\n  theory ", "diffusion theory")
    expected = [
        SavedSearch("Agents", "agents planning"),
        SavedSearch("diffusion theory", "diffusion theory"),
        SavedSearch("to-read llm", "status:to-read tag:llm"),
    ]
    assert list_searches(library) == expected
    assert list_searches(Library.open(tmp_path / "db")) == expected


def test_saving_a_name_again_in_any_case_replaces_it(library: Library) -> None:
    save_search(library, "to-read llm", "tag:llm")
    saved = save_search(library, "To-Read LLM", "status:to-read tag:llm")
    assert saved == SavedSearch("To-Read LLM", "status:to-read tag:llm")
    assert list_searches(library) == [saved]
    assert get_search(library, "TO-READ llm") == saved


@pytest.mark.parametrize("name", ["", "   ", "\n"])
def test_an_empty_name_is_refused(library: Library, name: str) -> None:
    with pytest.raises(ValueError, match="needs a name"):
        save_search(library, name, "tag:llm")
    assert list_searches(library) == []


def test_an_empty_query_or_overlong_name_is_refused(library: Library) -> None:
    with pytest.raises(ValueError, match="no search to save"):
        save_search(library, "nothing", "   ")
    with pytest.raises(ValueError, match="at most"):
        save_search(library, "x" * 200, "tag:llm")
    assert list_searches(library) == []


def test_delete_in_any_case(library: Library, tmp_path: Path) -> None:
    save_search(library, "Agents", "agents")
    save_search(library, "rl", "tag:rl")
    assert delete_search(library, "agents") is True
    assert delete_search(library, "agents") is False
    assert list_searches(Library.open(tmp_path / "db")) == [SavedSearch("rl", "tag:rl")]


def test_rename(library: Library) -> None:
    save_search(library, "rl", "tag:rl")
    save_search(library, "llm", "tag:llm")
    assert rename_search(library, "RL", "reinforcement") == SavedSearch("reinforcement", "tag:rl")
    assert rename_search(library, "llm", "LLM") == SavedSearch("LLM", "tag:llm")  # a new spelling
    with pytest.raises(ValueError, match="already called"):
        rename_search(library, "reinforcement", "llm")
    with pytest.raises(ValueError, match="no saved search"):
        rename_search(library, "missing", "x")
    with pytest.raises(ValueError, match="needs a name"):
        rename_search(library, "LLM", " ")
    assert [s.name for s in list_searches(library)] == ["LLM", "reinforcement"]


def test_a_damaged_setting_is_read_as_what_makes_sense(library: Library) -> None:
    library.set_setting(SETTING, "not a dict")
    assert list_searches(library) == []
    library.set_setting(SETTING, {"ok": "tag:x", "bad": 3, " ": "tag:y"})
    assert list_searches(library) == [SavedSearch("ok", "tag:x")]
    save_search(library, "new", "tag:z")
    assert [s.name for s in list_searches(library)] == ["new", "ok"]
