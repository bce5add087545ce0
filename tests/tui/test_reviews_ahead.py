"""The reviews made ready ahead: once the list's cursor rests on a paper, the kept reviews
screen reads its forum and lays out and draws its first screen off screen, so that `R`
only shows it. What `R` then shows is what a fresh read shows; another search, a new
import of the reviews or an edited title is never shown from what was made before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widget import Widget

from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.screens import reviews_screen
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.reviews_screen import SCREEN_NAME, ReviewsScreen, open_reviews, prepare_reviews
from reader_tui.tui.screens.triage_screen import TriageScreen
from reader_tui.tui.widgets.reviews_view import ReviewsView
from tui_support import screen_text, settle, wait_until

TEXT = "The method is sound and the experiments are thorough; the $O(n)$ cost is **clear**. " * 4
LONG_TITLE = ("A title long enough to take two lines of the header " * 3).strip()


def _forum(pid: str, number: int, title: str, reviews: int = 6, extra: str = "") -> dict:
    replies = [{
        "id": f"{pid}R{n}", "replyto": pid, "cdate": 1760000000000 + n * 1000,
        "invitations": [f"ICLR.cc/2026/Conference/Submission{number}/-/Official_Review"],
        "signatures": [f"ICLR.cc/2026/Conference/Submission{number}/Reviewer_r{n}"],
        "content": {"summary": {"value": f"Review {n} of {pid}. " + TEXT},
                    "strengths": {"value": "\n\n".join([TEXT] * 3)},
                    "weaknesses": {"value": "\n\n".join([TEXT] * 3)},
                    "rating": {"value": 2 + n % 7}, "confidence": {"value": 3}},
    } for n in range(reviews)]
    if extra:  # an authors' answer posted later: a newer snapshot of the forum
        replies.append({
            "id": f"{pid}C0", "replyto": f"{pid}R0", "cdate": 1762000000000,
            "invitations": [f"ICLR.cc/2026/Conference/Submission{number}/-/Official_Comment"],
            "signatures": [f"ICLR.cc/2026/Conference/Submission{number}/Authors"],
            "content": {"comment": {"value": extra}},
        })
    return {"id": pid, "cdate": 1757000000000, "content": {
        "title": title, "abstract": "Reviews.", "primary_area": "optimization",
        "venue": "ICLR 2026 Conference Submission"}, "replies": replies}


def _import(library: Library, path: Path, forums: list[dict]) -> None:
    path.write_text("".join(json.dumps(forum) + "\n" for forum in forums))
    result = read_openreview(path)
    library.import_papers(result.papers, result.annotations, result.forums)
    library.flush()


FORUMS = [("PaperAHEAD1", "Forum one"), ("PaperAHEAD2", "Forum two"), ("PaperAHEAD3", LONG_TITLE)]


@pytest.fixture
def forums(tmp_path: Path):
    library = Library.open(tmp_path / "lib", background_writes=True)
    _import(library, tmp_path / "forums.jsonl", [_forum(pid, n, title) for n, (pid, title) in enumerate(FORUMS, 1)])
    yield library
    library.close()


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The papers whose forum the reviews screen read from the store, in order."""
    done: list[str] = []
    original = reviews_screen.read_forum

    def counted(library, paper_id, request=0):  # noqa: ANN001, ANN202
        done.append(paper_id)
        return original(library, paper_id, request)

    monkeypatch.setattr(reviews_screen, "read_forum", counted)
    return done


async def _kept(app, pilot, library: Library) -> ReviewsScreen:
    """The app's reviews screen made ahead (as the app does once idle), not shown."""
    await settle(app, pilot)
    prepare_reviews(app, library)
    screen = app.get_screen(SCREEN_NAME)
    assert await wait_until(pilot, lambda: screen.is_mounted)
    assert isinstance(app.screen, MainScreen)
    return screen


def _ready(screen: ReviewsScreen, pid: str) -> bool:
    return screen.loaded and screen.paper_id == pid


async def _rest_on(app, pilot, screen: ReviewsScreen, key: str) -> str:
    """Move the list's cursor with `key` and let it rest until its paper is made ready."""
    await pilot.press(key)
    pid = app.screen.paper_list.current_id
    assert await wait_until(pilot, lambda: _ready(screen, pid))
    return pid


def _unbarred(text: str) -> str:
    """The screen's text without the scrollbar's thumb (it follows the layout of the rest)."""
    return text.translate({ord(c): " " for c in "▁▂▃▄▅▆▇█▔"})


async def test_the_resting_cursor_makes_its_reviews_ready_and_r_shows_them_without_a_read(
        forums: Library, reads: list[str]) -> None:
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        pid = await _rest_on(app, pilot, kept, "j")
        view = kept.query_one(ReviewsView)
        assert reads == [pid] and isinstance(app.screen, MainScreen)
        # off screen: the first screen laid out and drawn, not the rest of the forum
        assert view._drawn_ahead is not None and not view.complete
        await pilot.press("R")
        assert app.screen is kept and reads == [pid]  # shown, not read again
        await pilot.pause()
        shown = _unbarred(screen_text(app))
        assert f"Review 0 of {pid}" in shown and "review 1 of 6" in shown
        assert await wait_until(pilot, lambda: view.complete)  # the rest once shown
        ahead_text = view.text
        # the same paper read afresh (what R did before it was made ready) shows the same
        await pilot.press("escape")
        await settle(app, pilot)
        kept._shown = None
        open_reviews(app, forums, pid)
        await pilot.pause()
        assert reads == [pid, pid] and _unbarred(screen_text(app)) == shown
        assert await wait_until(pilot, lambda: view.complete) and view.text == ahead_text


