"""How a record names its paper, in comparable form: DOIs, urls and OpenReview forum ids
normalised, text folded for comparison, and the `Paper.source` tags of BibTeX records.

The importers use these to give a record its id; `library.same_paper` uses them to
recognise the same paper arriving from two sources.
"""

from __future__ import annotations

import re
import unicodedata

# A record's identifiers in one place for the importers; the search uses it from text.
from ..text.doi import normalise_doi as normalise_doi

#: `Paper.source` of a record read from a user's .bib file, and of one read back from a
#: file reader-tui exported (followed by the file's name).
BIBTEX_SOURCE = "bibtex:"
OWN_EXPORT_SOURCE = "reader-tui export:"
BIBTEX_SOURCES = (BIBTEX_SOURCE, OWN_EXPORT_SOURCE)


# --- identifiers -----------------------------------------------------------------

_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf|attachment)/?\?(?:[^#]*&)?id=([A-Za-z0-9_\-]+)", re.I)
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/([a-z\-]+/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?", re.I)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*://", re.I)


def openreview_forum_id(url: str) -> str:
    """The forum id in an OpenReview link (`openreview.net/forum?id=X` -> "X"), else ""."""
    match = _OPENREVIEW.search(url or "")
    return match.group(1) if match else ""


def normalise_url(url: str) -> str:
    """A url in its comparable form: no scheme, `www.`, fragment or trailing slash; host
    in lower case (paths and queries keep their case: OpenReview ids are case-sensitive)."""
    url = (url or "").strip()
    if not url:
        return ""
    forum = openreview_forum_id(url)
    if forum:
        return "openreview.net/forum?id=" + forum
    arxiv = _ARXIV.search(url)
    if arxiv:
        return "arxiv.org/abs/" + arxiv.group(1).lower()
    url = _SCHEME.sub("", url).split("#", 1)[0]
    host, slash, rest = url.partition("/")
    host = host.lower().removeprefix("www.")
    return (host + slash + rest).rstrip("/")


# --- text -----------------------------------------------------------------------

_LATEX_COMMAND = re.compile(r"\\(?:[A-Za-z]+\*?|[^A-Za-z\s])")
_COMBINING = re.compile("[\u0300-\u036f]+")
_NON_WORD = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """A text reduced for comparison: LaTeX commands and accents dropped, NFKD, case-folded,
    punctuation gone, spaces collapsed (`{\\'E}tude: $\\alpha$-Nets` -> "etude nets").

    Not `text.display.normalise`: that renders LaTeX with pylatexenc (up to 10 ms per abstract,
    about 1 s for 20k titles), far too slow to match whole lists; for telling whether two
    records are the same paper, dropping the markup on both sides is enough.
    """
    if "\\" in text:
        text = _LATEX_COMMAND.sub("", text)
    if "{" in text:  # `{B}ig` is one word: drop braces rather than split at them
        text = text.replace("{", "").replace("}", "")
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return _NON_WORD.sub(" ", text.casefold()).strip()
