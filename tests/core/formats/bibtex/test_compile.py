"""The real check: bibtex and pdflatex accept an export of hostile and normal papers, in
the document a user writes: `\\documentclass{article}`, `\\nocite{*}`, the plain style, no
package at all (issue 12, item 11).

Skipped where TeX is not installed (`apt-get install texlive-latex-base texlive-binaries`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.formats.bibtex.writer import export_bibtex
from reader_tui.core.model import Annotation, Paper, PaperView

LATEX = shutil.which("pdflatex") or shutil.which("latex")
BIBTEX = shutil.which("bibtex")

HOSTILE = [
    "unbalanced { brace",
    "unbalanced } brace",
    "}}}} {{{{",
    "@comment{",
    "}\n@misc{evil,\n  title = {pwned}\n}",
    "% not a comment\n%also not",
    "back\\slash and \\\\ and trailing \\",
    "\\} \\{ \\",
    "emoji 😀🎉 and ZWJ 👩‍💻 and 中文",
    'quote " inside, comma, equals = hash #',
    "\x00\x01 control \x7f chars",
    "\\end{document} \\input{/etc/passwd} \\def\\x{y} \\write18{ls}",
    "$ unclosed math",
    "\\( never closed",
    "& % # _ ~ ^ $ { } \\",
    "$& % # _ ~ ^ { } \\$",
    "x\\ ",
    "\\'",
    "<html> | pipes |",
]

# What real abstracts and titles hold: package commands in math, math-only commands in
# text, `$` before a digit, unicode dashes and spaces, quotes, CJK, ties, spaced math.
TRICKY = [
    "$\\text{softmax}(x)$ with $\\boldsymbol{\\theta} \\in \\mathbb{R}^d$ and $\\mathcal{O}(n)$",
    "A$\\beta$25-35 peptides and $\\alpha$-helices",
    "x \\\\in y and \\\\alpha in text",
    "dashes \u2010 \u2011 \u2012 \u2013 \u2014 \u2015 non\u2011breaking, nbsp\u00a0here, narrow\u202fnbsp",
    "ellipsis\u2026 \u2018single\u2019 \u201cdouble\u201d \u00abguillemets\u00bb zero\u200bwidth",
    "CJK \u8ad6\u6587 Hangul \ud55c\uad6d\uc5b4 fullwidth\uff1a colon, Cyrillic \u0411\u0443\u043a\u0432\u044b",
    "Fig.~3 by D.~Knuth, ~5% better, $ K $ tokens, $\\lesssim$ and $\\operatorname{tr}(A)$",
    "\\citep{x} \\url{http://x} \\textsc{Small} \\hat{x} $\\tfrac{1}{2} \\coloneqq \\mathfrak{g}$",
]

NORMAL = [
    ("SOCOP: Singleton-Optimized Conformal Prediction", ("Ada Lovelace", "Smith, John")),
    ("Scaling LLMs with GeoPurify and PG-Occ: 5\\% Better at $O(K)$ Cost", ("José Pérez", "Müller, Anna")),
    ("Café Déjà Vu: the $\\mathcal{L}_2$ \\textbf{Bold} \\emph{Claim} of Łódź & Co.", ("Łukasz Kaiser",)),
    ("A $\\{x \\mid x > 0\\}$ set, $x_1^2$, \\(\\alpha\\) and $7.90\\\\%$", ("Barnes and Noble Team", "A, B, C, D")),
    ("The \\LaTeX{} Companion with $$E = mc^2$$", ("Anonymous",)),
]


def papers() -> list[PaperView]:
    views = []
    for i, (title, authors) in enumerate(NORMAL):
        paper = Paper(
            id=f"n{i}", title=title, authors=authors, abstract=title * 3, year=2026,
            venue=["ICLR 2026 Conference Submission", "NeurIPS 2024", "ICML", "", "Workshop & Co"][i],
            url=f"https://openreview.net/forum?id=n{i}&x=%20",
        )
        views.append(PaperView(paper, Annotation(tags=("ml", "a&b"), notes="Fine notes, 100%.")))
    for i, text in enumerate(TRICKY):
        paper = Paper(id=f"t{i}", title=text, abstract=text, authors=("Ada Lovelace",), year=2026, venue=text)
        views.append(PaperView(paper, Annotation(tags=(text,), notes=text)))
    imported = Paper(
        id="bib", title="An {Imported} Book", authors=("M{\\\"u}ller, Anna",), year=2020, venue="",
        entry_type="book", extra_fields=(("publisher", "Addison-Wesley"), ("pages", "1--10"), ("edition", "2nd")),
    )
    views.append(PaperView(imported, Annotation(notes="\\{ 🎉 }")))
    for i, text in enumerate(HOSTILE):
        paper = Paper(
            id=f"h{i}", title=text, abstract=text, authors=(text, "Ada Lovelace"), year=2026,
            venue=text, url=text, doi=text,
        )
        views.append(PaperView(paper, Annotation(tags=(text,), notes=text)))
    return views


DOCUMENT = r"""\documentclass{article}
\begin{document}
Exported by reader-tui.
\nocite{*}
\bibliographystyle{plain}
\bibliography{export}
\end{document}
"""


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=120)


@pytest.mark.parametrize("mode", ["latex", "ascii", "unicode"])
def test_bibtex_and_latex_accept_the_export(tmp_path: Path, mode: str) -> None:
    if not (LATEX and BIBTEX):
        pytest.skip("bibtex not installed")
    unicode = mode == "unicode"
    (tmp_path / "export.bib").write_text(export_bibtex(papers(), mode=mode), encoding="utf-8")
    (tmp_path / "doc.tex").write_text(DOCUMENT, encoding="utf-8")
    latex = [LATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]

    first = run(latex, tmp_path)
    assert first.returncode == 0, first.stdout[-3000:]

    bibtex = run([BIBTEX, "doc"], tmp_path)
    blg = (tmp_path / "doc.blg").read_text(errors="replace")
    assert bibtex.returncode == 0, bibtex.stdout + blg
    assert "error message" not in blg, blg
    bbl = (tmp_path / "doc.bbl").read_text(errors="replace")
    assert bbl.count("\\bibitem") == len(papers())

    if unicode:
        return  # UTF-8 text is for biblatex with xelatex/lualatex; pdflatex cannot set emoji
    # The bibliography itself must typeset: the titles, authors and booktitles are printed.
    for _ in range(2):
        again = run(latex, tmp_path)
        assert again.returncode == 0, again.stdout[-3000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    # (A font shape substitution, `\\textsc` inside the italic booktitle, is not a defect.)
    assert "Undefined control" not in log and "Citation" not in log, log[-3000:]
    assert "\n! " not in log, log[-3000:]  # no LaTeX error at all
    # plain.bst's only complaint: an anonymous submission keeps its @inproceedings form
    # with no invented author, and "empty author" is a warning (it is typeset title first).
    warnings = re.findall(r"^Warning--(.*)$", blg, re.M)
    assert all(w.startswith("empty author in ") for w in warnings), blg


def test_the_measured_tables_still_hold(tmp_path: Path) -> None:
    """Every package-free character form, and every command kept in math, compiles in the
    plain document (re-measures `package_free` and `commands` against this TeX)."""
    if not LATEX:
        pytest.skip("LaTeX not installed")
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    from reader_tui.core.formats.bibtex.commands import MATH_ONLY, MATH_SUBSTITUTES, TAKES_ARGUMENT
    from reader_tui.core.formats.bibtex.package_free import text_form

    lines = []
    for code in sorted(get_builtin_uni2latex_dict()):
        form = text_form(chr(code)) if code > 127 else None
        if form:
            lines.append(f"x{form}x\\par")
    lines += [f"${v}{{x}}{{y}}$\\par" for v in MATH_SUBSTITUTES.values()]
    lines += [f"A\\ensuremath{{\\{c}}}{{x}}{{y}}B\\par" for c in sorted(MATH_ONLY - TAKES_ARGUMENT)]
    (tmp_path / "t.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + "\n".join(lines) + "\n\\end{document}\n")
    run([LATEX, "-interaction=nonstopmode", "t.tex"], tmp_path)
    log = (tmp_path / "t.log").read_text(errors="replace")
    errors = [block.split("\n")[0] + " at " + next((line for line in block.split("\n") if line.startswith("l.")), "?")
              for block in log.split("\n! ")[1:]]
    assert errors == [], errors[:20]
