"""The TUI side of reviews: the score column, sorting and searching by scores, the detail
pane's TL;DR and scores, the reviews view (`R`), `p` / `o` and their messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from reader_tui.core.library.reviews_store import REVIEWS_FILE
from reader_tui.core.model import Paper
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.reviews_screen import ReviewsScreen
from reader_tui.tui.screens.triage_screen import TriageScreen
from reader_tui.tui.widgets.reviews_view import ReviewsView
from tui_support import screen_text, settle, settle_workers, wait_until

REVIEWS = Path(__file__).parents[1] / "fixtures" / "import_reviews"
#: snapshot1: A (ratings 4, 8, 2; an author's reply under the first review, a comment on
#: the paper), B (withdrawn, one review), C (four reviews), D (none)
IDS = ["PaperAAAA1", "PaperBBBB2", "PaperCCCC3", "PaperDDDD4"]


def _import(library: Library, path: Path) -> None:
    result = read_openreview(path)
    library.import_papers(result.papers, result.annotations, result.forums)


@pytest.fixture
def reviewed(tmp_path: Path):
    library = Library.open(tmp_path / "lib", background_writes=True)
    _import(library, REVIEWS / "snapshot1.jsonl")
    library.flush()
    yield library
    library.close()


async def _main(app, pilot) -> MainScreen:
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen)
    return app.screen


def _row(app, pid: str) -> str:
    screen = app.screen
    papers = screen.paper_list
    row = papers.ids.index(pid)
    papers.move_to(row)
    return papers._row_strip(row, papers.scrollable_content_region.width, row, True).text


# -- the list --------------------------------------------------------------------------------


async def test_the_score_column_shows_mean_and_range_only_with_reviews(reviewed: Library, tmp_path: Path) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _main(app, pilot)
        assert screen.paper_list.show_scores
        assert "4.7 2-8" in _row(app, "PaperAAAA1")
        text = screen_text(app)
        assert "4.7 2-8" in text and "Linear attention" in text
        assert _row(app, "PaperDDDD4").split()[1:3] == ["Reinforcement", "learning"]  # a blank cell
    # a library without reviews looks as it always did
    plain = Library.open(tmp_path / "plain", background_writes=True)
    plain.import_papers([Paper(id="x1", title="Plain paper", abstract="An abstract.")])
    app = create_app(plain)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _main(app, pilot)
        assert not screen.paper_list.show_scores
        assert _row(app, "x1").split()[:3] == ["·", "Plain", "paper"]
    plain.close()


async def test_the_footer_offers_r_once_the_library_has_reviews(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", background_writes=True)
    library.import_papers([Paper(id="x1", title="Plain paper", abstract="An abstract.")])
    app = create_app(library)
    async with app.run_test(size=(140, 30)) as pilot:
        await _main(app, pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "Reviews" not in footer and "Filter" in footer  # at 80 columns R pushed out / and f
        # reviews imported while the app runs: the key comes into use, and into the footer
        _import(library, REVIEWS / "snapshot1.jsonl")
        assert await wait_until(pilot, lambda: "R Reviews" in screen_text(app).splitlines()[-1])
    library.close()


async def test_withdrawn_rows_are_dimmed(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        papers = screen.paper_list
        width = papers.scrollable_content_region.width

        def dim(pid: str) -> bool:
            row = papers.ids.index(pid)
            strip = papers._render_row(pid, width, papers._row_styles()[""], False, False)
            return any(seg.style and seg.style.dim and "grasping" in seg.text.lower() for seg in strip) if row >= 0 else False

        assert dim("PaperBBBB2") and not dim("PaperAAAA1")


async def test_sort_by_rating_puts_the_best_first_and_withdrawn_last(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        assert "mean rating, best first" in screen_text(app)
        await pilot.press("m")
        await settle(app, pilot)
        # C 6.0 (4 reviews), A 4.7, then D (no reviews), B withdrawn last
        assert screen.paper_list.ids == ["PaperCCCC3", "PaperAAAA1", "PaperDDDD4", "PaperBBBB2"]
        assert "sort: mean rating (highest first)" in screen_text(app)
        assert reviewed.settings["sort"] == {"field": "rating", "reverse": False}
        await pilot.press("s", "d")  # spread: the most controversial first
        await settle(app, pilot)
        assert screen.paper_list.ids[0] == "PaperAAAA1"


async def test_rating_and_area_search_in_the_list_keep_the_sort(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        await settle_workers(pilot)
        assert await wait_until(pilot, lambda: screen.browser.index is not None)
        await pilot.press("s", "m")
        await settle(app, pilot)
        await pilot.press("slash", *"rating:>=2")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        # fields alone select: the list keeps its sort (best first), withdrawn left last
        assert screen.paper_list.ids == ["PaperCCCC3", "PaperAAAA1", "PaperBBBB2"]
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("slash", *"area:interp")
        await settle(app, pilot)
        area = reviewed.papers["PaperAAAA1"].area
        assert "interpretability" in area
        assert screen.paper_list.ids and all("interpretab" in reviewed.papers[p].area for p in screen.paper_list.ids)


async def test_the_detail_pane_has_the_tldr_area_and_scores(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await _main(app, pilot)
        screen.paper_list.move_to(screen.paper_list.ids.index("PaperAAAA1"))
        await settle(app, pilot)
        text = screen.side.detail.text
        lines = text.splitlines()
        assert lines[0] == "Linear attention for long contexts"
        assert lines[1].startswith("tl;dr") and "Linear attention, long contexts." in lines[1]
        assert "area" in text and "interpretability" in text
        assert "rating 4.7 (2-8, 3 reviews)" in text and "captured 20" in text
        screen.paper_list.move_to(screen.paper_list.ids.index("PaperBBBB2"))
        await settle(app, pilot)
        assert "withdrawn" in screen.side.detail.text


# -- the reviews view ------------------------------------------------------------------------


async def _open_reviews(app, pilot, pid: str) -> ReviewsScreen:
    screen = await _main(app, pilot)
    screen.paper_list.move_to(screen.paper_list.ids.index(pid))
    await settle(app, pilot)
    await pilot.press("R")
    assert await wait_until(pilot, lambda: isinstance(app.screen, ReviewsScreen) and app.screen.loaded)
    await pilot.pause()
    return app.screen


async def test_the_reviews_view_shows_each_review_with_the_replies_under_it(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 40)) as pilot:
        reviews = await _open_reviews(app, pilot, "PaperAAAA1")
        view = reviews.query_one(ReviewsView)
        text = view.text
        assert reviews.reviews == 3 and len(view.anchors) == 3
        order = [text.index(s) for s in ("Review by Reviewer_x1y2", "Comment by Authors", "Review by Reviewer_z3w4")]
        assert order == sorted(order)  # the authors' reply sits under the review it answers
        reply = next(line for line in text.splitlines() if "Comment by Authors" in line)
        assert reply.startswith(" │ ") or reply.lstrip().startswith("│")
        assert "Strengths" in text and "Weaknesses" in text and "Questions" in text
        assert "Clear writing, O(n) cost." in text  # markdown and LaTeX rendered like the abstract
        assert "rating 4 · confidence 3" in text
        assert "Esc ␛[31m red and ␇ bell." in text and "\x1b" not in text  # escapes drawn, not sent
        assert "review 1 of 3" in screen_text(app)
        await pilot.press("n")
        assert view.review_index == 1 and "review 2 of 3" in screen_text(app)
        await pilot.press("n")
        assert view.review_index == 2
        await pilot.press("N", "N")
        assert view.review_index == 0
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_a_paper_without_reviews_says_so(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        reviews = await _open_reviews(app, pilot, "PaperDDDD4")
        assert "No reviews of this paper in the library" in reviews.query_one(ReviewsView).text
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ReviewsScreen)


async def test_a_damaged_reviews_store_gives_its_one_line(reviewed: Library) -> None:
    path = reviewed.files.folder / REVIEWS_FILE
    reviewed.review_store.close()
    path.write_bytes(b"this is not a database" * 100)
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        reviews = await _open_reviews(app, pilot, "PaperAAAA1")
        text = reviews.query_one(ReviewsView).text
        assert str(path) in text.replace("\n", "") and len(text.strip().splitlines()) <= 3
        assert "cannot be read" in screen_text(app)


def _forum_file(folder: Path) -> Path:
    """One paper whose review holds the search's word, markup and escapes."""
    review = {
        "id": "RevS1", "replyto": "PaperSSSS1", "cdate": 1760000000000,
        "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"],
        "signatures": ["ICLR.cc/2026/Conference/Submission1/Reviewer_abcd"],
        "content": {"summary": {"value": "Sparse attention done right. [bold red]x[/] \x1b]0;pwned\x07"},
                    "rating": {"value": 6}, "confidence": {"value": 4}},
    }
    paper = {"id": "PaperSSSS1", "cdate": 1757000000000, "content": {
        "title": "Sparse attention at scale", "abstract": "Attention, made sparse.",
        "primary_area": "optimization", "venue": "ICLR 2026 Conference Submission"}, "replies": [review]}
    path = folder / "forum.jsonl"
    path.write_text(json.dumps(paper) + "\n")
    return path


