"""Opening a catalog whose layout was written down reads each record's text at its place
instead of parsing the file again: the same papers, character for character, and the full
parse whenever the file is not the very one the layout was written for."""

from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path

import pytest
from test_catalog_lines import HARD_TEXTS as LINE_TEXTS

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.catalog import layout as catalog_layout
from reader_tui.core.library.catalog.layout import LayoutRecorder, file_key, layout_cache_path, load_layout
from reader_tui.core.library.catalog.records import Unread
from reader_tui.core.library.files import CATALOG_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

#: The texts the catalog's lines must bring back exactly, and more of Unicode's range.
HARD_TEXTS = [
    *LINE_TEXTS,
    "plane 16 \U0010fffd \u202eevil\u202c",
    "\u0915\u094d\u0937 漢字かなカナ 한국어 全角　スペース",
    "esc[31mred\x9bcsi \ufeffbom \u200bzw [bold]markup[/] $\\alpha$",
    "   leading and trailing   ",
]


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))


def papers(n: int) -> list[Paper]:
    hard = HARD_TEXTS
    return [
        Paper(
            id=f"p{i}-{hard[i % len(hard)][:3]}", title=f"Paper {i} {hard[i % len(hard)]}",
            abstract=hard[(i + 1) % len(hard)] * (1 + i % 50), authors=("Ada", hard[(i + 2) % len(hard)]),
            keywords=(hard[(i + 3) % len(hard)],), year=2020 + i % 7,
        )
        for i in range(n)
    ]


def everything(library: Library) -> list[dict]:
    return [library.papers[pid].to_dict() for pid in library.papers]


