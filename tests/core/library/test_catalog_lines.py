"""The catalog on disk is one JSON object with one paper per line (small diffs, read a line
at a time so that opening it never holds the whole file); catalogs of the older compact
shape (or any other JSON layout) are still read, and take the line shape at the next write."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from reader_tui import cli
from reader_tui.core.atomic_storage import StoreError, dump_json_lines, read_json_lines
from reader_tui.core.library.catalog.records import RecordTexts
from reader_tui.core.library.files import CATALOG_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

#: Text that has to come back exactly: non-BMP, right-to-left, combining marks, control
#: characters, the line and paragraph separators JSON leaves unescaped, quotes, backslashes.
HARD_TEXTS = [
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪 plane 1",
    "שלום עולם مرحبا",
    "e\u0301 n\u0303 a\u030a",
    "tab\tnew\nline\rcr\x00nul\x1besc\x7fdel",
    "sep\u2028line\u2029para\x85nel",
    'quote " backslash \\ brace {}',
]


@pytest.fixture(autouse=True)
def _quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("READER_TUI_BACKGROUND_INDEX", "0")


def papers(n: int = 3) -> list[Paper]:
    return [
        Paper(id=f"p{i}", title=f"Paper {i} {HARD_TEXTS[i % len(HARD_TEXTS)]}", abstract=HARD_TEXTS[(i + 1) % len(HARD_TEXTS)],
              authors=("Ada", HARD_TEXTS[i % len(HARD_TEXTS)]), year=2020 + i)
        for i in range(n)
    ]


def test_an_import_writes_one_paper_per_line_of_one_json_object(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(6))
    raw = (folder / CATALOG_FILE).read_bytes()
    lines = raw.split(b"\n")
    assert lines[0] == b"{" and lines[-2:] == [b"}", b""]
    record_lines = [line for line in lines if line.startswith(b'"') and b'"id":"p' in line]
    assert len(record_lines) == 6  # every paper on a line of its own
    assert [json.loads(b"{" + line.rstrip(b",") + b"}") for line in record_lines][0]["1"]["id"] == "p0"
    data = json.loads(raw)  # one JSON object, as any JSON reader takes it
    assert list(data) == ["_meta", "papers"] and list(data["papers"]) == [str(n) for n in range(1, 7)]


def test_every_text_comes_back_exactly(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    mine = papers(len(HARD_TEXTS))
    Library.open(folder).import_papers(mine)
    again = Library.open(folder)
    for paper in mine:
        stored = again.papers[paper.id]
        assert (stored.title, stored.abstract, stored.authors) == (paper.title, paper.abstract, paper.authors)


def test_the_line_shape_round_trips_any_tables(tmp_path: Path) -> None:
    tables = {"_meta": {"1": {"format": 1}}, "empty": {}, "papers": {"1": {"t": HARD_TEXTS}, "7": {"x": None}}}
    raw = b"".join(dump_json_lines(tables))
    assert orjson.loads(raw) == tables
    assert raw.count(b"\n") == 11  # {  meta 1 },  empty },  papers 1 7 }  }
    path = tmp_path / "t.json"
    path.write_bytes(raw)
    assert read_json_lines(path) == tables


def test_an_old_compact_catalog_is_read_and_rewritten_in_lines_at_the_next_write(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(3))
    path = folder / CATALOG_FILE
    data = json.loads(path.read_bytes())
    path.write_bytes(orjson.dumps(data))  # the shape catalogs had before: one line
    assert path.read_bytes().count(b"\n") == 0
    library = Library.open(folder)
    assert [library.papers[pid].title for pid in library.papers] == [p.title for p in papers(3)]
    library.import_papers([Paper(id="new", title="A new paper")])
    assert path.read_bytes().count(b"\n") > 5
    assert list(Library.open(folder).papers) == ["p0", "p1", "p2", "new"]


def test_an_indented_catalog_is_read_as_json(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(3))
    path = folder / CATALOG_FILE
    path.write_text(json.dumps(json.loads(path.read_bytes()), indent=2, ensure_ascii=False), encoding="utf-8")
    assert [p.title for p in Library.open(folder).papers.values()] == [p.title for p in papers(3)]


def test_a_damaged_line_is_refused_naming_the_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    path = folder / CATALOG_FILE
    lines = path.read_bytes().split(b"\n")
    (number,) = [n for n, line in enumerate(lines, 1) if b'"id":"p2"' in line]
    lines[number - 1] = lines[number - 1][:40]  # the record cut short
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(StoreError) as caught:
        read_json_lines(path)
    assert str(caught.value).startswith(f"{path}:{number}: not valid JSON, so it was left untouched (")
    assert cli.main(["--db", str(folder), "--no-seed", "list"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"reader-tui: {path}:{number}: not valid JSON") and err.count("\n") == 1


@pytest.mark.parametrize("cut", [1, 3, -2, -1])
def test_a_catalog_cut_off_at_a_line_end_is_refused_not_read_short(tmp_path: Path, cut: int) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    path = folder / CATALOG_FILE
    lines = path.read_bytes().split(b"\n")[:-1]  # the lines, each ending with "\n" on disk
    path.write_bytes(b"".join(line + b"\n" for line in lines[: len(lines) + cut if cut < 0 else cut + 5]))
    with pytest.raises(StoreError, match="not valid JSON"):
        read_json_lines(path)


def test_text_after_the_end_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2))
    path = folder / CATALOG_FILE
    path.write_bytes(path.read_bytes() + b'{"more": 1}\n')
    with pytest.raises(StoreError, match="not valid JSON"):
        read_json_lines(path)


LINE_DAMAGES = {
    # what the record's line becomes -> the one line that refuses it
    "authors-not-a-list": (lambda r: {**r, "authors": "Ada"}, "paper record 3 (id 'p2'): authors must be a list of strings"),
    "title-a-number": (lambda r: {**r, "title": 5}, "paper record 3 (id 'p2'): the title must be a string"),
    "record-null": (lambda r: None, "paper record 3: a paper record must be an object, not NoneType"),
    "no-id": (lambda r: {**r, "id": ""}, "paper record 3 has no id"),
}


@pytest.mark.parametrize("name", LINE_DAMAGES)
def test_a_damaged_record_in_the_line_shape_is_one_line_naming_file_and_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    damage, expected = LINE_DAMAGES[name]
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    path = folder / CATALOG_FILE
    lines = path.read_bytes().split(b"\n")
    (number,) = [n for n, line in enumerate(lines) if b'"id":"p2"' in line]
    doc_id, record = next(iter(json.loads(b"{" + lines[number].rstrip(b",") + b"}").items()))
    lines[number] = orjson.dumps(doc_id) + b":" + orjson.dumps(damage(record)) + b","
    path.write_bytes(b"\n".join(lines))
    assert path.read_bytes().count(b"\n") == len(lines) - 1  # still one record per line
    assert cli.main(["--db", str(folder), "--no-seed", "list"]) == 1
    err = capsys.readouterr().err
    assert err == f"reader-tui: {path}: {expected}\n"
    if name == "authors-not-a-list":  # found when the Paper is built, not when read
        # an interactive session (the TUI) stands a placeholder in for it and says why
        library = Library.open(folder, background_writes=True)
        try:
            assert library.papers["p2"].title.startswith("(damaged record")
            assert library.papers.problems == [f"{path}: {expected}"]
            assert library.papers["p3"].title == papers(5)[3].title
        finally:
            library.close()


def test_records_are_kept_as_their_text_until_a_paper_is_asked_for(tmp_path: Path, monkeypatch) -> None:
    # the parsed dicts of a whole catalog, once freed, left holes the process never gave
    # back; so did one bytes object per record: the texts are kept in chunks, each dropped
    # once all of its records are built
    monkeypatch.setattr(RecordTexts, "CHUNK", 700)  # a few records per chunk
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(8))
    library = Library.open(folder)
    catalog = library.papers
    assert all(type(record) is int for record in catalog._records.values())
    chunks = catalog._texts._chunks
    assert 2 <= len(chunks) < 8 and all(chunk is not None for chunk in chunks)
    assert catalog["p1"].abstract == papers(8)[1].abstract and catalog._records["p1"] is catalog["p1"]
    assert type(catalog._records["p2"]) is int
    assert [p.title for p in catalog.values()] == [p.title for p in papers(8)]
    assert chunks == [None] * len(chunks)  # every record built: every chunk gone
