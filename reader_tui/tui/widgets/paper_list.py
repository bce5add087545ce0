"""The paper list: one row per paper, drawn with the line API so 100,000 papers cost
no more than the forty rows on screen (Toolong's LogLines is the model).

The list holds only paper ids in display order; the rows are rendered from the
Library on demand and kept in an LRU cache of Strips keyed by everything that
changes a row's look (paper version, width, cursor, mark, focus, highlight). The
scrollbar is the list's own last column (see scroll_gutter), appended to the cached
rows at each draw because it depends on the scroll position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from reader_tui.core.library.library import Library
from reader_tui.core.model import NOTES_MARK, Status
from reader_tui.core.reviews import compact_scores
from reader_tui.core.text.display import one_line, visible_controls
from reader_tui.core.text.tokens import fold_in_place
from reader_tui.tui.widgets.scroll_gutter import GutterScrollView

TAG_SHARE = 3  # tags take at most a third of the row, the title gets the rest
SCORE_WIDTH = 8
"""Cells of the score column ("5.3 2-8": mean rating, lowest-highest; `compact_scores`)."""
GROUP_WIDTH = 6
"""Cells of a reading group's column ("2○1●": 2 other members want to read it, 1 read it;
`GroupMarks.compact`): three statuses at one digit each."""
GROUP_MIN_ROOM = 30
"""The group column is left out of rows narrower than this (the title needs the room)."""
#: Component classes that are a whole look of their own (background included), not an overlay.
_FULL_STYLES = frozenset({
    "paper-list--cursor", "paper-list--cursor-blurred", "paper-list--empty",
    "paper-list--scrollbar", "paper-list--scrollbar-hover", "paper-list--scrollbar-active",
})


class PaperList(GutterScrollView, can_focus=True):
    """A fast, keyboard-driven list of papers (ids down, messages up)."""

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("ctrl+u", "half_page(-1)", "Half page up", show=False, id="list.half_page_up"),
        Binding("ctrl+d", "half_page(1)", "Half page down", show=False, id="list.half_page_down"),
        Binding("space", "toggle_mark", "Mark", id="list.mark"),
        Binding("enter", "select", "Open", show=False, id="list.select"),
    ]

    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--cursor-blurred",
        "paper-list--marked",
        "paper-list--tag",
        "paper-list--notes",
        "paper-list--match",
        "paper-list--score",
        "paper-list--group",
        "paper-list--withdrawn",
        "paper-list--status-read",
        "paper-list--status-reading",
        "paper-list--status-to-read",
        "paper-list--status-skipped",
        "paper-list--empty",
        "paper-list--scrollbar",
        "paper-list--scrollbar-hover",
        "paper-list--scrollbar-active",
    }

    class Highlighted(Message):
        """The cursor moved to another paper (None: the list is empty)."""

        def __init__(self, paper_id: str | None) -> None:
            super().__init__()
            self.paper_id = paper_id

    class Selected(Message):
        """Enter (or a click on the current row) on a paper."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    class MarksChanged(Message):
        """The set of marked papers changed."""

        def __init__(self, marked: frozenset[str]) -> None:
            super().__init__()
            self.marked = marked

    # No repaint: watch_cursor redraws just the two rows that change.
    cursor: reactive[int] = reactive(0, init=False, repaint=False)

    def __init__(self, library: Library, ids: Sequence[str] = (), **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = library
        self._ids: list[str] = list(ids)
        self.marked: set[str] = set()
        self.matched: Mapping[str, Iterable[str]] = {}
        self.empty_text = "No papers"
        self._show_scores = False
        self._group = None  # core.library.group.GroupMarks: the other members' marks
        self._versions: dict[str, int] = {}
        self._generation = 0  # bumped when everything may look different
        self._cache: LRUCache[tuple, Strip] = LRUCache(1024)
        self._style_map: dict[str, Style] | None = None
        self._drawn_styles: dict[str, Style] = {}  # the styles of the cached rows
        self._match_patterns: dict[str, re.Pattern[str] | None] = {}
        self._frame: tuple[int, int, int, bool, list[Segment] | None] | None = None
        self.virtual_size = Size(0, len(self._ids))

    # -- attributes down ------------------------------------------------------------------

    @property
    def ids(self) -> list[str]:
        return self._ids

    @property
    def current_id(self) -> str | None:
        return self._ids[self.cursor] if 0 <= self.cursor < len(self._ids) else None

    def set_ids(
        self,
        ids: Sequence[str],
        *,
        keep: str | None = None,
        matched: Mapping[str, Iterable[str]] | None = None,
        scroll_y: int | None = None,
    ) -> None:
        """Show `ids` in this order; the cursor stays on `keep` when it is still shown."""
        self._ids = list(ids)
        self.matched = matched or {}
        self._match_patterns.clear()
        self._generation += 1
        self._cache.clear()
        self.virtual_size = Size(0, len(self._ids))
        row = 0
        if keep is not None:
            try:
                row = self._ids.index(keep)
            except ValueError:
                row = 0
        self.set_reactive(PaperList.cursor, min(row, max(0, len(self._ids) - 1)))
        if scroll_y is not None:
            self.scroll_to(y=scroll_y, animate=False, immediate=True)
        self._scroll_cursor_visible(center=scroll_y is None)
        self.refresh()
        self._say(self.Highlighted(self.current_id))

    def _say(self, message: Message) -> None:
        # Sent as the list's own, whoever moved the cursor: Textual stops a message after
        # the widget that caused it, and the list's container (the browser) causes most.
        self.post_message(message.set_sender(self))

    @property
    def show_scores(self) -> bool:
        """Whether rows carry the score column (the library has reviews)."""
        return self._show_scores

    @show_scores.setter
    def show_scores(self, value: bool) -> None:
        if value != self._show_scores:
            self._show_scores = value
            self._generation += 1
            self._cache.clear()
            self.refresh()

    @property
    def group(self):
        """A reading group's other members' marks (`GroupMarks`), None when the library
        is not a group's: rows then have no group column."""
        return self._group

    @group.setter
    def group(self, value) -> None:
        if value is not None and not value.members:
            value = None
        if value is not self._group:
            self._group = value
            self._generation += 1
            self._cache.clear()
            self.refresh()

    def refresh_papers(self, ids: Iterable[str] | None) -> None:
        """Redraw the rows of `ids` (None: every row) after their papers changed."""
        if ids is None:
            self._generation += 1
            self._cache.clear()
            self.refresh()
            return
        for pid in ids:
            self._versions[pid] = self._versions.get(pid, 0) + 1
        self.refresh()

    def targets(self) -> list[str]:
        """The papers an action is about: the marked ones in list order (then the marked
        ones the list does not show), or else the one under the cursor."""
        if self.marked:
            shown = [pid for pid in self._ids if pid in self.marked]
            return shown + sorted(self.marked - set(shown))
        return [self.current_id] if self.current_id else []

    def clear_marks(self) -> None:
        if self.marked:
            self.marked.clear()
            self.refresh()
            self._say(self.MarksChanged(frozenset()))

    def move_to(self, row: int) -> None:
        if self._ids:
            self.cursor = max(0, min(row, len(self._ids) - 1))

    def on_mount(self) -> None:
        self._say(self.Highlighted(self.current_id))

    # -- actions --------------------------------------------------------------------------

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor + 1)

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self._ids) - 1)

    def action_page_up(self) -> None:
        self.move_to(self.cursor - max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self.move_to(self.cursor + max(1, self.scrollable_content_region.height - 1))

    def action_half_page(self, direction: int) -> None:
        # as in less and vim: the view and the cursor move half a page together
        step = max(1, self.scrollable_content_region.height // 2) * direction
        self.scroll_to(y=max(0, round(self.scroll_y) + step), animate=False, immediate=True)
        self.move_to(self.cursor + step)

    def on_resize(self, event: events.Resize) -> None:
        # a smaller terminal must not leave the cursor row below the fold until the next key
        # (nor the first layout, after a restart put the cursor deep in the list)
        self._scroll_cursor_visible(center=True)

    def action_toggle_mark(self) -> None:
        pid = self.current_id
        if pid is None:
            return
        if pid in self.marked:
            self.marked.discard(pid)
        else:
            self.marked.add(pid)
        self.refresh_line(self.cursor)
        self._say(self.MarksChanged(frozenset(self.marked)))
        self.move_to(self.cursor + 1)

    def action_select(self) -> None:
        if (pid := self.current_id) is not None:
            self._say(self.Selected(pid))

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(old)
        self.refresh_line(new)
        self._scroll_cursor_visible()
        self._say(self.Highlighted(self.current_id))

    def _scroll_cursor_visible(self, center: bool = False) -> None:
        height = self.scrollable_content_region.height
        if height <= 0:
            return
        top = round(self.scroll_y)
        if center and not (top <= self.cursor < top + height):
            self.scroll_to(y=max(0, self.cursor - height // 2), animate=False, immediate=True)
        elif self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    async def on_click(self, event: events.Click) -> None:
        if self.gutter_row(event) is not None:  # the press on the gutter already scrolled
            event.prevent_default()
            return
        row = event.y + round(self.scroll_y)
        if not 0 <= row < len(self._ids):
            return
        if row == self.cursor or event.chain > 1:
            self.action_select()
        self.move_to(row)

    def notify_style_update(self) -> None:
        # Textual calls this on every focus change, the styles changed or not: they are
        # read again at the next draw, and the cached rows dropped only if they changed.
        # (Focus itself changes only the cursor row, whose cache key says if it was drawn
        # focused: tab and `/` redraw one row, not forty.)
        super().notify_style_update()
        self._style_map = None

    # -- drawing --------------------------------------------------------------------------

    def _row_styles(self) -> dict[str, Style]:
        if self._style_map is None:
            # Marks, statuses, tags and matches are laid over a row's own style: only what
            # their CSS sets (partial), or their background would cut holes in the cursor row.
            style_map = {
                name.removeprefix("paper-list--"): self.get_component_rich_style(name, partial=name not in _FULL_STYLES)
                for name in sorted(self.COMPONENT_CLASSES)
            }
            # the widget's own style: reading `rich_style` walks the ancestors' styles,
            # which per line was a fifth of the cost of a scroll
            style_map[""] = self.rich_style
            if style_map != self._drawn_styles:
                self._cache.clear()
                self._drawn_styles = style_map
            self._style_map = style_map
        return self._style_map

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every row of one draw shares, read once: the region alone is a look-up in
        # the compositor's map, and a scroll draws all forty-odd rows.
        self._frame = self._read_frame()
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def _read_frame(self) -> tuple[int, int, int, bool, list[Segment] | None]:
        """Row width, first row shown, cursor, focus, and the gutter's cells (None: all fits)."""
        width, cells = self.gutter_frame()
        return width, round(self.scroll_y), self.cursor, self.has_focus, cells

    def gutter_style(self, state: str) -> Style:
        return self._row_styles()[state]

    def gutter_released(self) -> None:
        # the cursor comes along into the view, or the next key would jump back
        top, height = round(self.scroll_y), self.scrollable_content_region.height
        self.move_to(max(top, min(self.cursor, top + height - 1)))

    def render_line(self, y: int) -> Strip:
        width, top, cursor, focused, cells = self._frame or self._read_frame()
        strip = self._row_strip(y + top, width, cursor, focused)
        if cells is None or y >= len(cells):
            return strip
        return Strip([*strip, cells[y]], width + 1)

    def _row_strip(self, row: int, width: int, cursor: int, focused: bool) -> Strip:
        base = self._row_styles()[""]
        if not self._ids:
            if row == 0:
                style = base + self._row_styles()["empty"]
                return Strip([Segment(set_cell_size(f" {self.empty_text}", width), style)], width)
            return Strip.blank(width, base)
        if row >= len(self._ids):
            return Strip.blank(width, base)
        pid = self._ids[row]
        is_cursor = row == cursor
        key = (
            pid,
            self._versions.get(pid, 0),
            self._generation,
            width,
            is_cursor,
            is_cursor and focused,
            pid in self.marked,
        )
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(pid, width, base, is_cursor, pid in self.marked)
            self._cache[key] = strip
        return strip

    def _render_row(self, pid: str, width: int, base: Style, is_cursor: bool, is_marked: bool) -> Strip:
        styles = self._row_styles()
        try:
            view = self.library.view(pid)
        except KeyError:
            return Strip.blank(width, base)
        if is_cursor:
            base = base + styles["cursor" if self.has_focus else "cursor-blurred"]
        mark_style = base + styles["marked"] if is_marked else base
        status = view.status
        status_style = base + styles.get(f"status-{status.value}", Style()) if status is not Status.UNREAD else base
        title = one_line(view.title)
        tags = "  ".join(map(visible_controls, view.tags))
        withdrawn = view.paper.withdrawn
        # a withdrawn submission is dimmed, cursor or not: it is still one
        text_style = base + styles["withdrawn"] if withdrawn else base
        room = max(0, width - 5)  # mark, status, notes, spaces
        score = ""
        if self._show_scores and room >= 2 * SCORE_WIDTH:
            score = compact_scores(view.paper.scores).ljust(SCORE_WIDTH)
            room -= SCORE_WIDTH + 1
        group = None
        if self._group is not None and room >= GROUP_MIN_ROOM:
            group = _fit(self._group.compact(pid), GROUP_WIDTH)
            room -= GROUP_WIDTH + 1
        tag_room = min(cell_len(tags), room // TAG_SHARE) if tags else 0
        title_room = max(0, room - (tag_room + 1 if tag_room else 0))
        segments = [
            Segment("▌" if is_marked else " ", mark_style),
            Segment(status.mark, status_style),
            Segment(NOTES_MARK if view.notes.strip() else " ", base + styles["notes"]),
            Segment(" ", base),
        ]
        if score:
            score_style = text_style if withdrawn or is_cursor else base + styles["score"]
            segments += [Segment(score, score_style), Segment(" ", base)]
        if group is not None:
            group_style = text_style if is_cursor else base + styles["group"]
            segments += [Segment(group, group_style), Segment(" ", base)]
        segments.extend(self._title_segments(pid, _fit(title, title_room), text_style, styles["match"]))
        if tag_room:
            segments.append(Segment(" ", base))
            # the tags' muted colour would be unreadable on the cursor's background
            tag_style = base if is_cursor else base + styles["tag"]
            segments.append(Segment(_fit(tags, tag_room, left=True), tag_style))
        segments.append(Segment(" ", base))
        # one segment per run of a style: each one costs again in every later stage of a draw
        return Strip(Segment.simplify(segments)).adjust_cell_length(width, base)

    def _title_segments(self, pid: str, title: str, base: Style, match_style: Style) -> list[Segment]:
        pattern = self._pattern(pid)
        if pattern is None:
            return [Segment(title, base)]
        segments: list[Segment] = []
        position = 0
        # search matches accent-folded words ("velez" for Vélez): find them in the folded title
        for found in pattern.finditer(fold_in_place(title)):
            if found.start() > position:
                segments.append(Segment(title[position : found.start()], base))
            segments.append(Segment(title[found.start() : found.end()], base + match_style))
            position = found.end()
        if position < len(title):
            segments.append(Segment(title[position:], base))
        return segments

    def _pattern(self, pid: str) -> re.Pattern[str] | None:
        if pid in self._match_patterns:
            return self._match_patterns[pid]
        words = sorted({w for w in self.matched.get(pid, ()) if w and w.strip()}, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(fold_in_place(w)) for w in words), re.IGNORECASE) if words else None
        self._match_patterns[pid] = pattern
        return pattern


def _fit(text: str, width: int, *, left: bool = False) -> str:
    """`text` cut to `width` cells with an ellipsis, padded to exactly `width` cells."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width) if not left else text.rjust(width - cell_len(text) + len(text))
    return set_cell_size(text, width - 1) + "…"
