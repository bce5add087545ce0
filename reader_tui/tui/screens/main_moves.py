"""What the main screen's keys that move through the list or step back do: escape's
steps, the jump list, a jump to a paper (shown even when the list hides it), "more
like this", undo and redo (to the paper they changed), `n` / `N`, and what a bulk
action on marked papers says.

Functions, as in `main_dialogs`: each takes the screen that asks. The state stays in
the widgets (the browser's filter, search and jump list; the list's cursor and marks).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reader_tui.core.text.display import one_line
from reader_tui.tui.screens import main_search


def step_back(screen: Any) -> None:
    """Escape: in the detail pane, what `/` found there; from another pane to the list;
    then the marks, "more like this", the search, the filter, one at a time."""
    papers = screen.paper_list
    browser = screen.browser
    detail = screen.side.detail
    if detail.has_focus and detail.find_text:
        detail.find("")  # what `/` found there first, then back to the list
    elif not papers.has_focus:
        papers.focus()
    elif papers.marked:
        count = len(papers.marked)
        papers.clear_marks()
        screen.status_bar.set_message(f"{count} mark{'s' if count != 1 else ''} cleared")
    elif browser.leave_more_like():
        pass
    elif browser.searching:
        main_search.cancelled(screen)
    elif browser.clear_filter():
        screen.say("filter cleared (ctrl+o brings it back)")


def jump(screen: Any, moved: bool, otherwise: str) -> None:
    """After `ctrl+o` / `ctrl+i`: the search bar shows the place's search (or `otherwise`
    is said when there was no place to go to)."""
    if not moved:
        screen.status_bar.set_message(otherwise)
        return
    main_search.show_search(screen)
    screen.paper_list.focus()


def jump_to(screen: Any, paper_id: str) -> None:
    """Put the list's cursor on `paper_id`, showing every paper when the current
    filter or search hides it (ctrl+o comes back)."""
    papers = screen.paper_list
    papers.focus()
    if paper_id == papers.current_id:
        return
    screen.browser.jumping()
    if paper_id in papers.ids:
        papers.move_to(papers.ids.index(paper_id))
        return
    hidden_by = screen.browser.describe()
    screen.browser.show_everything(keep=paper_id)
    main_search.show_search(screen)
    screen.notify(f"The paper was outside the list ({hidden_by}): showing every paper; ctrl+o goes back", markup=False)


def related(screen: Any, step: int) -> None:
    """`]` / `[`: the next or previous related paper in the side pane."""
    screen.show_current_now()
    if not screen.side.step_related(step):
        computing = screen.side.related.index is None
        screen.notify("related: computing…" if computing else "No related papers", markup=False)


def more_like_this(screen: Any) -> None:
    """`M`: the papers related to the current one, over the list (escape goes back)."""
    from reader_tui.tui.navigation import MoreLike

    pid = screen.paper_list.current_id
    if pid is None:
        return
    ids = screen.side.related.more_like_this(pid)
    if ids is None:
        screen.notify("related: computing…, try again in a moment", markup=False)
        return
    title = one_line(screen.library.view(pid).title, 30)
    screen.browser.show_more_like(MoreLike(pid, tuple(ids), f"more like: {title}"))
    screen.paper_list.focus()


def undo(screen: Any, *, redo: bool) -> None:
    """Undo (or redo) the last change, put the cursor on its paper and say it in words."""
    screen.save_pending()
    library = screen.library
    change = library.redo() if redo else library.undo()
    if change is None:
        screen.status_bar.set_message(f"nothing to {'redo' if redo else 'undo'}")
        return
    screen.say(undo_words(library, change, redo=redo))
    show_changed(screen, change.after)


def undo_words(library: Any, change: Any, *, redo: bool) -> str:
    """What an undo (or redo) of `change` did, in words, what changed first:
    `undid status read → unread: "SOCOP: …"` (the main list and triage both say it)."""

    def title(pid: str) -> str:
        return one_line(library.view(pid).title, 36) if pid in library.papers else pid

    return f"redid {change.describe(title)}" if redo else f"undid {change.inverse().describe(title)}"


def show_changed(screen: Any, ids: Iterable[str]) -> None:
    """Put the cursor on the first paper of `ids` in list order (showing it if hidden)."""
    papers = screen.paper_list
    changed = set(ids)
    first = next((pid for pid in papers.ids if pid in changed), None)
    if first is not None:
        if first != papers.current_id:
            papers.move_to(papers.ids.index(first))
        return
    hidden = sorted(pid for pid in changed if pid in screen.library.papers)
    if hidden:
        jump_to(screen, hidden[0])


def next_match(screen: Any, step: int) -> None:
    """`n` / `N`: in the detail pane the next line holding what `/` found there; in the
    list the next search result, round the end as vim does, saying so."""
    detail = screen.side.detail
    if detail.has_focus:
        if not detail.find_next(step):
            screen.status_bar.set_message("nothing to find: / finds in this paper")
        return
    papers = screen.paper_list
    if not screen.browser.search_text.strip() and screen.browser.more_like is None:
        screen.status_bar.set_message("no search: / searches, then n / N go through the results")
        return
    if not papers.ids:
        return
    row = papers.cursor + step
    if row >= len(papers.ids):
        row = 0
        screen.status_bar.set_message("search hit the bottom, continuing at the top")
    elif row < 0:
        row = len(papers.ids) - 1
        screen.status_bar.set_message("search hit the top, continuing at the bottom")
    papers.move_to(row)
