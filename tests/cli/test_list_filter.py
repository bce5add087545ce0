"""The one list filter (`core.search.filters.ListFilter`) and the one listing policy
(`core.library.listing.compute_listing`): the TUI's list and the CLI's selection choose
papers through them, and agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.cli import options
from reader_tui.core.library.library import Library
from reader_tui.core.library.listing import compute_listing
from reader_tui.core.model import Paper, Status
from reader_tui.core.search.filters import ListFilter
from reader_tui.core.search.index import SearchIndex


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "lib")
    titles = ["Graph networks", "Attention 論文", "Graph attention 🎉", "Diffusion שלום", "Reinforcement"]
    library.import_papers([Paper(id=f"p{n}", title=t, abstract=f"about {t}") for n, t in enumerate(titles)])
    library.set_status(["p0", "p2"], Status.READ)
    library.set_status(["p1"], Status.TO_READ)
    library.set_tags("p0", ["GNN", "LLM"])
    library.set_tags("p2", ["gnn"])
    library.set_tags("p3", ["llm", "my tag"])
    return library


def test_the_predicate(library: Library) -> None:
    views = {v.id: v for v in library.views()}
    ids = list(views)

    def chosen(f: ListFilter, marked: frozenset[str] = frozenset()) -> list[str]:
        by_views = [pid for pid in ids if f.matches(views[pid], marked)]
        assert f.keep(ids, library.annotations, marked) == by_views  # one predicate, two inputs
        return by_views

    assert chosen(ListFilter()) == ids
    assert chosen(ListFilter.of(status=Status.READ)) == ["p0", "p2"]
    assert chosen(ListFilter(frozenset({Status.READ, Status.TO_READ}))) == ["p0", "p1", "p2"]
    assert chosen(ListFilter.of(tags=["gnn", "llm"])) == ["p0"]  # all of them
    assert chosen(ListFilter(tags=("gnn", "LLM"), any_tag=True)) == ["p0", "p2", "p3"]
    assert chosen(ListFilter(marked_only=True), frozenset({"p4", "p1"})) == ["p1", "p4"]
    assert ListFilter.of(status=Status.TO_READ, tag="my tag", search="x").as_query() == 'status:to-read tag:"my tag" x'
    assert ListFilter.of(status=Status.TO_READ, tag="my tag").describe() == "status:to-read tag:my tag"


@pytest.mark.parametrize(
    ("status", "tags", "search"),
    [(None, [], None), (Status.READ, [], None), (None, ["GNN"], None), (Status.READ, ["gnn"], "graph"), (None, [], "attention")],
)
def test_the_cli_and_the_tui_list_choose_the_same_papers(library, monkeypatch, status, tags, search) -> None:
    index = SearchIndex.build(library.views())
    monkeypatch.setattr("reader_tui.core.library.indexing.search_index", lambda lib, **k: (index, True))
    cli = [v.id for v in options.select_views(library, status=status, tags=tags, search=search)]
    tui = compute_listing(
        library, list_filter=ListFilter.of(status=status, tags=tags), search=search or "", index=index
    ).ids
    assert cli == tui
    # a saved search (the filter as a query) chooses them too
    as_query = ListFilter.of(status=status, tags=tags, search=search).as_query()
    assert set(compute_listing(library, search=as_query, index=index).ids) == set(tui) or not as_query


def test_several_statuses_and_any_tag_as_a_query_choose_what_the_filter_does(library) -> None:
    index = SearchIndex.build(library.views())
    chosen = ListFilter(frozenset({Status.READ, Status.TO_READ}), ("gnn", "LLM"), any_tag=True)
    by_filter = compute_listing(library, list_filter=chosen, index=index).ids
    by_query = compute_listing(library, search=chosen.as_query(), index=index).ids
    assert by_filter and set(by_query) == set(by_filter)


def test_every_user_goes_through_it() -> None:
    import inspect

    from reader_tui.core.library import listing
    from reader_tui.tui.widgets import listing_worker, saved_searches

    assert "compute_listing" in inspect.getsource(options.select_views)
    assert "compute_listing" in inspect.getsource(listing_worker) and "compute_listing" in inspect.getsource(saved_searches)
    assert "casefold" not in inspect.getsource(options) + inspect.getsource(listing)


def test_a_search_of_one_left_out_term_is_a_search(library: Library, capsys: pytest.CaptureFixture[str]) -> None:
    """`list --search -tag:gnn` (docs/search.md's `-tag:old`, `-softmax`): argparse took the
    lone value for an option and stopped with "expected one argument"; a value with a space
    worked. A value starting "--" is still the next option (found by hand)."""
    from reader_tui.cli import main

    folder = str(library.files.folder)
    library.close()
    capsys.readouterr()
    assert main(["list", "--search", "-tag:gnn", "--db", folder]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["p1", "p3", "p4"]
    assert main(["export", "--format", "markdown", "--search", "-graph", "--db", folder]) == 0
    out = capsys.readouterr().out
    assert "Attention 論文" in out and "Graph" not in out
    with pytest.raises(SystemExit) as done:
        main(["list", "--search", "--json", "--db", folder])
    assert done.value.code == 2 and "expected one argument" in capsys.readouterr().err
