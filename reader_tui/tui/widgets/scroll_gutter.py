"""A scrollbar the paper list draws itself: one column, the last cell of each row.

Textual's ScrollBar is a widget of its own: every scroll redrew all its lines as a Rich
renderable and the compositor cut them up again, 8 of the 19 ms a held-key scroll cost
at 19,630 papers. Here the gutter is worked out once per scroll position and each row
only appends its cell. The look copies Textual's: eighth-of-a-cell thumb ends, and the
$scrollbar colours for the idle, hovered and dragged states.
"""

from __future__ import annotations

from math import ceil

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.scroll_view import ScrollView

EIGHTHS = 8
# Blocks filled 1/8 .. 7/8 from the bottom: a thumb end that covers part of a cell.
LOWER_BLOCKS = "▁▂▃▄▅▆▇"


def thumb_size(height: int, total: int) -> float:
    """The thumb's length in cells: the visible share of the list, at least one cell."""
    return max(1.0, height * height / total)


def thumb_span(top: int, height: int, total: int) -> tuple[int, int]:
    """The thumb's start and end, in eighths of a cell from the gutter's top, for a
    list of `total` rows showing `height` of them from row `top`."""
    size = thumb_size(height, total)
    position = (height - size) * min(1.0, top / (total - height))
    start = int(position * EIGHTHS)
    return start, min(height * EIGHTHS, start + ceil(size * EIGHTHS))


def gutter_cells(start: int, end: int, height: int, style: Style) -> list[Segment]:
    """One segment per gutter row: thumb, track, or a block glyph where a thumb end
    falls inside a cell. `style`'s colour paints the thumb, its background the track."""
    thumb_colour, track_colour = style.color, style.bgcolor
    thumb = Segment(" ", Style(bgcolor=thumb_colour))
    track = Segment(" ", Style(bgcolor=track_colour))
    cells: list[Segment] = []
    for row in range(height):
        top, bottom = row * EIGHTHS, (row + 1) * EIGHTHS
        covered = min(bottom, end) - max(top, start)
        if covered <= 0:
            cells.append(track)
        elif covered >= EIGHTHS:
            cells.append(thumb)
        elif start > top:  # the thumb starts inside this cell: its lower part is thumb
            cells.append(Segment(LOWER_BLOCKS[covered - 1], Style(color=thumb_colour, bgcolor=track_colour)))
        else:  # the thumb ends inside this cell: its upper part is thumb
            cells.append(Segment(LOWER_BLOCKS[EIGHTHS - covered - 1], Style(color=track_colour, bgcolor=thumb_colour)))
    return cells


class ScrollGutter:
    """The gutter's state (hovered, dragged) and its cells for the current scroll position."""

    def __init__(self) -> None:
        self.hover = False
        self.grab: float | None = None
        """While dragging: where the pointer holds the thumb, in cells below its top."""
        self._key: tuple | None = None
        self._cells: list[Segment] = []

    @property
    def state(self) -> str:
        """Which look the gutter has now: `scrollbar`, `scrollbar-hover` or `scrollbar-active`."""
        return "scrollbar-active" if self.grab is not None else "scrollbar-hover" if self.hover else "scrollbar"

    def cells(self, top: int, height: int, total: int, style: Style) -> list[Segment]:
        # every row of a draw asks; the cells change only when the scroll position does
        key = (top, height, total, style)
        if key != self._key:
            self._key = key
            self._cells = gutter_cells(*thumb_span(top, height, total), height, style)
        return self._cells

    def press(self, y: int, top: int, height: int, total: int) -> float:
        """Start a drag at gutter row `y`; return the scroll position to jump to.

        Pressed on the thumb, the thumb stays put and is held there; pressed on the
        track, it jumps to centre on the pointer (that part of the list is shown)."""
        start = thumb_span(top, height, total)[0] / EIGHTHS
        size = thumb_size(height, total)
        pointer = y + 0.5
        self.grab = pointer - start if start <= pointer < start + size else size / 2
        return self.drag(y, height, total)

    def drag(self, y: int, height: int, total: int) -> float:
        """The scroll position (unclamped) for the pointer at gutter row `y` during a drag."""
        room = height - thumb_size(height, total)
        thumb_at = y + 0.5 - (self.grab or 0.0)
        return thumb_at / room * (total - height) if room > 0 else 0.0


class GutterScrollView(ScrollView):
    """A line-API ScrollView with the gutter as its last column, driven by the mouse
    like Textual's scrollbar (the wheel stays ScrollView's own). Give it `overflow-y:
    hidden` in CSS, call `gutter_frame` once per draw and append `cells[y]` to line y;
    subclasses give the gutter's colours in `gutter_style`."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._gutter = ScrollGutter()

    @property
    def allow_vertical_scroll(self) -> bool:
        # With overflow-y hidden Textual makes no ScrollBar, not even a zero-wide one: that
        # one was moved on every scroll, and its refresh made the compositor rebuild its
        # map of the whole screen (1.2 ms a key). Scrolling (wheel, keys) stays allowed.
        return not (self.disabled or self.loading) and self.max_scroll_y > 0

    def gutter_style(self, state: str) -> Style:
        """The style for `ScrollGutter.state`: colour for the thumb, background for the track."""
        raise NotImplementedError

    def gutter_released(self) -> None:
        """A drag on the gutter ended (the view is where the user left it)."""

    def gutter_frame(self) -> tuple[int, list[Segment] | None]:
        """The width left for the content and the gutter's cells (None: all fits, no gutter)."""
        region = self.scrollable_content_region
        width, height = region.width, region.height
        total = self.virtual_size.height
        if total <= height:
            return width, None
        style = self.gutter_style(self._gutter.state)
        return width - 1, self._gutter.cells(round(self.scroll_y), height, total, style)

    def gutter_row(self, event: events.MouseEvent) -> int | None:
        """The gutter row under the pointer (None: the pointer is elsewhere)."""
        region = self.scrollable_content_region
        offset = event.get_content_offset(self)
        if self.virtual_size.height <= region.height or offset is None or offset.x != region.width - 1:
            return None
        return offset.y

    async def on_mouse_down(self, event: events.MouseDown) -> None:
        y = self.gutter_row(event)
        if y is None or event.button != 1:
            return
        event.stop()
        event.prevent_default()
        # the screen took the press for the start of a text selection; here it is a drag
        self.screen.clear_selection()
        self.capture_mouse()
        height, total = self.scrollable_content_region.height, self.virtual_size.height
        self.scroll_to(y=self._gutter.press(y, round(self.scroll_y), height, total), animate=False, immediate=True)
        self.refresh()  # the gutter's look changed even if the view did not move

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._gutter.grab is None:
            self._set_hover(self.gutter_row(event) is not None)
            return
        height, total = self.scrollable_content_region.height, self.virtual_size.height
        y = self._gutter.drag(event.get_content_offset_capture(self).y, height, total)
        self.scroll_to(y=y, animate=False, immediate=True)

    async def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._gutter.grab is not None:
            event.stop()
            event.prevent_default()
            self.release_mouse()

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        # the drag ended: the button went up, or something else took the mouse
        if self._gutter.grab is not None:
            self._gutter.grab = None
            self.refresh()
            self.gutter_released()

    def on_leave(self, event: events.Leave) -> None:
        if self._gutter.grab is None:
            self._set_hover(False)

    def _set_hover(self, hover: bool) -> None:
        if hover != self._gutter.hover:
            self._gutter.hover = hover
            self.refresh()
