"""The detail pane: everything about the current paper, abstract rendered for the terminal.

Paper text is data: it is sanitized by `core.text` and put into `Content` objects
piece by piece, never parsed as markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from reader_tui.core.model import PaperView
from reader_tui.core.text import one_line, sanitize, styled_segments

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


class PaperDetail(VerticalScroll, can_focus=True):
    """Title, venue and year, authors, url, keywords, tags, status and the abstract."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.paper_id: str | None = None
        self._shown: tuple | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="detail-head", markup=False)
        yield Static(id="detail-abstract", markup=False)

    def show(self, view: PaperView | None, matched: Iterable[str] = ()) -> None:
        """Show `view` (None: nothing), its search words in `matched` highlighted."""
        words = tuple(sorted({w for w in matched if w.strip()}, key=len, reverse=True))
        key = None if view is None else (view.paper, view.status, view.tags, repr(view.annotation.overrides), words)
        if key == self._shown and key is not None:
            return
        moved = view is None or view.id != self.paper_id
        self._shown = key
        self.paper_id = None if view is None else view.id
        head = self.query_one("#detail-head", Static)
        abstract = self.query_one("#detail-abstract", Static)
        if view is None:
            head.update(Content("No paper selected"))
            abstract.update(Content(""))
        else:
            head.update(header_content(view, words))
            abstract.update(abstract_content(view.abstract, words))
        if moved:
            self.scroll_home(animate=False, immediate=True)


def header_content(view: PaperView, words: tuple[str, ...] = ()) -> Content:
    """The fields above the abstract, one per line."""
    title = _highlight(Content.styled(one_line(view.title), "bold"), words)
    lines: list[Content] = [title]
    venue = sanitize(view.venue)
    if view.year and str(view.year) not in venue:
        venue = f"{venue} {view.year}".strip()
    if venue:
        lines.append(_field("venue", Content(venue)))
    if view.authors:
        lines.append(_field("authors", _highlight(Content(sanitize(", ".join(view.authors))), words)))
    if view.url:
        lines.append(_field("url", Content.styled(sanitize(view.url), "underline")))
    if view.keywords:
        lines.append(_field("keywords", _highlight(Content(sanitize(", ".join(view.keywords))), words)))
    status = Content.assemble((view.status.mark + " ", "$text-accent"), view.status.value)
    lines.append(_field("status", status))
    if view.tags:
        tags = Content(sanitize("  ".join(view.tags)))
        lines.append(_field("tags", _highlight(tags.stylize("$text-secondary"), words)))
    if view.citekey:
        lines.append(_field("cite", Content(sanitize(view.citekey))))
    return Content("\n").join(lines)


def abstract_content(abstract: str, words: tuple[str, ...] = ()) -> Content:
    """The abstract as styled Content: LaTeX and markdown already rendered by core.text."""
    if not abstract.strip():
        return Content.styled("(no abstract)", LABEL)
    parts = [(chunk, SEGMENT_STYLES.get(style, "")) for chunk, style in styled_segments(abstract)]
    return _highlight(Content.assemble(*parts), words)


def _field(label: str, value: Content) -> Content:
    # No-break spaces keep a long value (a url) on the label's line, folded if need be.
    return Content.assemble((f"{label:<9}".replace(" ", "\u00a0"), LABEL), value)


def _highlight(content: Content, words: tuple[str, ...]) -> Content:
    if not words:
        return content
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    for found in pattern.finditer(content.plain):
        content = content.stylize(MATCH, found.start(), found.end())
    return content
