"""The reviews of one paper as one scrollable text: each note of its forum (decision,
meta-reviews, each review with the replies under it, comments, withdrawal) one after
another, a blank line between two.

A line-API view like the detail pane, laid out lazily so that `R` shows a forum within
a frame: a note's lines (its head, scores, section names and each section's text,
`note_lines`) are rendered (markdown and LaTeX) and wrapped only when the rows before
them are laid out, so the first screen costs its own rows, not the forum's; the rest
follow in small steps once the screen is drawn (or at once when a key goes further:
`n`, `G`, page down). Each row is styled into a Strip when first drawn and kept per
width and per look (a focus change, which only recolours the border, keeps them);
replies are indented under the note they answer with a rule down their left side, and
the first row of each review is kept, so `n` / `N` jump from review to review. The
texts are data, rendered as the abstract is (`core.text.display.styled_segments`:
markdown and LaTeX for the terminal, control characters made visible), never markup.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from math import ceil
from time import perf_counter
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBarRender
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual

from reader_tui.core.reviews import Note
from reader_tui.tui.textual_patches import content_style_getter, update_scrollbars
from reader_tui.tui.widgets.key_scroll import ScrollKeyActions, half_page, scroll_bindings
from reader_tui.tui.widgets.reviews_text import Block, Thread, note_lines, search_words, wrap_rows
from reader_tui.tui.widgets.scroll_gutter import GutterScrollView

INDENT = 3
"""Cells each level of reply is indented by (a rule and two spaces)."""


class Frame(NamedTuple):
    """The view's border and padding as Textual draws them (`ReviewsView.render_lines`):
    its top and bottom rows, and the segments before and after each row's text."""

    top: Strip
    bottom: Strip
    before: list[Segment]
    after: list[Segment]


STEP_S = 0.004
"""How long one step of laying out the rest of a forum may take once the screen is
drawn (the notes below the first screen): keys are answered between two steps."""

FRAMES = 6
"""How many sizes of the view the frame is kept for: a title of two lines (or a paper
without scores) makes the view a line shorter, a focus change recolours the border, and
relearning the frame from Textual's drawing of every row took a third of such an `R`."""


