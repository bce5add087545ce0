"""What the main screen's keys on the current paper, or on the marked ones, do: which
papers an action is about (`targets`: the marked ones, else the one under the cursor),
read and status, notes, the BibTeX and \\cite copies, and what an action on marked
papers says (naming those a search or filter hides).

Functions, as in `main_moves` and `main_dialogs` (whose dialogs on papers, tags, edit,
export and reviews, take their papers from `targets`): each takes the screen that asks.
The Library does the work; its change event redraws the rows.
"""

from __future__ import annotations

from typing import Any

from reader_tui.core.model import Status
from reader_tui.core.text.display import one_line


def targets(screen: Any) -> list[str]:
    """The marked papers in list order (then the marked ones the list does not show),
    or else the current one."""
    papers = screen.paper_list
    if papers.marked:
        shown = [pid for pid in papers.ids if pid in papers.marked]
        return shown + sorted(papers.marked - set(shown))
    return [papers.current_id] if papers.current_id else []


def toggle_read(screen: Any) -> None:
    """`r`: read / unread."""
    if ids := targets(screen):
        screen.library.toggle_read(ids)
        say_targets(screen, "read / unread", ids)


def set_status(screen: Any, status: Status) -> None:
    """`1`-`5`: a status."""
    if ids := targets(screen):
        screen.library.set_status(ids, status)
        say_targets(screen, status.value, ids)


def edit_notes(screen: Any) -> None:
    """`a`: the notes of the paper under the cursor, without waiting for the pane."""
    screen.show_current_now()
    notes = screen.side.notes
    if notes.paper_id is not None:
        notes.focus()


def copy_bibtex(screen: Any) -> None:
    """`y`: copy the BibTeX entries of the papers."""
    from reader_tui.core.formats.bibtex.writer import entry_for
    from reader_tui.tui.clipboard import copy_text

    library, ids = screen.library, targets(screen)
    say_targets(screen, "BibTeX copied", ids)
    if not ids:
        return
    text = "\n".join(entry_for(view) for view in library.views(ids))
    how = copy_text(screen.app, text)
    library.keep_citekeys(ids)
    what = one_line(library.view(ids[0]).title, 50) if len(ids) == 1 else f"{len(ids)} papers"
    screen.notify(f"Copied BibTeX of {what} to the {how}", markup=False)


def copy_cites(screen: Any) -> None:
    """Copy `\\cite{key1,key2}` for the papers."""
    from reader_tui.tui.clipboard import copy_text

    library, ids = screen.library, targets(screen)
    if not ids:
        return
    text = "\\cite{" + ",".join(view.citekey for view in library.views(ids)) + "}"
    how = copy_text(screen.app, text)
    library.keep_citekeys(ids)
    screen.notify(f"Copied {text} to the {how}", markup=False)


def say_targets(screen: Any, what: str, ids: list[str]) -> None:
    """Say what a bulk action did to the marked papers, and how many of them are out of
    sight (a search or filter hides them): marks act where the user is told."""
    papers = screen.paper_list
    if not papers.marked or not ids:
        return
    shown = set(papers.ids)
    visible = sum(pid in shown for pid in ids)
    noun = "paper" if len(ids) == 1 else "papers"
    if visible == len(ids):
        screen.say(f"{what}: {len(ids)} marked {noun}")
        return
    # Out of sight: the status line says it in short, a notification in full.
    screen.status_bar.set_message(f"{what}: {len(ids)} marked, {visible} visible", error=True)
    screen.notify(
        f"{what}: {len(ids)} marked {noun}, {visible} of them visible; escape clears marks",
        title="Marked papers out of sight", severity="warning", markup=False,
    )
