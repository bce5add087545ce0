"""Export to BibTeX and import again: papers come back as they display, the user's tags
and notes exactly (`user_text`'s encoding), in a file and through a library; and what
classic (ASCII) mode makes of non-ASCII catalog text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader_tui.core.formats.bibtex.latex import escape_latex, lossy_characters
from reader_tui.core.formats.bibtex.reader import read_bibtex
from reader_tui.core.formats.bibtex.writer import HEADER, export_bibtex
from reader_tui.core.library.library import Library, clean_tags
from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.text.display import to_display

# ---------------------------------------------------------------------------- strategies

_LATEXISH = [
    "\\", "\\\\", "{", "}", "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "&", "%", "#", "_", "~", "^",
    "<", ">", "|", "@", "@comment{", "\n@misc{evil,", "\\textbf{", "\\emph{x}", "\\method", "\\input{x}",
    "$x^2$", "$O(K)$", "\\'e", "\\'", "\\\"", "\\~", "\\^", "\\&", "\\%", "\\#", "\\_", "\\$", "\\ ", "\\\n",
    "\\,", "\\@", "\n", "\n\n", "\n  \n", " ", "\t", "\r\n", "\u2028", "\x00", "\x1b", "\x85", "\ufeff",
    "😀", "👩‍💻", "é", "中文", "C:\\Users", "5\\%", "\\left\\{", "\\right.", "\\\\textbf", " {@}", "\n{@}",
]
_FREE = st.text(max_size=12)  # any unicode at all, control characters included
_TEXT = st.lists(st.one_of(_FREE, st.sampled_from(_LATEXISH)), max_size=12).map("".join)


# ---------------------------------------------------------------------------- classic mode


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Café naïve Łódź ø ß æ", "Caf{\\'e} na{\\\"\\i}ve {\\L}{\\'o}d{\\'z} {\\o} {\\ss} {\\ae}"),
        ("α-divergence → ∞", "{\\ensuremath{\\alpha}}-divergence {\\textrightarrow} {\\ensuremath{\\infty}}"),
        ("Gödel, Escher & Bach: 100% sure", "G{\\\"o}del, Escher \\& Bach: 100\\% sure"),
        ("Ångström and Ω", "{\\r{A}}ngstr{\\\"o}m and {\\ensuremath{\\Omega}}"),
    ],
)
def test_classic_mode_writes_what_it_can_name_as_latex(text: str, escaped: str) -> None:
    assert escape_latex(text, multiline=True) == escaped
    assert lossy_characters(text) == {}


# ---------------------------------------------------------------------------- files

_WORDS = st.sampled_from(
    ["Learning", "graphs", "LLMs", "SOCOP", "GeoPurify", "PG-Occ", "3D", "\\textbf{Bold}", "$O(K)$", "$x_1^2$",
     "caf\\'e", "{\\'E}tude", "5\\%", "R&D", "100%", "#1", "snake_case", "{braced}", "C++", "Café", "Łódź",
     "α-nets", "😀", "中文", "Q&A:", "\\emph{it}", "{NASA}"]
)
# A lone brace in a title or abstract is a LaTeX group opener to the display, which drops
# it, while the exporter writes it as a visible brace: after the round trip the brace
# shows. Lone braces are covered by the notes and tags (compared exactly) instead.
# Titles and abstracts are compared as displayed. Some raw text displays differently from
# its escaped form for reasons that are the display's, not the round trip's (to_display
# reads a raw `~` as a tie, `\method` as a macro, `$5 $` as math where the exporter's
# Pandoc rule does not; shows `\textless{}` as nothing and `\textasciicircum{}` as ˆ):
# `~^<>|`, stray backslashes and unpaired `$` are left out here.
_DISPLAY_FREE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\\~^<>|*`_$\ufeff{}"), max_size=10
)
_TITLE = st.lists(st.one_of(_WORDS, _DISPLAY_FREE), min_size=1, max_size=8).map(" ".join).map(lambda t: "T " + t)
_ABSTRACT = st.lists(st.one_of(_WORDS, _DISPLAY_FREE, st.just("\n\n")), max_size=20).map(" ".join)
_TAG = st.text(st.characters(blacklist_characters=",", blacklist_categories=("Cs",)), min_size=1, max_size=15)
_NOTES = _TEXT


def _clean_tags(tags: list[str]) -> tuple[str, ...]:
    try:
        return clean_tags(tags)
    except ValueError:
        return ()


def squash(text: str) -> str:
    return " ".join(text.split())


def papers_strategy():
    paper = st.tuples(_TITLE, _ABSTRACT, st.lists(_TAG, max_size=4).map(_clean_tags), _NOTES)
    return st.lists(paper, max_size=5)


def as_views(rows) -> list[PaperView]:
    views = []
    for i, (title, abstract, tags, notes) in enumerate(rows):
        paper = Paper(id=f"p{i}", title=title, abstract=abstract, url=f"https://openreview.net/forum?id=p{i}",
                      year=2026, venue="ICLR 2026")
        views.append(PaperView(paper, Annotation(tags=tags, notes=notes, status=Status.READ)))
    return views


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                                  HealthCheck.function_scoped_fixture])
@given(rows=papers_strategy())
def test_any_papers_come_back_from_their_bibtex(rows, tmp_path: Path) -> None:
    views = as_views(rows)
    path = tmp_path / "export.bib"
    path.write_text(export_bibtex(views, unicode=True), encoding="utf-8")
    if not views:
        return  # a file with no entries is refused, which is fine
    result = read_bibtex(path)
    assert result.problems == []
    assert [p.id for p in result.papers] == [v.id for v in views]
    for view, paper in zip(views, result.papers):
        assert squash(to_display(paper.title)) == squash(to_display(view.title))
        assert squash(to_display(paper.abstract)) == squash(to_display(view.abstract))
        mine = result.annotations.get(paper.id, {"tags": (), "notes": ""})
        # The user's own text comes back exactly (user_text's encoding).
        assert tuple(mine["tags"]) == view.tags
        assert mine["notes"] == view.notes
        assert paper.keywords == ()  # our keywords are tags, not the catalog's


# ---------------------------------------------------------------------------- through a library


def test_tags_and_notes_move_from_one_library_to_another(tmp_path: Path) -> None:
    a = Library.open(tmp_path / "a")
    a.import_papers([
        Paper(id="one", title="SOCOP: Singleton-Optimized Conformal Prediction", abstract="We propose SOCOP, 5% better.",
              year=2026, venue="ICLR 2026"),
        Paper(id="two", title="Caf\\'e Nets for $O(K)$ LLMs", url="https://openreview.net/forum?id=two", year=2025),
        Paper(id="three", title="Untouched", year=2024),
    ])
    a.set_status(["one"], Status.READ)
    a.set_status(["two"], Status.READING)
    a.set_tags("one", ["to cite", "R&D", "50%", "x_y", "naïve", "{t}", "\\method"])
    a.set_notes("one", "Read section 3.\n@comment{ and } unbalanced\n100% sure, C:\\tmp\\x 😀\n{@} kept")
    a.set_tags("two", ["math $x^2$"])
    a.set_notes("two", "see \\textbf{this} and $\\alpha$")
    exported = tmp_path / "a.bib"
    exported.write_text(export_bibtex(a.views(), unicode=True), encoding="utf-8")

    result = read_bibtex(exported)
    b = Library.open(tmp_path / "b")
    b.import_papers(result.papers, result.annotations)
    # Ids may differ (a paper without url or DOI gets one from its title); titles display the same.
    before = {squash(to_display(v.title)): (v.tags, v.notes) for v in a.views()}
    after = {squash(to_display(v.title)): (v.tags, v.notes) for v in b.views()}
    assert after == before
    assert all(not v.keywords for v in b.views())


@pytest.mark.parametrize("mode", ["latex", "unicode", "ascii"])
def test_reimporting_our_export_into_the_same_library_changes_nothing(tmp_path: Path, seed_path: Path, mode: str) -> None:
    """Every paper is recognised and left as it was (derived titles, "…", abstracts with
    "%"), and every note and tag, hostile ones included, stays exactly as it was."""
    library = Library.open(tmp_path / "lib", seed=seed_path)
    first, second = [v.id for v in library.views()][:2]
    library.set_tags(first, ["🎉", "論文", "e\u0301", "\u202eevil", "R&D"])
    library.set_notes(first, "שלום مرحبا 한국어 \\{ }\t\n\n\x1b]0;title\x07 end\n")
    library.set_notes(second, "plain")
    catalog_before = (tmp_path / "lib" / "catalog.json").read_bytes()
    views_before = [(v.id, v.title, v.tags, v.notes) for v in library.views()]
    exported = tmp_path / "ours.bib"
    exported.write_text(export_bibtex(library.views(), mode=mode), encoding="utf-8")

    result = read_bibtex(exported)
    summary = library.import_papers(result.papers, result.annotations)
    assert (summary.new, summary.updated, summary.merged) == (0, 0, 0)
    assert summary.unchanged == len(views_before)
    assert (tmp_path / "lib" / "catalog.json").read_bytes() == catalog_before
    assert [(v.id, v.title, v.tags, v.notes) for v in library.views()] == views_before
    library.close()


def test_a_foreign_bib_keeps_keywords_as_keywords_and_annote_as_notes(tmp_path: Path) -> None:
    path = tmp_path / "theirs.bib"
    path.write_text(
        "@article{smith2024,\n  title = {Big Data},\n  year = 2024,\n"
        "  keywords = {transformers, attention; long context},\n"
        "  annote = {My notes: 50\\% done,\n  see {\\'e}t{\\'e} \\textbf{work}.}\n}\n",
        encoding="utf-8",
    )
    result = read_bibtex(path)
    paper = result.papers[0]
    assert paper.keywords == ("transformers", "attention", "long context")
    assert result.annotations == {paper.id: {"tags": (), "notes": "My notes: 50% done,\n  see été \\textbf{work}."}}

    b = Library.open(tmp_path / "b")
    b.import_papers(result.papers, result.annotations)
    assert b.view(paper.id).tags == ()
    assert b.view(paper.id).notes.startswith("My notes: 50% done")


def test_a_bib_papers_own_keywords_stay_keywords_through_our_export(tmp_path: Path) -> None:
    """Keywords from the user's .bib and tags added here share the exported `keywords`
    field; importing the export again keeps each where it was (not every keyword a tag)."""
    path = tmp_path / "theirs.bib"
    path.write_text(
        "@article{smith2024,\n  title = {Big Data},\n  year = 2024,\n  keywords = {transformers, attention}\n}\n"
        "@article{jones2023,\n  title = {Small Data},\n  year = 2023,\n  keywords = {sparsity}\n}\n",
        encoding="utf-8",
    )
    a = Library.open(tmp_path / "a")
    result = read_bibtex(path)
    a.import_papers(result.papers, result.annotations)
    tagged = next(v.id for v in a.views() if v.citekey == "smith2024")
    a.set_tags(tagged, ["to cite", "attention"])
    exported = tmp_path / "ours.bib"
    exported.write_text(export_bibtex(a.views()), encoding="utf-8")

    for target in (tmp_path / "b", tmp_path / "a"):  # a new library, and the same one again
        library = Library.open(target)
        back = read_bibtex(exported)
        library.import_papers(back.papers, back.annotations)
        views = {v.citekey: v for v in library.views()}
        assert views["smith2024"].keywords == ("transformers", "attention")
        assert views["smith2024"].tags == ("to cite", "attention")
        assert views["jones2023"].keywords == ("sparsity",)
        assert views["jones2023"].tags == ()
        library.close()


def test_our_header_must_be_the_first_line(tmp_path: Path) -> None:
    entry = "@misc{k,\n  title = {T},\n  keywords = {a\\_b, c}\n}\n"
    earlier = tmp_path / "earlier.bib"  # before the tags field: its keywords are the tags
    earlier.write_text("% exported by reader-tui\n\n" + entry, encoding="utf-8")
    mine = read_bibtex(earlier)
    assert mine.annotations[mine.papers[0].id]["tags"] == ("a_b", "c")
    assert mine.papers[0].keywords == ()
    later = tmp_path / "later.bib"
    later.write_text("% my list\n" + HEADER + entry, encoding="utf-8")
    theirs = read_bibtex(later)
    assert theirs.annotations == {}
    assert theirs.papers[0].keywords == ("a\\_b", "c")


def test_keywords_are_the_papers_own_unless_they_repeat_the_tags(tmp_path: Path) -> None:
    path = tmp_path / "ours.bib"
    path.write_text(
        HEADER + "\n@misc{own, title = {T}, keywords = {x, y}}\n"
        "@misc{mirror, title = {U}, keywords = {a\\_b, c}, tags = {a\\_b, c}}\n"
        "@misc{both, title = {V}, keywords = {x}, tags = {c}}\n",
        encoding="utf-8",
    )
    result = read_bibtex(path)
    own, mirror, both = result.papers
    assert (own.keywords, result.annotations.get(own.id)) == (("x", "y"), None)
    assert (mirror.keywords, result.annotations[mirror.id]["tags"]) == ((), ("a_b", "c"))
    assert (both.keywords, result.annotations[both.id]["tags"]) == (("x",), ("c",))


def test_classic_export_brings_accented_tags_and_notes_back(tmp_path: Path) -> None:
    view = PaperView(Paper(id="x", title="T", url="https://openreview.net/forum?id=x"),
                     Annotation(tags=("naïve", "Gödel"), notes="Très bien: α → β, 100%"))
    path = tmp_path / "classic.bib"
    path.write_text(export_bibtex([view]), encoding="utf-8")
    assert path.read_text(encoding="utf-8").isascii()
    result = read_bibtex(path)
    assert result.annotations["x"] == {"tags": ("naïve", "Gödel"), "notes": "Très bien: α → β, 100%"}