def reads_laid_out(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, for each open from now on, whether it read the catalog at its layout's places."""
    seen: list[bool] = []
    real = catalog_layout.read_records

    def spy(*args, **kwargs):
        records = real(*args, **kwargs)
        seen.append(records is not None)
        return records

    monkeypatch.setattr("reader_tui.core.library.files.read_records", spy)
    return seen


def test_an_open_after_the_first_reads_the_same_papers_at_their_places(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    # enough text for several megabyte chunks, so records at chunk edges are read too
    Library.open(folder).import_papers(papers(2_500))
    first = Library.open(folder)  # parses, and writes the layout down
    expected = everything(first)
    assert layout_cache_path(folder).is_file()
    laid_out = reads_laid_out(monkeypatch)
    again = Library.open(folder)
    assert laid_out == [True]
    assert list(again.papers) == list(first.papers)
    assert everything(again) == expected
    assert len(again.papers._texts._chunks) > 2  # the texts came in chunks, as the parse keeps them


def test_a_catalog_changed_in_place_is_parsed_again_even_with_its_old_size_and_time(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(20))
    Library.open(folder)  # layout written
    catalog = folder / CATALOG_FILE
    before = catalog.stat()
    raw = catalog.read_bytes()
    assert raw.count(b"Paper 3 ") == 1
    with open(catalog, "r+b") as file:  # another program edits it in place: same size, same inode
        file.seek(raw.index(b"Paper 3 "))
        file.write(b"Gaper 3 ")
    os.utime(catalog, ns=(before.st_atime_ns, before.st_mtime_ns))  # and even sets its time back
    laid_out = reads_laid_out(monkeypatch)
    library = Library.open(folder)
    assert laid_out == []  # the layout was not for this file
    assert any(library.papers[pid].title.startswith("Gaper 3 ") for pid in library.papers)


def test_a_damaged_layout_cache_means_the_full_parse(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(30))
    expected = everything(Library.open(folder))
    cache = layout_cache_path(folder)
    raw = bytearray(cache.read_bytes())
    raw[-5] ^= 0xFF
    cache.write_bytes(bytes(raw))
    laid_out = reads_laid_out(monkeypatch)
    assert everything(Library.open(folder)) == expected
    assert laid_out == []  # the checksum refused it before any place was read


def test_places_that_do_not_fit_the_file_mean_the_full_parse(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(10))
    expected = everything(Library.open(folder))
    catalog = folder / CATALOG_FILE
    layout = load_layout(folder, file_key(catalog.stat()))
    assert layout is not None
    wrong = LayoutRecorder()  # a layout that claims the records lie beyond the end of the file
    for number, (pid, start, length) in enumerate(zip(layout.paper_ids, layout.starts, layout.lengths, strict=True), 1):
        wrong.record(str(number), pid, start + catalog.stat().st_size, length)
    assert wrong.save(folder, file_key(catalog.stat()), layout.meta)
    laid_out = reads_laid_out(monkeypatch)
    assert everything(Library.open(folder)) == expected
    assert laid_out == [False]


def test_a_damaged_record_is_named_by_its_record_number_either_way(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    catalog = folder / CATALOG_FILE
    raw = catalog.read_bytes()
    # record 4's year becomes text: its shape (id, title) is fine, its Paper is not
    catalog.write_bytes(raw.replace(b'"year":2023', b'"year":"soon"'))
    messages = []
    for _ in range(2):  # parsed, then read at its places
        library = Library.open(folder)
        with pytest.raises(StoreError) as error:
            library.papers.check_all()
        messages.append(str(error.value))
    assert layout_cache_path(folder).is_file()
    assert messages[0] == messages[1]
    assert "catalog.json: paper record 4 " in messages[0]


def test_a_cache_folder_that_cannot_be_written_costs_nothing_but_the_parse(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("READER_TUI_CACHE", str(blocker))
    expected = everything(Library.open(folder))
    assert everything(Library.open(folder)) == expected
    assert not layout_cache_path(folder).exists()


def test_a_record_of_an_unusual_document_id_is_named_by_it_either_way(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(5))
    catalog = folder / CATALOG_FILE
    raw = catalog.read_bytes()
    assert raw.count(b'\n"4":{') == 1
    # document 4 renumbered 40 by another program, and its year made text
    catalog.write_bytes(raw.replace(b'\n"4":{', b'\n"40":{').replace(b'"year":2023', b'"year":"soon"'))
    laid_out = reads_laid_out(monkeypatch)
    messages = []
    for _ in range(2):  # parsed, then read at its places
        with pytest.raises(StoreError) as error:
            Library.open(folder).papers.check_all()
        messages.append(str(error.value))
    assert laid_out == [True]
    assert messages[0] == messages[1] and "catalog.json: paper record 40 " in messages[0]


# -- reading the texts when they are needed ---------------------------------------------


def unread_chunks(library: Library) -> int:
    return sum(type(chunk) is Unread for chunk in library.papers._texts._chunks)


def reading_ahead() -> list[threading.Thread]:
    """The threads reading a catalog's texts ahead (`RecordTexts.read_ahead`), this test's
    or any other's still running."""
    return [thread for thread in threading.enumerate() if thread.name == "catalog-read-ahead"]


def file_held(library: Library):
    """A look at whether the library's catalog reader still holds its file descriptor
    (its closing finalizer not run yet): a callable that stays valid after the library
    is gone. (Not os.fstat on the number: a later open may reuse it.)"""
    closing = library.papers._texts._reader._close
    return lambda: closing.alive


def test_a_laid_out_open_reads_a_chunk_only_when_a_record_in_it_is_wanted(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    expected = everything(Library.open(folder))  # parses, and writes the layout down
    library = Library.open(folder)
    chunks = len(library.papers._texts._chunks)
    assert chunks > 2 and unread_chunks(library) == chunks  # nothing read at the open
    last = list(library.papers)[-1]
    assert library.papers[last].to_dict() == expected[-1]
    assert unread_chunks(library) == chunks - 1  # the last record's chunk, and only it
    assert everything(library) == expected


def test_records_read_after_their_catalog_was_replaced_are_the_ones_opened(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    expected = everything(Library.open(folder))
    library = Library.open(folder)
    catalog = folder / CATALOG_FILE
    # replaced whole, as every write of the store replaces it: other text at every place
    new = tmp_path / "new.json"
    new.write_bytes(catalog.read_bytes().replace(b"Paper ", b"Gaper "))
    os.replace(new, catalog)
    assert everything(library) == expected  # the file as it was when it was opened
    assert all(paper["title"].startswith("Paper ") for paper in expected)


def test_a_catalog_changed_in_place_after_the_open_is_refused_record_by_record(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    Library.open(folder)  # layout written
    command = Library.open(folder)
    session = Library.open(folder, background_writes=False)
    session.papers.placeholders = True  # as the TUI draws a damaged record
    catalog = folder / CATALOG_FILE
    with open(catalog, "r+b") as file:  # another program writes into the file itself
        file.seek(100)
        file.write(b"#")
    last = list(command.papers)[-1]
    with pytest.raises(StoreError) as error:
        command.papers[last]
    assert str(error.value).startswith(f"{catalog}: paper record 2500 (id {last!r}): ")
    assert str(error.value).endswith("catalog.json was changed on disk by another program: open the library again")
    assert session.papers[last].title.startswith("(damaged record: catalog.json was changed on disk")
    assert session.papers.problems == [str(error.value)]


def test_the_tui_reads_every_chunk_ahead_after_its_first_frame_and_then_lets_the_file_go(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    expected = everything(Library.open(folder))
    before = set(reading_ahead())
    library = Library.open(folder, background_writes=True)
    held = file_held(library)
    unread = unread_chunks(library)
    assert unread > 0
    # Until the first frame is up, nothing reads ahead (the frame reads what it shows) ...
    assert not set(reading_ahead()) - before
    library.papers[next(iter(library.papers))]
    assert unread_chunks(library) == unread - 1 and held()
    library.start_background_work()  # ... then a thread reads the rest
    deadline = time.monotonic() + 30
    while unread_chunks(library) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert unread_chunks(library) == 0  # read by the read-ahead, no record asked for
    assert not held()
    assert everything(library) == expected


def test_a_command_that_reads_some_records_lets_the_file_go_with_the_library(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    Library.open(folder)
    library = Library.open(folder)
    held = file_held(library)
    library.papers[next(iter(library.papers))]
    assert held() and unread_chunks(library) > 0
    del library
    gc.collect()
    assert not held()


def test_where_an_open_file_cannot_be_replaced_the_texts_are_read_at_the_open(tmp_path: Path, monkeypatch) -> None:
    # (Windows: the store replaces the catalog at each write of it, which a file held
    # open there would refuse)
    folder = tmp_path / "db"
    Library.open(folder).import_papers(papers(2_500))
    expected = everything(Library.open(folder))
    monkeypatch.setattr(catalog_layout, "READ_LATER", False)
    library = Library.open(folder)
    assert unread_chunks(library) == 0 and len(library.papers._texts._chunks) > 2
    assert not file_held(library)()
    catalog = folder / CATALOG_FILE
    new = tmp_path / "new.json"
    new.write_bytes(catalog.read_bytes().replace(b"Paper ", b"Gaper "))
    os.replace(new, catalog)
    assert everything(library) == expected
