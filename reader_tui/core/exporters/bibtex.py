"""BibTeX export: one entry per paper, safe for bibtex, pdflatex and bibtexparser alike.

This module builds the entries: their types, fields, booktitles, authors and keys.
Every field's text goes through `escape_latex` (see `exporters.latex` for what it
escapes and why; `unescape_latex` there is the way back), and titles also get their
capitals protected from BibTeX styles that lowercase them (`protect_case`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from reader_tui.core.citekeys import CitekeyAllocator, citekey_base, validate_citekey
from reader_tui.core.exporters.latex import escape_latex
from reader_tui.core.exporters.title_case import protect_case
from reader_tui.core.model import PaperView

__all__ = ["export_bibtex", "entry_for", "entry_fields", "booktitle_for", "HEADER"]

HEADER = "% exported by reader-tui\n"


# ---------------------------------------------------------------------------------------
# Venues.

_ORDINALS = (
    "First Second Third Fourth Fifth Sixth Seventh Eighth Ninth Tenth Eleventh Twelfth "
    "Thirteenth Fourteenth Fifteenth Sixteenth Seventeenth Eighteenth Nineteenth Twentieth"
).split()
_TENS = {20: "Twent", 30: "Thirt", 40: "Fort", 50: "Fift"}


def _ordinal_word(n: int) -> str:
    """1 -> First, 14 -> Fourteenth, 23 -> Twenty-Third (ICLR counts in words)."""
    if 1 <= n <= 20:
        return _ORDINALS[n - 1]
    tens, unit = divmod(n, 10)
    if tens * 10 in _TENS and n < 60:
        stem = _TENS[tens * 10]
        return stem + "ieth" if unit == 0 else f"{stem}y-{_ORDINALS[unit - 1]}"
    return _ordinal_number(n)


def _ordinal_number(n: int) -> str:
    """41 -> 41st (ICML counts in digits)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_VENUE = re.compile(r"\b(ICLR|NeurIPS|NIPS|ICML|CVPR|ICCV|ECCV|ACL|EMNLP|NAACL|AAAI|IJCAI|COLM|AISTATS|UAI)\b", re.I)
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_SUBMITTED = re.compile(r"\b(submission|submitted|withdrawn|rejected|under review)\b", re.I)
_FIXED_BOOKTITLES = {
    "NEURIPS": "Advances in Neural Information Processing Systems",
    "NIPS": "Advances in Neural Information Processing Systems",
    "CVPR": "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "ICCV": "Proceedings of the IEEE/CVF International Conference on Computer Vision",
    "ECCV": "European Conference on Computer Vision",
    "ACL": "Proceedings of the Annual Meeting of the Association for Computational Linguistics",
    "EMNLP": "Proceedings of the Conference on Empirical Methods in Natural Language Processing",
    "NAACL": "Proceedings of the Conference of the North American Chapter of the Association for Computational Linguistics",
    "AAAI": "Proceedings of the AAAI Conference on Artificial Intelligence",
    "IJCAI": "Proceedings of the International Joint Conference on Artificial Intelligence",
    "COLM": "Conference on Language Modeling",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics",
    "UAI": "Conference on Uncertainty in Artificial Intelligence",
}


@lru_cache(maxsize=1024)
def booktitle_for(venue: str, year: int | None = None) -> str:
    """The proceedings title for a venue string ("ICLR 2026 Conference Submission").

    Known venues get their usual booktitle (ICLR in OpenReview's words: "The Fourteenth
    International Conference on Learning Representations"); a submission not yet
    accepted is "Submitted to ...", as OpenReview writes it. Other venues: the text itself.
    """
    venue = " ".join(venue.split())
    m = _VENUE.search(venue)
    if not m:
        return venue
    name = m.group(1).upper()
    ym = _YEAR.search(venue)
    year = int(ym.group(1)) if ym else year
    if name == "ICLR":
        title = "International Conference on Learning Representations"
        if year and year > 2012:
            title = f"The {_ordinal_word(year - 2012)} {title}"
    elif name == "ICML":
        title = "International Conference on Machine Learning"
        if year and year > 1983:
            title = f"Proceedings of the {_ordinal_number(year - 1983)} {title}"
    else:
        title = _FIXED_BOOKTITLES[name]
    return f"Submitted to {title}" if _SUBMITTED.search(venue) else title


# ---------------------------------------------------------------------------------------
# Entries.

_ANONYMOUS = frozenset({"", "anonymous", "anonymous authors", "anonymous author", "anon"})
_AND_WORD = re.compile(r"(^|\s)and(\s|$)", re.I)
_URL_UNSAFE = re.compile(r"[\s{}\\\"<>^`|\x00-\x1f\x7f]|[^\x00-\x7f]")


