"""The paper list on its own: rows drawn from the library, cursor, paging, marks, search
highlights, and correctness at 100,000 papers (the line API draws only what is seen)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.paths import styles_dir
from reader_tui.tui.widgets.paper_list import PaperList


class FakeLibrary:
    """Just what PaperList reads: `view(id)` (no disk, so 100,000 papers cost nothing)."""

    def __init__(self, count: int) -> None:
        self.papers = {f"id{n}": Paper(id=f"id{n}", title=f"Paper number {n} about graphs") for n in range(count)}
        self.annotations: dict[str, Annotation] = {}

    def view(self, pid: str) -> PaperView:
        return PaperView(self.papers[pid], self.annotations.get(pid) or Annotation())


class ListApp(App):
    CSS_PATH = [str(styles_dir() / "app.tcss")]

    def __init__(self, library: FakeLibrary) -> None:
        super().__init__()
        self.library = library
        self.highlighted: list[str | None] = []
        self.selected: list[str] = []

    def compose(self) -> ComposeResult:
        yield PaperList(self.library, list(self.library.papers))

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.highlighted.append(message.paper_id)

    def on_paper_list_selected(self, message: PaperList.Selected) -> None:
        self.selected.append(message.paper_id)


def visible_rows(papers: PaperList) -> list[str]:
    return [papers.render_line(y).text for y in range(papers.size.height)]


async def test_rows_show_status_notes_title_and_tags() -> None:
    library = FakeLibrary(5)
    library.annotations["id1"] = Annotation(status=Status.READ, tags=("llm", "[b]x[/b]"))
    library.annotations["id2"] = Annotation(notes="read the proof")
    app = ListApp(library)
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        papers = app.query_one(PaperList)
        rows = visible_rows(papers)
        assert rows[0].startswith(" ·  Paper number 0 about graphs")
        assert rows[1].startswith(" ●  Paper number 1")
        assert rows[1].rstrip().endswith("llm  [b]x[/b]")
        assert rows[2].startswith(" ·✎ Paper number 2")  # a paper with notes
        assert all(len(row) == papers.size.width for row in rows[:5])
        assert rows[5].strip() == ""


async def test_the_cursor_row_is_one_band_over_status_mark_and_tags() -> None:
    """Status marks, tags and marks are laid over the row's own look: on the cursor row
    none of them may bring back the list's background (holes in the highlight)."""
    library = FakeLibrary(5)
    library.annotations["id0"] = Annotation(status=Status.READING, tags=("llm", "conformal"))
    library.annotations["id1"] = Annotation(status=Status.READ, tags=("llm",))
    app = ListApp(library)
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        papers = app.query_one(PaperList)
        papers.marked.add("id0")
        papers.refresh_papers(None)
        cursor = papers.get_component_rich_style("paper-list--cursor").bgcolor
        row = [segment for segment in papers.render_line(0) if segment.text]
        assert {segment.style.bgcolor for segment in row} == {cursor}
        assert "".join(segment.text for segment in row).rstrip().endswith("llm  conformal")
        # off the cursor, a status keeps its own colour on the list's background
        other = {segment.text: segment.style for segment in papers.render_line(1)}
        assert other["●"].color == papers.get_component_rich_style("paper-list--status-read").color
        assert other["●"].bgcolor == papers.rich_style.bgcolor != cursor


async def test_long_titles_are_cut_with_an_ellipsis() -> None:
    library = FakeLibrary(1)
    library.papers["id0"] = Paper(id="id0", title="A very long title " * 10)
    library.annotations["id0"] = Annotation(tags=("tagged",))
    app = ListApp(library)
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        row = visible_rows(app.query_one(PaperList))[0]
        assert "…" in row and row.rstrip().endswith("tagged")
        assert len(row) == 60


