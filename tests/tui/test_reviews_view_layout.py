"""The reviews view's lazy layout: `R` lays out the first screen's rows only and the rest
after the frame, keys that go further lay out what they need first, the text is the same
as a whole layout's, and the kept reviews screen is restyled only when the CSS changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.content import Content

from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.reviews_screen import SCREEN_NAME, ReviewsScreen, open_reviews, prepare_reviews
from reader_tui.tui.widgets.reviews_text import note_lines, wrap_rows
from reader_tui.tui.widgets.reviews_view import INDENT, ReviewsView
from tui_support import screen_text, settle, wait_until

REVIEWS = 8
PARAGRAPH = "The method is sound and the experiments are thorough; the $O(n)$ cost is **clear**. " * 4


def _paper(pid: str, number: int, title: str) -> dict:
    replies = []
    for n in range(REVIEWS):
        replies.append({
            "id": f"{pid}R{n}", "replyto": pid, "cdate": 1760000000000 + n * 1000,
            "invitations": [f"ICLR.cc/2026/Conference/Submission{number}/-/Official_Review"],
            "signatures": [f"ICLR.cc/2026/Conference/Submission{number}/Reviewer_r{n}"],
            "content": {"summary": {"value": f"Review {n} summary. " + PARAGRAPH},
                        "strengths": {"value": "\n\n".join([PARAGRAPH] * 3)},
                        "weaknesses": {"value": "\n\n".join([PARAGRAPH] * 3)},
                        "questions": {"value": f"Question of review {n}?"},
                        "rating": {"value": 2 + n % 7}, "confidence": {"value": 3}},
        })
    replies.append({  # the authors' answer under the first review
        "id": f"{pid}C0", "replyto": f"{pid}R0", "cdate": 1761000000000,
        "invitations": [f"ICLR.cc/2026/Conference/Submission{number}/-/Official_Comment"],
        "signatures": [f"ICLR.cc/2026/Conference/Submission{number}/Authors"],
        "content": {"comment": {"value": "We thank the reviewer. " + PARAGRAPH}},
    })
    return {"id": pid, "cdate": 1757000000000, "content": {
        "title": title, "abstract": "Long reviews.", "primary_area": "optimization",
        "venue": "ICLR 2026 Conference Submission"}, "replies": replies}


@pytest.fixture
def long_forums(tmp_path: Path):
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(_paper(pid, n, title)) + "\n" for n, (pid, title) in enumerate(
        [("PaperLONG01", "Long forum one"), ("PaperLONG02", "Long forum two")], start=1)))
    library = Library.open(tmp_path / "lib", background_writes=True)
    result = read_openreview(path)
    library.import_papers(result.papers, result.annotations, result.forums)
    library.flush()
    yield library
    library.close()


async def _shown(app, pilot, library: Library, pid: str) -> ReviewsView:
    """The reviews of `pid` on screen and laid out to the end: the view."""
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen)
    open_reviews(app, library, pid)
    assert await wait_until(pilot, lambda: isinstance(app.screen, ReviewsScreen) and app.screen.loaded)
    view = app.screen.query_one(ReviewsView)
    assert await wait_until(pilot, lambda: view.complete)
    return view


def _whole(library: Library, pid: str, width: int) -> str:
    """The forum laid out at once, as the view's `text` gives it."""
    rows: list[str] = []
    for n, (note, depth) in enumerate(library.forum(pid).thread()):
        if n:
            rows.append("")
        indent = min(depth * INDENT, max(0, width - 20))
        for line in Content("\n").join(list(note_lines(note))).wrap(width - indent):
            text = line.plain.rstrip()
            rows.append((" " * (indent - 2) + "│ " + text) if text.strip() and indent >= 2 else text)
    return "\n".join(rows)


