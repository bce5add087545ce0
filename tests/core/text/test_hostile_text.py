"""Hostile and odd text in every text field survives the store exactly.

Markup (`[bold]`, `[link=...]`), terminal escapes (CSI, OSC 52 clipboard writes, BEL),
control characters, zero-width and right-to-left characters, emoji, NUL: the store keeps
them byte for byte (showing them safely is the display layer's job, tested there). Also
very large values: a 100 kB abstract, 10,000 tags on one paper.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader_tui.core.library.library import Library, clean_tags
from reader_tui.core.model import Paper

HOSTILE = [
    "[bold]",
    "[/]",
    "[link=https://evil.example]x[/link]",
    "\x1b[31m",
    "\x1b]52;c;ZWNobyBoaQ==\x07",  # OSC 52: write the clipboard
    "\x1b]8;;http://x\x1b\\",  # OSC 8 hyperlink
    "\x07",
    "\x00",
    "\r",
    "\x9b",  # C1 CSI
    "\u202e",  # right-to-left override
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\ufeff",
    "\u2028",
    "مرحبا",
    "שלום",
    "👩‍👩‍👧‍👦",
    "🏳️‍🌈",
    "$\\alpha$",
    "{\\'E}",
    '"',
    "\\",
    "%",
    "}{",
]

# Arbitrary unicode (hypothesis leaves out lone surrogates, which no UTF-8 file can hold),
# mixed with the known troublemakers so every run meets them.
texts = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=5)), max_size=12).map("".join),
)

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _roundtrip_paper(paper: Paper) -> Paper:
    with tempfile.TemporaryDirectory() as folder:
        Library.open(Path(folder)).import_papers([paper])
        return Library.open(Path(folder)).papers[paper.id]


@FAST
@given(title=texts, abstract=texts, authors=st.lists(texts, max_size=4))
@example(title="[bold]x[/] \x1b[31mred", abstract="\x1b]52;c;ZWNobyBoaQ==\x07", authors=["\u202eevil", "👩‍🔬"])
def test_catalog_text_round_trips_exactly(title: str, abstract: str, authors: list[str]) -> None:
    paper = Paper(id="p1", title=title, abstract=abstract, authors=tuple(authors))
    stored = _roundtrip_paper(paper)
    assert (stored.title, stored.abstract, stored.authors) == (title, abstract, tuple(authors))


@FAST
@given(notes=texts, tags=st.lists(texts, max_size=8), title=texts.filter(str.strip), authors=st.lists(texts.filter(str.strip), min_size=1, max_size=3))
@example(notes="\x00\x07\x1b[2J[bold]", tags=["[red]", "\u200bzw", "مرحبا"], title="\x1b]52;c;eA==\x07", authors=["[b]"])
def test_annotation_text_round_trips_exactly(notes: str, tags: list[str], title: str, authors: list[str]) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        lib = Library.open(folder)
        lib.import_papers([Paper(id="p1", title="plain")])
        lib.set_notes("p1", notes)
        usable = [t for t in tags if "," not in t]
        lib.set_tags("p1", usable)
        lib.edit("p1", title=title, authors=authors)

        again = Library.open(folder).view("p1")
        assert again.notes == notes
        assert again.tags == clean_tags(usable)
        assert all(t and "," not in t for t in again.tags)
        assert again.title == title
        assert again.authors == tuple(a.strip() for a in authors if a.strip())


def test_a_100_kb_abstract_round_trips(tmp_path: Path) -> None:
    abstract = ("A long abstract with $\\LaTeX$, [bold]markup[/] and \x1b[31mescapes\x1b[0m. 🙂 " * 1500)[:100_000]
    assert len(abstract) == 100_000
    paper = Paper(id="big", title="Big", abstract=abstract)
    Library.open(tmp_path / "db").import_papers([paper])
    assert Library.open(tmp_path / "db").papers["big"].abstract == abstract


def test_ten_thousand_tags_on_one_paper_round_trip(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "db")
    lib.import_papers([Paper(id="p1", title="Tagged")])
    tags = [f"tag-{i}-[b]\u200b🙂" for i in range(10_000)]
    lib.set_tags("p1", tags)
    again = Library.open(tmp_path / "db")
    assert again.view("p1").tags == tuple(tags)
    # ...and the store keeps working with them: one more change, one more reopen.
    again.add_tags(["p1"], ["last"])
    assert Library.open(tmp_path / "db").view("p1").tags == (*tags, "last")
