"""Any text at all in any field renders in the list and the detail pane without an
exception, and what is drawn holds no terminal control characters (issue 7)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader_tui.core.library.library import Library
from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import settle

HOSTILE = st.sampled_from(
    ["[bold]x[/]", "[/]", "[link=https://e.x]y[/link]", "\x1b[31m", "\x1b]52;c;aGk=\x07", "\x07", "\x9b2J",
     "\u202e", "\u200b", "👩‍🔬", "\\textbf{", "$", "{", "}", "%", "\r", "\t", "x" * 300]
)
TEXT = st.lists(st.one_of(st.text(max_size=40), HOSTILE), max_size=6).map("".join)


def visible_text(strips) -> str:
    return "".join(segment.text for strip in strips for segment in strip)


async def test_any_text_renders_without_error_or_control_characters(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        detail = app.screen.query_one(PaperDetail)
        real_library = papers.library

        class OneView:
            """Stands in for the Library so the list draws the generated paper."""

            view_to_show: PaperView

            def view(self, pid: str) -> PaperView:
                return self.view_to_show

        stand_in = OneView()

        @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
        @given(title=TEXT, abstract=TEXT, authors=st.lists(TEXT, max_size=3), tags=st.lists(TEXT, max_size=4),
               notes=TEXT, url=TEXT, status=st.sampled_from(list(Status)))
        def render(title, abstract, authors, tags, notes, url, status) -> None:
            view = PaperView(
                Paper(id="p-attention", title=title, abstract=abstract, authors=tuple(authors), url=url,
                      venue="ICLR", year=2026),
                Annotation(status=status, tags=tuple(t for t in tags if t.strip()), notes=notes),
            )
            stand_in.view_to_show = view
            papers.library = stand_in
            try:
                row = papers._render_row("p-attention", 80, papers.rich_style, True, True)
            finally:
                papers.library = real_library
            detail.show(view, matched=("x",))
            lines = [detail.render_line(y) for y in range(len(detail._strips) + 1)]
            drawn = visible_text([row, *lines])
            assert not any(ch in drawn for ch in "\x1b\x07\x9b\r\u202e")

        render()
