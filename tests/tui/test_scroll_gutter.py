"""The paper list's own scrollbar (scroll_gutter): where the thumb is, that it never
covers row text, that it is absent when everything fits, and that the mouse drives it."""

from __future__ import annotations

from test_paper_list import FakeLibrary, ListApp
from textual import events
from textual.color import Color

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.scroll_gutter import LOWER_BLOCKS, gutter_cells, thumb_span
from tui_support import screen_text, settle


def gutter(papers: PaperList) -> str:
    """The last column of the list, one character a row: `#` thumb, `|` track, `~` a thumb
    end inside a cell, `.` no gutter (the row's own last cell)."""
    style = papers.get_component_rich_style("paper-list--scrollbar")
    marks = []
    for y in range(papers.size.height):
        cell = list(papers.render_line(y))[-1]
        if cell.text in LOWER_BLOCKS:
            marks.append("~")
        elif cell.style.bgcolor == style.color:
            marks.append("#")
        elif cell.style.bgcolor == style.bgcolor and cell.style.color is None:
            marks.append("|")
        else:
            marks.append(".")
    return "".join(marks)


def test_the_thumb_spans_the_visible_share() -> None:
    assert thumb_span(0, 10, 100) == (0, 8)  # a tenth of 10 rows: the one-cell minimum
    assert thumb_span(90, 10, 100) == (72, 80)  # the last cell at the end
    assert thumb_span(0, 10, 20) == (0, 40)  # half the list shown: half the gutter
    assert thumb_span(10, 10, 20) == (40, 80)
    start, end = thumb_span(0, 10, 10_000_000)
    assert end - start == 8  # never thinner than a cell


def test_thumb_ends_inside_a_cell_use_eighth_blocks() -> None:
    from rich.style import Style

    style = Style(color="red", bgcolor="black")
    cells = gutter_cells(4, 20, 3, style)  # from half-way down cell 0 to half-way down cell 2
    assert [cell.text for cell in cells] == ["▄", " ", "▄"]
    assert cells[0].style.color == style.color  # lower half thumb-coloured
    assert cells[1].style.bgcolor == style.color
    assert cells[2].style.bgcolor == style.color and cells[2].style.color == style.bgcolor


async def test_thumb_at_the_top_then_the_bottom() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.pause()
        assert gutter(papers) == "#" + "|" * 9
        assert papers._vertical_scrollbar is None  # Textual's own is never made
        await pilot.press("G")
        await pilot.pause()
        assert gutter(papers) == "|" * 9 + "#"
        await pilot.press("g")
        await pilot.pause()
        assert gutter(papers) == "#" + "|" * 9


async def test_no_gutter_when_everything_fits() -> None:
    app = ListApp(FakeLibrary(10))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.pause()
        assert gutter(papers) == "." * 10
        assert papers._vertical_scrollbar is None  # nor Textual's scrollbar
        assert all(strip.cell_length == 80 for strip in map(papers.render_line, range(10)))
        papers.set_ids([*papers.ids, "id0"])  # one row more than fits: now it scrolls
        await pilot.pause()
        assert gutter(papers) == "#" * 9 + "~"  # 10 of 11 rows shown: a thumb of 9 1/11 cells