async def test_r_lays_out_the_first_screen_and_the_rest_after_it(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        screen = app.screen
        await pilot.press("escape")
        await settle(app, pilot)
        open_reviews(app, long_forums, "PaperLONG02")  # the screen is kept: its width is known
        height = view.scrollable_content_region.height
        # before any frame: the first screen's rows and a little more, not the forum
        assert not view.complete and height <= view.virtual_size.height < 3 * height
        assert len(view.anchors) < REVIEWS
        assert await wait_until(pilot, lambda: view.complete)  # the rest once drawn
        assert app.screen is screen and len(view.anchors) == REVIEWS
        width = view.text_width
        assert view.text == _whole(long_forums, "PaperLONG02", width)
        assert view.virtual_size.height == len(view.text.split("\n"))


async def test_keys_that_go_further_lay_out_what_they_need_first(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        await pilot.press("escape")
        await settle(app, pilot)
        open_reviews(app, long_forums, "PaperLONG02")
        assert not view.complete
        # n, before the rest is laid out, still goes review by review to the last
        assert view.review_index == 0  # the forum starts with the first review
        for index in range(1, REVIEWS):
            assert view.go_to_review(1) == index
        assert view.review_index == REVIEWS - 1 and view.go_to_review(1) is None
        assert "Review by Reviewer_r7" in view.strips()[round(view.scroll_y)].text
        open_reviews(app, long_forums, "PaperLONG01")
        assert not view.complete and view.scroll_y == 0
        await pilot.press("G")  # the end of the forum, not of what was laid out (G scrolls there animated)
        assert view.complete
        end = round(view.max_scroll_y)
        assert await wait_until(pilot, lambda: round(view.scroll_y) == end > 0)
        assert view.virtual_size.height == len(view.text.split("\n"))
        assert view.text.rstrip().endswith("Question of review 7?")


async def test_the_text_is_the_same_after_a_resize(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        wide = view.text_width
        assert view.text == _whole(long_forums, "PaperLONG01", wide)
        await pilot.resize_terminal(70, 30)
        await settle(app, pilot)
        assert await wait_until(pilot, lambda: view.complete and view.text_width < wide)
        narrow = view.text_width
        assert view.text == _whole(long_forums, "PaperLONG01", narrow)
        assert max(len(line) for line in view.text.split("\n")) <= narrow


async def test_the_kept_screen_is_restyled_only_after_a_css_change(long_forums: Library, monkeypatch) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        screen = app.screen
        restyled: list[object] = []
        original = ReviewsScreen.update_node_styles
        monkeypatch.setattr(ReviewsScreen, "update_node_styles",
                            lambda self, animate=True: (restyled.append(self), original(self, animate))[1])
        dark = view.strips()[0]
        await pilot.press("escape")
        await settle(app, pilot)
        await _shown(app, pilot, long_forums, "PaperLONG02")
        assert app.screen is screen and restyled == []  # shown again: nothing of its look changed
        await pilot.press("escape")
        await settle(app, pilot)
        app.theme = "textual-light"
        await settle(app, pilot)
        await _shown(app, pilot, long_forums, "PaperLONG01")
        assert restyled  # a theme changed meanwhile: restyled, and the lines drawn in it
        light = view.strips()[0]
        assert light.text == dark.text
        assert [s.style.bgcolor for s in light if s.style] != [s.style.bgcolor for s in dark if s.style]


async def test_the_same_paper_again_keeps_its_layout(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        view.go_to_review(1)
        view.go_to_review(1)
        assert view.scroll_y > 0
        await pilot.press("escape")
        await settle(app, pilot)
        open_reviews(app, long_forums, "PaperLONG01")
        assert view.complete and view.scroll_y == 0  # nothing laid out again; from the top
        await pilot.pause()
        assert "review 1 of 8" in "".join(str(w.render()) for w in app.screen.query("#reviews-position"))


async def test_the_screen_made_ahead_shows_the_first_r_without_restyling(long_forums: Library, monkeypatch) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        prepare_reviews(app, long_forums)
        screen = app.get_screen(SCREEN_NAME)
        assert await wait_until(pilot, lambda: screen.is_mounted)
        assert isinstance(app.screen, MainScreen)  # made, not shown
        restyled: list[object] = []
        original = ReviewsScreen.update_node_styles
        monkeypatch.setattr(ReviewsScreen, "update_node_styles",
                            lambda self, animate=True: (restyled.append(self), original(self, animate))[1])
        view = await _shown(app, pilot, long_forums, "PaperLONG02")
        assert app.screen is screen and restyled == []
        assert view.text == _whole(long_forums, "PaperLONG02", view.text_width)
        assert "review 1 of 8" in "".join(str(w.render()) for w in screen.query("#reviews-position"))


async def test_no_screen_is_made_ahead_for_a_library_without_reviews(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", background_writes=True)
    try:
        app = create_app(library)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            prepare_reviews(app, library)
            assert not app.is_screen_installed(SCREEN_NAME)
    finally:
        library.close()


async def test_the_same_paper_again_shows_its_title_as_edited_meanwhile(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        await _shown(app, pilot, long_forums, "PaperLONG01")
        await pilot.press("escape")
        await settle(app, pilot)
        long_forums.edit("PaperLONG01", title="A title of my own")
        await settle(app, pilot)
        await _shown(app, pilot, long_forums, "PaperLONG01")
        assert "A title of my own" in str(app.screen.query_one("#reviews-title").render())


def _bar(view: ReviewsView) -> str:
    """The view's scrollbar as drawn (what the compositor is given), a character a row:
    `#` thumb, `~` a thumb end inside a cell, `|` track."""
    width = view.outer_size.width
    marks = []
    for strip in view.render_lines(view.outer_size.region)[1:-1]:  # inside the border
        cell = list(strip.crop(width - 2, width - 1))[0]
        marks.append("~" if cell.text.strip() else "#" if cell.style.reverse else "|")
    return "".join(marks)


async def test_the_view_draws_its_own_scrollbar_which_follows_the_layout_and_the_mouse(long_forums: Library) -> None:
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        # no ScrollBar widget (a sixth of R): the view's last column, inside its border
        assert not view.show_vertical_scrollbar and view.text_width == view.scrollable_content_region.width - 1
        whole = _bar(view)
        assert len(whole) == view.scrollable_content_region.height
        assert whole.startswith("#") and whole.endswith("|") and set(whole) <= set("#~|")
        await pilot.press("escape")
        await settle(app, pilot)
        open_reviews(app, long_forums, "PaperLONG02")
        early = _bar(view)  # the first screen laid out, the rest not yet: a forum that looks short
        assert await wait_until(pilot, lambda: view.complete)
        await pilot.pause()
        assert _bar(view) == whole and early.count("#") > whole.count("#")  # the thumb shrank as the rest came
        await pilot.press("G")
        assert await wait_until(pilot, lambda: round(view.scroll_y) == round(view.max_scroll_y) > 0)
        await pilot.pause()
        assert _bar(view).endswith("#") and _bar(view).startswith("|")
        # a press on the track at the top brings the text back to its start, as a drag would
        x = view.outer_size.width - 2
        await pilot.mouse_down(ReviewsView, offset=(x, 1))
        await pilot.mouse_up(ReviewsView, offset=(x, 1))
        assert await wait_until(pilot, lambda: view.scroll_y < 5)
        await pilot.pause()
        assert _bar(view).startswith("#")


async def test_the_screen_background_is_drawn_once_until_the_theme_changes(long_forums: Library, monkeypatch) -> None:
    from textual.widget import Widget

    drawn: list[object] = []
    original = Widget.render_lines
    monkeypatch.setattr(Widget, "render_lines",
                        lambda self, crop: (drawn.append(self) if isinstance(self, ReviewsScreen) else None,
                                            original(self, crop))[1])
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        await _shown(app, pilot, long_forums, "PaperLONG01")
        screen = app.screen
        await pilot.press("escape")
        await settle(app, pilot)
        drawn.clear()
        await _shown(app, pilot, long_forums, "PaperLONG02")
        assert app.screen is screen and drawn == []  # the whole screen drawn, its background kept
        region = screen.outer_size.region
        before = screen.render_lines(region)[0]
        await pilot.press("escape")
        await settle(app, pilot)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settle(app, pilot)
        await _shown(app, pilot, long_forums, "PaperLONG01")
        assert drawn  # a new theme: drawn again, as Textual draws it
        after = screen.render_lines(region)
        assert list(after[0]) != list(before) and [list(s) for s in after] == [list(s) for s in original(screen, region)]


async def test_the_view_draws_its_rows_as_textual_would_in_every_look(long_forums: Library) -> None:
    from textual.widget import Widget

    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:

        def same_as_textual(view: ReviewsView) -> bool:
            region = view.outer_size.region
            ours = [[*strip] for strip in view.render_lines(region)]
            view.refresh()  # Textual's own drawing of every row, from the start
            return ours == [[*strip] for strip in Widget.render_lines(view, region)]

        view = await _shown(app, pilot, long_forums, "PaperLONG01")
        await pilot.press("escape")
        await settle(app, pilot)
        await _shown(app, pilot, long_forums, "PaperLONG02")
        # the border and padding learnt from Textual's drawing of the first forum
        assert len(view._frames) == 1 and next(iter(view._frames.values())) is not None
        assert same_as_textual(view)
        await pilot.press("n", "n", "j")
        await pilot.pause()
        assert same_as_textual(view)
        focused = [*view.render_lines(view.outer_size.region)[0]]
        app.screen.set_focus(None)  # unfocused: the border's other colour
        await settle(app, pilot)
        assert same_as_textual(view) and [*view.render_lines(view.outer_size.region)[0]] != focused
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settle(app, pilot)
        assert same_as_textual(view)


@pytest.mark.parametrize("width", [7, 30, 61, 100])
def test_a_long_paragraph_is_wrapped_as_far_as_needed_and_the_rest_gives_the_same_rows(width: int) -> None:
    from reader_tui.tui.widgets.paper_detail import _highlight, _rendered

    text = (PARAGRAPH * 6) + "x" * 150 + "  then   spaces\u00a0and a **bold** end " + PARAGRAPH * 3
    line = _highlight(_rendered(text), ("method", "cost"))
    whole = line.wrap(width)
    for needed in (0, 1, 2, 5, 40):
        rows, rest = wrap_rows(line, width, needed)
        assert len(rows) >= needed or rest is None
        pieces = 1
        while rest is not None:
            pieces += 1
            more, rest = wrap_rows(rest, width, needed)
            rows += more
        assert [(r.plain, r.spans) for r in rows] == [(r.plain, r.spans) for r in whole]
        assert pieces > 1 or len(whole) <= needed + 4  # the long paragraph came in pieces
    assert wrap_rows(line, width) == (whole, None)  # all of it
    short = Content.styled("Strengths", "bold")
    assert wrap_rows(short, width + 10, 3) == ([short], None) == (short.wrap(width + 10), None)


async def test_the_header_is_laid_out_again_only_when_its_lines_change(long_forums: Library, monkeypatch) -> None:
    from textual.widgets import Static

    long_title = ("A title long enough to take two lines of the header " * 3).strip()
    # The reviews of the paper under the list's cursor are made ready off screen once it
    # rests there, header and all: at whatever moment that timer fired, it added another
    # paper's header update to those counted here (a failure of a fresh clone's CI run).
    monkeypatch.setattr(ReviewsScreen, "read_ahead", lambda self, paper_id, words=(): None)
    app = create_app(long_forums)
    async with app.run_test(size=(100, 40)) as pilot:
        laid_out: list[bool] = []
        original = Static.update
        monkeypatch.setattr(Static, "update", lambda self, content="", *, layout=True: (
            laid_out.append(layout) if self.id == "reviews-title" else None, original(self, content, layout=layout))[1])

        async def show(pid: str) -> int:
            """The title's height once `pid` is shown; the header's lines follow one another."""
            laid_out.clear()
            await _shown(app, pilot, long_forums, pid)
            await pilot.pause()
            screen = app.screen
            title, scores, position = (screen.query_one(f"#reviews-{name}", Static)
                                       for name in ("title", "scores", "position"))
            assert scores.region.y == title.region.bottom and position.region.y == scores.region.bottom
            assert screen.query_one(ReviewsView).region.y == position.region.bottom
            assert long_forums.view(pid).title.split()[-1] in screen_text(app)
            await pilot.press("escape")
            await settle(app, pilot)
            return title.region.height

        assert await show("PaperLONG01") == 1
        assert await show("PaperLONG02") == 1 and laid_out == [False]  # another title of one line
        long_forums.edit("PaperLONG02", title=long_title)
        await settle(app, pilot)
        assert await show("PaperLONG02") == 2 and laid_out == [True]  # a line more: laid out again
        assert await show("PaperLONG01") == 1 and laid_out == [True]
