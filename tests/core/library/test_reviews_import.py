"""Reviews into a library that already holds the list: matched by id, nothing doubled,
every annotation kept; a newer snapshot keeps what moved; the reviews store's promises
(one transaction, a damaged file refused in one line and never written)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.openreview import read_openreview
from reader_tui.core.library.library import Library
from reader_tui.core.library.reviews_store import REVIEWS_FILE
from reader_tui.core.model import Status

REVIEWS = Path(__file__).parents[2] / "fixtures" / "import_reviews"
IDS = ["PaperAAAA1", "PaperBBBB2", "PaperCCCC3", "PaperDDDD4"]


def import_file(library: Library, path: Path):
    result = read_openreview(path)
    return library.import_papers(result.papers, result.annotations, result.forums)


@pytest.fixture
def library(tmp_path: Path) -> Library:
    """A library holding the plain list (no reviews), with the user's annotations."""
    listing = tmp_path / "list.jsonl"
    with listing.open("w") as out:
        for pid in IDS:
            out.write(json.dumps({"id": pid, "title": f"Title of {pid}", "abstract": "An abstract. " * 10,
                                  "venue": "ICLR 2026 Conference Submission"}) + "\n")
    library = Library.open(tmp_path / "db")
    library.import_papers(read_openreview(listing).papers)
    library.set_status(["PaperAAAA1"], Status.TO_READ)
    library.add_tags(["PaperAAAA1", "PaperCCCC3"], ["mine"])
    library.set_notes("PaperCCCC3", "my note")
    return library


def test_reviews_merge_into_the_list_by_id_keeping_every_annotation(library: Library) -> None:
    summary = import_file(library, REVIEWS / "snapshot1.jsonl")
    assert (summary.new, summary.updated, summary.merged) == (0, 4, 0)
    assert summary.reviews.added == 4
    again = Library.open(library.files.folder)
    assert list(again.papers) == IDS  # nothing doubled
    assert again.annotation("PaperAAAA1").status is Status.TO_READ
    assert again.annotation("PaperCCCC3").tags == ("mine",) and again.annotation("PaperCCCC3").notes == "my note"
    a = again.papers["PaperAAAA1"]
    assert a.tldr and a.area and a.pdf_url.endswith(".pdf") and a.scores.ratings == (4, 8, 2)
    assert again.papers["PaperBBBB2"].withdrawn
    assert [n.author for n in again.forum("PaperAAAA1").reviews] == ["Reviewer_x1y2", "Reviewer_z3w4", "Reviewer_q5r6"]
    assert again.forum("PaperNONE") is None


def test_a_newer_snapshot_updates_the_scores_and_keeps_what_moved(library: Library) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    first = library.papers["PaperAAAA1"].scores
    summary = import_file(library, REVIEWS / "snapshot2.jsonl")
    assert summary.reviews.updated == 1 and summary.reviews.moved == 1 and summary.reviews.unchanged == 3
    assert "1 review changed scores" in str(summary)
    scores = Library.open(library.files.folder).papers["PaperAAAA1"].scores
    assert scores.ratings == (6, 8, 2) and scores.previous == (4, 8, 2)
    assert scores.previous_captured == first.captured and scores.captured > first.captured
    review = library.forum("PaperAAAA1").reviews[0]
    assert review.scores["rating"] == 6 and review.moves() == [(review.moves()[0][0], 4)]
    assert "rating 6 (was 4)" in review.scores_line()
    assert any(n.id == "ComA2" for n in library.forum("PaperAAAA1").notes)
    # the same snapshot again, then the older one: nothing changes, nothing regresses
    for path in (REVIEWS / "snapshot2.jsonl", REVIEWS / "snapshot1.jsonl"):
        summary = import_file(library, path)
        assert summary.updated == 0 and summary.reviews.updated == 0 and summary.reviews.added == 0
    assert library.papers["PaperAAAA1"].scores.ratings == (6, 8, 2)
    assert library.forum("PaperAAAA1").reviews[0].scores["rating"] == 6


