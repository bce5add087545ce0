"""The reviews of one paper as one scrollable text: each note of its forum (decision,
meta-reviews, each review with the replies under it, comments, withdrawal) as a block.

A line-API view like the detail pane: each block is wrapped once per width (replies
indented under the note they answer, with a rule down their left side), each line made
into a Strip when it is first drawn, and the first line of each review is kept, so
`n` / `N` jump from review to review. The
texts are data, rendered as the abstract is (`core.text.display.styled_segments`:
markdown and LaTeX for the terminal, control characters made visible), never markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.segment import Segment
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from reader_tui.core.reviews import Forum, Note
from reader_tui.core.text.display import visible_controls
from reader_tui.tui.widgets.paper_detail import LABEL, _highlight, _rendered

INDENT = 3
"""Cells each level of reply is indented by (a rule and two spaces)."""
#: Section names as a heading ("summary" -> "Summary"), for the forms' usual fields.
SECTION_TITLES = {"tldr": "TL;DR", "summary_of_the_review": "Summary of the review"}


class Block(NamedTuple):
    """One note as drawn: its text, its depth (0: on the paper) and whether it is a review."""

    content: Content
    depth: int
    review: bool


def section_title(name: str) -> str:
    return SECTION_TITLES.get(name, name.replace("_", " ").capitalize())


def note_content(note: Note, words: tuple[str, ...] = ()) -> Content:
    """A note as styled Content: who and when, its scores, then each section under its
    name, rendered like the abstract; the search's `words` highlighted."""
    head = Content.assemble(
        (visible_controls(note.label), "bold $text-primary" if note.kind == "review" else "bold"),
        (f"  {note.date[:10]}" if note.date else "", LABEL),
    )
    lines = [head]
    scores = note.scores_line()
    if scores:
        lines.append(Content.styled(visible_controls(scores), "$text-accent"))
    for name, text in note.sections:
        if not text.strip():
            continue
        if name == "title" and note.kind != "review":
            lines.append(_highlight(_rendered(text, "bold"), words))
            continue
        if name == "comment" and note.kind != "review":  # a comment's one text needs no heading
            lines.append(_highlight(_rendered(text), words))
            continue
        lines.append(Content(""))
        lines.append(Content.styled(visible_controls(section_title(name)), "bold $text-secondary"))
        lines.append(_highlight(_rendered(text), words))
    return Content("\n").join(lines)


def forum_blocks(forum: Forum, words: Sequence[str] = ()) -> list[Block]:
    """Every note of `forum` in reading order (`Forum.thread`), as blocks. Pure: the
    screen builds them off the UI thread."""
    shown = tuple(sorted({w for w in words if w.strip()}, key=len, reverse=True))
    return [Block(note_content(note, shown), depth, note.kind == "review" and depth == 0) for note, depth in forum.thread()]


Lines = list[tuple[Content, int]]
"""Wrapped lines, each with its indent."""


def wrap_blocks(blocks: Sequence[Block], width: int) -> tuple[Lines, list[int]]:
    """`blocks` wrapped to `width` cells (a blank line between two), and the first line of
    each review. Pure: the screen may wrap on its thread, for the width it expects."""
    lines: Lines = []
    anchors: list[int] = []
    for n, block in enumerate(blocks):
        if n:
            lines.append((Content(""), 0))
        if block.review:
            anchors.append(len(lines))
        indent = min(block.depth * INDENT, max(0, width - 20))
        lines.extend((line, indent) for line in block.content.wrap(width - indent))
    return lines, anchors


