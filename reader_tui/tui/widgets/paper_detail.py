"""The detail pane: everything about the current paper, abstract rendered for the terminal.

Paper text is data: its control characters are made visible by `core.text` and put into `Content` objects
piece by piece, never parsed as markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from reader_tui.core.model import PaperView
from reader_tui.core.reviews import scores_line
from reader_tui.core.text.display import derived_title_note, names_line, one_line, styled_segments, visible_controls
from reader_tui.core.text.tokens import fold_in_place
from reader_tui.core.text.venues import venue_line
from reader_tui.tui.textual_patches import update_scrollbars
from reader_tui.tui.widgets.key_scroll import ScrollKeyActions, scroll_bindings

#: core.text chunk style -> Content style (theme variables only).
SEGMENT_STYLES = {
    "": "",
    "bold": "bold",
    "italic": "italic",
    "code": "$text-accent",
    "math": "italic $text-primary",
}
LABEL = "$text-muted"
MATCH = "reverse $text-warning"


class PaperDetail(ScrollKeyActions, ScrollView, can_focus=True, inherit_bindings=False):
    """Title, venue and year, authors, url, keywords, tags, status and the abstract.

    A line-API view: the text is wrapped once per paper (and per width) into Strips, so
    showing another paper costs a wrap, never a relayout of the screen, and moving
    through the list stays within a frame.
    """

    # Its own keys only (inherit_bindings=False): the text never scrolls sideways, and the
    # inherited left / right would take triage's back / next (b, left; l, right).
    BINDINGS = scroll_bindings("detail")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.paper_id: str | None = None
        self._shown: tuple | None = None
        self._content: Content = Content("No paper selected")
        self._strips: list[Strip] = []
        self._wrapped_width = -1
        self._view: PaperView | None = None
        self._words: tuple[str, ...] = ()
        self._why = ""
        self.find_text = ""
        """What `/` in this pane looks for (highlighted; n / N go from one to the next)."""
        self.group = None
        """A reading group's other members' marks (core GroupMarks), None when not a group's."""

    @property
    def text(self) -> str:
        """What the pane shows, as plain text (unwrapped)."""
        return self._content.plain

    def show(self, view: PaperView | None, matched: Iterable[str] = (), why: str = "") -> None:
        """Show `view` (None: nothing), its search words in `matched` highlighted, and
        `why` it ranks where it does in the "for you" order ("" for nothing)."""
        words = tuple(sorted({w for w in matched if w.strip()}, key=len, reverse=True))
        key = None if view is None else (view.paper, view.status, view.tags, repr(view.annotation.overrides), words, why)
        if key == self._shown and key is not None:
            return
        moved = view is None or view.id != self.paper_id
        self._shown = key
        self.paper_id = None if view is None else view.id
        self._view, self._words, self._why = view, words, why
        self._build()
        if moved:
            self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def _build(self) -> None:
        view, words = self._view, self._words
        if self.find_text:
            words = (*words, self.find_text)
        if view is None:
            self._content = Content.styled("No paper selected", LABEL)
        else:
            self._content = Content("\n").join(
                [header_content(view, words, self._why), *self._group_lines(view), Content(""), abstract_content(view.abstract, words)]
            )
        self._wrapped_width = -1
        self._rewrap()

    def set_group(self, group) -> None:
        """The other members' marks (read again after each sync); None: not a group's."""
        if group is None and self.group is None:  # not a group's library: nothing to redraw
            return
        self.group = group
        if self._view is not None:
            self._build()
            self.refresh()

    def _group_lines(self, view: PaperView) -> list[Content]:
        from reader_tui.tui.widgets.group_marks import group_lines

        if self.group is None:
            return []
        lines = group_lines(self.group.of(view.id))
        return [_field("group" if n == 0 else "", line) for n, line in enumerate(lines)]

    # -- finding in the pane (`/`, then n / N) ----------------------------------------------

    def find(self, text: str) -> int:
        """Highlight `text` (accents and case aside) and scroll to its first line; returns
        on how many lines it is ("" ends the find)."""
        self.find_text = text.strip()
        self._build()
        self.refresh()
        lines = self._find_lines()
        if lines:
            self._scroll_to_line(lines[0])
        return len(lines)

    def find_next(self, step: int) -> bool:
        """Scroll to the next (`step` 1) or previous (-1) line holding the find text,
        round the end; False when there is nothing to find."""
        lines = self._find_lines()
        if not lines:
            return False
        top = round(self.scroll_y)
        if step > 0:
            later = [n for n in lines if n > top]
            line = later[0] if later else lines[0]
        else:
            earlier = [n for n in lines if n < top]
            line = earlier[-1] if earlier else lines[-1]
        self._scroll_to_line(line)
        return True

    def _find_lines(self) -> list[int]:
        if not self.find_text:
            return []
        self._rewrap()
        pattern = re.compile(re.escape(fold_in_place(self.find_text)), re.IGNORECASE)
        return [n for n, strip in enumerate(self._strips) if pattern.search(fold_in_place(strip.text))]

    def _scroll_to_line(self, line: int) -> None:
        # the line at the top, or as near as the end of the text allows: its line is in view
        self.scroll_to(y=line, animate=False, immediate=True)
        self.refresh()

    def _rewrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_width:
            return
        self._wrapped_width = width
        content = layout_fields(self._content, width)
        self._strips = Visual.to_strips(self, content, width, None, self.visual_style)
        size = Size(width, len(self._strips))
        if size != self.virtual_size:
            # Only this pane's scroll extent changes: update the scrollbar without the
            # relayout of the whole screen that setting `virtual_size` asks for (60+ ms).
            self.set_reactive(ScrollView.virtual_size, size)
            update_scrollbars(self, size)

    def on_resize(self) -> None:
        self._wrapped_width = -1
        self._rewrap()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._wrapped_width = -1

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.scrollable_content_region.width
        row = y + round(self.scroll_y)
        if 0 <= row < len(self._strips):
            return self._strips[row].adjust_cell_length(width, self.rich_style)
        return Strip.blank(width, self.rich_style)


