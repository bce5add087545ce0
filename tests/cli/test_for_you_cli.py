"""`reader-tui list --sort for-you [--tag T] --limit N --json`: the undecided papers by a
model of the user's decisions, each with why; what it needs when there is nothing to
learn from; and the search saying when not every word matched."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

Cli = Callable[..., tuple[str, str]]

TOPICS = {
    "prot": ("Protein folding", "protein folding structure residues backbone amino chains"),
    "opt": ("Optimizer", "optimizer momentum gradient preconditioning learning rate schedule"),
}


@pytest.fixture
def db(tmp_path: Path) -> str:
    library = Library.open(tmp_path / "lib")
    papers = []
    for topic, (title, words) in TOPICS.items():
        vocab = words.split()
        for i in range(8):
            mine = [vocab[(i + k) % len(vocab)] for k in range(4)]
            papers.append(Paper(id=f"{topic}{i}", title=f"{title} {mine[0]} {i}",
                                abstract=" ".join(mine) + " we study a method with experiments"))
    library.import_papers(papers)
    return str(tmp_path / "lib")


def test_for_you_needs_a_decision_to_learn_from(reader_tui: Cli, db: str) -> None:
    out, err = reader_tui("list", "--db", db, "--sort", "for-you", code=2)
    assert "for you needs 3 more kept (to-read, reading, read or tagged) and 3 more skipped" in err
    assert "nothing to learn from" in err


def test_for_you_json_ranks_the_liked_topic_with_why(reader_tui: Cli, db: str) -> None:
    reader_tui("status", "--db", db, "to-read", "prot0", "prot1")
    reader_tui("status", "--db", db, "skipped", "opt0", "opt1")
    out, err = reader_tui("list", "--db", db, "--sort", "for-you", "--limit", "4", "--json")
    rows = json.loads(out)
    assert [r["id"][:4] for r in rows] == ["prot"] * 4
    assert not {"prot0", "prot1"} & {r["id"] for r in rows}  # decided: not offered again
    why = rows[0]["for_you"]
    assert why["words"] and why["like"][0]["id"] in ("prot0", "prot1")
    assert why["like"][0]["title"].startswith("Protein folding")
    # text: a line per paper and its why
    out, _ = reader_tui("list", "--db", db, "--sort", "for-you", "--limit", "1")
    assert out.splitlines()[1].startswith("    why: words: ")


def test_more_like_a_tag(reader_tui: Cli, db: str) -> None:
    reader_tui("tag", "--db", db, "opt3", "+mine")
    reader_tui("tag", "--db", db, "opt4", "+mine")
    out, _ = reader_tui("list", "--db", db, "--sort", "for-you", "--tag", "mine", "--limit", "3", "--json")
    assert [r["id"][:3] for r in json.loads(out)] == ["opt"] * 3
    _, err = reader_tui("list", "--db", db, "--sort", "for-you", "--tag", "other", code=2)
    assert "no paper is tagged 'other'" in err


def test_search_says_when_not_every_word_matched(reader_tui: Cli, db: str) -> None:
    _, err = reader_tui("list", "--db", db, "--search", "protein xylophone")
    assert "no paper has every word of 'protein xylophone'" in err
    _, err = reader_tui("list", "--db", db, "--search", "protein folding")
    assert err == ""


def test_a_query_of_fields_alone_says_nothing_of_words(reader_tui: Cli, db: str) -> None:
    """`status:to-read` has no words to cover: every paper it lists fits it whole."""
    reader_tui("status", "--db", db, "to-read", "opt3")
    out, err = reader_tui("list", "--db", db, "--search", "status:to-read")
    assert out.count("\n") == 1 and err == ""


def test_for_you_learns_from_what_the_tui_learns_from(reader_tui: Cli, db: str) -> None:
    """The TL;DRs and the reviewers' summaries, as in the TUI: a paper whose own text says
    nothing of the topic kept, retold in its words by a TL;DR or a reviewer, ranks first."""
    from reader_tui.core.reviews import ForumData, encode_forum, forum_record

    review = {"id": "r1", "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"],
              "content": {"summary": {"value": "protein folding of residues and backbone chains"}}}
    record = forum_record({"id": "quiet1"}, [review], "quiet1")
    library = Library.open(Path(db))
    library.import_papers(
        [Paper(id="quiet0", title="A study", abstract="we study a method", tldr="protein residues and amino chains"),
         Paper(id="quiet1", title="Another study", abstract="a method with experiments")],
        forums={"quiet1": ForumData(record["captured"], 1, encode_forum(record))})
    library.close()
    reader_tui("status", "--db", db, "to-read", "prot0", "prot1")
    reader_tui("status", "--db", db, "skipped", "opt0", "opt1")
    out, _ = reader_tui("list", "--db", db, "--sort", "for-you", "--json")
    order = [r["id"] for r in json.loads(out)]
    last_protein = max(i for i, pid in enumerate(order) if pid.startswith("prot"))
    assert order.index("quiet0") < last_protein and order.index("quiet1") < last_protein, order  # among them


def test_for_you_goes_on_without_a_reviews_store_it_cannot_read(reader_tui: Cli, db: str) -> None:
    from reader_tui.core.library.reviews_store import REVIEWS_FILE

    (Path(db) / REVIEWS_FILE).write_bytes(b"not a database at all" * 10)
    reader_tui("status", "--db", db, "to-read", "prot0", "prot1")
    reader_tui("status", "--db", db, "skipped", "opt0", "opt1")
    out, err = reader_tui("list", "--db", db, "--sort", "for-you", "--limit", "3", "--json")
    assert [r["id"][:4] for r in json.loads(out)] == ["prot"] * 3
    line = next(line for line in err.splitlines() if "for you could not read the reviews" in line)
    assert REVIEWS_FILE in line