class ReviewsView(ScrollView, can_focus=True, inherit_bindings=False):
    """The notes of a forum, one block after another; `n` / `N` go from review to review."""

    BINDINGS = [
        Binding("up,k", "scroll_up", "Scroll up", show=False, id="reviews.up"),
        Binding("down,j", "scroll_down", "Scroll down", show=False, id="reviews.down"),
        Binding("home,g", "scroll_home", "Top", show=False, id="reviews.top"),
        Binding("end,G", "scroll_end", "Bottom", show=False, id="reviews.bottom"),
        Binding("pageup", "page_up", "Page up", show=False, id="reviews.page_up"),
        Binding("pagedown,space", "page_down", "Page down", show=False, id="reviews.page_down"),
        Binding("ctrl+u", "half_page(-1)", "Half page up", show=False, id="reviews.half_page_up"),
        Binding("ctrl+d", "half_page(1)", "Half page down", show=False, id="reviews.half_page_down"),
    ]

    class Moved(Message):
        """The review at the top of the view changed (`index`, 0-based; -1: above the first)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._blocks: list[Block] = []
        self._lines: list[tuple[Content, int]] = []  # each wrapped line and its indent
        self._strips: dict[int, Strip] = {}  # the lines drawn so far, by row
        self._rule: list[Segment] | None = None
        self._prewrapped: tuple[int, Lines, list[int]] | None = None
        self._wrapped_width = -1
        self.anchors: list[int] = []
        """The first line of each review (at depth 0), in order."""
        self._at = -2
        self._target: tuple[int, int] | None = None  # (review, scroll y) that n / N went to

    def set_blocks(self, blocks: Sequence[Block], wrapped: tuple[int, Lines, list[int]] | None = None) -> None:
        """Show `blocks` from the top; `wrapped`: (width, lines, anchors) as `wrap_blocks`
        made them, used when the view has that width."""
        self._blocks = list(blocks)
        self._target = None
        self._at = -2
        self._wrapped_width = -1
        self._prewrapped = wrapped
        self._rewrap()
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    @property
    def text(self) -> str:
        """What the view shows, as plain text (wrapped; replies after their indent and rule)."""
        self._rewrap()
        return "\n".join(
            (" " * (indent - 2) + "│ " if indent >= 2 else " " * indent) + line.plain.rstrip() if line.plain.strip()
            else line.plain.rstrip()
            for line, indent in self._lines
        )

    def strips(self) -> list[Strip]:
        """Every line as drawn (for tests: what styles the text has)."""
        self._rewrap()
        width = self.scrollable_content_region.width
        return [self._line_strip(row, width) for row in range(len(self._lines))]

    @property
    def review_index(self) -> int:
        """The review being read: the one `n` / `N` went to while the view stays there
        (the last ones may not reach the top of the view), else the one at the top
        (-1: above the first)."""
        top = round(self.scroll_y)
        if self._target is not None and top == self._target[1]:
            return self._target[0]
        index = -1
        for n, line in enumerate(self.anchors):
            if line <= top:
                index = n
        return index

    def go_to_review(self, step: int) -> int | None:
        """Scroll to the next (`step` 1) or previous (-1) review; its index, or None
        when there is none that way."""
        if not self.anchors:
            return None
        current, top = self.review_index, round(self.scroll_y)
        if step > 0:
            index = current + 1
        elif current >= 0 and top > self.anchors[current] and self._target is None:
            index = current  # inside a review: back to its start first, as `[[` does
        else:
            index = current - 1
        if not 0 <= index < len(self.anchors):
            return None
        y = self.anchors[index]
        self._target = (index, min(y, round(self.max_scroll_y)))
        self.scroll_to(y=y, animate=False, immediate=True)
        self._moved()
        self.refresh()
        return index

    def action_half_page(self, direction: int) -> None:
        step = max(1, self.scrollable_content_region.height // 2) * direction
        self.scroll_to(y=max(0, round(self.scroll_y) + step), animate=False, immediate=True)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self._target is not None and round(new_value) != self._target[1]:
            self._target = None  # scrolled away from where n / N went
        self._moved()

    def _moved(self) -> None:
        index = self.review_index
        if index != self._at:
            self._at = index
            self.post_message(self.Moved(index))

    def _rewrap(self) -> None:
        # Wrapping is cheap (Content.wrap: a few ms for a long forum); turning a line
        # into styled Strips is what costs, so that is done per line as it is drawn
        # (`_line_strip`) and kept until the width or the look changes.
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_width:
            return
        self._wrapped_width = width
        self._strips.clear()
        if self._prewrapped is not None and self._prewrapped[0] == width:
            _, lines, anchors = self._prewrapped
        else:
            lines, anchors = wrap_blocks(self._blocks, width)
        self._prewrapped = None
        self._lines = lines
        self.anchors = anchors
        size = Size(width, len(lines))
        if size != self.virtual_size:
            # only this view's extent changes: no relayout of the screen
            self.set_reactive(ScrollView.virtual_size, size)
            self._scroll_update(size)
        self._moved()  # the reviews' lines are known now

    def _line_strip(self, row: int, width: int) -> Strip:
        strip = self._strips.get(row)
        if strip is None:
            line, indent = self._lines[row]
            style = self.visual_style
            strips = Visual.to_strips(self, line, max(1, width - indent), 1, style)
            strip = strips[0] if strips else Strip.blank(width - indent)
            if indent:
                if self._rule is None:
                    # the rule's look from the theme, as Content draws it
                    self._rule = list(Visual.to_strips(self, Content.styled("│ ", "$text-muted"), 2, 1, style)[0])
                prefix = [Segment(" " * (indent - 2)), *self._rule] if indent >= 2 else [Segment(" " * indent)]
                strip = Strip([*prefix, *strip], indent + strip.cell_length)
            self._strips[row] = strip
        return strip

    def on_resize(self) -> None:
        self._wrapped_width = -1
        self._rewrap()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # a theme or focus change: the lines are drawn again, not wrapped again
        self._strips.clear()
        self._rule = None

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.scrollable_content_region.width
        row = y + round(self.scroll_y)
        if 0 <= row < len(self._lines):
            return self._line_strip(row, width).adjust_cell_length(width, self.rich_style)
        return Strip.blank(width, self.rich_style)
