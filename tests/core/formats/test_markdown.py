"""Markdown export: grouped by status, counts, escaped titles, quoted notes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reader_tui.core.formats.markdown import escape_markdown, export_markdown
from reader_tui.core.model import Annotation, Paper, PaperView, Status


def view(title: str, status: Status = Status.UNREAD, *, tags=(), notes: str = "", **kw) -> PaperView:
    return PaperView(Paper(id=title, title=title, **kw), Annotation(status=status, tags=tuple(tags), notes=notes))


def test_groups_in_status_order_with_counts_and_no_empty_groups() -> None:
    papers = [
        view("Done", Status.READ),
        view("Now", Status.READING),
        view("Later", Status.TO_READ),
        view("Also now", Status.READING),
        view("Dropped", Status.SKIPPED),
    ]
    md = export_markdown(papers)
    assert md.startswith("# Reading list\n\n5 papers: 2 reading, 1 to-read, 1 read, 1 skipped\n")
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings == ["## Reading (2)", "## To read (1)", "## Read (1)", "## Skipped (1)"]
    assert md.index("**Now**") < md.index("**Also now**") < md.index("**Later**") < md.index("**Done**")
    assert "Unread" not in md


def test_a_paper_shows_title_venue_year_tags_url_notes_status() -> None:
    p = view(
        "SOCOP: Conformal Prediction",
        Status.READING,
        venue="ICLR 2026 Conference Submission",
        year=2026,
        url="https://openreview.net/forum?id=abc",
        tags=("conformal", "to cite"),
        notes="Key idea: singletons.\n\n- check proof",
    )
    md = export_markdown([p])
    assert "- **SOCOP: Conformal Prediction**" in md
    assert "  ICLR 2026 Conference Submission · status: reading · tags: conformal, to cite" in md
    assert "  <https://openreview.net/forum?id=abc>" in md
    assert "  > Key idea: singletons.\n  >\n  > - check proof" in md


def test_year_is_shown_when_the_venue_does_not_say_it() -> None:
    assert "NeurIPS 2024 · status: unread" in export_markdown([view("T", venue="NeurIPS", year=2024)])


def test_titles_are_display_text_with_markdown_escaped() -> None:
    md = export_markdown([view("An $O(K)$ *fast* [link](x) <b>bold</b> #1 5\\% a_b")])
    line = next(line for line in md.splitlines() if line.startswith("- **"))
    assert "$" not in line and "\\%" not in line  # LaTeX rendered for display
    for raw in ("*fast*", "[link]", "<b>", "a_b"):
        assert raw not in line
    assert "\\#1" in line and "\\<b\\>" in line


def test_empty_list() -> None:
    assert export_markdown([]) == "# Reading list\n\n0 papers\n"


def test_non_web_urls_are_not_links() -> None:
    md = export_markdown([view("T", url="javascript:alert(1)")])
    assert "](" not in md and "<javascript" not in md


def test_notes_cannot_escape_their_quote() -> None:
    md = export_markdown([view("T", notes="# Heading\n## Reading (99)\n```\ncode")])
    assert "\n## Reading (99)" not in md
    assert "  > ## Reading (99)" in md


@given(st.text(max_size=50))
def test_escaped_text_has_no_bare_specials(text: str) -> None:
    escaped = escape_markdown(text)
    bare = escaped.replace("\\\\", "")
    for ch in "*_[]<>`|#":
        assert bare.count(ch) == bare.count("\\" + ch)


def test_punctuation_that_only_acts_at_a_line_start_is_not_escaped() -> None:
    assert escape_markdown("Cut with... (see C++ {v2}) spec-decoding!") == "Cut with... (see C++ {v2}) spec-decoding!"
    assert escape_markdown("![img](x) *b*") == "!\\[img\\](x) \\*b\\*"


def test_control_characters_are_drawn_as_symbols_never_written_raw() -> None:
    import re

    paper = view(
        "Evil \x1b]0;t\x07",
        venue="V\x1b[2J",
        url="https://x.org/\x1b]8;;e\x07",
        tags=("\x1b]0;tag\x07", "\u202etag"),
        notes="first \x1b]0;pwned\x07\r\nsecond\x9b31m\ttab\u2028third",
    )
    out = export_markdown([paper])
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out), ascii(out)
    assert "tags: ␛\\]0;tag␇, \ufffdtag" in out
    assert "  > first ␛]0;pwned␇\n  > second\ufffd31m\ttab\n  > third\n" in out
    assert "https://x.org/␛]8;;e␇" in out