async def test_keys_move_the_cursor_and_post_messages() -> None:
    app = ListApp(FakeLibrary(100))
    async with app.run_test(size=(80, 12)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.press("j", "j", "down")
        assert papers.cursor == 3
        await pilot.press("k", "up")
        assert papers.cursor == 1
        await pilot.press("G")
        assert papers.cursor == 99
        assert papers.scroll_y >= 99 - papers.size.height + 1
        await pilot.press("g")
        assert papers.cursor == 0 and papers.scroll_y == 0
        await pilot.press("pagedown")
        assert papers.cursor == papers.size.height - 1
        await pilot.press("pageup", "end")
        assert papers.cursor == 99
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.selected == ["id0"]
        assert app.highlighted[-1] == "id0" and "id99" in app.highlighted


async def test_space_marks_and_moves_on() -> None:
    app = ListApp(FakeLibrary(10))
    async with app.run_test(size=(80, 12)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.press("space", "space", "k", "space")
        assert papers.marked == {"id0"}
        assert visible_rows(papers)[0].startswith("▌")
        assert not visible_rows(papers)[1].startswith("▌")


async def test_search_words_are_found_in_rows() -> None:
    app = ListApp(FakeLibrary(3))
    async with app.run_test(size=(80, 6)) as pilot:
        papers = app.query_one(PaperList)
        papers.set_ids(["id2", "id0"], matched={"id2": ("graphs",)})
        await pilot.pause()
        strip = papers.render_line(0)
        styled = [seg for seg in strip if seg.text == "graphs"]
        assert styled and styled[0].style != next(iter(strip)).style
        assert papers.current_id == "id2"
        assert visible_rows(papers)[1].startswith(" ·  Paper number 0")


async def test_set_ids_keeps_the_current_paper() -> None:
    app = ListApp(FakeLibrary(50))
    async with app.run_test(size=(80, 12)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.press(*"jjjjj")
        papers.set_ids(list(reversed(papers.ids)), keep="id5")
        assert papers.current_id == "id5" and papers.cursor == 44
        papers.set_ids(["id1", "id2"], keep="id5")
        assert papers.cursor == 0
        papers.set_ids([])
        await pilot.pause()
        assert papers.current_id is None
        assert "No papers" in visible_rows(papers)[0]
        await pilot.press("j", "space", "enter")  # harmless on an empty list


async def test_changed_papers_are_redrawn() -> None:
    library = FakeLibrary(3)
    app = ListApp(library)
    async with app.run_test(size=(80, 6)) as pilot:
        papers = app.query_one(PaperList)
        assert visible_rows(papers)[1].startswith(" · ")
        library.annotations["id1"] = Annotation(status=Status.SKIPPED)
        papers.refresh_papers({"id1"})
        await pilot.pause()
        assert visible_rows(papers)[1].startswith(" ✗ ")


async def test_a_hundred_thousand_papers() -> None:
    library = FakeLibrary(100_000)
    app = ListApp(library)
    async with app.run_test(size=(100, 30)) as pilot:
        papers = app.query_one(PaperList)
        await pilot.press("G")
        await pilot.pause()
        assert papers.current_id == "id99999"
        rows = visible_rows(papers)
        assert rows[-1].startswith(" ·  Paper number 99999 ")
        assert papers.virtual_size.height == 100_000
        # Only what was seen was drawn and cached, not 100,000 rows.
        assert len(papers._cache) < 200
        papers.set_ids([f"id{n}" for n in range(0, 100_000, 2)], keep="id99998")
        await pilot.pause()
        assert papers.cursor == 49_999


class ListAndInputApp(ListApp):
    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Input()


async def test_focus_redraws_the_cursor_row_alone() -> None:
    """Tab or `/` changes only the cursor row's look (focused or blurred cursor): the
    other rows come from the cache, not rendered again at each focus change."""
    app = ListAndInputApp(FakeLibrary(30))
    async with app.run_test(size=(80, 12)) as pilot:
        papers = app.query_one(PaperList)
        papers.focus()
        await pilot.pause()
        rendered: list[str] = []
        render_row = papers._render_row
        papers._render_row = lambda pid, *rest: rendered.append(pid) or render_row(pid, *rest)
        looks = {}
        for focus, look in ((app.query_one(Input), "cursor-blurred"), (papers, "cursor")):
            focus.focus()
            await pilot.pause()
            assert set(rendered) <= {"id0"}, focus  # the cursor row at most (its focused look is cached)
            assert rendered or look == "cursor"
            bgcolor = papers.get_component_rich_style(f"paper-list--{look}").bgcolor
            assert {s.style.bgcolor for s in papers.render_line(0) if s.text.strip()} == {bgcolor}
            looks[look] = bgcolor
            rendered.clear()
        assert looks["cursor"] != looks["cursor-blurred"]
