"""Issue 14, triage: the header (position, pace) and the footer's `esc Done` and `? Help`
fit 80 columns, with a long search too; an undo is not a decision in the pace; the whole
library's triage resumes where the last whole-library triage stopped, whatever other
lists were triaged since; `o` opens the paper's url."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.screens.main_screen import MainScreen
from reader_tui.tui.screens.triage_screen import POSITION_SETTING, TriageScreen, triage_key
from tui_support import PAPERS, open_triage, screen_text, settle

IDS = [p.id for p in PAPERS]



def _rows(app) -> list[str]:
    return screen_text(app).splitlines()


async def test_header_and_footer_fit_80_columns_with_a_long_search(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"a")
        await settle(app, pilot)
        await pilot.press("enter")  # keep the results
        app.screen.browser.search_for("a " + "transformers attention " * 6)  # a long search
        await settle(app, pilot)
        triage = await open_triage(app, pilot)
        rows = _rows(app)
        header = next(row for row in rows if "untriaged" in row)
        total = len(triage.queue)
        # position, what is left, decided and the pace: whole, on one line
        assert f"1 of {total} untriaged · {total} left · 0 decided · 0.0/min" in header
        scope = next(row for row in rows if "in this list:" in row)
        assert "search: a transformers" in scope and scope.rstrip().endswith("…")
        footer = rows[-1]
        assert "esc Done" in footer and "? Help" in footer and "^p Commands" in footer
        assert footer.count("^p Commands") == 1


async def test_an_undo_is_not_a_decision_in_the_pace(library: Library) -> None:
    start = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    now = [start]
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        triage = TriageScreen(library, IDS, clock=lambda: now[0])
        app.push_screen(triage)
        await pilot.pause()
        await pilot.press("w", "s")
        now[0] = start + timedelta(minutes=2)
        assert triage.pace() == 1.0  # two papers in two minutes
        await pilot.press("u")  # takes one back: one decision left, not three changes
        assert library.annotation(IDS[1]).status is Status.UNREAD
        assert triage.decided_count() == 1 and triage.pace() == 0.5
        assert "1 decided · 0.5/min" in str(triage.query_one("#triage-progress").render())


async def test_the_whole_library_resumes_after_another_list_was_triaged(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_triage(app, pilot)
        await pilot.press("w", "l", "escape")  # whole library: decided IDS[0], passed IDS[1]
        assert library.settings[POSITION_SETTING]["all"] == IDS[1]
        # a list no query names (as "more like this" shows): its own key, not "all"
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.paper_list.set_ids([IDS[4], IDS[5]], keep=IDS[4])
        await settle(app, pilot)
        triage = await open_triage(app, pilot)
        assert triage.filter_key.startswith("list:2:")
        await pilot.press("s", "escape")
        assert library.settings[POSITION_SETTING]["all"] == IDS[1]
        screen.browser.refilter()  # every paper again
        await settle(app, pilot)
        triage = await open_triage(app, pilot)
        assert triage.filter_key == "all" and triage.current_id == IDS[2]


def test_triage_keys(library: Library) -> None:
    everything = list(library.papers)
    assert triage_key(library, everything, "") == "all"
    assert triage_key(library, everything[:2], "tag:llm") == "tag:llm"
    assert triage_key(library, everything[:2], "") == triage_key(library, everything[1::-1], "")
    assert triage_key(library, everything[:2], "") != triage_key(library, everything[:3], "")


async def test_o_opens_the_url_in_triage(library: Library, monkeypatch) -> None:
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    monkeypatch.setenv("DISPLAY", ":0")  # a browser can start here (without one, the url is copied)
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_triage(app, pilot)
        await pilot.press("o")
        await app.workers.wait_for_complete()
        assert opened == ["https://openreview.net/forum?id=attention"]
        await pilot.press("l", "o")  # p-graphs has no url: said, nothing opened
        await pilot.pause()
        assert len(opened) == 1
        assert isinstance(app.screen, TriageScreen)




async def test_help_in_triage_names_every_key_of_back_and_next(library: Library) -> None:
    from reader_tui.tui.screens.help_screen import help_entries

    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        triage = await open_triage(app, pilot)
        assert triage.focused.id == "triage-paper"
        # the paper's inherited sideways scroll no longer hides ← and → from help
        entries = dict((text, keys) for keys, text in help_entries(triage))
        assert entries["Back"] == "b / h / ←" and entries["Next"] == "l / →"
        await pilot.press("right")
        assert triage.current_id == IDS[1]
        await pilot.press("w", "left")
        assert triage.current_id == IDS[1]
