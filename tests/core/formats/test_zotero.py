"""Zotero's local API, answered by a local server with the API's real JSON shapes: items
with `key`, `version`, `library`, `links`, `meta` and `data` (`itemType`, `creators`,
`tags`, `extra` with `Citation Key: X`, `dateAdded`...), child notes (`itemType: note`,
`parentItem`) and attachments, pages of `limit` items with `Total-Results`, the
`Last-Modified-Version` header and `since=`; and Zotero switched off or not running."""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from reader_tui import cli
from reader_tui.core.formats.zotero import SWITCH_ON, ZoteroUnavailable, fetch_items, read_zotero_items
from reader_tui.core.library.library import Library
from reader_tui.core.text.bbt_keys import bbt_key

LIBRARY = {"type": "user", "id": 0, "name": "", "links": {}}


def regular(n: int, version: int, **data: Any) -> dict[str, Any]:
    """A journal article as the local API gives it (`format=json`)."""
    key = f"ITEM{n:04d}"
    body = {
        "key": key, "version": version, "itemType": "journalArticle", "title": f"Learning Things Number {n}",
        "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": f"Lovelace{n}"},
                     {"creatorType": "author", "name": "The Analytical Society"},
                     {"creatorType": "editor", "firstName": "Charles", "lastName": "Babbage"}],
        "abstractNote": "Line one.\n\nLine two.", "publicationTitle": "Journal of Things", "volume": "3",
        "issue": "2", "pages": "10-20", "date": "2020-06-15", "series": "", "language": "en",
        "DOI": f"10.1000/item{n}", "ISSN": "", "shortTitle": "", "url": f"https://example.org/{n}",
        "accessDate": "2024-05-06T10:00:00Z", "archive": "", "libraryCatalog": "DBLP", "rights": "",
        "extra": "", "tags": [], "collections": ["COLL0001"], "relations": {},
        "dateAdded": "2024-05-06T10:00:00Z", "dateModified": "2024-05-06T10:00:00Z",
    }
    body.update(data)
    return {"key": key, "version": version, "library": LIBRARY,
            "links": {"self": {"href": f"http://localhost:23119/api/users/0/items/{key}", "type": "application/json"}},
            "meta": {"creatorSummary": f"Lovelace{n} et al.", "parsedDate": "2020-06-15", "numChildren": 1},
            "data": body}


def child(key: str, parent: str, version: int, item_type: str = "note", **data: Any) -> dict[str, Any]:
    body = {"key": key, "version": version, "itemType": item_type, "parentItem": parent, "tags": [],
            "relations": {}, "dateAdded": "2024-05-06T10:00:00Z", "dateModified": "2024-05-06T10:00:00Z", **data}
    return {"key": key, "version": version, "library": LIBRARY, "links": {}, "meta": {}, "data": body}


