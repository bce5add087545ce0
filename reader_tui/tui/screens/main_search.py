"""What the search bar of the main screen does: `/` at the list searches it (the browser
owns the search), `/` in the detail pane finds in that paper, as in less; a saved search
runs in it (from the side list `b` shows, or the palette).

Functions, as in `main_moves` and `main_dialogs`: each takes the screen whose bar it is.
The bar sits above every pane, so the screen owns it and routes what is typed there:
to the browser (`search_for`, `submit_search`, `cancel_search`) or to the detail pane
(`find`). The state stays in the widgets (the bar's `finding`, the browser's search).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from reader_tui.tui.widgets.saved_searches import SavedSearchList
from reader_tui.tui.widgets.search_bar import SearchBar


def open_bar(screen: Any) -> None:
    """`/`: find in the detail pane when it has focus, else search the list."""
    bar = screen.query_one(SearchBar)
    detail = screen.side.detail
    if detail.has_focus:  # `/` in the detail pane finds in it, as in less
        bar.open_find(detail.find_text)
        return
    end_find(screen)
    screen.browser.begin_search()
    bar.display = True
    bar.focus()


def end_find(screen: Any) -> None:
    """A find in the detail pane ends: the bar holds the list's search again."""
    if screen.query_one(SearchBar).finding:
        show_search(screen)


def show_search(screen: Any) -> None:
    """The bar shows the browser's search (after a jump through the history)."""
    screen.query_one(SearchBar).show_search(screen.browser.search_text)


def typed_ahead(screen: Any, text: str) -> None:
    """Keys meant for the bar reached the list before it had focus: they go in the bar."""
    bar = screen.query_one(SearchBar)
    if not bar.display:
        open_bar(screen)
    bar.insert_text_at_cursor(text)


def changed(screen: Any, value: str) -> None:
    """The bar holds `value`: find it in the paper, or search the list once typing pauses."""
    if not screen.query_one(SearchBar).finding:
        screen.browser.search_for(value)
        return
    found = screen.side.detail.find(value)
    if value.strip():
        screen.status_bar.set_message(
            f"found on {found} line{'s' if found != 1 else ''}" if found else "not in this paper", error=not found
        )


def submitted(screen: Any) -> None:
    """Enter: keep what was found and read on, or show the search's results."""
    if screen.query_one(SearchBar).finding:
        end_find(screen)
        screen.side.detail.focus()
    elif not screen.browser.submit_search():
        cancelled(screen)


def cancelled(screen: Any) -> None:
    """Escape: the list, cursor and scroll position as they were before `/` (or, finding
    in the detail pane, the find ends)."""
    bar = screen.query_one(SearchBar)
    if bar.finding:
        screen.side.detail.find("")
        end_find(screen)
        screen.side.detail.focus()
        return
    with bar.prevent(Input.Changed):
        bar.value = ""
    bar.display = False
    screen.browser.cancel_search()


def run_saved(screen: Any, search: Any) -> None:
    """Run the saved `search` in the bar (within the current filter; escape restores)."""
    screen.browser.jumping()
    open_bar(screen)
    screen.query_one(SearchBar).value = search.query  # the bar's Changed event runs the search
    screen.paper_list.focus()


def toggle_saved_list(screen: Any) -> None:
    """`b`: show or hide the saved searches beside the list (focused when shown)."""
    side = screen.query_one(SavedSearchList)
    if not side.toggle():
        screen.paper_list.focus()
    elif screen.has_class("-narrow"):
        screen.notify("Too narrow for the saved searches list: find them in ctrl+p (\"Search: …\")", markup=False)
    else:
        screen.call_after_refresh(side.focus)
