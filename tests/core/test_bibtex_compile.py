"""The real check: bibtex and pdflatex accept an export of hostile and normal papers.

Skipped where TeX is not installed (`apt-get install texlive-latex-base texlive-binaries`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.exporters.bibtex import export_bibtex
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
    for i, text in enumerate(HOSTILE):
        paper = Paper(
            id=f"h{i}", title=text, abstract=text, authors=(text, "Ada Lovelace"), year=2026,
            venue=text, url=text, doi=text,
        )
        views.append(PaperView(paper, Annotation(tags=(text,), notes=text)))
    return views


DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb}
\begin{document}
Exported by reader-tui.
\nocite{*}
\bibliographystyle{plain}
\bibliography{export}
\end{document}
"""


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=120)


@pytest.mark.parametrize("unicode", [False, True])
def test_bibtex_and_latex_accept_the_export(tmp_path: Path, unicode: bool) -> None:
    if not (LATEX and BIBTEX):
        pytest.skip("bibtex not installed")
    (tmp_path / "export.bib").write_text(export_bibtex(papers(), unicode=unicode), encoding="utf-8")
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
    assert "undefined" not in log, log[-3000:]
