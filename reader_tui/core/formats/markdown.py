"""Markdown export: a reading list grouped by status, for notes apps and sharing.

Titles, venues and tags are paper or user data shown as text, so markdown specials in
them are escaped. Notes are the user's own writing (often markdown already), so they
are kept as written, inside a block quote: every line is prefixed with `> `, which keeps
a heading or a list in a note from taking over the document's structure.

A reading list is for reading, in a terminal too (`export --format markdown` with no
`-o` prints it): every text is shown with `text.sanitize`, so an ESC or BEL in a note,
a tag or a URL is drawn as a symbol (␛, ␇) and never acts on the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from reader_tui.core.model import PaperView, Status
from reader_tui.core.text.display import one_line, sanitize

__all__ = ["export_markdown", "escape_markdown", "STATUS_ORDER"]

#: The order of the groups: what is in hand first, what was dropped last.
STATUS_ORDER = (Status.READING, Status.TO_READ, Status.UNREAD, Status.READ, Status.SKIPPED)

_HEADINGS = {
    Status.READING: "Reading",
    Status.TO_READ: "To read",
    Status.UNREAD: "Unread",
    Status.READ: "Read",
    Status.SKIPPED: "Skipped",
}

# The ASCII punctuation that can start markup in the middle of a line: emphasis, code,
# links and images (`[`; `!`, `(` and `)` only act next to one), HTML and entities,
# tables, strikethrough, math, headings. Not what acts only at a line's start (`-`, `+`,
# `1.`): the text never starts a line, and `spec\-decoding` or `with\.\.\.` read badly.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~&$])")
_LINKABLE = re.compile(r"^https?://[^\s<>]+$", re.I)


def escape_markdown(text: str) -> str:
    """`text` on one line, with every markdown special character backslash-escaped."""
    out = _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    return "\\" + out if out.startswith("-") else out  # a leading `- ` would start a list


def _link(url: str) -> str:
    url = sanitize(url.strip())
    if _LINKABLE.match(url):
        # An autolink: nothing inside `<...>` is markdown, and `<`, `>`, spaces are excluded.
        return f"<{url}>"
    return escape_markdown(url)  # not a web link (javascript:, a path): text only


def _quote(notes: str) -> list[str]:
    lines = sanitize(notes.replace("\r\n", "\n").replace("\r", "\n")).strip("\n").split("\n")
    return [f"  > {line}".rstrip() for line in lines]


def _item(paper: PaperView, scores: bool = False) -> list[str]:
    title = escape_markdown(one_line(paper.title)) or "Untitled"
    lines = [f"- **{title}**"]
    where = one_line(paper.venue or "")
    if paper.year and str(paper.year) not in where:
        where = f"{where} {paper.year}".strip()
    meta = [f"status: {paper.status.value}"]
    if where:
        meta.insert(0, escape_markdown(where))
    if paper.tags:
        meta.append("tags: " + ", ".join(escape_markdown(sanitize(t)) for t in paper.tags))
    lines.append("  " + " · ".join(meta))
    if scores:
        from ..reviews import scores_line

        line = scores_line(paper.paper.scores)
        if paper.paper.withdrawn:
            line = f"{line} · withdrawn" if line else "withdrawn"
        if line:
            lines.append("  " + escape_markdown(line))
        if paper.paper.tldr.strip():
            lines.append("  TL;DR: " + escape_markdown(sanitize(one_line(paper.paper.tldr))))
    if paper.url:
        lines.append("  " + _link(paper.url))
    if paper.notes.strip():
        lines.append("")
        lines.extend(_quote(paper.notes))
    return lines


def export_markdown(papers: Iterable[PaperView], *, scores: bool = False, memo: dict | None = None) -> str:
    """A markdown reading list: a heading with counts, then one section per status
    (reading, to-read, unread, read, skipped; empty ones left out), papers in the
    given order within each section. With `scores`, each paper also gets a line of its
    review scores (`reviews.scores_line`) and its TL;DR, when it has them. `memo`: as
    `export_bibtex`'s, each paper's lines kept while the paper is as it was."""
    from reader_tui.core.formats.write import memoized
    groups: dict[Status, list[PaperView]] = {status: [] for status in STATUS_ORDER}
    for paper in papers:
        groups[paper.status].append(paper)
    total = sum(len(g) for g in groups.values())
    counts = ", ".join(f"{len(groups[s])} {s.value}" for s in STATUS_ORDER if groups[s])
    out = ["# Reading list", "", f"{total} paper{'s' if total != 1 else ''}" + (f": {counts}" if counts else "")]
    for status in STATUS_ORDER:
        if not groups[status]:
            continue
        out += ["", f"## {_HEADINGS[status]} ({len(groups[status])})", ""]
        for index, paper in enumerate(groups[status]):
            if index:
                out.append("")
            out += memoized(memo, paper, (scores,), lambda: _item(paper, scores))
    return "\n".join(out) + "\n"
