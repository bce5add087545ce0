""""For you" in the TUI: the sort (`s`, then `y`) ranks the undecided papers by a model of
the user's decisions, retrained after each one; the dialog says what it still needs; the
detail pane says why a paper ranks where it does; triage offers the order."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from topics import GRAPH_TITLES as _GRAPH
from topics import open_topics

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui import widgets
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.sort_dialog import SortDialog
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import FIRST_TRAINING_S, screen_text, settle, settle_workers, wait_until

SIZE = (140, 40)


@pytest.fixture
def topics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(widgets.for_you_model, "TRAIN_DELAY", 0.0)  # no debounce to wait out
    library = open_topics(tmp_path / "topics")
    yield library
    library.close()


def _ids(app) -> list[str]:
    return list(app.screen.query_one(PaperList).ids)


def _for_you_line(app) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#sort-for-you", Static).content)


def _held(monkeypatch: pytest.MonkeyPatch, name: str, seconds: float) -> tuple[list, threading.Event]:
    """`for_you.<name>` made to wait for the event returned (at most `seconds`) before it
    runs; the list gets each call's first argument."""
    from reader_tui.core.related import for_you

    calls, go = [], threading.Event()
    real = getattr(for_you, name)

    def held(*args, **kwargs):
        calls.append(args[0])
        go.wait(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(for_you, name, held)
    return calls, go


async def _trained(app, pilot, after: int) -> None:
    model = app.screen.for_you
    assert await wait_until(pilot, lambda: model.generation > after, seconds=FIRST_TRAINING_S)
    await settle_workers(pilot)


async def test_the_sort_dialog_says_what_for_you_needs(topics: Library) -> None:
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        assert isinstance(app.screen, SortDialog)
        assert "y  for you" in screen_text(app)
        assert _for_you_line(app) == "for you needs 3 more kept (to-read, reading, read or tagged) and 3 more skipped"
        assert "for you needs 3 more kept" in screen_text(app)
        await pilot.press("y")  # nothing kept: nothing to learn from, the dialog stays
        assert isinstance(app.screen, SortDialog)
        await pilot.press("escape")
        assert app.screen.browser.sort_key is None


def _three_kept_three_skipped(topics: Library) -> None:
    """Enough decisions for "for you" to learn from: three graph papers kept, three skipped."""
    topics.set_status(["g0", "g1", "g2"], Status.TO_READ)
    topics.set_status(["d0", "d1", "d2"], Status.SKIPPED)


async def _triage(app, pilot):
    """`T` on the settled main screen: the triage screen."""
    from reader_tui.tui.screens.triage_screen import TriageScreen

    await settle(app, pilot)
    await pilot.press("T")
    await pilot.pause()
    assert isinstance(app.screen, TriageScreen)
    return app.screen


async def test_sort_for_you_ranks_the_topic_kept_first_and_follows_each_decision(topics: Library) -> None:
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        assert _for_you_line(app) == "for you: learned from 3 papers kept and 3 skipped"
        await pilot.press("y")
        await _trained(app, pilot, 0)
        await settle(app, pilot)
        ids = _ids(app)
        # the seven graph papers left undecided first; the diffusion ones, the topic skipped, last
        # of the undecided; then the decided
        assert set(ids[:7]) == {f"g{n}" for n in range(3, 10)}
        assert set(ids[27:34]) == {f"d{n}" for n in range(3, 10)}
        assert set(ids[34:]) == {"g0", "g1", "g2", "d0", "d1", "d2"}
        assert "sort: for you" in screen_text(app)
        assert topics.settings["sort"] == {"field": "for-you", "reverse": False}
        # a decision retrains the model, but the list holds still under the user's hands
        # (issue 35): same rows, same cursor; the status line says a newer order waits
        paper_list = app.screen.query_one(PaperList)
        row = ids.index("d5")
        paper_list.move_to(row)
        generation = app.screen.for_you.generation
        await pilot.press("2")  # d5 to-read: diffusion is wanted too now
        await _trained(app, pilot, generation)
        await settle(app, pilot)
        assert _ids(app) == ids and paper_list.cursor == row and paper_list.current_id == "d5"
        assert "= re-ranks" in screen_text(app)
        await pilot.press("t")  # a tag and a note on the same paper: still nothing moves
        await pilot.press(*"later", "enter", "escape")
        await settle(app, pilot)
        assert _ids(app) == ids and paper_list.current_id == "d5"
        # `=` re-ranks: the decided paper goes among the decided ones, the cursor with it
        await pilot.press("equals_sign")
        await settle(app, pilot)
        assert "d5" in _ids(app)[-8:] and paper_list.current_id == "d5"
        assert "= re-ranks" not in screen_text(app)
        # the user changes their mind: diffusion kept, graphs skipped; re-ranked, the
        # list follows, and the paper under the cursor stays under it
        paper_list.move_to(_ids(app).index("d8"))
        generation = app.screen.for_you.generation
        topics.set_status(["d3", "d4", "d6"], Status.TO_READ)
        topics.set_status(["g3", "g4", "g5", "g6"], Status.SKIPPED)
        await _trained(app, pilot, generation)
        await settle(app, pilot)
        assert paper_list.current_id == "d8"
        await pilot.press("equals_sign")
        assert await wait_until(pilot, lambda: _ids(app)[0] in {"d7", "d8", "d9"})
        assert paper_list.current_id == "d8"


async def test_choosing_for_you_keeps_the_cursor_on_a_paper_decided_before(topics: Library) -> None:
    """The cursor on a paper decided long ago stays on it when "for you" is chosen (and
    when the app starts in that order): the first model moved it to whatever paper then
    held its row, as if that paper had just been decided (found by hand: from a to-read
    paper near the top to one 9,650 rows down)."""
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_list = app.screen.query_one(PaperList)
        paper_list.move_to(_ids(app).index("d1"))
        await settle(app, pilot)
        await pilot.press("s", "y")
        await _trained(app, pilot, 0)
        await settle(app, pilot)
        assert set(_ids(app)[:7]) == {f"g{n}" for n in range(3, 10)}  # in the model's order
        assert paper_list.current_id == "d1"
        app.screen.browser.remember_place()
    # and at the next start, in that order
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await _trained(app, pilot, 0)
        assert await wait_until(pilot, lambda: set(_ids(app)[:7]) == {f"g{n}" for n in range(3, 10)})
        await settle(app, pilot)
        assert app.screen.query_one(PaperList).current_id == "d1"


async def test_the_for_you_sort_is_restored_at_the_next_start(topics: Library) -> None:
    topics.set_status(["g0", "g1", "g2"], Status.TO_READ)
    topics.set_status(["d0", "d1", "d2"], Status.SKIPPED)
    topics.set_setting("sort", {"field": "for-you", "reverse": False})
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await _trained(app, pilot, 0)
        assert await wait_until(pilot, lambda: set(_ids(app)[:7]) == {f"g{n}" for n in range(3, 10)})
        assert "sort: for you" in screen_text(app)


async def test_the_status_line_says_how_many_hits_have_every_word(topics: Library) -> None:
    from tui_support import enter_text

    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await wait_until(pilot, lambda: app.screen.browser.index is not None and app.screen.browser.index.abstracts_indexed)
        await pilot.press("slash")
        await enter_text(pilot, "#search", "molecular graph message passing")
        await settle(app, pilot)
        assert len(_ids(app)) == 10
        assert "10 papers of 40 · 8 with every word" in screen_text(app)
        await pilot.press("escape")  # the search ends: so does the line
        await settle(app, pilot)
        assert "with every word" not in screen_text(app)
        await pilot.press("slash")
        await enter_text(pilot, "#search", "graph")  # every hit has every word: nothing to say
        await settle(app, pilot)
        assert "with every word" not in screen_text(app)


async def test_the_detail_pane_says_why_a_paper_ranks_where_it_does(topics: Library) -> None:
    topics.set_status(["g0", "g1", "g2"], Status.TO_READ)
    topics.set_status(["d0", "d1", "d2"], Status.SKIPPED)
    topics.edit("g0", title="[bold]Graph[/bold] networks for molecules")  # a title is data, never markup
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "for you" not in app.screen.side.detail.text  # sorted otherwise: nothing to say
        await pilot.press("s", "y")
        await _trained(app, pilot, 0)
        await settle(app, pilot)
        await pilot.press("g")  # the cursor stayed on its paper (g0, decided): to the top
        await settle(app, pilot)
        detail = app.screen.side.detail
        assert detail.paper_id in {f"g{n}" for n in range(3, 10)}
        line = next(line for line in detail.text.splitlines() if line.startswith("for\u00a0you"))
        words = line.split("words: ")[1].split(" · ")[0].split(", ")
        assert words and set(words) <= {"graph", "graphs", "molecular", "molecules", "message", "passing", "networks", "neural"}
        assert " · like: " in line
        liked = line.split(" · like: ")[1]
        assert any(title[:20] in liked for title in _GRAPH[:3]) or "[bold]Graph[/bold]" in liked
        assert "for you" in screen_text(app) and "words: " in screen_text(app)
        # a decided paper ranks last for being decided: no line
        app.screen.query_one(PaperList).move_to(_ids(app).index("g1"))
        await settle(app, pilot)
        assert "words: " not in detail.text
        # sorted otherwise again: the line goes
        await pilot.press("s", "t")
        await settle(app, pilot)
        assert "words: " not in detail.text


# -- triage ---------------------------------------------------------------------------------


def _triage_line(app) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#triage-for-you", Static).render())


async def test_triage_says_how_many_decisions_for_you_needs(topics: Library) -> None:
    topics.set_status(["g0"], Status.TO_READ)
    app = create_app(topics)
    said: list[str] = []
    app.notify = lambda message, **kwargs: said.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        triage = await _triage(app, pilot)
        assert "for you needs 2 more kept and 3 more skipped" in screen_text(app)
        await pilot.press("f")  # not yet: it says why, the list order stays
        assert said[-1].startswith("for you needs 2 more kept") and not triage.by_for_you
        await pilot.press("w", "w", "s", "s")
        assert "for you needs 1 more skipped" in screen_text(app)
        await pilot.press("s")
        assert "f: for you order" in screen_text(app)


async def test_triage_in_for_you_order_follows_each_decision(topics: Library) -> None:
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        triage = await _triage(app, pilot)
        assert triage.current_id == "f0"  # the list's order: the first untriaged paper
        assert "f: for you order" in screen_text(app)
        model = triage.for_you
        await pilot.press("f")
        assert await wait_until(pilot, lambda: triage.current_id in {f"g{n}" for n in range(3, 10)}, FIRST_TRAINING_S)
        assert "For you · 34 of 34 left" in screen_text(app) and "in for you order" in screen_text(app)

        def first_of_latest_model() -> str:
            scores = model.scores()
            untriaged = [pid for pid in triage.queue if topics.annotation(pid).status is Status.UNREAD]
            return max(untriaged, key=lambda pid: scores[pid])

        for key in "wsw":
            decided = triage.current_id
            generation = model.generation
            await pilot.press(key)
            # the model learns from the decision, and the paper shown is the one it ranks first
            assert await wait_until(pilot, lambda: model.generation > generation and decided in model.model.decided)
            await settle_workers(pilot)
            assert await wait_until(pilot, lambda: triage.current_id == first_of_latest_model())
        # a paper passed over is seen, left undecided: a weak "no" for the model
        passed = triage.current_id
        await pilot.press("l")
        assert passed in model.seen and triage.current_id != passed
        assert topics.annotation(passed).status is Status.UNREAD


async def test_triage_says_it_is_learning_what_it_learned_from_and_why_a_paper_was_chosen(
    topics: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Static


    _, go = _held(monkeypatch, "train", 30)  # a training waits for `go`: a slow machine, made certain
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        triage = await _triage(app, pilot)
        why = triage.query_one("#triage-why", Static)
        assert not why.display  # the list's order: nothing was chosen by the model
        await pilot.press("f")
        # the first training makes the features and loads scikit-learn: it says so at once
        assert "learning…" in _triage_line(app)
        model = triage.for_you
        await pilot.pause(0.2)
        assert "learning…" in _triage_line(app) and model.model is None
        go.set()
        assert await wait_until(pilot, lambda: model.model is not None and not model.training, FIRST_TRAINING_S)
        await settle_workers(pilot)
        assert "learned from 3 kept and 3 skipped" in _triage_line(app)
        assert triage.current_id in {f"g{n}" for n in range(3, 10)}
        shown = str(why.render())
        assert why.display and shown.startswith("why: words: ") and "like: " in shown, shown
        assert any(word in shown for word in ("graph", "molecular", "message", "passing")), shown
        generation = model.generation
        go.clear()
        await pilot.press("w")  # a decision: learning again until the model that knows it
        await pilot.pause(0.2)
        assert "learning…" in _triage_line(app)
        go.set()
        assert await wait_until(pilot, lambda: model.generation > generation and not model.training)
        await settle_workers(pilot)
        assert "learned from 4 kept and 3 skipped" in _triage_line(app)


def test_a_start_that_never_asks_for_you_loads_neither_numpy_nor_scikit_learn(tmp_path: Path) -> None:
    # the start, the search index loaded, the list shown: the model's libraries (some 60 MB
    # and a second or two) wait until "for you" is asked for
    import os
    import subprocess
    import sys

    probe = """
import asyncio, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from tui_support import make_library, settle_workers
from reader_tui.tui.app import create_app

async def main():
    library = make_library(Path(sys.argv[1]))
    app = create_app(library)
    async with app.run_test() as pilot:
        await settle_workers(pilot)
        assert app.screen.browser.index is not None
    library.close()
    print(sorted(m for m in ("numpy", "scipy", "sklearn") if m in sys.modules))

asyncio.run(main())
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "lib"), str(root / "tests" / "tui")],
        cwd=root, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(root), "READER_TUI_CACHE": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


async def test_a_training_that_fails_says_so(topics: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    from reader_tui.core.related import for_you

    def broken(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(for_you, "train", broken)
    topics.set_status(["g0", "g1", "g2"], Status.TO_READ)
    app = create_app(topics)
    said: list[str] = []
    app.notify = lambda message, **kwargs: said.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "y")
        assert await wait_until(pilot, lambda: bool(app.screen.for_you.failed))
        await settle(app, pilot)
        assert "for you could not be trained: MemoryError: no room" in said
        assert "sort: for you (failed)" in screen_text(app)


async def test_decisions_while_the_features_are_made_do_not_make_them_again(
        topics: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision made while the first training makes the features starts a newer
    training; it waits for those features instead of making its own beside them."""
    # the first features take until the decision below started a newer training
    made, go = _held(monkeypatch, "Features", 10)
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "y")
        assert await wait_until(pilot, lambda: made)
        topics.set_status(["g3"], Status.TO_READ)
        # the newer training has a second to start making features of its own (it must not)
        await wait_until(pilot, lambda: len(made) > 1, seconds=1.0)
        go.set()
        await _trained(app, pilot, 0)
        await settle(app, pilot)
        assert len(made) == 1


def _reviewed(paper_id: str, summary: str) -> dict:
    """A forum of one review whose summary is `summary`, as an importer hands it over."""
    from reader_tui.core.reviews import ForumData, encode_forum, forum_record

    review = {"id": f"{paper_id}r", "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"],
              "content": {"summary": {"value": summary}, "rating": {"value": 6}}}
    record = forum_record({"id": paper_id}, [review], paper_id)
    return {paper_id: ForumData(record["captured"], 1, encode_forum(record))}


async def test_for_you_learns_from_the_reviewers_summaries_imported_while_it_runs(topics: Library) -> None:
    """A paper whose own words say nothing of the topic kept, but whose reviewer retells it
    in that topic's words, climbs once its review is in the store (the features are made
    again for the new reviews, though the search index is the same)."""
    _three_kept_three_skipped(topics)
    app = create_app(topics)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("s", "y")
        await _trained(app, pilot, 0)
        await settle(app, pilot)
        assert "f5" not in _ids(app)[:8]
        generation = app.screen.for_you.generation
        index = app.screen.browser.index
        # the reviews alone change (the search index stays the one the features were made
        # from); the next decision trains on features made again
        topics.review_store.write(_reviewed("f5", "Message passing graph networks on molecules: "
                                                  "molecular graph neural networks"))
        topics.set_status(["f7"], Status.SKIPPED)
        await _trained(app, pilot, generation)
        assert app.screen.browser.index is index
        await settle(app, pilot)
        await pilot.press("equals_sign")
        assert await wait_until(pilot, lambda: "f5" in _ids(app)[:8]), _ids(app)
