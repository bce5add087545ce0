"""Related papers under the detail pane: the five papers most like the current one.

The list owns the related-papers index (handed down once built: it is built in the
search index's worker, after it) and answers what needs it: the rows for a paper, "more
like this", suggested tags. Enter on a row posts `RelatedList.Chosen` and the screen
moves the paper list's cursor there. Titles are data: each row is a `Content`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader_tui.core.library.library import Library
from reader_tui.core.text.display import one_line

COMPUTING = "related: computing…"
RELATED_SHOWN = 5
MORE_LIKE_THIS = 50


class RelatedList(OptionList):
    """Up to five related papers; `]` / `[` on the main screen walk them, enter jumps."""

    BINDINGS = [
        Binding("enter", "select", "Go to related paper", id="related.open"),
        Binding("j", "cursor_down", "Down", show=False, id="related.down"),
        Binding("k", "cursor_up", "Up", show=False, id="related.up"),
    ]

    class Chosen(Message):
        """The user picked the related paper `paper_id`."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    def __init__(self, library: Library, **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.index: Any = None
        """The related-papers index once built (None: "computing…")."""
        self.seconds: float | None = None
        """How long the index took to arrive (shown by the statistics)."""
        # Out of the tab order (tab / shift+tab stay list, detail, notes): `]` and `[`
        # make it focusable while they walk it.
        self.can_focus = False
        self.border_title = "related"
        self.paper_ids: list[str] = []
        self.state = "computing"

    @property
    def text(self) -> str:
        """The rows as plain text (for tests)."""
        return "\n".join(getattr(o.prompt, "plain", str(o.prompt)) for o in self.options)

    def set_index(self, index: Any, seconds: float) -> None:
        """The related-papers index arrived, `seconds` after the build started."""
        self.index = index
        self.seconds = seconds

    def show_for(self, paper_id: str | None) -> None:
        """Fill the list for `paper_id` (called with the detail pane)."""
        if self.index is None:
            self.show_computing()
            return
        self.show_papers(self._near(paper_id, RELATED_SHOWN) if paper_id is not None else [])

    def _near(self, paper_id: str, count: int) -> list[tuple[str, str, float]]:
        papers = self.library.papers
        return [
            (pid, self.library.view(pid).title, score)
            for pid, score in self.index.related(paper_id, count)
            if pid in papers
        ]

    def more_like_this(self, paper_id: str) -> list[str] | None:
        """`paper_id` and the papers most like it, best first (None: still computing)."""
        if self.index is None:
            return None
        return [paper_id] + [other for other, _ in self.index.more_like_this(paper_id, MORE_LIKE_THIS)]

    def suggest_tags_for(self, paper_id: str) -> list[str]:
        """Tags for the tag editor: those on the most similar papers and the paper's own
        keywords (core.related.tag_suggest), then the most used tags."""
        from reader_tui.core.related.tag_suggest import suggest_tags

        view = self.library.view(paper_id)
        known = self.library.all_tags()
        near = [self.library.view(pid) for pid, _t, _s in self._near(paper_id, 10)] if self.index is not None else []
        suggestions = suggest_tags(view, near, known, limit=5)
        have = {t.casefold() for t in [*suggestions, *view.tags]}
        popular = [t for t in sorted(known, key=lambda t: -known[t]) if t.casefold() not in have]
        return suggestions + popular[: max(0, 8 - len(suggestions))]

    def show_computing(self) -> None:
        """The related-papers index is still being built."""
        self._set_rows("computing", [], COMPUTING)

    def show_papers(self, rows: Sequence[tuple[str, str, float]]) -> None:
        """Show `rows` of (paper id, title, cosine score), best first."""
        self._set_rows("ready", rows, "no related papers")

    def _set_rows(self, state: str, rows: Sequence[tuple[str, str, float]], empty: str) -> None:
        ids = [pid for pid, _title, _score in rows]
        if state == self.state and ids == self.paper_ids and rows:
            return
        self.state = state
        self.paper_ids = ids
        # One row per option and a border: the height said outright, not `auto`, since
        # an OptionList of auto height lays the whole screen out again at every
        # `set_options` (each paper the cursor rests on), whether its height changed or not.
        self.styles.height = min(max(len(rows), 1), RELATED_SHOWN) + 2
        if not rows:
            self.set_options([Option(Content.styled(empty, "$text-muted italic"), disabled=True)])
            return
        options = []
        for n, (pid, title, _score) in enumerate(rows, 1):
            # the score stays out of the row: at the end a long title's ellipsis would hide it
            prompt = Content.assemble((f"{n} ", "$text-muted"), one_line(title))
            options.append(Option(prompt, id=pid))
        self.set_options(options)
        self.highlighted = None if not self.has_focus else 0

    def step(self, delta: int) -> None:
        """Focus the list and move the highlight by `delta`, wrapping around (`]` / `[`)."""
        if not self.paper_ids:
            return
        self.can_focus = True
        self.focus()
        count = len(self.paper_ids)
        if self.highlighted is None:
            self.highlighted = 0 if delta > 0 else count - 1
        else:
            self.highlighted = (self.highlighted + delta) % count

    def on_blur(self, event) -> None:
        self.can_focus = False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))