async def test_the_gutter_never_covers_row_text() -> None:
    library = FakeLibrary(30)
    for n in range(30):
        library.papers[f"id{n}"] = Paper(id=f"id{n}", title=f"A very long title number {n} " * 5)
    app = ListApp(library)
    async with app.run_test(size=(60, 10)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.pause()
        for y in range(10):
            strip = papers.render_line(y)
            assert strip.cell_length == 60
            assert strip.text[:-1].endswith("… ")  # the ellipsis and the row's margin, then the gutter
        # Textual's scrollbar takes no column: the gutter is the list's last one
        assert papers.scrollable_content_region.width == 60


async def test_a_click_on_the_lower_half_jumps_down() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.click(PaperList, offset=(79, 7))
        await pilot.pause()
        assert 60 <= papers.scroll_y <= 85
        assert gutter(papers)[7] == "#"
        # the cursor came along into the view; the click selected nothing
        assert papers.scroll_y <= papers.cursor < papers.scroll_y + 10
        assert app.selected == []
        await pilot.press("j")  # and the keys go on from there
        assert papers.scroll_y <= papers.cursor < papers.scroll_y + 10


async def test_dragging_the_thumb_scrolls_continuously() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.mouse_down(PaperList, offset=(79, 0))  # on the thumb: it stays put
        assert papers.scroll_y == 0
        assert app.mouse_captured is papers
        active = papers.get_component_rich_style("paper-list--scrollbar-active")
        assert list(papers.render_line(0))[-1].style.bgcolor == active.color
        seen = []
        for y in (3, 6, 9, 30):  # past the bottom edge too: the mouse is captured
            await pilot.hover(PaperList, offset=(79, min(y, 9)))
            await pilot.pause()
            seen.append(papers.scroll_y)
        assert seen == sorted(seen) and 0 < seen[0] < seen[-1] == papers.max_scroll_y
        await pilot.mouse_up(PaperList, offset=(79, 9))
        await pilot.hover(PaperList, offset=(10, 5))  # off the gutter: its idle colours
        await pilot.pause()
        assert app.mouse_captured is None
        assert gutter(papers) == "|" * 9 + "#"
        assert papers.cursor >= papers.scroll_y


async def test_the_wheel_still_scrolls() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        assert papers.allow_vertical_scroll  # though overflow-y is hidden
        papers.post_message(events.MouseScrollDown(papers, 5, 5, 0, 1, 0, False, False, False, screen_x=5, screen_y=5))
        await pilot.pause()
        assert papers.scroll_y > 0


async def test_hovering_the_gutter_lights_it() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 10)) as pilot:
        papers = app.query_one(PaperList)
        app.theme = "textual-light"  # a theme whose hover colour differs from the idle one
        await pilot.pause()
        idle = papers.get_component_rich_style("paper-list--scrollbar")
        hover = papers.get_component_rich_style("paper-list--scrollbar-hover")
        assert hover.color != idle.color
        await pilot.hover(PaperList, offset=(79, 5))
        await pilot.pause()
        assert list(papers.render_line(0))[-1].style.bgcolor == hover.color
        await pilot.hover(PaperList, offset=(10, 5))
        await pilot.pause()
        assert list(papers.render_line(0))[-1].style.bgcolor == idle.color


async def test_main_screen_gutter_follows_the_cursor(seed_library: Library) -> None:
    app = create_app(seed_library)
    async with app.run_test(size=(120, 16)) as pilot:  # fewer rows than the seed list's papers
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        marks = gutter(papers)
        assert marks[0] == "#" and marks[-1] == "|"
        await pilot.press("G")
        await settle(app, pilot)
        marks = gutter(papers)
        assert marks[0] == "|" and marks[-1] == "#"
        # the colours come from the theme's scrollbar variables
        theme = app.current_theme.to_color_system().generate()
        assert Color.from_rich_color(papers.get_component_rich_style("paper-list--scrollbar").color) == Color.parse(
            theme["scrollbar"]
        )


async def test_main_screen_without_overflow_has_no_gutter(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        assert set(gutter(papers)) == {"."}
        assert "Graph Neural Networks for Molecules" in screen_text(app)


def test_main_screen_snapshot_with_the_gutter(snap_compare, seed_library: Library) -> None:
    """The seed list in a short terminal, the cursor part-way down: thumb mid-gutter."""

    async def run_before(pilot) -> None:
        await settle(pilot.app, pilot)
        await pilot.press(*"j" * 14)
        await settle(pilot.app, pilot)

    assert snap_compare(create_app(seed_library), terminal_size=(110, 16), run_before=run_before)