def header_content(view: PaperView, words: tuple[str, ...] = (), why: str = "") -> Content:
    """The fields above the abstract, one per line (`why`: the "for you" line, last)."""
    title = _highlight(Content.styled(one_line(view.title), "bold"), words)
    lines: list[Content] = [title]
    if view.title_derived and view.title == view.paper.title:  # not the user's own title either
        lines.append(Content.styled(derived_title_note(view.paper.entry_type), LABEL))
    paper = view.paper
    if paper.tldr.strip():
        lines.append(_field("tl;dr", _highlight(_rendered(paper.tldr, "italic"), words)))
    if paper.area:
        lines.append(_field("area", _highlight(Content(visible_controls(paper.area)), words)))
    if (scores := scores_content(paper)) is not None:
        lines.append(_field("scores", scores))
    # title, venue, authors and keywords rendered from their LaTeX as everywhere else
    # (`M{\"u}ller` -> Müller); url, tags and citekey are shown as typed
    venue = venue_line(one_line(view.venue), view.year)
    if venue:
        lines.append(_field("venue", Content(venue)))
    if view.authors:
        lines.append(_field("authors", _highlight(Content(names_line(view.authors)), words)))
    if view.url:
        lines.append(_field("url", Content.styled(visible_controls(view.url), "underline")))
    if view.keywords:
        lines.append(_field("keywords", _highlight(Content(names_line(view.keywords)), words)))
    if view.tags:
        tags = Content("  ".join(map(visible_controls, view.tags)))
        lines.append(_field("tags", _highlight(tags.stylize("$text-secondary"), words)))
    # status and citation key share a line: one row more for the abstract at 80x24
    status = Content.assemble((view.status.mark + " ", "$text-accent"), view.status.value)
    if view.citekey:
        status = Content.assemble(status, ("   cite ", LABEL), Content(visible_controls(view.citekey)))
    lines.append(_field("status", status))
    if why:  # words and titles: data, never markup
        lines.append(_field("for you", Content.styled(visible_controls(why), "$text-accent")))
    return Content("\n").join(lines)


