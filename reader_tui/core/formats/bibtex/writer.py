"""BibTeX export: one entry per paper, safe for bibtex, pdflatex and bibtexparser alike.

This module builds the entries: their types, fields, booktitles, authors and keys.

* A paper imported from a .bib file (`Paper.entry_type` set) comes back as it went in: its
  citation key, its entry type, its own LaTeX in every field, and every field the model
  does not know (`Paper.extra_fields`) written verbatim, empty ones too. Only what the
  user changed here is re-escaped; the user's tags add a `tags` field.
* Keys: a key a file gave a paper is kept whatever it holds (`kumāra`) as long as it
  can stand in an entry's head; a key typed here must be valid (`validate_citekey`).
* Other papers (OpenReview, seed, CSV): catalog text goes through `escape_latex` (see
  `bibtex.latex`), titles also get their capitals protected (`protect_case`).
* The user's own notes and tags go through `user_text.encode_user_text`, which
  `decode_user_text` undoes exactly.

Modes: "latex" (the default) writes what compiles with no package in the fields styles
print, non-ASCII text without a package-free LaTeX form as UTF-8 elsewhere;
"unicode" keeps all non-ASCII as UTF-8 (biblatex/biber); "ascii" writes a pure ASCII
file (but for a key from the user's file, kept as it is). `export_losses` says what the
chosen mode could not write.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from reader_tui.core.formats.bibtex.latex import escape_latex, lossy_characters, to_ascii
from reader_tui.core.formats.bibtex.title_case import protect_case
from reader_tui.core.formats.bibtex.user_text import decode_user_text, encode_user_text
from reader_tui.core.model import PaperView
from reader_tui.core.text.citekeys import CitekeyAllocator, citekey_base, fits_entry_head, validate_citekey

__all__ = ["export_bibtex", "entry_for", "entry_fields", "booktitle_for", "export_losses", "HEADER", "CONTROLS_LEFT_OUT"]

#: The file's first lines. The second says how this version writes tags (each entry's
#: `tags` field), so that the importer tells these files from earlier ones, whose
#: `keywords` held the tags.
HEADER = "% exported by reader-tui\n% tags: in each entry's tags field\n"

#: The `export_losses` kind for control characters, left out of every field but the
#: user's notes and tags in every mode: a .bib is printed, paged and pasted, and an ESC
#: or BEL in it would act on the terminal that shows it. No LaTeX means one either.
CONTROLS_LEFT_OUT = "control characters left out"
# C0 controls but line feed and tab (a field's line breaks; a CR is read as a line feed
# first, as escape_latex does), DEL, C1 controls, and lone surrogates, which no UTF-8
# file can hold: what escape_latex drops from catalog text, dropped from .bib values too.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _without_controls(value: str) -> str:
    """`value` with its line breaks as line feeds and every `_CONTROLS` character dropped."""
    if not _CONTROLS.search(value):
        return value
    return _CONTROLS.sub("", value.replace("\r\n", "\n").replace("\r", "\n"))


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


def _authors(authors: Iterable[str], mode: str) -> str:
    """The author field, "" when no real author is known (an OpenReview submission's
    "Anonymous" is no one's name, and would come back from a re-import as an author)."""
    names = []
    for name in authors:
        escaped = _escape(name, mode)
        if escaped.lower().strip(".") in _ANONYMOUS:
            continue
        # "and" inside a name, or more than two commas, would split or break the name.
        if _AND_WORD.search(escaped) or escaped.count(",") > 2:
            escaped = "{%s}" % escaped
        names.append(escaped)
    return " and ".join(names)


_PREPRINT = re.compile(r"\b(arxiv|corr)\b", re.I)


@lru_cache(maxsize=1024)
def _venue_fields(venue: str, year: int | None, mode: str) -> tuple[str, str, str]:
    """(entry type, field name, field value) for a venue: a known venue is a conference
    (`@inproceedings`, booktitle), a preprint server `@misc` with howpublished."""
    venue = venue.strip()
    if not venue:
        return "misc", "booktitle", ""
    if _PREPRINT.search(venue):
        return "misc", "howpublished", _escape(venue, mode)
    return "inproceedings", "booktitle", _escape(booktitle_for(venue, year), mode)


def _escape(text: str, mode: str, *, multiline: bool = False, typeset: bool = True) -> str:
    """Catalog text as field text. `typeset` fields (printed by styles) get `?` for what
    has no package-free form in the default mode; others keep it as UTF-8."""
    return escape_latex(
        text, unicode=mode == "unicode", multiline=multiline, keep_utf8=mode == "latex" and not typeset
    )


def _url(url: str) -> str:
    """A URL as written, percent-encoding what would break a field or a `\\url{}`.

    URLs are not LaTeX-escaped: biblatex and hyperref read them verbatim.
    """
    url = url.strip()
    if not _URL_UNSAFE.search(url):
        return url
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "replace")), url)


