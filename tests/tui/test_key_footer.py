"""The key footer is one widget whose line changes with the keys: a focus change (tab, `/`,
a dialog) repaints one row instead of mounting a widget per key (tens of milliseconds
that the key pressed waited for); the mouse works on it as on Textual's footer."""

from __future__ import annotations

from textual import events

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from reader_tui.tui.dialogs.tag_editor import TagEditor
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_detail import PaperDetail
from tui_support import screen_text, settle

SIZE = (120, 40)


def wheel(footer: KeyFooter, kind: type[events.MouseEvent]) -> events.MouseEvent:
    return kind(footer, 5, 0, 0, 1 if kind is events.MouseScrollDown else -1, 0, False, False, False)


def footer_line(app) -> str:
    return screen_text(app).splitlines()[-1]


async def test_a_focus_change_redraws_the_keys_without_mounting_widgets(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(KeyFooter)
        widgets = list(app.screen.walk_children())
        assert not footer.children
        assert "space Mark" in footer_line(app)  # the list's own key

        await pilot.press("tab")
        assert isinstance(app.screen.focused, PaperDetail)
        assert "Mark" not in footer_line(app) and " r Read" in footer_line(app)
        await pilot.press("tab")
        assert isinstance(app.screen.focused, NotesEditor)  # typing: the letter keys go
        assert " r Read" not in footer_line(app) and footer_line(app).startswith(" / Search ")
        await pilot.press("shift+tab", "shift+tab")
        assert "space Mark" in footer_line(app)
        assert list(app.screen.walk_children()) == widgets  # nothing mounted nor removed


async def test_the_footer_repaints_only_when_its_keys_change(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(KeyFooter)
        renders = []
        original = footer.render
        footer.render = lambda: renders.append(1) or original()

        app.screen.refresh_bindings()  # what Textual does on every focus change
        app.screen.refresh_bindings()
        await pilot.pause()
        assert not renders  # the same keys: not even repainted

        app.screen._bindings.bind("f9", "app.bell", "Ring the bell")
        app.screen.refresh_bindings()
        await pilot.pause()
        assert renders
        assert any(item.description == "Ring the bell" for item in footer.items)  # cut at 120 columns


async def test_a_click_on_a_key_presses_it_and_the_key_under_the_mouse_is_lit(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(KeyFooter)
        line = footer_line(app)
        tags = line.index(" t Tags")
        palette = line.index("^p Commands")

        await pilot.hover(KeyFooter, offset=(palette, 0))
        assert footer.tooltip == "Commands"
        assert footer.styles.pointer == "pointer"
        lit = app.screen._compositor.render_strips()[-1]
        await pilot.hover(KeyFooter, offset=(tags + 1, 0))
        assert footer.tooltip is None  # the key has none, as in Textual's footer
        assert app.screen._compositor.render_strips()[-1] != lit  # the highlight moved

        await pilot.click(KeyFooter, offset=(tags + 2, 0))
        await pilot.pause()
        assert isinstance(app.screen, TagEditor)


async def test_the_wheel_scrolls_the_keys_that_were_cut_and_help_stays(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        before = footer_line(app)
        assert "Undo" not in before and before.rstrip().endswith("? Help ^p Commands")

        footer = app.screen.query_one(KeyFooter)
        for _ in range(40):
            footer.post_message(wheel(footer, events.MouseScrollDown))
        await pilot.pause()
        after = footer_line(app)
        assert "Undo" in after and "space Mark" not in after
        assert after.rstrip().endswith("? Help ^p Commands")

        for _ in range(40):
            footer.post_message(wheel(footer, events.MouseScrollUp))
        await pilot.pause()
        assert footer_line(app) == before


async def test_the_sync_state_read_after_the_first_frame_lays_nothing_out_when_nothing_changed(
    library: Library,
) -> None:
    # With the footer drawn by one widget the list appears sooner, and the first key
    # then landed behind the sync state read just after the first frame: the status
    # line's update laid the whole screen out again and drew it twice (~120 ms under
    # load) to show the same empty line. The same line is now left alone.
    from datetime import UTC, datetime

    from textual.widgets import Static

    from reader_tui.tui.widgets.status_bar import StatusBar

    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(StatusBar)
        synced = bar.query_one("#status-synced", Static)
        detail = app.screen.query_one(PaperDetail)
        updates: list[object] = []
        builds: list[object] = []
        original_update, original_build = synced.update, detail._build
        synced.update = lambda content="", **kw: (updates.append(content), original_update(content, **kw))[1]
        detail._build = lambda: (builds.append(1), original_build())[1]

        bar.set_synced(None)  # not a repository: what the state read says at each start
        detail.set_group(None)
        assert updates == [] and builds == []

        when = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
        bar.set_synced(when)
        await pilot.pause()
        assert len(updates) == 1 and "synced" in str(synced.render())
        bar.set_synced(when)  # read again after a sync that changed nothing
        assert len(updates) == 1
        bar.set_synced(when, waiting=2)
        await pilot.pause()
        assert len(updates) == 2 and "2 changes waiting" in str(synced.render())
        bar.set_synced(None)
        await pilot.pause()
        assert len(updates) == 3 and "synced" not in str(synced.render())
