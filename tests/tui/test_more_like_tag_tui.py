""""More like tag:X" in the TUI (`s`, then `l`, or the palette's "More like tag…"): the list
ranked by a model of one tag's papers, said in the status line and the detail pane,
kept for the next start; and "for you" with a words search: the matches in the model's
order, the status line saying so."""

from __future__ import annotations

from pathlib import Path

import pytest
from topics import open_topics

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.sorting import SortKey
from reader_tui.tui import widgets
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.sort_dialog import SortDialog
from reader_tui.tui.dialogs.tag_picker import TagPicker
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import FIRST_TRAINING_S, enter_text, screen_text, settle, settle_workers, wait_until

SIZE = (140, 40)
GRAPHS = {f"g{n}" for n in range(10)}
DIFFUSION = {f"d{n}" for n in range(10)}


@pytest.fixture
def tagged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Three graph papers tagged "mol", while the user's decisions want diffusion: six
    diffusion papers to-read, three other papers skipped."""
    monkeypatch.setattr(widgets.for_you_model, "TRAIN_DELAY", 0.0)  # no debounce to wait out
    library = open_topics(tmp_path / "topics")
    library.retag(["g0", "g1", "g2"], add=["mol"])
    library.set_status([f"d{n}" for n in range(6)], Status.TO_READ)
    library.set_status(["f0", "f1", "f2"], Status.SKIPPED)
    yield library
    library.close()


def _ids(app) -> list[str]:
    return list(app.screen.query_one(PaperList).ids)


async def _ranked_by(app, pilot, first: set[str]) -> None:
    assert await wait_until(pilot, lambda: set(_ids(app)[: len(first)]) == first, FIRST_TRAINING_S), (_ids(app), app.screen.for_you.failed)
    await settle_workers(pilot)


async def test_the_sort_dialog_ranks_the_list_more_like_a_tag(tagged: Library) -> None:
    tagged.retag(["f9"], add=["[b]x[/b]\x1b"])  # a tag is data: never markup, no raw escape
    app = create_app(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        assert isinstance(app.screen, SortDialog)
        assert "l  more like a tag…" in screen_text(app)
        await pilot.press("l")  # which tag: the library's, most used first
        assert isinstance(app.screen, TagPicker)
        assert "mol  (3)" in screen_text(app) and "[b]x[/b]" in screen_text(app) and "\x1b" not in screen_text(app)
        await enter_text(pilot, "#tag-picker-query", "MO")  # narrowed, any case; enter picks
        # the seven graph papers not tagged first, though the user's own decisions want diffusion
        await _ranked_by(app, pilot, GRAPHS - {"g0", "g1", "g2"})
        assert app.screen.browser.sort_key == SortKey("for-you", tag="mol")
        assert "sort: more like tag:mol" in screen_text(app)
        assert tagged.settings["sort"] == {"field": "for-you", "reverse": False, "tag": "mol"}
        # the detail pane says which model ranks the paper, and why
        await pilot.press("g")
        await settle(app, pilot)
        detail = app.screen.side.detail
        assert detail.paper_id in GRAPHS
        line = next(line for line in detail.text.splitlines() if line.startswith("for\u00a0you"))
        assert "more like tag:mol · words: " in line
        # the dialog shows the tag's row as the current order; `y` goes back to the user's model
        await pilot.press("s")
        assert "l  more like tag:mol…" in screen_text(app)
        await pilot.press("y")
        await _ranked_by(app, pilot, DIFFUSION - {f"d{n}" for n in range(6)})
        assert app.screen.browser.sort_key == SortKey("for-you")
        assert "sort: for you" in screen_text(app) and "tag:mol" not in screen_text(app)
        await settle(app, pilot)
        assert "more like tag" not in detail.text
        assert app.screen.for_you.tag is None  # the tag's model is not trained any more


async def test_more_like_tag_from_the_palette_and_at_the_next_start(tagged: Library) -> None:
    app = create_app(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p", *"More like tag")
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TagPicker)
        await pilot.press("enter")  # the tag most used, highlighted first
        await _ranked_by(app, pilot, GRAPHS - {"g0", "g1", "g2"})
        assert "sort: more like tag:mol" in screen_text(app)
    app = create_app(tagged)  # the order is kept with the library
    async with app.run_test(size=SIZE) as pilot:
        await _ranked_by(app, pilot, GRAPHS - {"g0", "g1", "g2"})
        assert "sort: more like tag:mol" in screen_text(app)
    tagged.retag(["g0", "g1", "g2"], remove=["mol"])  # no paper has the tag any more: not restored
    app = create_app(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.screen.browser.sort_key is None and "tag:mol" not in screen_text(app)


async def test_more_like_tag_says_when_no_paper_is_tagged(tmp_path: Path) -> None:
    library = open_topics(tmp_path / "plain")
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.screen.action_more_like_tag()
        await pilot.pause()
        assert not isinstance(app.screen, TagPicker)
        assert "more like tag: no paper is tagged yet (t tags the current paper)" in screen_text(app)
        await pilot.press("s")
        assert isinstance(app.screen, SortDialog) and "l  more like" not in screen_text(app)  # no tag row either
    library.close()


async def test_for_you_orders_a_words_search_and_says_so(tagged: Library) -> None:
    app = create_app(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await wait_until(pilot, lambda: app.screen.browser.index is not None and app.screen.browser.index.abstracts_indexed)
        await pilot.press("s", "t")  # by title: a words search ranks best match first, and says so
        await pilot.press("slash")
        await enter_text(pilot, "#search", "diffusion graph")  # no paper has both: the twenty with one
        await settle(app, pilot)
        assert len(_ids(app)) == 20
        assert "best match first · search: diffusion graph" in screen_text(app)
        by_relevance = _ids(app)
        await pilot.press("s", "y")  # for you: the matches in the model's order
        await _ranked_by(app, pilot, {"d6", "d7", "d8", "d9"})
        assert "sort: for you, within the search · search: diffusion graph" in screen_text(app)
        ids = _ids(app)
        assert ids != by_relevance and len(ids) == 20
        # the decided matches last (the six diffusion papers to-read, the three tagged)
        assert set(ids[-9:]) == {f"d{n}" for n in range(6)} | {"g0", "g1", "g2"}
        # a decision retrains the model; the search's list holds still until `=` re-ranks it
        model = app.screen.for_you
        generation = model.generation
        paper_list = app.screen.query_one(PaperList)
        paper_list.move_to(ids.index("d7"))
        await pilot.press("5")  # d7 skipped
        assert await wait_until(pilot, lambda: model.generation > generation)
        await settle(app, pilot)
        assert _ids(app) == ids
        await pilot.press("equals_sign")
        assert await wait_until(pilot, lambda: "d7" in _ids(app)[-10:])
        assert len(_ids(app)) == 20 and "search: diffusion graph" in screen_text(app)


async def test_triage_for_you_stays_the_users_model_while_the_list_is_more_like_a_tag(tagged: Library) -> None:
    from reader_tui.tui.screens.triage_screen import TriageScreen

    tagged.set_status(["f3", "f4", "f5"], Status.SKIPPED)
    app = create_app(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.screen.browser.set_order(SortKey("for-you", tag="mol"))
        await _ranked_by(app, pilot, GRAPHS - {"g0", "g1", "g2"})
        model = app.screen.for_you
        await pilot.press("T")
        await pilot.pause()
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        await pilot.press("f")  # for you: the user's own decisions, trained beside the tag's
        assert await wait_until(pilot, lambda: model.model is not None and model.tag_model is not None, FIRST_TRAINING_S)
        await settle_workers(pilot)
        assert model.model.tag is None and model.tag_model.tag == "mol"
        user, by_tag = model.scores(), model.scores("mol")
        assert user != by_tag
        untriaged = [pid for pid in triage.queue if tagged.annotation(pid).status is Status.UNREAD and pid not in {"g0", "g1", "g2"}]
        first = max(untriaged, key=lambda pid: user[pid])
        assert first != max(untriaged, key=lambda pid: by_tag[pid])  # the two models disagree here
        assert await wait_until(pilot, lambda: triage.current_id == first)