def _authors(authors: Iterable[str], unicode: bool) -> str:
    names = []
    for name in authors:
        escaped = escape_latex(name, unicode=unicode)
        if escaped.lower().strip(".") in _ANONYMOUS:
            continue
        # "and" inside a name, or more than two commas, would split or break the name.
        if _AND_WORD.search(escaped) or escaped.count(",") > 2:
            escaped = "{%s}" % escaped
        names.append(escaped)
    return " and ".join(names) if names else "Anonymous"


_PREPRINT = re.compile(r"\b(arxiv|corr)\b", re.I)


@lru_cache(maxsize=1024)
def _venue_fields(venue: str, year: int | None, unicode: bool) -> tuple[str, str, str]:
    """(entry type, field name, field value) for a venue: a known venue is a conference
    (`@inproceedings`, booktitle), a preprint server `@misc` with howpublished."""
    venue = venue.strip()
    if not venue:
        return "misc", "booktitle", ""
    if _PREPRINT.search(venue):
        return "misc", "howpublished", escape_latex(venue, unicode=unicode)
    return "inproceedings", "booktitle", escape_latex(booktitle_for(venue, year), unicode=unicode)


def _url(url: str) -> str:
    """A URL as written, percent-encoding what would break a field or a `\\url{}`.

    URLs are not LaTeX-escaped: biblatex and hyperref read them verbatim.
    """
    url = url.strip()
    if not _URL_UNSAFE.search(url):
        return url
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "replace")), url)


def entry_fields(paper: PaperView, *, abstract: bool = True, unicode: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """The entry type and the (name, value) fields of `paper`'s entry, values as written
    between the braces; empty fields are left out."""
    # Catalog fields straight from the Paper: PaperView.__getattr__ costs a failed lookup each.
    catalog = getattr(paper, "paper", paper)
    year = catalog.year
    entry_type, venue_field, venue_value = _venue_fields(catalog.venue or "", year, unicode)
    fields = [
        ("title", protect_case(escape_latex(paper.title, unicode=unicode))),
        ("author", _authors(paper.authors, unicode)),
        (venue_field, venue_value),
        ("year", str(year) if year is not None else ""),
        ("url", _url(paper.url or "")),
        ("doi", _url(catalog.doi or "")),
        ("abstract", escape_latex(catalog.abstract or "", unicode=unicode, multiline=True) if abstract else ""),
        # The user's own text: `unescape_latex` gives it back exactly (see its docstring).
        ("keywords", ", ".join(t for t in (escape_latex(tag, unicode=unicode, user_text=True) for tag in paper.tags) if t)),
        ("annote", escape_latex(paper.notes or "", unicode=unicode, multiline=True, user_text=True)),
    ]
    return entry_type, [(name, value) for name, value in fields if value]


def _format(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n"


def entry_for(paper: PaperView, *, key: str | None = None, abstract: bool = True, unicode: bool = False) -> str:
    """One BibTeX entry for `paper`, keyed `key` (default: its own citekey, or a made one).

    `key` must be valid (`validate_citekey`); an invalid paper citekey is replaced.
    """
    if key is None:
        key = paper.citekey if paper.citekey and validate_citekey(paper.citekey) is None else citekey_base(paper)
    problem = validate_citekey(key)
    if problem:
        raise ValueError(f"bad citation key {key!r}: {problem}")
    return _entry(paper, key, abstract, unicode)


def _entry(paper: PaperView, key: str, abstract: bool, unicode: bool) -> str:
    entry_type, fields = entry_fields(paper, abstract=abstract, unicode=unicode)
    return _format(entry_type, key, fields)


def export_bibtex(papers: Iterable[PaperView], *, abstract: bool = True, unicode: bool = False) -> str:
    """A .bib file for `papers`, in the given order, with unique keys.

    A paper keeps its citekey when it is valid and not already used in this file
    (case-insensitively); otherwise it gets a made one (`smith2024a`).
    `abstract=False` leaves abstracts out; `unicode=True` keeps non-ASCII text as UTF-8
    for biblatex/biber instead of turning it into LaTeX commands.
    """
    keys = CitekeyAllocator()
    parts = [HEADER]
    for paper in papers:
        key = paper.citekey
        if not key or validate_citekey(key) is not None or not keys.claim(key):
            key = keys.make(paper)
        parts.append("\n")
        parts.append(_entry(paper, key, abstract, unicode))  # the key was checked above
    return "".join(parts)
