"""Related papers in the detail pane, `]` / enter to jump, "more like this" and the
suggested tags, on a library of three topic clusters where the answer is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from clusters import PAPERS, TOPIC, cluster_library
from reader_tui.core.library.indexing import related_cache_path
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.tag_editor import TagEditor
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.related_list import COMPUTING, RelatedList
from tui_support import screen_text, settle

SIZE = (120, 40)


@pytest.fixture
def clusters(tmp_path: Path):
    library = cluster_library(tmp_path / "clusters")
    yield library
    library.close()


async def test_related_shows_same_cluster_and_jumps(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        related = app.screen.query_one(RelatedList)
        await settle(app, pilot)
        assert related.index is not None
        for paper in PAPERS:  # every paper's top three are the rest of its cluster
            related.show_for(paper.id)
            assert {TOPIC[pid] for pid in related.paper_ids[:3]} == {TOPIC[paper.id]}, paper.id
        papers = app.screen.query_one(PaperList)
        papers.move_to(papers.ids.index("rl-0"))
        await settle(app, pilot)
        assert {TOPIC[pid] for pid in related.paper_ids[:3]} == {"rl"}
        assert "Offline Reinforcement Learning" in screen_text(app) or "Exploration Bonuses" in screen_text(app)
        first, second = related.paper_ids[:2]
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert related.has_focus and related.highlighted == 1
        await pilot.press("enter")
        assert papers.has_focus
        assert papers.current_id == second
        await pilot.press("left_square_bracket")  # the new paper's related list, from the end
        await settle(app, pilot)
        assert related.highlighted == len(related.paper_ids) - 1
        await pilot.press("escape")
        assert papers.has_focus and not related.can_focus


async def test_computing_until_the_index_arrives_and_cache_written(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        related = app.screen.query_one(RelatedList)
        if related.index is None:
            assert COMPUTING in related.text
        await settle(app, pilot)
        assert COMPUTING not in related.text and related.paper_ids
    assert related_cache_path(clusters.files.folder).exists()


async def test_more_like_this_filters_and_escape_restores(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        everything = list(papers.ids)
        papers.move_to(papers.ids.index("diffusion-2"))
        await pilot.press("M")
        await settle(app, pilot)
        assert papers.ids[0] == "diffusion-2"
        assert {TOPIC[pid] for pid in papers.ids[:4]} == {"diffusion"}
        assert len(papers.ids) < len(everything)
        assert "more like:" in screen_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.ids == everything
        assert papers.current_id == "diffusion-2"


async def test_tag_editor_suggests_tags_of_similar_papers(clusters: Library) -> None:
    clusters.set_tags("graph-1", ["gnn"])
    clusters.set_tags("graph-2", ["gnn", "chemistry"])
    clusters.set_tags("rl-1", ["robots"])
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        papers.move_to(papers.ids.index("graph-0"))
        await pilot.press("t")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, TagEditor)
        assert editor.suggestions[:2] == ["gnn", "chemistry"]
        await pilot.press("down", "enter", "escape")  # one suggestion accepted
        await settle(app, pilot)
        assert clusters.annotation("graph-0").tags == ("gnn",)


async def test_narrow_terminal_shows_related_only_while_walking_it(clusters: Library) -> None:
    app = create_app(clusters)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        related = app.screen.query_one(RelatedList)
        assert not related.display
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert related.display and related.has_focus and related.highlighted == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not related.display


async def test_palette_lists_saved_searches_and_more_like_this(clusters: Library) -> None:
    from reader_tui.core.library.saved_searches import save_search
    from reader_tui.tui.commands import ReaderCommands

    save_search(clusters, "robots", "robot")
    app = create_app(clusters)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        provider = ReaderCommands(app.screen)
        names = [text for text, _help, _command in provider._commands()]
        for name in ("More like this", "Save this search…", "Search: robots", "Delete saved search: robots", "Triage", "Stats"):
            assert name in names, name