async def test_search_words_are_highlighted_and_text_is_data(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", background_writes=True)
    _import(library, _forum_file(tmp_path))
    app = create_app(library)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await _main(app, pilot)
        assert await wait_until(pilot, lambda: screen.browser.index is not None)
        await pilot.press("slash", *"attention")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("R")
        assert await wait_until(pilot, lambda: isinstance(app.screen, ReviewsScreen) and app.screen.loaded)
        view = app.screen.query_one(ReviewsView)
        marked = [seg.text for strip in view.strips() for seg in strip if seg.style and seg.style.reverse]
        assert "attention" in [text.lower() for text in marked]
        text = view.text
        assert "[bold red]x[/]" in text and "\x1b" not in text and "\x07" not in text and "␛]0;pwned␇" in text
    library.close()


async def test_triage_shows_scores_and_opens_the_reviews(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        await _main(app, pilot)
        await pilot.press("T")
        await pilot.pause()
        triage = app.screen
        assert isinstance(triage, TriageScreen)
        assert "rating 4.7" in screen_text(app) and "tl;dr" in screen_text(app)
        await pilot.press("R")
        assert await wait_until(pilot, lambda: isinstance(app.screen, ReviewsScreen) and app.screen.loaded)
        assert app.screen.paper_id == triage.current_id
        await pilot.press("escape")
        assert app.screen is triage


# -- p and o ---------------------------------------------------------------------------------


def _no_browser(monkeypatch, opened: list[str], result: bool = True) -> None:
    import webbrowser

    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or result)


def _notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_p_opens_the_pdf_where_a_browser_can_start(reviewed: Library, monkeypatch) -> None:
    opened: list[str] = []
    _no_browser(monkeypatch, opened)
    monkeypatch.setenv("DISPLAY", ":0")
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        screen.paper_list.move_to(screen.paper_list.ids.index("PaperAAAA1"))
        await settle(app, pilot)
        await pilot.press("p")
        await settle_workers(pilot)
        assert opened == ["https://openreview.net/pdf/paperaaaa1hash.pdf"]
        assert any("Opened the PDF in the browser" in n for n in _notes(app))


async def test_without_a_display_the_url_goes_to_the_clipboard(reviewed: Library, monkeypatch) -> None:
    opened: list[str] = []
    _no_browser(monkeypatch, opened)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    copied: list[str] = []
    monkeypatch.setattr("reader_tui.tui.clipboard.copy_text", lambda app, text: copied.append(text) or "terminal clipboard (OSC 52)")
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        screen.paper_list.move_to(screen.paper_list.ids.index("PaperAAAA1"))
        await settle(app, pilot)
        await pilot.press("o")
        await settle_workers(pilot)
        assert opened == [] and copied == ["https://openreview.net/forum?id=PaperAAAA1"]
        said = _notes(app)[-1]
        assert "No browser can be started here" in said and "terminal clipboard" in said and "Opened" not in said


async def test_a_browser_that_does_not_start_is_said_and_the_url_copied(reviewed: Library, monkeypatch) -> None:
    opened: list[str] = []
    _no_browser(monkeypatch, opened, result=False)
    monkeypatch.setenv("BROWSER", "nothing-here")
    copied: list[str] = []
    monkeypatch.setattr("reader_tui.tui.clipboard.copy_text", lambda app, text: copied.append(text) or "system clipboard")
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        reviews = await _open_reviews(app, pilot, "PaperAAAA1")
        await pilot.press("p")
        await settle_workers(pilot)
        assert opened == copied == ["https://openreview.net/pdf/paperaaaa1hash.pdf"]
        said = _notes(app)[-1]
        assert "The browser did not start" in said and "system clipboard" in said
        assert app.screen is reviews


# -- statistics ------------------------------------------------------------------------------


async def test_stats_show_the_rating_distribution_of_the_library_and_the_filter(reviewed: Library) -> None:
    from reader_tui.tui.screens.stats_screen import StatsScreen

    app = create_app(reviewed)
    async with app.run_test(size=(140, 60)) as pilot:
        screen = await _main(app, pilot)
        assert await wait_until(pilot, lambda: screen.browser.index is not None)
        await pilot.press("slash", *"area:interp")
        await settle(app, pilot)
        await pilot.press("enter", "S")
        assert await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.ratings)
        await pilot.pause()
        stats = app.screen
        # the library: A and C rated, B withdrawn (left out), D without reviews; the filter: A and C
        assert [(r.rated, r.withdrawn, r.unrated) for r in stats.ratings] == [(2, 1, 1), (2, 0, 0)]
        text = screen_text(app)
        assert "mean rating per paper" in text and "1 withdrawn left out" in text
        assert "interpretability and e" in text and text.count("2 papers with ratings, mean 5.33") == 2


