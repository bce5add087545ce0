"""The notes pane and the saving indicator tell the truth (issue 12, items 4, 5, 6, 8):
steady typing reaches the disk, a failed write is reported at once and stays visibly
unsaved, looking at a note never rewrites it, and a note's control characters are drawn
as symbols, never sent to the terminal."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library
from reader_tui.core.library.writer import BackgroundWriter
from reader_tui.core.model import Paper, Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.status_bar import StatusBar
from tui_support import PAPERS, make_library, screen_text, settle, wait_until

SIZE = (120, 40)
IDS = [p.id for p in PAPERS]


def saving_text(app) -> str:
    return str(app.screen.query_one("#status-saving").render())


def replace_file(path: Path, data: bytes) -> None:
    """Put `data` in place at once, as an editor or `doctor` would (the writer may be reading)."""
    temp = path.with_suffix(".repair")
    temp.write_bytes(data)
    os.replace(temp, path)


# -- item 4: steady typing is saved -------------------------------------------------------------


async def test_steady_typing_is_saved_within_the_max_wait(library: Library, monkeypatch) -> None:
    # Typing never pauses long enough for the pause timer; only the max wait can save.
    monkeypatch.setattr(NotesEditor, "SAVE_AFTER_PAUSE", 30.0)
    monkeypatch.setattr(NotesEditor, "SAVE_AT_MOST_AFTER", 0.1)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        started = time.monotonic()
        typed = ""
        while time.monotonic() - started < 0.5:  # keys keep coming, 20 ms apart
            await pilot.press("a")
            typed += "a"
            await pilot.pause(0.02)
        saved = library.annotation(IDS[0]).notes
        assert saved and typed.startswith(saved), "nothing handed to the Library while typing"
        library.flush()
        assert Library.open(library.files.folder).annotation(IDS[0]).notes == saved
        # ... and the rest on the next max wait, though the keys never paused.
        await pilot.press("b")
        assert await wait_until(pilot, lambda: library.annotation(IDS[0]).notes == typed + "b")


async def test_a_pause_in_typing_saves(library: Library, monkeypatch) -> None:
    monkeypatch.setattr(NotesEditor, "SAVE_AFTER_PAUSE", 0.05)
    monkeypatch.setattr(NotesEditor, "SAVE_AT_MOST_AFTER", 30.0)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("a", *"hi")
        assert await wait_until(pilot, lambda: library.annotation(IDS[0]).notes == "hi")
        assert await wait_until(pilot, lambda: saving_text(app) == "saved")


# -- item 6: looking at a note writes nothing -----------------------------------------------

SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\r\n"]


async def test_viewing_a_note_never_rewrites_it(tmp_path: Path) -> None:
    # One paper per line separator, each with a note holding it; one app visits them all:
    # the first note is shown at the start, the others as the cursor reaches them.
    more = [Paper(id=f"p-sep{n}", title=f"Paper with separator {n}", added=f"2025-11-02T00:00:{n:02d}+00:00")
            for n in range(len(SEPARATORS) - len(PAPERS))]
    library = make_library(tmp_path / "lib", PAPERS + more)
    notes_of = {paper.id: f"first{sep}second\nthird{sep}" for paper, sep in zip(PAPERS + more, SEPARATORS)}
    for pid, note in notes_of.items():
        library.set_notes(pid, note)
    library.flush()
    changed = {pid: library.annotation(pid).changed["notes"] for pid in notes_of}
    on_disk = library.files.annotations_path.read_bytes()
    app = create_app(library)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            notes = app.screen.query_one(NotesEditor)
            rows = list(app.screen.query_one(PaperList).ids)
            assert sorted(rows) == sorted(notes_of)
            for row, pid in enumerate(rows):
                where = f"row {row}, note {notes_of[pid]!r}"
                assert notes.paper_id == pid and not notes.dirty, where
                await pilot.press("a")  # into the notes pane ...
                assert notes.has_focus, where
                await pilot.press("escape")  # ... and out again
                await pilot.press("tab", "tab", "tab", "shift+tab")
                await pilot.press("escape", "j")
                await settle(app, pilot)
                await pilot.press("k")
                await settle(app, pilot)
                await pilot.press("a", "escape")
                await settle(app, pilot)
                assert saving_text(app) != "editing…", where
                await pilot.press("j")  # on to the next note
                await settle(app, pilot)
            library.flush()
            for pid, note in notes_of.items():
                assert library.annotation(pid).notes == note
                assert library.annotation(pid).changed["notes"] == changed[pid]
            assert library.files.annotations_path.read_bytes() == on_disk
            assert saving_text(app) != "editing…"
    finally:
        library.close()


async def test_an_edit_keeps_the_other_line_breaks_of_a_note(library: Library) -> None:
    note = "a\x0bb\u2028c\r\nd"
    library.set_notes(IDS[0], note)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = app.screen.query_one(NotesEditor)
        await pilot.press("a")
        notes.move_cursor(notes.document.end)
        await pilot.press("!", "escape")
        await settle(app, pilot)
    assert library.annotation(IDS[0]).notes == note + "!"


# -- item 8: control characters are drawn, not sent ------------------------------------------

HOSTILE_NOTE = "title\x1b]0;pwned\x07 clear\x1b[2J csi\x9b31m del\x7f nul\x00 bell\x07 end"


async def test_a_notes_control_characters_never_reach_the_terminal(library: Library) -> None:
    library.set_notes(IDS[0], HOSTILE_NOTE)
    library.flush()
    changed = library.annotation(IDS[0]).changed["notes"]
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = app.screen.query_one(NotesEditor)
        await pilot.press("a")
        drawn = "".join(
            segment.text for y in range(notes.size.height) for segment in notes.render_line(y)
        )
        for control in ("\x1b", "\x07", "\x9b", "\x7f", "\x00"):
            assert control not in drawn
            assert control not in screen_text(app)
        assert "title␛]0;pwned␇ clear␛[2J csi\ufffd31m del␡ nul␀ bell␇ end" in drawn
        await pilot.press("escape")
        await settle(app, pilot)
        assert library.annotation(IDS[0]).notes == HOSTILE_NOTE
        assert library.annotation(IDS[0]).changed["notes"] == changed
        # Editing around them keeps them as they were.
        await pilot.press("a")
        notes.move_cursor((0, 0))
        await pilot.press("delete", "T")
        notes.move_cursor(notes.document.end)
        await pilot.press("!", "escape")
        await settle(app, pilot)
    assert library.annotation(IDS[0]).notes == "T" + HOSTILE_NOTE[1:] + "!"


# -- item 5: a failed write is reported at once and stays unsaved -------------------------------


async def test_a_failed_write_is_reported_at_once_and_never_called_saved(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(BackgroundWriter, "RETRY_DELAY", 0.05)
    monkeypatch.setattr(NotesEditor, "SAVE_AFTER_PAUSE", 0.05)
    library = make_library(tmp_path / "lib")
    library.set_tags(IDS[1], ["kept"])  # so there is an annotations file to damage
    library.flush()
    path = library.files.annotations_path
    good = path.read_bytes()
    app = create_app(library)
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(app, pilot)
            path.write_text("{ junk written by another program")  # the annotations file damaged
            seen: list[str] = []
            bar = app.screen.query_one(StatusBar)
            original = bar.set_saving

            def record(state: str, *, error: bool = False) -> None:
                seen.append(state)
                original(state, error=error)

            bar.set_saving = record  # every state the indicator ever shows
            await pilot.press("4")  # status: read
            assert await wait_until(pilot, lambda: saving_text(app).startswith("not saved"))

            def reported() -> bool:  # the notice follows the indicator by a message or two
                return any(str(path) in n.message and n.message.startswith("Not saved") for n in app._notifications)

            assert await wait_until(pilot, reported), [n.message for n in app._notifications]
            await pilot.press("a", *"kept")
            notes = app.screen.query_one(NotesEditor)
            assert await wait_until(pilot, lambda: library.annotation(IDS[0]).notes == "kept")
            # The pane and the status line catch up through messages: wait for them (a
            # loaded machine may take a while), never for a fixed time.
            assert await wait_until(pilot, lambda: notes.border_subtitle == "not saved")
            assert await wait_until(pilot, lambda: library.pending_writes >= 2)
            assert await wait_until(
                pilot, lambda: saving_text(app) == f"not saved ({library.pending_writes} writes waiting)"
            ), saving_text(app)
            assert "saved" not in seen
            # q does not pretend: it says what is not on disk and stays.
            await pilot.press("escape", "q")
            assert app.is_running
            waiting = library.pending_writes
            assert any(f"Changes not on disk ({waiting} writes waiting)" in n.message for n in app._notifications)
            # The file repaired: the kept writes reach it, and only now "saved".
            replace_file(path, good)
            assert await wait_until(pilot, lambda: saving_text(app) == "saved")
            assert notes.border_subtitle == ""
        reopened = Library.open(library.files.folder)
        assert reopened.annotation(IDS[0]).status is Status.READ
        assert reopened.annotation(IDS[0]).notes == "kept"
    finally:
        replace_file(path, good)
        library._writer.stop()


async def test_quitting_anyway_after_a_failure(tmp_path: Path) -> None:
    library = make_library(tmp_path / "lib")
    library.set_tags(IDS[1], ["kept"])  # so there is an annotations file to damage
    library.flush()
    path = library.files.annotations_path
    good = path.read_bytes()
    app = create_app(library)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        path.write_text("junk")
        await pilot.press("4")
        await pilot.press("q")
        assert app.is_running
        assert any("Changes not on disk (1 write waiting)" in n.message for n in app._notifications)
        await pilot.press("q")
    assert app.return_code == 0
    # The user was told; closing the Library says it again rather than claiming success
    # (run_app prints that as one line).
    assert library.pending_writes == 1
    with pytest.raises(StoreError, match="not valid JSON"):
        library.close()
    replace_file(path, good)
    library._writer.stop()


async def test_a_new_notes_editor_is_read_only_and_collapsed_and_styled_only_once_mounted(library: Library, monkeypatch) -> None:
    from textual.css.stylesheet import Stylesheet

    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        styled: list[object] = []
        real_apply = Stylesheet.apply
        monkeypatch.setattr(Stylesheet, "apply", lambda self, node, *a, **k: (styled.append(node), real_apply(self, node, *a, **k))[1])
        editor = NotesEditor(library, id="extra-notes", classes="mine")
        assert editor.read_only and editor.has_class("-read-only", "-collapsed", "mine")
        assert styled == []  # nothing styled before it is in the app: it is styled once there
        await app.screen.mount(editor)
        await pilot.pause()
        assert sum(node is editor for node in styled) == 1
        editor.load(IDS[0])  # a paper: writable, and drawn as such
        assert not editor.read_only and not editor.has_class("-read-only")


# -- a long note: its beginning until it is written in (issue 34, item 10) ---------------------


async def test_a_long_note_shows_its_beginning_until_written_in_and_is_kept_whole(library: Library) -> None:
    """A note of megabytes held the start up for seconds (TextArea wraps every line of its
    document): until the pane is focused it shows its first lines, and nothing of that
    shortened text can ever be saved; written in, it is the whole note."""
    note = "\n".join(f"line {n} of a very long note about attention" for n in range(20_000))
    assert len(note) > NotesEditor.LONG_NOTE
    library.set_notes(IDS[0], note)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = app.screen.query_one(NotesEditor)
        assert notes.document.line_count <= NotesEditor.PREVIEW_LINES + 1
        assert "the whole note opens when you write in it" in notes.text
        assert not notes.dirty
        notes.save_now()  # nothing of the shortened text is ever written
        assert library.annotation(IDS[0]).notes == note
        await pilot.press("a")  # write in the pane
        await settle(app, pilot)
        assert notes.has_focus and notes.text == note and not notes.soft_wrap
        notes.move_cursor(notes.document.end)
        await pilot.press("!", "escape")
        await settle(app, pilot)
    assert library.annotation(IDS[0]).notes == note + "!"
