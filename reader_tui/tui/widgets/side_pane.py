"""The column right of the paper list (below it on narrow terminals): the current paper's
detail, the papers related to it and its notes.

The pane owns what follows the list's cursor: the screen tells it where the cursor is
(`follow` on every move, `show_now` when the pane must be current at once) and the pane
shows that paper, after the cursor rests. Its widgets' messages (the notes saved or
refused, a related paper chosen) bubble up to the screen unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.timer import Timer

from reader_tui.core.library.library import Library
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_detail import PaperDetail
from reader_tui.tui.widgets.related_list import RelatedList

DETAIL_DELAY = 0.04
"""Seconds the cursor must rest before the pane shows the paper under it."""


class SidePane(Vertical):
    """The detail, related papers and notes of the paper under the list's cursor."""

    def __init__(
        self,
        library: Library,
        matched: Callable[[str], Iterable[str]],
        why: Callable[[str], str] | None = None,
        **kwargs: Any,
    ) -> None:
        """`matched(paper_id)`: the search terms to highlight in that paper's detail;
        `why(paper_id)`: why it ranks where it does in the list's order ("" for nothing)."""
        super().__init__(**kwargs)
        self.library = library
        self._matched = matched
        self._why = why
        self._timer: Timer | None = None
        self._pending: str | None = None  # where the cursor went while the timer runs

    def compose(self) -> ComposeResult:
        yield PaperDetail(id="detail")
        yield RelatedList(self.library, id="related")
        yield NotesEditor(self.library, id="notes")

    @property
    def detail(self) -> PaperDetail:
        return self.query_one(PaperDetail)

    @property
    def related(self) -> RelatedList:
        return self.query_one(RelatedList)

    @property
    def notes(self) -> NotesEditor:
        return self.query_one(NotesEditor)

    def follow(self, paper_id: str | None) -> None:
        """The list's cursor moved to `paper_id`: show it once the cursor rests.

        Holding j then costs one list row per key, not a re-wrapped abstract, reloaded
        notes and a repaint of half the screen. Focusing the notes catches up first
        (`on_descendant_focus`), so typing always reaches the paper under the cursor.
        """
        self._pending = paper_id
        if self.detail.paper_id is None:
            self.show_now(paper_id)
        elif self._timer is not None:
            self._timer.reset()
        else:
            self._timer = self.set_timer(DETAIL_DELAY, self._rested, name="detail-debounce")

    def _rested(self) -> None:
        self.show_now(self._pending)

    @property
    def behind(self) -> bool:
        """True while the pane waits for the cursor to rest."""
        return self._timer is not None

    def show_now(self, paper_id: str | None) -> None:
        """Show `paper_id` without waiting (and stop waiting for the cursor)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.show(paper_id)

    def show(self, paper_id: str | None) -> None:
        """Show `paper_id` (None or a paper no longer there: nothing) in every part."""
        self.notes.load(paper_id)
        view = self.library.view(paper_id) if paper_id in self.library.papers else None
        why = self._why(paper_id) if paper_id and view is not None and self._why is not None else ""
        self.detail.show(view, self._matched(paper_id) if paper_id else (), why)
        self.related.show_for(view.id if view is not None else None)

    def reload(self, paper_id: str | None) -> None:
        """The Library changed `paper_id`: show it again, with the notes from the Library
        (unless the editor holds unsaved ones)."""
        self.show(paper_id)
        self.notes.reload()

    def set_related_index(self, index: Any, seconds: float) -> None:
        """The related-papers index arrived: fill the related list for the paper shown."""
        self.related.set_index(index, seconds)
        self.related.show_for(self.detail.paper_id)

    def step_related(self, step: int) -> bool:
        """Move through the related papers (`]` / `[`); False when there are none."""
        if not self.related.paper_ids:
            return False
        self.add_class("-related-open")
        self.related.step(step)
        return True

    def on_descendant_focus(self, event: Any) -> None:
        if isinstance(event.widget, NotesEditor) and self._timer is not None:
            self.show_now(self._pending)

    def on_descendant_blur(self, event: Any) -> None:
        if isinstance(event.widget, RelatedList):
            self.remove_class("-related-open")