def test_a_bad_line_leaves_the_store_unchanged(library: Library) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    folder = library.files.folder
    before = {name: (folder / name).read_bytes() for name in ("catalog.json", "annotations.json", REVIEWS_FILE)}
    with pytest.raises(ImportFailure, match=r"bad_line\.jsonl:2: "):
        import_file(library, REVIEWS / "bad_line.jsonl")
    assert {name: (folder / name).read_bytes() for name in before} == before


@pytest.mark.parametrize(
    ("contents", "words"),
    [
        (b"this is not a database at all, just text" * 10, "not a reviews store"),
        (None, "not a reader-tui reviews store"),  # an SQLite file of another program
        ("cut", "damaged"),  # a real store cut short
    ],
)
def test_a_damaged_reviews_store_is_refused_in_one_line_and_never_written(
    library: Library, tmp_path: Path, contents, words: str
) -> None:
    path = library.files.folder / REVIEWS_FILE
    if contents is None:
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE notes (x)")
        other.commit()
        other.close()
    elif contents == "cut":
        import_file(library, REVIEWS / "snapshot1.jsonl")
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        path.write_bytes(contents)
    damaged = path.read_bytes()
    catalog = library.files.catalog_path.read_bytes()
    reader = Library.open(library.files.folder)
    errors = []
    for attempt in (lambda: reader.forum("PaperAAAA1"), lambda: import_file(reader, REVIEWS / "snapshot2.jsonl")):
        with pytest.raises(StoreError) as caught:
            attempt()
        errors.append(str(caught.value))
    for message in errors:
        assert message.startswith(str(path)) and words in message and "\n" not in message
    assert path.read_bytes() == damaged
    assert library.files.catalog_path.read_bytes() == catalog  # the import wrote nothing
    assert reader.review_store.check() is not None


def test_the_reviews_store_reads_one_paper_at_a_time(library: Library) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    store = Library.open(library.files.folder).review_store
    assert store.count() == 4
    assert store.check() is None
    assert store.forum("PaperCCCC3").reviews[3].scores["rating"] == 4
    # the catalog holds the numbers, never the texts
    assert b"A summary." not in library.files.catalog_path.read_bytes()


def test_doctor_names_a_damaged_reviews_store(library: Library) -> None:
    from reader_tui.core.library.doctor import check_store, report_lines

    import_file(library, REVIEWS / "snapshot1.jsonl")
    assert check_store(library.files.folder).ok
    (library.files.folder / REVIEWS_FILE).write_bytes(b"not sqlite" * 50)
    report = check_store(library.files.folder)
    assert not report.ok
    assert any(str(library.files.folder / REVIEWS_FILE) in line and "not a reviews store" in line for line in report_lines(report))


def test_importing_the_plain_list_again_keeps_what_the_reviews_brought(library: Library, tmp_path: Path) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    before = {pid: library.papers[pid] for pid in IDS}
    summary = import_file(library, tmp_path / "list.jsonl")
    assert summary.reviews is None  # (titles and abstracts are refreshed from the list: another text)
    after = Library.open(library.files.folder)
    for pid in IDS:
        paper = after.papers[pid]
        assert (paper.tldr, paper.area, paper.pdf_url, paper.withdrawn, paper.scores) == (
            before[pid].tldr, before[pid].area, before[pid].pdf_url, before[pid].withdrawn, before[pid].scores
        )
    assert after.forum("PaperAAAA1") is not None


def test_a_store_locked_by_a_writer_is_said_to_be_busy_not_damaged(library: Library) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    path = library.files.folder / REVIEWS_FILE
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")  # what an import's commit holds
    try:
        reader = Library.open(library.files.folder)
        reader.review_store.timeout = 0.05
        with pytest.raises(StoreError, match="another reader-tui is writing the reviews"):
            reader.forum("PaperAAAA1")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert reader.forum("PaperAAAA1") is not None