def entry_fields(paper: PaperView, *, abstract: bool = True, unicode: bool = False, mode: str | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The entry type and the (name, value) fields of `paper`'s entry, values as written
    between the braces; empty fields are left out. `mode` is "latex" (the default),
    "unicode" or "ascii" (`unicode=True` is mode "unicode")."""
    mode = mode or ("unicode" if unicode else "latex")
    # Catalog fields straight from the Paper: PaperView.__getattr__ costs a failed lookup each.
    catalog = getattr(paper, "paper", paper)
    if catalog.entry_type:
        return _bibtex_entry_fields(paper, catalog, abstract, mode)
    year = catalog.year
    entry_type, venue_field, venue_value = _venue_fields(catalog.venue or "", year, mode)
    title_text = paper.title
    if catalog.title_derived and title_text == catalog.title and title_text.endswith("…"):
        # A title made from the abstract is cut with "…": in a bibliography, three periods.
        title_text = title_text[:-1] + "..."
    title = protect_case(_escape(title_text, mode))
    # No author known (an anonymous submission, a seed abstract): "Anonymous", as
    # OpenReview's own BibTeX for a submission under review has it, so that styles neither
    # warn of an empty author nor sort the entry apart. A re-import reads it as no one.
    author = _authors(paper.authors, mode) or "Anonymous"
    fields = [
        ("title", title),
        ("author", author),
        (venue_field, venue_value),
        ("year", str(year) if year is not None else ""),
        ("url", _url(paper.url or "")),
        ("doi", _verbatim(catalog.doi or "", mode)),  # as it came: normalised only to match papers
        ("abstract", _escape(catalog.abstract or "", mode, multiline=True, typeset=False) if abstract else ""),
        *_user_fields(paper, mode),
    ]
    return entry_type, _kept(fields)


def _user_fields(paper: PaperView, mode: str, keywords: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """`tags` (the user's tags) and `annote` (the notes), written so that the importer gets
    the tags and notes back exactly, and `keywords`.

    `keywords` is None for a paper that did not come from a .bib: its entry is ours, and
    `keywords` repeats the tags, which Zotero, JabRef and biblatex's keyword filters read.
    A paper imported from a .bib keeps its own `keywords` (if any) as written, and gains
    only a `tags` field, when it has tags: its entry comes back as it went in.
    """
    tags = ", ".join(t for t in (encode_user_text(t, mode=mode, tag=True) for t in paper.tags) if t)
    words = tags if keywords is None else ", ".join(_verbatim(k, mode) for k in keywords)
    return [("keywords", words), ("tags", tags), ("annote", encode_user_text(paper.notes or "", mode=mode))]


def _kept(fields: Iterable[tuple[str, str]], empty_kept: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, str]]:
    """The fields worth writing: empty ones are left out, except those in `empty_kept`."""
    return [(name, value) for name, value in fields if value or name in empty_kept]


_JOURNAL_TYPES = frozenset({"article", "periodical", "suppperiodical"})
_MODELLED = frozenset({"title", "author", "year", "url", "doi", "abstract", "keywords", "annote"})


def _bibtex_entry_fields(paper: PaperView, catalog, abstract: bool, mode: str) -> tuple[str, list[tuple[str, str]]]:
    """A paper imported from BibTeX: its own entry type and fields, its LaTeX as written,
    what the user edited here escaped."""
    extra = {name.lower(): value for name, value in catalog.extra_fields}
    # A record read from CSL-JSON, RIS or Zotero holds plain text, not LaTeX: escaped.
    _verbatim = _escape if extra.get("@text") == "plain" else _as_written
    if paper.title != catalog.title or _verbatim is _escape:
        title = protect_case(_escape(paper.title, mode))  # the user's own title
    elif catalog.title_derived:
        title = extra.get("title", "")  # the entry had no title: the list's stand-in is not one
    else:
        title = _verbatim(catalog.title, mode)
    if tuple(paper.authors) == tuple(catalog.authors):
        # The list as the file wrote it (its `AND`s) where the reader kept that.
        author = _verbatim(extra["@author"], mode) if "@author" in extra else " and ".join(_verbatim(a, mode) for a in catalog.authors)
    else:
        author = _authors(paper.authors, mode)
    fields: dict[str, str] = {"author": author, "title": title}
    venue = catalog.venue or ""
    if venue and "journal" not in extra and "booktitle" not in extra:
        fields["journal" if catalog.entry_type.lower() in _JOURNAL_TYPES else "booktitle"] = _verbatim(venue, mode)
    fields["year"] = str(catalog.year) if catalog.year is not None else ""
    bare = {value for name, value in catalog.extra_fields if name == "@bare"}
    for name, value in catalog.extra_fields:
        name = name.lower()
        if name.startswith("@"):
            continue  # reserved keys, not fields (see importers.bibtex)
        if name not in _MODELLED and name not in fields:
            fields[name] = _Bare(value) if name in bare and _MONTH_MACRO.match(value) else _verbatim(value, mode)
    if "year" in extra:
        fields["year"] = _verbatim(extra["year"], mode)  # "1985/1986", "August, 2005": as written
    # The url as the file had it (a `\_` included) unless the user changed it here.
    fields["url"] = _verbatim(catalog.url, mode) if paper.url == catalog.url and _verbatim is _as_written else _url(paper.url or "")
    fields["doi"] = _as_written(catalog.doi or "", mode)
    if abstract:
        fields["abstract"] = _verbatim(catalog.abstract or "", mode)
    fields.update(_user_fields(paper, mode, catalog.keywords))
    if "@keywords" in extra and catalog.keywords:
        fields["keywords"] = _verbatim(extra["@keywords"], mode)  # the file's own separators
    annote = extra.get("@annote")
    if annote is not None and paper.notes and paper.notes == decode_user_text(annote) and not _CONTROLS.search(annote):
        # The notes are still the entry's own annote: write it as the file had it (its
        # `\cite`, its math), not the user-text encoding of what it reads as. Not when it
        # holds control characters: verbatim would send them on, and the user-text
        # encoding keeps them exactly.
        fields["annote"] = _verbatim(annote, mode)
    # Fields the file had empty (`OPTpages = {}`, `title = {}`) are written empty.
    empty_in_file = {name for name, value in extra.items() if not value and not name.startswith("@")}
    return catalog.entry_type.lower(), _kept(fields.items(), empty_in_file)


_MONTH_MACRO = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)$", re.I)


class _Bare(str):
    """A field value written without braces: a month macro kept as the file had it."""


_LINE_START_AT = re.compile(r"\n\s*@")


def _as_written(value: str, mode: str) -> str:
    """A value from the user's own .bib file, as written: it is LaTeX already.

    Written verbatim unless it would break the file (unbalanced braces, an `@` starting
    a line): then escaped like any catalog text. ASCII mode turns its non-ASCII into LaTeX.
    Control characters (an ESC, a BEL) are left out, as `export_losses` counts them.
    """
    value = _without_controls(value)
    if _LINE_START_AT.search(value):
        value = " ".join(value.split())
    if not _balanced(value):
        return escape_latex(value, unicode=mode == "unicode", keep_utf8=mode == "latex")
    return to_ascii(value) if mode == "ascii" else value


#: What `_as_written` does, under the name the entry builders use.
_verbatim = _as_written


def _balanced(value: str) -> bool:
    """Braces balance as bibtex counts them (all) and as bibtexparser does (unescaped)."""
    for escaped_count in (True, False):
        depth = 0
        previous = ""
        for char in value:
            if char in "{}" and (escaped_count or previous != "\\"):
                depth += 1 if char == "{" else -1
                if depth < 0:
                    return False
            previous = "" if previous == "\\" else char
        if depth:
            return False
    return value[-1:] != "\\"


def _format(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {value}" if isinstance(value, _Bare) else f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n"


def entry_for(paper: PaperView, *, key: str | None = None, abstract: bool = True, unicode: bool = False, mode: str | None = None) -> str:
    """One BibTeX entry for `paper`, keyed `key` (default: its own citekey, or a made one).

    `key` must be valid (`validate_citekey`); an invalid paper citekey is replaced.
    """
    if key is None:
        key = paper.citekey if _keeps_own_key(paper) else citekey_base(paper)
    problem = None if key == paper.citekey and _keeps_own_key(paper) else validate_citekey(key)
    if problem:
        raise ValueError(f"bad citation key {key!r}: {problem}")
    return _entry(paper, key, abstract, mode or ("unicode" if unicode else "latex"))


def _keeps_own_key(paper: PaperView) -> bool:
    """Whether `paper`'s citekey can be written as it is: a valid one, or the one its own
    .bib file gave it (`kumāra`, a key biber accepts), which the user's `\\cite` uses."""
    key = paper.citekey
    if not key:
        return False
    if validate_citekey(key) is None:
        return True
    return key == getattr(paper, "paper", paper).citekey and fits_entry_head(key)


def _entry(paper: PaperView, key: str, abstract: bool, mode: str) -> str:
    entry_type, fields = entry_fields(paper, abstract=abstract, mode=mode)
    return _format(entry_type, key, fields)


def export_bibtex(
    papers: Iterable[PaperView], *, abstract: bool = True, unicode: bool = False, mode: str | None = None, memo: dict | None = None
) -> str:
    """A .bib file for `papers`, in the given order, with unique keys.

    A paper keeps its citekey when it is valid and not already used in this file
    (case-insensitively); otherwise it gets a made one (`smith2024a`).
    `abstract=False` leaves abstracts out; `mode` (see the module docstring) "latex" by
    default, `unicode=True` the same as mode "unicode". `memo` (a dict kept by the caller
    between exports of the same papers) keeps each entry's text while its paper is as it was.
    """
    from reader_tui.core.formats.write import memoized

    mode = mode or ("unicode" if unicode else "latex")
    keys = CitekeyAllocator()
    parts = [HEADER]
    papers = _parents_last(list(papers))
    # The preambles of the .bib files the papers came from (`\noopsort`...), each once.
    # Control characters left out, as from every other field.
    preambles = dict.fromkeys(
        _CONTROLS.sub("", value)
        for paper in papers
        for name, value in getattr(paper, "paper", paper).extra_fields
        if name == "@preamble" or name.startswith("@preamble ")
    )
    parts += [f"@preamble{{{value}}}\n" for value in preambles]
    for paper in papers:
        key = paper.citekey
        if not _keeps_own_key(paper) or not keys.claim(key):
            key = keys.make(paper)
        parts.append("\n")
        parts.append(memoized(memo, paper, (key, abstract, mode), lambda: _entry(paper, key, abstract, mode)))
    return "".join(parts)


def _parents_last(papers: list[PaperView]) -> list[PaperView]:
    """`papers` in order, but an entry that another one names in its `crossref` after all
    the others: bibtex takes a parent's fields only when it comes after its children."""
    named = {
        value.lower()
        for paper in papers
        for name, value in getattr(paper, "paper", paper).extra_fields
        if name == "crossref"
    }
    if not named:
        return papers
    parents = [paper for paper in papers if (paper.citekey or "").lower() in named]
    return [paper for paper in papers if (paper.citekey or "").lower() not in named] + parents


def export_losses(papers: Iterable[PaperView], *, abstract: bool = True, mode: str = "latex") -> dict[str, int]:
    """What an export in `mode` cannot write as it is: {kind of loss: characters}.

    Notes and tags never lose anything. In every mode, control characters are left out of
    the other fields (kind `CONTROLS_LEFT_OUT`). Beyond that, mode "unicode" loses
    nothing; mode "latex" loses in the fields styles print (titles, authors, venues) of
    papers not imported from a .bib; mode "ascii" also in abstracts and in the values of
    imported .bib entries.
    """
    losses: dict[str, int] = {}
    for paper in papers:
        catalog = getattr(paper, "paper", paper)
        controls = sum(len(_CONTROLS.findall(_line_feeds(text))) for text in _written_texts(paper, catalog, abstract))
        if controls:
            losses[CONTROLS_LEFT_OUT] = losses.get(CONTROLS_LEFT_OUT, 0) + controls
        if mode == "unicode" or (catalog.entry_type and mode == "latex"):
            continue  # UTF-8 as it is; the user's own .bib values are written as they came
        texts = [paper.title, *paper.authors, catalog.venue or ""]
        if mode == "ascii":
            texts.append(catalog.abstract if abstract else "")
            texts += [value for _name, value in catalog.extra_fields]
        for text in texts:
            # Controls are counted above, once; here what remains has no LaTeX form.
            for kind, count in lossy_characters(_without_controls(text)).items():
                losses[kind] = losses.get(kind, 0) + count
    return losses


def _line_feeds(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _written_texts(paper: PaperView, catalog, abstract: bool) -> list[str]:
    """The texts of `paper` that its entry writes through `_escape` or `_verbatim`
    (not the URL and DOI, which are percent-encoded, nor the notes and tags)."""
    texts = [paper.title, *paper.authors]
    if abstract:
        texts.append(catalog.abstract or "")
    if not catalog.entry_type:
        return [*texts, catalog.venue or ""]
    extra = {name.lower(): value for name, value in catalog.extra_fields}
    if "journal" not in extra and "booktitle" not in extra:
        texts.append(catalog.venue or "")
    texts += [value for name, value in extra.items() if name not in _MODELLED and not name.startswith("@")]
    return [*texts, *catalog.keywords]
