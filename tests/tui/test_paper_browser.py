"""The paper browser: a search typed in one burst, and the search index kept up to date
by the library's change events (not by the screen)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import settle

SIZE = (120, 40)


async def test_slash_then_letters_in_one_burst_all_reach_the_search(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        tags_before = {pid: library.view(pid).tags for pid in library.papers}
        # As a terminal delivers a pasted or fast-typed "/attention": every key is queued
        # before the first one is handled, so they all reach the list, which has focus.
        for char in "/attention":
            key = "slash" if char == "/" else char
            app.post_message(events.Key(key, char))
        await settle(app, pilot)
        bar = app.screen.query_one("#search", Input)
        assert bar.value == "attention"
        assert bar.display and bar.has_focus
        assert app.screen.query_one(PaperList).ids[0] == "p-attention"
        # none of the letters ran its binding (t: tags, n: notes)
        assert app.screen.query_one(PaperList).has_focus is False
        assert {pid: library.view(pid).tags for pid in library.papers} == tags_before


async def test_a_status_change_is_found_by_a_status_search(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        await pilot.press("slash", *"status:read", "enter")
        await settle(app, pilot)
        assert papers.ids == []
        library.set_status(["p-graphs"], Status.READ)  # the library says; nobody else
        await settle(app, pilot)
        await pilot.press("escape", "slash", *"status:read", "enter")  # searched again
        await settle(app, pilot)
        assert papers.ids == ["p-graphs"]


async def test_a_field_search_before_the_index_is_in_waits_and_says_so(library: Library, monkeypatch) -> None:
    import threading

    import reader_tui.core.library.indexing as indexing
    from tui_support import screen_text, wait_until

    release = threading.Event()
    real = indexing.provide_indexes

    def withheld(*args, **kwargs):
        release.wait(30)  # the index still loading when the user searches
        real(*args, **kwargs)

    monkeypatch.setattr(indexing, "provide_indexes", withheld)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        papers = app.screen.query_one(PaperList)
        assert await wait_until(pilot, lambda: papers.ids)
        await pilot.press("slash", *"status:unread", "enter")
        # not "No papers match" nor "0 papers" alone: the answer is not known yet
        assert await wait_until(pilot, lambda: "Waiting for the search index to load…" in screen_text(app))
        assert papers.ids == []
        assert "waiting for the search index to load…" in screen_text(app).splitlines()[-2]
        release.set()
        assert await wait_until(pilot, lambda: len(papers.ids) == len(library.papers))
        await settle(app, pilot)
        assert "waiting for the search index" not in screen_text(app).lower()


async def test_keys_typed_while_a_search_runs_wait_as_one_search_for_the_newest_text(
    library: Library, monkeypatch
) -> None:
    """A search thread cannot be stopped: keys typed while one runs must not each start
    another (at 100,000 papers they would share the GIL and all finish late). The newest
    text waits, the older ones waiting before it are never computed, and the list shows
    the newest's result."""
    import threading

    from reader_tui.tui.widgets import listing_worker

    release = threading.Event()
    searched: list[str] = []
    real = listing_worker.compute_listing

    def slow(library, *, search="", **kwargs):
        searched.append(search)
        if search == "g":
            release.wait(10)  # the first key's search still running while the rest are typed
        return real(library, search=search, **kwargs)

    monkeypatch.setattr(listing_worker, "compute_listing", slow)
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        searched.clear()
        await pilot.press("slash", "g")
        assert searched == ["g"]  # searched at once, no pause waited for
        await pilot.press(*"raph")
        assert searched == ["g"]  # "gr", "gra", "grap", "graph" wait behind it
        release.set()
        await settle(app, pilot)
        assert searched == ["g", "graph"]
        assert app.screen.query_one(PaperList).ids == ["p-graphs"]


async def test_keys_typed_fast_after_escape_or_enter_reach_the_list_and_the_next_search(library: Library) -> None:
    """A busy app hands a fast typist's keys to the focused widget in one go: escape then
    "/diffusion" reached the closing bar and were lost, and an enter typed ahead of the
    bar opened the paper under the cursor instead of entering the search."""
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)

        def burst(keys: list[str]) -> None:
            for key in keys:
                app.post_message(events.Key(key, {"slash": "/", "escape": None, "enter": "\r"}.get(key, key)))

        burst(["slash", *"graph"])
        await settle(app, pilot)
        bar = app.screen.query_one("#search", Input)
        assert bar.value == "graph"
        burst(["escape", "slash", *"diffusion"])
        await settle(app, pilot)
        assert bar.value == "diffusion" and bar.display
        assert app.screen.query_one(PaperList).ids[0] == "p-diffusion"
        burst(["escape", "slash", *"reward", "enter"])  # entered: the list has the keys
        await settle(app, pilot)
        papers = app.screen.query_one(PaperList)
        assert bar.value == "reward" and papers.has_focus and papers.ids[0] == "p-rl"
        await pilot.press("j")
        assert papers.cursor == min(1, len(papers.ids) - 1)
        bar.focus()  # back in the bar by hand: its keys are its own again
        await pilot.press("end", "s")
        await settle(app, pilot)
        assert bar.value == "rewards"