async def test_stats_without_reviews_look_as_before(library: Library) -> None:
    from reader_tui.tui.screens.stats_screen import StatsScreen

    app = create_app(library)
    async with app.run_test(size=(120, 50)) as pilot:
        await _main(app, pilot)
        await pilot.press("S")
        assert await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.ratings)
        await pilot.pause()
        assert "mean rating per paper" not in screen_text(app)


async def test_the_reviews_screen_shows_the_paper_asked_for_each_time(reviewed: Library) -> None:
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        first = await _open_reviews(app, pilot, "PaperCCCC3")
        assert first.reviews == 4 and "Sparse autoencoders" in screen_text(app)
        await pilot.press("escape")
        second = await _open_reviews(app, pilot, "PaperAAAA1")
        assert second.paper_id == "PaperAAAA1" and second.reviews == 3
        text = screen_text(app)
        assert "Linear attention" in text and "Sparse autoencoders" not in text and "review 1 of 3" in text


# -- help and palette ------------------------------------------------------------------------


async def test_reviews_keys_are_in_help_and_the_palette(reviewed: Library) -> None:
    from reader_tui.tui.commands import ReaderCommands
    from reader_tui.tui.screens.help_screen import help_entries

    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        helps = {text: help_text for text, help_text, _ in ReaderCommands(screen)._commands()}
        assert helps["Reviews"].endswith("key R") and helps["Open PDF"].endswith("key p")
        assert helps["Open forum / url"].endswith("key o")
        assert dict((text, keys) for keys, text in help_entries(screen))["Reviews"] == "R"
        reviews = await _open_reviews(app, pilot, "PaperAAAA1")
        entries = dict((text, keys) for keys, text in help_entries(reviews))
        assert entries["Next review"] == "n / ]" and entries["Previous review"] == "N / ["
        assert entries["Back"] == "esc / q / R"


async def test_a_score_sort_is_restored_on_the_next_start(reviewed: Library) -> None:
    reviewed.set_setting("sort", {"field": "weighted", "reverse": False})
    app = create_app(reviewed)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _main(app, pilot)
        assert screen.browser.sort_key is not None and screen.browser.sort_key.field == "weighted"
        assert screen.paper_list.ids[0] == "PaperCCCC3" and screen.paper_list.ids[-1] == "PaperBBBB2"
