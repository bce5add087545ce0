"""Zotero's local API (Zotero 7 and later): the user's items, tags, notes and citation keys.

Zotero answers at `http://localhost:23119/api/` once "Allow other applications on this
computer to communicate with Zotero" is on (Settings > Advanced); it needs no
credentials and is read-only, with the web API's shapes: `/users/0/items?format=json`
gives items whose `data` has `itemType`, `creators`, `tags`, `extra`..., child notes
(`itemType: note`, `parentItem`), pages of at most 100 (`start`, `limit`,
`Total-Results`), and `Last-Modified-Version`, which `since=` takes to ask only for
what changed after it.

Each regular item becomes a paper with the BibTeX entry type and fields it maps to
(plain text, see `formats.record`); its tags and its child notes (HTML made text) are
the user's tags and notes (`ImportResult.annotations`). Keys: one pinned in `extra`
(`Citation Key: X`), else Better BibTeX's own for the item when its JSON-RPC endpoint
answers, else the key its default formula gives (`text.bbt_keys`).

Only urllib: one GET per hundred items, no dependency to earn its place.
"""

from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..text.bbt_keys import BBTKeys, pinned_key
from ..text.citekeys import validate_citekey
from .base import ImportResult, add_annotation
from .record import MONTHS, Record, month_number, paper_of

__all__ = ["ZoteroUnavailable", "fetch_items", "read_zotero_items", "DEFAULT_URL", "SWITCH_ON"]

DEFAULT_URL = "http://localhost:23119/api/"
SWITCH_ON = (
    'start Zotero 7 and turn on Settings > Advanced > "Allow other applications on this computer to communicate '
    'with Zotero"'
)
_PAGE = 100
_TIMEOUT_S = 30


class ZoteroUnavailable(Exception):
    """Zotero's local API did not answer as it should. `str()` is one line saying what to
    switch on (or what went wrong)."""


ITEM_TYPES = {
    "journalArticle": "article", "magazineArticle": "article", "newspaperArticle": "article",
    "conferencePaper": "inproceedings", "book": "book", "bookSection": "incollection", "thesis": "phdthesis",
    "report": "techreport", "preprint": "misc", "manuscript": "unpublished", "webpage": "online",
    "blogPost": "online", "forumPost": "online", "document": "misc", "patent": "patent", "dataset": "dataset",
    "computerProgram": "software", "encyclopediaArticle": "incollection", "dictionaryEntry": "incollection",
    "presentation": "misc", "letter": "misc", "standard": "misc",
}
#: Zotero field -> BibTeX field (`publicationTitle` depends on the type: see `_record`).
FIELDS = {
    "proceedingsTitle": "booktitle", "bookTitle": "booktitle", "encyclopediaTitle": "booktitle",
    "dictionaryTitle": "booktitle", "websiteTitle": "journal", "blogTitle": "journal", "volume": "volume",
    "issue": "number", "pages": "pages", "publisher": "publisher", "place": "address", "university": "school",
    "institution": "institution", "reportNumber": "number", "edition": "edition", "series": "series",
    "ISBN": "isbn", "ISSN": "issn", "DOI": "doi", "url": "url", "abstractNote": "abstract", "language": "language",
    "shortTitle": "shorttitle", "repository": "howpublished", "archiveID": "eprint", "conferenceName": "eventtitle",
    "accessDate": "urldate", "thesisType": "type", "reportType": "type", "numPages": "pagetotal",
    "versionNumber": "version", "programmingLanguage": "language", "journalAbbreviation": "shortjournal",
}
_CREATORS = {"author": "author", "editor": "editor", "seriesEditor": "editor", "translator": "translator",
             "bookAuthor": "editor", "programmer": "author", "inventor": "author", "presenter": "author"}


@dataclass
class Fetched:
    """What the API gave: the items (regular and notes), and the library's version."""

    items: list[dict[str, Any]] = field(default_factory=list)
    version: int | None = None
    keys: dict[str, str] = field(default_factory=dict)
    """Better BibTeX's key of each item (item key -> citation key), when it answered."""


