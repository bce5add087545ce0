"""A forum's notes as the reviews view's text: each note's lines (`note_lines`: who and
when, its scores, then each section under its name, rendered like the abstract, markdown
and LaTeX for the terminal, never markup), the search's words highlighted, and a
paragraph wrapped as far as the screen needs (`wrap_rows`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from textual.content import Content

from reader_tui.core.reviews import Note
from reader_tui.core.text.display import visible_controls
from reader_tui.tui.textual_patches import line_starts
from reader_tui.tui.widgets.paper_detail import LABEL, _highlight, _rendered

#: Section names as a heading ("summary" -> "Summary"), for the forms' usual fields.
SECTION_TITLES = {"tldr": "TL;DR", "summary_of_the_review": "Summary of the review"}


class Block(NamedTuple):
    """One note as drawn: its text, its depth (0: on the paper) and whether it is a review."""

    content: Content
    depth: int
    review: bool


def section_title(name: str) -> str:
    return SECTION_TITLES.get(name, name.replace("_", " ").capitalize())


def note_lines(note: Note, words: tuple[str, ...] = ()) -> Iterator[Content]:
    """A note as styled lines, each made when asked for: who and when, its scores, then
    each section under its name, rendered like the abstract (a section's text is one
    "line" of paragraphs); the search's `words` highlighted."""
    yield Content.assemble(
        (visible_controls(note.label), "bold $text-primary" if note.kind == "review" else "bold"),
        (f"  {note.date[:10]}" if note.date else "", LABEL),
    )
    scores = note.scores_line()
    if scores:
        yield Content.styled(visible_controls(scores), "$text-accent")
    for name, text in note.sections:
        if not text.strip():
            continue
        if name == "title" and note.kind != "review":
            yield _highlight(_rendered(text, "bold"), words)
            continue
        if name == "comment" and note.kind != "review":  # a comment's one text needs no heading
            yield _highlight(_rendered(text), words)
            continue
        yield Content("")
        yield Content.styled(visible_controls(section_title(name)), "bold $text-secondary")
        yield _highlight(_rendered(text), words)


def search_words(words: Sequence[str]) -> tuple[str, ...]:
    """The search's words as `note_lines` highlights them: longest first, once each."""
    return tuple(sorted({w for w in words if w.strip()}, key=len, reverse=True))


def wrap_rows(line: Content, width: int, needed: int | None = None) -> tuple[list[Content], Content | None]:
    """`line.wrap(width)`, or, when only its first `needed` rows are needed and it is much
    longer, those rows (or more) and the rest of the line, whose own wrap gives the rows
    that follow (wrapping is greedy: a row depends on the text from its start only).

    A line that fits is its own row (what wrap gives, checked on 85,000 paragraphs of
    ICLR forums) without wrap's cost, which was most of laying out the first screen."""
    plain = line.plain
    if "\t" in plain:
        return line.wrap(width), None
    if line.cell_length <= width:
        return [line], None
    if needed is None or len(plain) <= (needed + 4) * width:
        return line.wrap(width), None
    # the rows of a prefix but its last (which may end in a word cut by the prefix); the
    # rest starts where that last row does, found as Content.wrap finds it, if that is a
    # word's start (inside or after a word folded over rows, a wrap of the rest would
    # fold it otherwise)
    prefix = line[:(needed + 2) * width]
    rows = prefix.wrap(width)[:-1]
    starts = line_starts(prefix.plain, width)
    if not rows or len(starts) != len(rows) or plain[starts[-1]].isspace() or not plain[starts[-1] - 1].isspace():
        return line.wrap(width), None
    return rows, line[starts[-1]:]


Thread = Sequence[tuple[Note, int]]
"""A forum's notes in reading order with their depth (`Forum.thread()`)."""