def _malformed_snapshot(tmp_path: Path) -> Path:
    """snapshot2, captured later, with PaperAAAA1's reviews malformed as a broken scraper
    leaves them: RevA1's rating null, RevA2's a list, RevA3 without its content."""
    lines = []
    for line in (REVIEWS / "snapshot2.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["id"] == "PaperAAAA1":
            replies = {reply["id"]: reply for reply in record["replies"]}
            replies["RevA1"]["content"]["rating"] = {"value": None}
            replies["RevA2"]["content"]["rating"] = {"value": [6, 7]}
            del replies["RevA3"]["content"]
            for reply in record["replies"]:
                reply["mdate"] = reply.get("mdate", 0) + 1_000_000_000  # a later capture
        lines.append(json.dumps(record))
    path = tmp_path / "snapshot3.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_value_that_cannot_be_read_never_replaces_one_that_could(library: Library, tmp_path: Path) -> None:
    """Issue 30, item 7: null and list ratings wiped the scores and their history, reviews
    without content erased their text, and the report said "reviews changed scores"."""
    import_file(library, REVIEWS / "snapshot1.jsonl")
    import_file(library, REVIEWS / "snapshot2.jsonl")
    texts_before = {n.id: n.sections for n in library.forum("PaperAAAA1").reviews}
    summary = import_file(library, _malformed_snapshot(tmp_path))
    assert summary.reviews.updated == 1 and summary.reviews.moved == 0
    assert "changed scores" not in str(summary) and "3 warnings" in str(summary)
    warnings = [line for line in summary.details([]) if line.startswith("warning:")]
    assert warnings == [
        "warning: paper PaperAAAA1: review RevA1 by Reviewer_x1y2: its rating could not be read (null or not a"
        " number): 6 kept",
        "warning: paper PaperAAAA1: review RevA2 by Reviewer_z3w4: its rating could not be read (null or not a"
        " number): 8 kept",
        "warning: paper PaperAAAA1: review RevA3 by Reviewer_q5r6: it came without its content: its scores and"
        " text as known before are kept",
    ]
    for lib in (library, Library.open(library.files.folder)):
        scores = lib.papers["PaperAAAA1"].scores
        assert scores.ratings == (6, 8, 2) and scores.previous == (4, 8, 2)
        reviews = lib.forum("PaperAAAA1").reviews
        assert [r.scores["rating"] for r in reviews] == [6, 8, 2]
        assert "rating 6 (was 4)" in reviews[0].scores_line()
        assert {n.id: n.sections for n in reviews} == texts_before and all(texts_before.values())


def test_the_reviewers_summaries_are_read_a_batch_at_a_time_passing_over_a_damaged_forum(library: Library) -> None:
    import_file(library, REVIEWS / "snapshot1.jsonl")
    store = Library.open(library.files.folder).review_store
    whole = dict(store.summaries())
    reviewed = [pid for pid in IDS if store.forum(pid).reviews]
    assert sorted(whole) == sorted(reviewed) and len(reviewed) >= 3
    for pid, text in whole.items():
        said = [body for n in store.forum(pid).reviews for name, body in n.sections if name == "summary"]
        assert text.splitlines() == said
    assert dict(store.summaries(batch=1)) == whole  # paged, every forum is read once
    from reader_tui.core.reviews import encode_forum

    said = {"v": 1, "captured": "", "notes": [{"kind": "review", "text": [["summary", "An empty id's."]]}]}
    with sqlite3.connect(store.path) as connection:  # the first of all ids in order: "" (paging starts at it)
        connection.execute("INSERT INTO forum VALUES ('', '', 1, ?)", (encode_forum(said),))
    connection.close()
    assert dict(store.summaries(batch=1)) == {"": "An empty id's.", **whole}
    with sqlite3.connect(store.path) as connection:
        connection.execute("DELETE FROM forum WHERE paper_id = ''")
    connection.close()
    odd = {"v": 1, "captured": "", "notes": [{"kind": "review", "text": None}, {"kind": "review", "text": [7]}]}
    with sqlite3.connect(store.path) as connection:
        connection.execute("UPDATE forum SET data = ? WHERE paper_id = ?", (b"not zlib", reviewed[0]))
        connection.execute("UPDATE forum SET data = ? WHERE paper_id = ?", (encode_forum(odd), reviewed[1]))
        connection.execute("UPDATE forum SET data = ? WHERE paper_id = ?", ("text, not a blob", reviewed[2]))
    connection.close()
    assert dict(store.summaries(batch=2)) == {pid: text for pid, text in whole.items() if pid not in reviewed[:3]}