def _get(url: str) -> tuple[Any, Any]:
    request = urllib.request.Request(url, headers={"Zotero-API-Version": "3", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:
            body = response.read()
            headers = response.headers
    except urllib.error.HTTPError as error:
        if error.code in (403, 404, 501):
            raise ZoteroUnavailable(f"Zotero's local API is off ({error.code} from {url}): {SWITCH_ON}") from None
        raise ZoteroUnavailable(f"Zotero's local API answered {error.code} {error.reason} for {url}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ZoteroUnavailable(f"Zotero is not answering at {url} ({reason}): {SWITCH_ON}") from None
    try:
        return json.loads(body.decode("utf-8")), headers
    except (UnicodeDecodeError, ValueError):
        raise ZoteroUnavailable(f"Zotero's local API at {url} sent something that is not JSON: {SWITCH_ON}") from None


def fetch_items(base_url: str = DEFAULT_URL, since: int | None = None) -> Fetched:
    """Every item of the user's library (changed after version `since`, when given), with
    the library's version. Raises ZoteroUnavailable (one line) when Zotero does not answer."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    fetched = Fetched()
    start = 0
    while True:
        query = {"format": "json", "limit": str(_PAGE), "start": str(start)}
        if since is not None:
            query["since"] = str(since)
        data, headers = _get(f"{base}users/0/items?{urllib.parse.urlencode(query)}")
        if not isinstance(data, list):
            raise ZoteroUnavailable(f"Zotero's local API at {base} sent no list of items: is that Zotero's address?")
        fetched.items += [item for item in data if isinstance(item, dict)]
        version = headers.get("Last-Modified-Version")
        if version and version.isdigit():
            fetched.version = max(fetched.version or 0, int(version))
        total = headers.get("Total-Results")
        start += len(data)
        if not data or len(data) < _PAGE or (total and total.isdigit() and start >= int(total)):
            break
    # A note changed on its own: its paper is fetched too, so the note has somewhere to go.
    known = {_data(i).get("key") for i in fetched.items}
    for parent in sorted({_data(i).get("parentItem") for i in fetched.items if _data(i).get("itemType") == "note"} - known - {None}):
        data, _ = _get(f"{base}users/0/items/{urllib.parse.quote(str(parent))}?format=json")
        if isinstance(data, dict):
            fetched.items.append(data)
    fetched.keys = _better_bibtex_keys(base, [str(_data(i).get("key")) for i in fetched.items if _is_regular(i)])
    return fetched


def _better_bibtex_keys(base: str, item_keys: list[str]) -> dict[str, str]:
    """Better BibTeX's citation keys for `item_keys`, through its JSON-RPC endpoint beside
    the API; {} when it is not installed or does not answer (keys are then made as its
    default formula makes them)."""
    if not item_keys:
        return {}
    root = urllib.parse.urljoin(base, "/better-bibtex/json-rpc")
    body = json.dumps({"jsonrpc": "2.0", "method": "item.citationkey", "params": [item_keys], "id": 1}).encode()
    request = urllib.request.Request(root, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:
            answer = json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError, UnicodeDecodeError):
        return {}
    result = answer.get("result") if isinstance(answer, dict) else None
    if not isinstance(result, dict):
        return {}
    return {str(k).split(":")[-1]: v for k, v in result.items() if isinstance(v, str) and v}


def _data(item: dict[str, Any]) -> dict[str, Any]:
    data = item.get("data")
    return data if isinstance(data, dict) else item


def _is_regular(item: dict[str, Any]) -> bool:
    return _data(item).get("itemType") not in ("note", "attachment", "annotation", None) and not _data(item).get("deleted")


class _Text(HTMLParser):
    """The text of a Zotero note's HTML: paragraphs and line breaks kept."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("br",):
            self.parts.append("\n")
        elif tag in ("p", "div", "h1", "h2", "h3", "h4", "li", "blockquote", "pre"):
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def note_text(note_html: str) -> str:
    """A note's HTML as plain text (paragraphs as blank lines)."""
    parser = _Text()
    try:
        parser.feed(note_html)
        parser.close()
    except Exception:  # a note is never lost to a parser: its text with the tags cut
        return html.unescape(re.sub(r"<[^>]+>", " ", note_html)).strip()
    text = "".join(parser.parts)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.split("\n"))).strip()


def _date(text: str) -> dict[str, str]:
    text = (text or "").strip()
    match = re.match(r"(\d{4})(?:-(\d{1,2}))?", text)
    if match:
        found = {"year": match.group(1)}
        if match.group(2) and month_number(match.group(2)):
            found["month"] = MONTHS[int(match.group(2)) - 1]
        return found
    year = re.search(r"(?<!\d)(\d{4})(?!\d)", text)
    found = {"year": year.group(1)} if year else ({"year": text} if text else {})
    month = re.search(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", text, re.I)
    if month and year:
        found["month"] = month.group(1).lower()
    return found


def _record(data: dict[str, Any], notes: list[str]) -> Record:
    item_type = str(data.get("itemType") or "")
    entry_type = ITEM_TYPES.get(item_type, "misc")
    fields: dict[str, str] = {}
    publication = str(data.get("publicationTitle") or "").strip()
    if publication:
        fields["journal" if entry_type == "article" else "booktitle"] = publication
    for name, bib in FIELDS.items():
        value = data.get(name)
        if isinstance(value, (str, int)) and str(value).strip() and bib not in fields:
            fields[bib] = str(value).strip()
    if "urldate" in fields:
        fields["urldate"] = fields["urldate"][:10]
    if item_type == "thesis" and re.search(r"master", fields.get("type", ""), re.I):
        entry_type = "mastersthesis"
    fields.update(_date(str(data.get("date") or "")))
    extra = str(data.get("extra") or "")
    rest = "\n".join(line for line in extra.split("\n") if not pinned_key(line)).strip()
    if rest:
        fields["note"] = rest
    names: dict[str, list[dict[str, str]]] = {}
    for creator in data.get("creators") or ():
        if not isinstance(creator, dict):
            continue
        role = _CREATORS.get(str(creator.get("creatorType")), "author")
        if creator.get("name"):
            name = {"literal": str(creator["name"]).strip()}
        else:
            name = {k: str(creator.get(z) or "").strip() for k, z in (("family", "lastName"), ("given", "firstName"))}
            name = {k: v for k, v in name.items() if v}
        if name:
            names.setdefault(role, []).append(name)
    tags = tuple(str(t.get("tag")).strip() for t in data.get("tags") or () if isinstance(t, dict) and str(t.get("tag") or "").strip())
    return Record(
        entry_type=entry_type, key=pinned_key(extra) or str(data.get("citationKey") or ""),
        title=" ".join(str(data.get("title") or "").split()), names=names, fields=fields, tags=tags,
        notes="\n\n".join(n for n in notes if n),
    )


def read_zotero_items(fetched: Fetched, label: str = "zotero") -> ImportResult:
    """The papers, tags and notes of the items Zotero gave (`fetch_items`)."""
    result = ImportResult(path=Path(label))
    notes: dict[str, list[str]] = {}
    for item in fetched.items:
        data = _data(item)
        if data.get("itemType") == "note" and data.get("parentItem") and not data.get("deleted"):
            notes.setdefault(str(data["parentItem"]), []).append(note_text(str(data.get("note") or "")))
    keys = BBTKeys()
    regular = [_data(i) for i in fetched.items if _is_regular(i)]
    records = [(data, _record(data, notes.get(str(data.get("key")), []))) for data in regular]
    # Keys the user pinned, then Better BibTeX's own, are claimed before any is made.
    for data, record in records:
        for key in (record.key, fetched.keys.get(str(data.get("key")), "")):
            if key and validate_citekey(key) is None and keys.claim(key):
                record.key = key
                break
        else:
            record.key = ""
    for data, record in records:
        if not record.key:
            first = (record.names.get("author") or record.names.get("editor") or [{}])[0]
            family = first.get("family") or first.get("literal") or ""
            record.key = keys.make([f"{{{family}}}"] if family else [], record.title, record.fields.get("year"))
        paper = paper_of(record, source=f"zotero:{data.get('key', '')}")
        result.papers.append(paper)
        result.lines.append(None)
        add_annotation(result.annotations, paper.id, record.tags, record.notes)
    return result