class FakeZotero:
    """The part of Zotero's local API that `import zotero` uses, plus what it was asked."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.asked: list[str] = []
        self.off = False  # Zotero running, the local API not switched on
        self.bbt: dict[str, str] | None = None  # Better BibTeX's keys, when "installed"

    @property
    def version(self) -> int:
        return max((i["version"] for i in self.items), default=0)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        zotero = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(body).encode() if not isinstance(body, bytes) else body
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self) -> None:
                zotero.asked.append(self.path)
                url = urllib.parse.urlparse(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if zotero.off:  # what Zotero 7 says with the local API off
                    return self._send(403, b"Local API is not enabled")
                parts = url.path.strip("/").split("/")
                if parts[:4] != ["api", "users", "0", "items"]:
                    return self._send(404, b"Not found")
                if len(parts) == 5:
                    found = [i for i in zotero.items if i["key"] == parts[4]]
                    return self._send(200, found[0]) if found else self._send(404, b"Not found")
                since = int(query.get("since", -1))
                changed = [i for i in zotero.items if i["version"] > since]
                start, limit = int(query.get("start", 0)), min(int(query.get("limit", 25)), 100)
                headers = {"Last-Modified-Version": str(zotero.version), "Total-Results": str(len(changed))}
                self._send(200, changed[start : start + limit], headers)

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if zotero.bbt is None:
                    return self._send(404, b"No endpoint found")
                self._send(200, {"jsonrpc": "2.0", "id": 1, "result": zotero.bbt})

        return Handler


@pytest.fixture
def zotero() -> Iterator[tuple[FakeZotero, str]]:
    fake = FakeZotero()
    server = ThreadingHTTPServer(("127.0.0.1", 0), fake.handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake, f"http://127.0.0.1:{server.server_address[1]}/api/"
    finally:
        server.shutdown()
        server.server_close()


def _library_items(fake: FakeZotero, count: int = 120) -> None:
    fake.items = [regular(n, 10 + n % 5) for n in range(count)]
    fake.items[0]["data"].update(extra="PMID: 123\nCitation Key: lovelace2020things",
                                 tags=[{"tag": "to read"}, {"tag": "ml", "type": 1}])
    fake.items.append(child("NOTE0001", "ITEM0000", 12, note="<div><p>First <b>point</b>.</p><p>Second &amp; last</p></div>"))
    fake.items.append(child("ATTA0001", "ITEM0000", 12, item_type="attachment", linkMode="imported_file",
                            title="Full Text PDF", contentType="application/pdf", filename="x.pdf"))


def test_every_item_with_its_key_tags_notes_and_fields(zotero: tuple[FakeZotero, str]) -> None:
    fake, url = zotero
    _library_items(fake)
    fetched = fetch_items(url)
    assert fetched.version == 14
    assert sum("/users/0/items?" in a for a in fake.asked) == 2  # 122 items: pages of 100
    result = read_zotero_items(fetched)
    assert len(result.papers) == 120  # the note and the attachment are no papers
    first = result.papers[0]
    assert first.citekey == "lovelace2020things"  # pinned in extra
    assert result.papers[1].citekey == bbt_key(["{Lovelace1}"], "Learning Things Number 1", 2020)
    assert first.title == "Learning Things Number 0" and first.year == 2020 and first.doi == "10.1000/item0"
    assert first.authors == ("Ada Lovelace0", "{The Analytical Society}") and first.entry_type == "article"
    extra = dict(first.extra_fields)
    assert extra["journal"] == "Journal of Things" and extra["month"] == "jun" and extra["pages"] == "10-20"
    assert extra["note"] == "PMID: 123" and extra["editor"] == "Charles Babbage" and extra["urldate"] == "2024-05-06"
    annotations = result.annotations[first.id]
    assert annotations["tags"] == ("to read", "ml")
    assert annotations["notes"] == "First point.\n\nSecond & last"


def test_better_bibtex_keys_are_taken_when_it_answers(zotero: tuple[FakeZotero, str]) -> None:
    fake, url = zotero
    _library_items(fake, 3)
    fake.bbt = {"ITEM0001": "adaOwnKey", "ITEM0000": "ignoredForPinned"}
    result = read_zotero_items(fetch_items(url))
    assert [p.citekey for p in result.papers] == ["lovelace2020things", "adaOwnKey", bbt_key(["{Lovelace2}"], "Learning Things Number 2", 2020)]


def test_import_zotero_reads_only_what_changed_since_the_last_import(zotero: tuple[FakeZotero, str], tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    fake, url = zotero
    _library_items(fake, 5)
    db = str(tmp_path / "lib")
    assert cli.main(["import", "zotero", "--zotero-url", url, "--db", db]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("5 Zotero items read")
    library = Library.open(Path(db), seed=None)
    assert "lovelace2020things" in {p.citekey for p in library.papers.values()}
    fake.items[3]["version"] = fake.items[3]["data"]["version"] = 20
    fake.items[3]["data"]["title"] = "Learning Things Again"
    fake.asked.clear()
    assert cli.main(["import", "zotero", "--zotero-url", url, "--db", db]) == 0
    out, _ = capsys.readouterr()
    assert "since=14" in fake.asked[0]
    assert out.startswith("1 Zotero item changed since version 14 read")
    titles = {p.title for p in Library.open(Path(db), seed=None).papers.values()}
    assert "Learning Things Again" in titles, out
    fake.asked.clear()
    assert cli.main(["import", "zotero", "--zotero-url", url, "--db", db]) == 0
    assert "since=20" in fake.asked[0] and capsys.readouterr().out == "Zotero: no items changed since version 20\n"
    assert cli.main(["import", "zotero", "--zotero-url", url, "--db", db, "--all"]) == 0
    assert "since" not in fake.asked[-1] and capsys.readouterr().out.startswith("5 Zotero items read")


def test_zotero_off_or_not_running_is_one_line_saying_what_to_switch_on(zotero: tuple[FakeZotero, str], tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    fake, url = zotero
    fake.off = True
    with pytest.raises(ZoteroUnavailable, match="off \\(403"):
        fetch_items(url)
    assert cli.main(["import", "zotero", "--zotero-url", url, "--db", str(tmp_path / "lib")]) == 1
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and SWITCH_ON in err
    closed = "http://127.0.0.1:9/api/"  # the discard port: nothing listens
    assert cli.main(["import", "zotero", "--zotero-url", closed, "--db", str(tmp_path / "lib")]) == 1
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "not answering" in err and SWITCH_ON in err
