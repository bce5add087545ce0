"""The export formats in one place: their names, file extensions, labels, and the text
of an export. The CLI (`export --format`), the export dialog and the auto-exports all
ask here, so a format added here is offered everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import PaperView

#: Every export format, in the order they are offered.
EXPORT_FORMATS = ("bibtex", "markdown", "csljson", "ris")
EXTENSIONS = {"bibtex": ".bib", "markdown": ".md", "csljson": ".json", "ris": ".ris"}
LABELS = {"bibtex": "BibTeX", "markdown": "Markdown list", "csljson": "CSL-JSON", "ris": "RIS"}
#: Formats whose files carry citation keys (a key exported may now be cited).
KEYED = frozenset({"bibtex", "csljson", "ris"})


def export_text(
    format: str, papers: Iterable[PaperView], *, abstract: bool = True, mode: str = "latex", scores: bool = False,
    memo: dict | None = None,
) -> str:
    """The text of an export of `papers` in `format`. `abstract` and `mode` are BibTeX's
    (see `bibtex.writer`), `scores` the Markdown list's. ValueError for an unknown format."""
    if format == "bibtex":
        from .bibtex.writer import export_bibtex

        return export_bibtex(papers, abstract=abstract, mode=mode, memo=memo)
    if format == "markdown":
        from .markdown import export_markdown

        return export_markdown(papers, scores=scores, memo=memo)
    if format == "csljson":
        from .csl_json import export_csl_json

        return export_csl_json(papers)
    if format == "ris":
        from .ris import export_ris

        return export_ris(papers)
    raise ValueError(f"unknown export format {format!r} (expected one of: {', '.join(EXPORT_FORMATS)})")


def export_losses_of(format: str, papers: Iterable[PaperView]) -> dict[str, int]:
    """What an export in CSL-JSON or RIS cannot hold, {what: how many papers} ({} for the
    others: BibTeX's losses depend on its mode, see `bibtex.writer.export_losses`)."""
    if format == "csljson":
        from .csl_json import csl_losses

        return csl_losses(papers)
    if format == "ris":
        from .ris import ris_losses

        return ris_losses(papers)
    return {}