async def test_the_drawing_made_ahead_is_textuals_own(forums: Library) -> None:
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        view = kept.query_one(ReviewsView)
        for key in ("j", "j", "k"):  # a title of two lines, and back to one: two sizes of the view
            await pilot.press("escape") if app.screen is kept else None
            await settle(app, pilot)
            await _rest_on(app, pilot, kept, key)
            region = view.outer_size.region
            assert view._drawn_ahead is not None and view._drawn_ahead[0][0] == region
            ahead = [[*strip] for strip in view._drawn_ahead[1]]
            view.refresh()
            assert ahead == [[*strip] for strip in Widget.render_lines(view, region)]
            await pilot.press("R")
            await pilot.pause()
            assert app.screen is kept and view._drawn_ahead is None  # used by the first paint


async def test_other_search_words_a_new_import_or_an_edit_are_never_shown_from_before(
        forums: Library, reads: list[str], tmp_path: Path) -> None:
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        view = kept.query_one(ReviewsView)
        pid = await _rest_on(app, pilot, kept, "j")
        kept.read_ahead(pid, ("thorough",))
        assert await wait_until(pilot, lambda: _ready(kept, pid) and kept.words == ("thorough",))
        assert any(seg.text == "thorough" for strip in view.strips() for seg in strip)
        open_reviews(app, forums, pid)  # R without a search: read again, nothing highlighted
        await pilot.pause()
        assert reads[-1] == pid and len(reads) == 3 and kept.words == ()
        assert not any(seg.text == "thorough" for strip in view.strips() for seg in strip)  # a match is cut out
        await pilot.press("escape")
        await settle(app, pilot)
        # a newer snapshot of the forum imported meanwhile: its authors' answer is shown
        _import(forums, tmp_path / "newer.jsonl",
                [_forum(pid, 2, dict(FORUMS)[pid], extra="We thank the reviewer for the newer snapshot.")])
        await settle(app, pilot)
        open_reviews(app, forums, pid)
        await pilot.pause()
        assert await wait_until(pilot, lambda: view.complete)
        assert "newer snapshot" in view.text and len(reads) == 4
        await pilot.press("escape")
        await settle(app, pilot)
        forums.edit(pid, title="A title of my own")
        await settle(app, pilot)
        open_reviews(app, forums, pid)
        await pilot.pause()
        assert "A title of my own" in screen_text(app)


async def test_a_new_reviews_file_alone_is_read_again(forums: Library, reads: list[str], tmp_path: Path) -> None:
    """The catalog unchanged (the same papers), the reviews store rewritten by another
    process: what was made ready before is not shown."""
    from reader_tui.core.library.reviews_store import ReviewStore

    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        pid = await _rest_on(app, pilot, kept, "j")
        newer = tmp_path / "newer.jsonl"
        newer.write_text(json.dumps(_forum(pid, 2, dict(FORUMS)[pid], extra="Answered in another process.")) + "\n")
        ReviewStore(forums.review_store.path).write(read_openreview(newer).forums)
        open_reviews(app, forums, pid)
        await pilot.pause()
        view = kept.query_one(ReviewsView)
        assert await wait_until(pilot, lambda: view.complete)
        assert reads == [pid, pid] and "Answered in another process." in view.text


async def test_a_read_asked_for_before_and_arriving_late_is_not_shown(forums: Library) -> None:
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        pid = await _rest_on(app, pilot, kept, "j")
        await pilot.press("R")
        view = kept.query_one(ReviewsView)
        view.go_to_review(1)
        view.go_to_review(1)
        where = view.scroll_y
        assert where > 0
        # the answer to an earlier request of the same paper (a slow read, then R again)
        late = reviews_screen.read_forum(forums, pid, kept._request - 1)
        kept.post_message(late)
        await pilot.pause()
        assert view.scroll_y == where and "review 3 of 6" in screen_text(app)


async def test_nothing_is_made_ready_while_the_reviews_are_on_screen_and_triage_makes_its_paper_ready(
        forums: Library, reads: list[str]) -> None:
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        kept = await _kept(app, pilot, forums)
        pid = await _rest_on(app, pilot, kept, "j")
        await pilot.press("R")
        kept.read_ahead("PaperAHEAD3")  # shown: asked for, but the screen keeps its paper
        await pilot.pause(reviews_screen.AHEAD_S * 2)
        assert kept.paper_id == pid and reads == [pid]
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("T")  # triage: the paper it shows is made ready
        assert await wait_until(pilot, lambda: isinstance(app.screen, TriageScreen))
        triage = app.screen
        shown = triage.current_id
        assert await wait_until(pilot, lambda: _ready(kept, shown))
        count = len(reads)
        await pilot.press("R")
        await pilot.pause()
        assert app.screen is kept and len(reads) == count and kept.paper_id == shown


async def test_the_views_frame_is_learnt_once_per_height(forums: Library, monkeypatch) -> None:
    """A two-line title makes the view a line shorter: going back and forth between such
    papers draws the frame from what was learnt of each height, not from Textual's
    drawing of every row again."""
    learnt: list[int] = []
    original = ReviewsView._learn_frame
    monkeypatch.setattr(ReviewsView, "_learn_frame",
                        lambda self, lines: (learnt.append(len(lines)), original(self, lines))[1])
    app = create_app(forums)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        for pid in ("PaperAHEAD1", "PaperAHEAD3", "PaperAHEAD1", "PaperAHEAD3", "PaperAHEAD2"):
            open_reviews(app, forums, pid)
            assert await wait_until(pilot, lambda: isinstance(app.screen, ReviewsScreen) and app.screen.loaded)
            await pilot.pause()
            assert dict(FORUMS)[pid].split()[-1] in screen_text(app)
            await pilot.press("escape")
            await settle(app, pilot)
        assert sorted(learnt) == [learnt[0] - 1, learnt[0]]  # two heights, each learnt once