class ReviewsView(ScrollKeyActions, GutterScrollView, can_focus=True, inherit_bindings=False):
    """The notes of a forum, one block after another; `n` / `N` go from review to review.

    Its scrollbar is its own last column (`overflow-y: hidden`, see `scroll_gutter`),
    always there, drawn as Textual's `ScrollBar` draws itself: a ScrollBar widget cost
    a sixth of `R` (its 40 lines rendered through Rich, one more region for the
    compositor to cut each line at)."""

    BINDINGS = scroll_bindings("reviews")

    class Moved(Message):
        """The review at the top of the view changed (`index`, 0-based; -1: above the first)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._source: list[Block | tuple[Note, int]] = []  # blocks, or notes whose lines are made when laid out
        self._words: tuple[str, ...] = ()
        # each note's paragraphs (of `note_lines`: its head, scores, section names and
        # texts) made so far, and what makes the rest (None once all are made)
        self._parts: list[list[Content]] = []
        self._making: list[Iterator[Content] | None] = []
        # the layout for `_width`: the first row, the indent and the wrapped rows of each
        # paragraph laid out so far (`_next`: the note and paragraph that come next), and each
        # row's Strip once drawn (until the look changes)
        self._width = -1
        self._starts: list[int] = []
        self._indents: list[int] = []
        self._rows: list[list[Content]] = []
        self._next = (0, 0)
        self._strips: dict[int, Strip] = {}
        self._extent = 0  # rows laid out (a blank row between two notes)
        self.anchors: list[int] = []
        """The first line of each review (at depth 0) laid out so far, in order."""
        # the look the Strips were drawn with: checked again after a style update
        self._look: tuple[object, ...] | None = None
        self._look_checked = False
        self._style: VisualStyle = VisualStyle.null()
        self._rich_style: RichStyle = RichStyle()
        self._rule: list[Segment] | None = None
        self._rich_styles: dict[VisualStyle, RichStyle] = {}  # a text style over the view's, for this look
        self._generation = 0  # a new forum or width: the steps laying out the last one stop
        self._stepping = False
        self._at = -2
        self._target: tuple[int, int] | None = None  # (review, scroll y) that n / N went to
        self._bar_key: tuple[object, ...] | None = None
        # the border and padding around each line, learnt per look and size (None: Textual's
        # drawing could not be reproduced, it draws each row)
        self._frames: dict[tuple[object, ...], Frame | None] = {}
        self._bar: list[Segment] = []
        self._drawn_ahead: tuple[tuple[object, ...], list[Strip]] | None = None  # the whole view, `draw_ahead`

    # -- what is shown -----------------------------------------------------------------------

    def set_blocks(self, blocks: Sequence[Block]) -> None:
        """Show `blocks` (a message, or notes already made) from the top."""
        self._show(list(blocks), ())

    def set_thread(self, thread: Thread, words: Sequence[str] = ()) -> None:
        """Show a forum's `thread` from the top, `words` highlighted: each note is rendered
        when it is laid out, the first screen's now and the rest once it is drawn."""
        self._show(list(thread), search_words(words))

    def _show(self, source: list[Block | tuple[Note, int]], words: tuple[str, ...]) -> None:
        self._source, self._words = source, words
        self._parts = [item.content.split("\n", allow_blank=True) if isinstance(item, Block) else [] for item in source]
        self._making = [None if isinstance(item, Block) else note_lines(item[0], words) for item in source]
        self._target = None
        self._at = -2
        self._reset_layout(self._width)
        self.scroll_to(y=0, animate=False, immediate=True)
        if self._prepare():  # the width is known (the screen was shown before): the first screen now
            self._layout_until(self.scrollable_content_region.height)
        self.refresh()

    def draw_ahead(self) -> None:
        """Lay out and draw the rows the view shows now, before it is shown (the screen made
        ready off screen while the list's cursor rests on a paper): shown, it costs no more
        than copying them."""
        if self._prepare():
            top, height = round(self.scroll_y), self.scrollable_content_region.height
            self._layout_until(top + height)
            for row in range(top, top + height):
                self._row_strip(row)
            region = self.outer_size.region
            if self._frame_key() not in self._frames:
                self.render_lines(region)  # the frame learnt for this size and look
            frame = self._frames.get(self._frame_key())
            if frame is not None:
                self._drawn_ahead = (self._ahead_key(region), self._framed(frame, region))

    @property
    def text_width(self) -> int:
        """The width the text is wrapped to: the view's inside less its scrollbar column."""
        return self.scrollable_content_region.width - 1

    @property
    def complete(self) -> bool:
        """Every note is laid out (for the view's width)."""
        return self._width > 0 and self._next[0] == len(self._source)

    @property
    def text(self) -> str:
        """What the view shows, as plain text (wrapped; replies after their indent and rule)."""
        lines = []
        for strip in self.strips():
            line = strip.text.rstrip()
            lines.append(line if line.replace("│", "").strip() else "")
        return "\n".join(lines)

    def strips(self) -> list[Strip]:
        """Every line as drawn, the forum laid out to its end (for tests: what styles the text has)."""
        if not self._prepare():
            return []
        self._layout_until(None)
        return [self._row_strip(row) or Strip.blank(self._width, self._rich_style) for row in range(self._extent)]

    # -- review to review --------------------------------------------------------------------

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
            if line > top:
                break
            index = n
        return index

    def go_to_review(self, step: int) -> int | None:
        """Scroll to the next (`step` 1) or previous (-1) review; its index, or None
        when there is none that way."""
        if not self._prepare():
            return None
        current, top = self.review_index, round(self.scroll_y)
        if step > 0:
            index = current + 1
            self._layout_until(0, reviews=index + 1)
        elif current >= 0 and top > self.anchors[current] and self._target is None:
            index = current  # inside a review: back to its start first, as `[[` does
        else:
            index = current - 1
        if not 0 <= index < len(self.anchors):
            return None
        y = self.anchors[index]
        self._layout_until(y + self.scrollable_content_region.height)  # so that it can reach the top
        self._target = (index, min(y, round(self.max_scroll_y)))
        self.scroll_to(y=y, animate=False, immediate=True)
        self._moved()
        self.refresh()
        return index

    # -- scrolling: what a key would scroll to is laid out first -----------------------------

    def _ahead(self, rows: int) -> None:
        if self._prepare():
            region = self.scrollable_content_region
            self._layout_until(round(self.scroll_y) + region.height + rows)

    def action_scroll_down(self) -> None:
        self._ahead(1)
        super().action_scroll_down()

    def action_page_down(self) -> None:
        self._ahead(self.scrollable_content_region.height)
        super().action_page_down()

    def action_scroll_end(self) -> None:
        if self._prepare():
            self._layout_until(None)
        super().action_scroll_end()

    def action_half_page(self, direction: int) -> None:
        if direction > 0:
            self._ahead(half_page(self) * direction)
        super().action_half_page(direction)

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

    # -- layout ------------------------------------------------------------------------------

    def _reset_layout(self, width: int) -> None:
        self._generation += 1
        self._stepping = False
        self._width = width
        self._starts, self._indents, self._rows = [], [], []
        self._next = (0, 0)
        self._strips = {}
        self._extent = 0
        self.anchors = []

    def _prepare(self) -> bool:
        """The layout made for the view's width and the Strips for its look; False while
        the view has no width yet."""
        width = self.text_width
        if width <= 0:
            return False
        if width != self._width:
            self._reset_layout(width)
            self._sized()
        if not self._look_checked:
            self._look_checked = True
            style, rich_style = self.visual_style, self.rich_style
            look = (style, rich_style, self.app.theme)
            if look != self._look:  # a new theme: every line drawn again (the wrapping stays)
                self._look, self._style, self._rich_style, self._rule = look, style, rich_style, None
                self._rich_styles = {}
                self._strips = {}
        return True

    def _layout_until(self, rows: int | None, reviews: int = 0) -> None:
        """Lay out the notes' lines until `rows` rows (None: all) and `reviews` reviews are."""
        if rows is not None and self._extent >= rows and len(self.anchors) >= reviews:
            self._continue()
            return
        count, width = len(self._source), self._width
        note, index = self._next
        grown = False
        while note < count and (rows is None or self._extent < rows or len(self.anchors) < reviews):
            line = self._part(note, index)
            if line is None:  # the note is laid out: the next one, after a blank row
                note, index = note + 1, 0
                continue
            depth, review = self._depth(note)
            if index == 0:
                if note:
                    self._extent += 1
                if review:
                    self.anchors.append(self._extent)
            indent = min(depth * INDENT, max(0, width - 20))
            room = max(1, width - indent)
            needed = None if rows is None or len(self.anchors) < reviews else rows - self._extent
            wrapped, rest = wrap_rows(line, room, needed)
            if rest is not None:  # the paragraph's other rows come when they are needed
                self._parts[note].insert(index + 1, rest)
            self._starts.append(self._extent)
            self._indents.append(indent)
            self._rows.append(wrapped)
            self._extent += len(wrapped)
            index += 1
            grown = True
        self._next = (note, index)
        if grown:
            self._sized()
        self._continue()

    def _part(self, note: int, index: int) -> Content | None:
        """Paragraph `index` of note `note` (its lines made now if they were not, each
        split at its newlines as `Content.wrap` would: a paragraph is wrapped when the
        rows before it are laid out), or None past its last."""
        parts = self._parts[note]
        while index >= len(parts):
            making = self._making[note]
            line = None if making is None else next(making, None)
            if line is None:
                self._making[note] = None
                return None
            parts.extend(line.split("\n", allow_blank=True))
        return parts[index]

    def _depth(self, note: int) -> tuple[int, bool]:
        """The depth of note `note` and whether it is a review on the paper."""
        item = self._source[note]
        if isinstance(item, Block):
            return item.depth, item.review
        return item[1], item[0].kind == "review" and item[1] == 0

    def _continue(self) -> None:
        """Lay out the rest of the forum in steps once the screen is drawn (not while the
        screen is made ready ahead, off screen: the user may never ask for it)."""
        if (not self._stepping and self._width > 0 and not self.complete and self.is_attached
                and self.screen.is_current):
            self._stepping = True
            self.call_after_refresh(self._step, self._generation)

    def _step(self, generation: int) -> None:
        if generation != self._generation or not self._stepping:
            return
        self._stepping = False
        if not (self.is_attached and self.screen.is_current):
            return  # left for the list: the rest is laid out when shown again
        started = perf_counter()
        while not self.complete and perf_counter() - started < STEP_S:
            self._layout_until(self._extent + 1)
        if not self.complete and not self._stepping:
            self._stepping = True
            self.call_later(self._step, self._generation)

    def _sized(self) -> None:
        size = Size(max(self._width, 0), self._extent)
        if size != self.virtual_size:
            # only this view's extent changes: no relayout of the screen
            self.set_reactive(ScrollView.virtual_size, size)
            update_scrollbars(self, size)
            bar = self._bar
            if self._scrollbar() != bar:  # the thumb moved: its column drawn again
                self.refresh(Region(self.text_width, 0, 1, self.scrollable_content_region.height))
        self._moved()  # the reviews' lines are known now

    def _row_strip(self, row: int) -> Strip | None:
        """The Strip of line `row`, drawn the first time it is asked for (None: a blank
        line between notes, or past the end)."""
        strip = self._strips.get(row)
        if strip is not None or not 0 <= row < self._extent:
            return strip
        index = bisect_right(self._starts, row) - 1
        if index < 0:
            return None
        rows = self._rows[index]
        line = row - self._starts[index]
        if line >= len(rows):
            return None
        strip = self._strips[row] = self._draw(rows[line], self._indents[index])
        return strip

    def _draw(self, line: Content, indent: int) -> Strip:
        """A wrapped line styled as `Visual.to_strips` would (without its per-call cost),
        after its indent and rule when it is a reply's, as wide as the view."""
        style, get_style, rich = self._style, content_style_getter(self), self._rich_styles
        segments = []
        for text, text_style in line.render(style, end="", parse_style=get_style):
            if text:
                rich_style = rich.get(text_style)
                if rich_style is None:
                    rich_style = rich[text_style] = (style + text_style).rich_style
                segments.append(Segment(text, rich_style))
        if indent:
            if self._rule is None:
                # the rule's look from the theme, as Content draws it
                self._rule = list(Visual.to_strips(self, Content.styled("│ ", "$text-muted"), 2, 1, style)[0])
            prefix = [Segment(" " * (indent - 2)), *self._rule] if indent >= 2 else [Segment(" " * indent)]
            segments[:0] = prefix
        return Strip(segments, indent + line.cell_length).adjust_cell_length(self._width, self._rich_style)

    # -- Textual -----------------------------------------------------------------------------

    def on_resize(self) -> None:
        if self._prepare():
            self._layout_until(round(self.scroll_y) + self.scrollable_content_region.height)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._look_checked = False  # the Strips are drawn again only if the look changed

    def render_lines(self, crop: Region) -> list[Strip]:
        if self._prepare():
            self._layout_until(round(self.scroll_y) + self.scrollable_content_region.height)
        hover = self.hover_style
        if hover.link_id and "@click" in hover.meta:  # Textual restyles a hovered link's lines
            return super().render_lines(crop)
        if self._drawn_ahead is not None:
            ahead, self._drawn_ahead = self._drawn_ahead, None
            if ahead[0] == self._ahead_key(crop):
                return ahead[1]
        key = self._frame_key()
        if key not in self._frames:  # learnt from what Textual draws, once per look and size
            lines = super().render_lines(crop)
            if crop == self.outer_size.region:
                if len(self._frames) >= FRAMES:
                    del self._frames[next(iter(self._frames))]  # the oldest
                self._frames[key] = self._learn_frame(lines)
            return lines
        frame = self._frames[key]
        return super().render_lines(crop) if frame is None else self._framed(frame, crop)

    def _ahead_key(self, crop: Region) -> tuple[object, ...]:
        """What the drawing made ahead (`draw_ahead`) depends on."""
        self._scrollbar()  # its key brought up to date
        return (crop, self._frame_key(), round(self.scroll_y), self._generation, self._extent, self._look,
                self._bar_key)

    # -- the frame: border and padding around each line ----------------------------------------

    def _frame_key(self) -> tuple[object, ...]:
        """What the border and padding around the lines depend on."""
        styles = self.styles
        return (self.outer_size, styles.border, styles.padding, self.background_colors, self.opacity,
                styles.tint, styles.text_opacity, self.app.ansi_theme, tuple(self.get_line_filters()),
                self.border_title, self.border_subtitle)

    def _filtered(self, strip: Strip, filters: Sequence[object], background: object) -> Strip:
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)  # kept by the Strip per filter
        return strip

    def _learn_frame(self, lines: list[Strip]) -> Frame | None:
        """The top and bottom rows and what Textual puts before and after each line
        (border, padding), from a whole drawing of the view: None unless every row
        made from them is the one Textual drew."""
        if len(lines) < 3:
            return None
        filters, background = self.get_line_filters(), self.background_colors[1]
        first = [*lines[1]]
        content = [*self._filtered(self.render_line(0), filters, background)]
        before = len(first) - len(content) - 1
        if before < 0:
            return None
        frame = Frame(lines[0], lines[-1], first[:before], first[before + len(content):])
        for y, line in enumerate(self._framed(frame, self.outer_size.region)[1:-1], start=1):
            if [*line] != [*lines[y]] or line.cell_length != lines[y].cell_length:
                return None
        return frame

    def _framed(self, frame: Frame, crop: Region) -> list[Strip]:
        """The view's rows in `crop` drawn as Textual's styles cache draws them, without
        working out the border, padding and background again for each row: the text's
        rows as drawn once (`_row_strip`) and the scrollbar's cell, each through the
        app's line filters, between the frame's two sides."""
        filters, background = self.get_line_filters(), self.background_colors[1]
        width, height = self.outer_size
        blank = Strip.blank(max(self._width, 0), self._rich_style)
        bar = [self._filtered(Strip([cell], 1), filters, background) for cell in self._scrollbar()]
        top = round(self.scroll_y) - 1
        lines = []
        for y in crop.line_range:
            if y == 0:
                lines.append(frame.top)
            elif y == height - 1:
                lines.append(frame.bottom)
            else:
                row = self._filtered(self._row_strip(top + y) or blank, filters, background)
                cell = bar[y - 1] if y - 1 < len(bar) else ()
                lines.append(Strip([*frame.before, *row, *cell, *frame.after], width))
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            lines = [line.crop(x1, x2) for line in lines]
        return lines

    def render_line(self, y: int) -> Strip:
        strip = self._row_strip(y + round(self.scroll_y))
        if strip is None:
            strip = Strip.blank(max(self._width, 0), self._rich_style)
        bar = self._scrollbar()
        if y >= len(bar):
            return strip
        return Strip([*strip, bar[y]], strip.cell_length + 1)

    # -- the scrollbar -------------------------------------------------------------------------

    def _scrollbar(self) -> list[Segment]:
        """The scrollbar's cells, one per row, as Textual's ScrollBar draws them (its
        colours for the idle, hovered or dragged state; the thumb's ends in eighths)."""
        height = self.scrollable_content_region.height
        state = self._gutter.state
        key = (self.scroll_y, height, self.virtual_size.height, state, self._look)
        if key == self._bar_key:
            return self._bar
        styles = self.styles
        if state == "scrollbar-active":
            background, color = styles.scrollbar_background_active, styles.scrollbar_color_active
        elif state == "scrollbar-hover":
            background, color = styles.scrollbar_background_hover, styles.scrollbar_color_hover
        else:
            background, color = styles.scrollbar_background, styles.scrollbar_color
        if background.a < 1:
            background = self.background_colors[0] + background
        color = background + color
        total = self.virtual_size.height
        if self.screen.styles.scrollbar_color.a == 0:
            total, window = 100, 0  # ScrollBarRender's defaults: the track alone
        else:
            window = height if height < total else 0
        bar = ScrollBarRender.render_bar(size=height, virtual_size=ceil(total), window_size=ceil(window),
                                         position=self.scroll_y, thickness=1, vertical=True,
                                         back_color=background.rich_color, bar_color=color.rich_color)
        base = self._style.rich_style
        self._bar = [Segment(cell.text, base + cell.style) for cell in bar.segments]
        self._bar_key = key
        return self._bar

    def gutter_frame(self) -> tuple[int, list[Segment] | None]:
        return self.text_width, self._scrollbar()

