"""Issue 14, small terminals: at 80x24 and 100x30 the abstract is on screen (an empty
note takes one line until focused, the related papers wait for `]` on short screens),
a url is never cut inside its id, and at 200x60 an empty note is one line, not a box."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.notes_editor import NotesEditor, notes_key
from reader_tui.tui.widgets.paper_detail import PaperDetail, url_lines
from reader_tui.tui.widgets.related_list import RelatedList
from tui_support import screen_text, settle, settle_workers

ABSTRACT = (
    "Current multimodal models struggle with tasks requiring deep logical reasoning about video content. "
    "We propose a cybernetic framework that redesigns video models as adaptive systems capable of "
    "self-monitoring, self-correction and dynamic resource allocation during inference. A sensor monitors "
    "forward processes and a controller decides when to trigger self-correction. Experiments show gains "
    "on reasoning benchmarks without training or additional components, and the code will be released."
)
FIRST_WORDS = "Current multimodal models struggle"
LAST_WORDS = "code will be released"


def _paper(n: int) -> Paper:
    return Paper(
        id=f"p{n:02d}",
        title=f"CyberV {n}: A Cybernetic Framework for Enhancing Logical Reasoning in Video Understanding",
        abstract=ABSTRACT,
        authors=("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        venue="ICLR 2026 Conference Submission",
        year=2026,
        url=f"https://openreview.net/forum?id=00F7BfXL{n:02d}",
        keywords=("Video Understanding", "Multimodal Large Language Models", "Test-Time Scaling"),
        added=f"2025-11-01T00:00:{n:02d}+00:00",
    )


@pytest.fixture
def real_library(tmp_path: Path):
    library = Library.open(tmp_path / "lib", background_writes=True)
    library.import_papers([_paper(n) for n in range(12)])
    yield library
    library.close()


def _abstract_rows(text: str) -> int:
    """How many screen rows hold abstract text."""
    words = set(ABSTRACT.split())
    return sum(1 for row in text.splitlines() if len(set(row.split()) & words) >= 4 and "CyberV" not in row)


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 4), ((100, 30), 12)])
async def test_the_abstract_is_on_screen(real_library: Library, size: tuple[int, int], rows: int) -> None:
    app = create_app(real_library)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert FIRST_WORDS in text
        assert _abstract_rows(text) >= rows, text
        notes = app.screen.query_one(NotesEditor)
        key = notes_key(app.screen)  # (the notes key's name is the main screen's to choose)
        assert notes.region.height == 1 and f"notes: {key} to write" in text  # an empty note: one line
        assert not app.screen.query_one(RelatedList).display or app.screen.query_one(RelatedList).region.height == 0
        # writing a note opens its box; leaving it empty folds it again
        await pilot.press(key)
        await pilot.pause()  # the box's new height is laid out on the next refresh
        assert notes.region.height >= 4
        await pilot.press("escape")
        await pilot.pause()
        assert notes.region.height == 1


async def test_the_related_papers_open_while_walked_on_a_short_screen(real_library: Library) -> None:
    app = create_app(real_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await app.workers.wait_for_complete()
        await settle(app, pilot)
        related = app.screen.query_one(RelatedList)
        assert related.region.height == 0
        await pilot.press("right_square_bracket")
        await pilot.pause()
        if related.paper_ids:
            assert related.region.height >= 3


async def test_a_url_is_never_cut_inside_its_id(real_library: Library) -> None:
    app = create_app(real_library)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert "id=00F7BfXL00" in text  # whole, on the line after "forum?" if need be
        # field values go on under their label, not under the label column
        detail = app.screen.query_one(PaperDetail)
        assert detail.text.count("Test-Time Scaling") == 1


def test_url_lines_break_between_parts_only() -> None:
    url = "https://openreview.net/forum?id=00F7BfXLYJ"
    assert url_lines(url, 60) == [url]
    assert url_lines(url, 36) == ["https://openreview.net/forum?", "id=00F7BfXLYJ"]
    assert url_lines("https://arxiv.org/abs/2401.01234", 20) == ["https://arxiv.org/", "abs/2401.01234"]


async def test_at_200x60_notes_are_a_line_when_empty_and_a_box_of_bounded_height(real_library: Library) -> None:
    real_library.set_notes("p01", "one line of notes")
    app = create_app(real_library)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        notes = app.screen.query_one(NotesEditor)
        assert notes.region.height == 1
        await pilot.press("j")
        await settle(app, pilot)
        assert notes.paper_id == "p01" and "one line of notes" in screen_text(app)
        assert 3 <= notes.region.height <= 12


# -- snapshots (look at them before accepting: --snapshot-update, then open the SVG) -----


def _snapshot_library(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "snap", background_writes=True)
    library.import_papers([_paper(n) for n in range(12)])
    library.set_status(["p01"], Status.READ)
    library.set_status(["p02"], Status.TO_READ)
    library.set_notes("p03", "Compare with the sensor ablation.")
    library.flush()
    return library


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
def test_snapshot_main_screen(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    library = _snapshot_library(tmp_path)
    try:
        assert snap_compare(create_app(library), terminal_size=size, run_before=settle_workers)
    finally:
        library.close()


def test_snapshot_triage_at_80x24(snap_compare, tmp_path: Path) -> None:
    library = _snapshot_library(tmp_path)

    async def run_before(pilot) -> None:
        await settle_workers(pilot)
        await pilot.press("T")
        await pilot.pause()

    try:
        assert snap_compare(create_app(library), terminal_size=(80, 24), run_before=run_before)
    finally:
        library.close()


async def test_at_80_columns_a_message_is_not_the_part_of_the_status_line_that_is_cut(real_library: Library) -> None:
    app = create_app(real_library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"cybernetic framework video", "enter")
        await settle(app, pilot)
        await pilot.press("4")
        await pilot.press("u")
        await settle(app, pilot)
        (line,) = [row for row in screen_text(app).splitlines() if row.strip().startswith("12 papers")]
        assert 'undid status read → unread: "CyberV' in line  # as drawn, not as it would be unclipped