def scores_content(paper) -> Content | None:
    """One line of what reviewers said: "rating 5.3 (2-8, 3 reviews; 4.7 -> 5.3 since
    2025-11-02) · confidence 3.7 · ... · Accept (Oral) · captured 2025-11-22", withdrawn
    first when it was; None for a paper with neither."""
    parts: list[Content] = []
    if paper.withdrawn:
        parts.append(Content.styled("withdrawn", "bold $text-error"))
    scores = paper.scores
    line = scores_line(scores)
    if line:
        parts.append(Content(visible_controls(line)))
    if scores is not None and scores.captured:
        parts.append(Content.styled(f"captured {scores.captured[:10]}", LABEL))
    return Content(" · ").join(parts) if parts else None


def _rendered(text: str, style: str = "") -> Content:
    """Markdown/LaTeX text (a TL;DR, a review's section) as styled Content, on `style`."""
    parts = [(chunk, " ".join(filter(None, (style, SEGMENT_STYLES.get(kind, ""))))) for chunk, kind in styled_segments(text)]
    return Content.assemble(*parts)


def abstract_content(abstract: str, words: tuple[str, ...] = ()) -> Content:
    """The abstract as styled Content: LaTeX and markdown already rendered by core.text."""
    if not abstract.strip():
        return Content.styled("(no abstract)", LABEL)
    parts = [(chunk, SEGMENT_STYLES.get(style, "")) for chunk, style in styled_segments(abstract)]
    return _highlight(Content.assemble(*parts), words)


LABEL_WIDTH = 9
FIELDS = ("tl;dr", "area", "scores", "venue", "authors", "url", "keywords", "tags", "status", "for you", "group", "")
_LABELS = {f"{name:<{LABEL_WIDTH}}".replace(" ", "\u00a0") for name in FIELDS}
_INDENT = "\u00a0" * LABEL_WIDTH
_URL_BREAKS = re.compile(r"(?<=[/?&#])(?=[^/])")


def _field(label: str, value: Content) -> Content:
    # No-break spaces: the label is one word; `layout_fields` lays the value out for a width.
    return Content.assemble((f"{label:<{LABEL_WIDTH}}".replace(" ", "\u00a0"), LABEL), value)


def layout_fields(content: Content, width: int) -> Content:
    """`content` (as `header_content` and the abstract make it) laid out for `width`
    cells: a field's value too long for its line goes on under the value, not under the
    label column, and a url breaks only between its parts (`url_lines`). Every other
    line, and every style, is left as it is."""
    room = width - LABEL_WIDTH
    if room < 12:
        return content
    lines: list[Content] = []
    for line in content.split("\n"):
        plain = line.plain
        if plain[:LABEL_WIDTH] not in _LABELS or line.cell_length <= width:
            lines.append(line)
            continue
        label, value = line[:LABEL_WIDTH], line[LABEL_WIDTH:]
        if plain.startswith("url\u00a0"):
            offsets, at = [], 0
            for piece in url_lines(value.plain, room)[:-1]:
                at += len(piece)
                offsets.append(at)
            pieces = value.divide(offsets) if offsets else [value]
        else:
            pieces = value.wrap(room) or [value]
        lines.append(label + pieces[0])
        lines += [Content(_INDENT) + piece for piece in pieces[1:]]
    return Content("\n").join(lines)


def url_lines(url: str, width: int) -> list[str]:
    """`url` in lines of at most `width` cells, broken only after a `/`, `?`, `&` or `#`,
    so an id (`forum?id=00F7BfXLYJ`) is never cut; a single part longer than a line is
    the only thing folded."""
    lines: list[str] = []
    line = ""
    for part in _URL_BREAKS.split(url):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        while len(part) > width:
            lines.append(part[:width])
            part = part[width:]
        line += part
    if line or not lines:
        lines.append(line)
    return lines


def _highlight(content: Content, words: tuple[str, ...]) -> Content:
    if not words:
        return content
    # search matches accent-folded words ("velez" for Vélez): find them in the folded text
    pattern = re.compile("|".join(re.escape(fold_in_place(w)) for w in words), re.IGNORECASE)
    for found in pattern.finditer(fold_in_place(content.plain)):
        content = content.stylize(MATCH, found.start(), found.end())
    return content
