"""The seed list importer: the bundled ICLR 2026 list and the format's odd corners."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.formats.base import ImportFailure
from reader_tui.core.formats.seed import parse_header, read_seed
from reader_tui.core.text.display import stable_id

SEED = Path(__file__).parents[3] / "seeds" / "iclr2026.txt"

ABSTRACT_A = "We propose FooNet, a model for cats. It works well on 5% of dogs."
ABSTRACT_B = "Cats are known to sleep a lot. We study why."


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_the_bundled_seed_list() -> None:
    result = read_seed(SEED)
    papers = result.papers
    assert len(papers) == 19
    assert result.problems == []
    assert {p.venue for p in papers} == {"ICLR"}
    assert {p.year for p in papers} == {2026}
    assert {p.source for p in papers} == {"seed:iclr2026.txt"}
    assert all(p.title_derived and p.citekey == "" for p in papers)
    assert len({p.id for p in papers}) == 19
    assert len({p.title for p in papers}) == 19
    assert all(p.id == stable_id(p.abstract) for p in papers)
    titles = {p.short_name: p.title for p in papers if p.short_name}
    assert titles["SOCOP"] == "SOCOP: Singleton-Optimized Conformal Prediction"
    assert titles["Active Reading"].startswith("Active Reading: a framework that trains models")
    assert titles["GeoPurify"].startswith("GeoPurify: ")
    assert titles["BeyondBench"].startswith("BeyondBench: an evaluation framework")
    assert titles["log-linear attention"].startswith("Log-linear attention: an attention mechanism")
    assert titles["PG-Occ"].startswith("PG-Occ: a Progressive Gaussian Transformer")
    # abstracts are kept as written, markup included
    assert any(r"\textbf{GeoPurify}" in p.abstract for p in papers)
    assert papers[0].abstract.startswith("LLMs are known to store vast amounts")


def test_the_id_hash_never_changes() -> None:
    # Stable across imports, line endings and a BOM: the importer contract. Stable across
    # versions: a changed hash would orphan every user's annotations.
    assert read_seed(SEED).papers[0].id == "y3ftt5oorg"


def test_crlf_bom_blank_runs_and_trailing_spaces(tmp_path: Path) -> None:
    text = f"\ufeffNeurIPS 2024 list  \r\n\r\n\r\n   \r\n{ABSTRACT_A}   \r\n \t \r\n\r\n{ABSTRACT_B}\r\n\r\n\r\n"
    result = read_seed(write(tmp_path, "odd.txt", text))
    assert [p.abstract for p in result.papers] == [ABSTRACT_A, ABSTRACT_B]
    assert {(p.venue, p.year) for p in result.papers} == {("NeurIPS", 2024)}
    assert result.papers[0].title == "FooNet: a model for cats"
    assert result.papers[0].short_name == "FooNet"


def test_lines_inside_a_paragraph_are_joined(tmp_path: Path) -> None:
    result = read_seed(write(tmp_path, "wrapped.txt", "We propose FooNet,\na model   \nfor cats.\n"))
    assert result.papers[0].abstract == "We propose FooNet, a model for cats."


def test_no_header_takes_venue_and_year_from_arguments(tmp_path: Path) -> None:
    path = write(tmp_path, "plain.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    result = read_seed(path, venue="ICML", year=2025)
    assert len(result.papers) == 2
    assert {(p.venue, p.year) for p in result.papers} == {("ICML", 2025)}
    bare = read_seed(path)
    assert {(p.venue, p.year) for p in bare.papers} == {("", None)}


def test_arguments_override_the_header(tmp_path: Path) -> None:
    path = write(tmp_path, "h.txt", f"ICLR 2026 论文列表\n\n{ABSTRACT_A}\n")
    result = read_seed(path, venue="TMLR", year=2027, source="mine")
    paper = result.papers[0]
    assert (paper.venue, paper.year, paper.source) == ("TMLR", 2027, "mine")


def test_a_repeated_abstract_is_kept_once_and_reported(tmp_path: Path) -> None:
    text = f"ICLR 2026\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n\n{ABSTRACT_A.replace(' ', '  ')}\n"
    path = write(tmp_path, "dup.txt", text)
    result = read_seed(path)
    assert [p.abstract for p in result.papers] == [ABSTRACT_A, ABSTRACT_B]
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert problem.line == 7 and "line 3" in problem.message
    assert str(problem).startswith(f"{path}:7: ")


def test_same_derived_title_made_unique(tmp_path: Path) -> None:
    one = "We propose FooNet, a model for cats. It is fast."
    two = "We propose FooNet, a model for cats. It is slow."
    result = read_seed(write(tmp_path, "same.txt", f"{one}\n\n{two}\n"))
    assert [p.title for p in result.papers] == ["FooNet: a model for cats", "FooNet: a model for cats (2)"]


# (an empty file, blank lines, a BOM alone: the importer contract)
@pytest.mark.parametrize("text", ["ICLR 2026 论文列表\n", "ICLR 2026 论文列表\n\n\n"])
def test_a_header_alone_is_no_papers(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "empty.txt", text)
    with pytest.raises(ImportFailure, match="no papers found"):
        read_seed(path)


def test_a_single_short_paragraph_is_a_paper_not_a_header(tmp_path: Path) -> None:
    result = read_seed(write(tmp_path, "one.txt", "We propose FooNet for cats\n"))
    assert len(result.papers) == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ICLR 2026 论文列表", ("ICLR", 2026)),
        ("NeurIPS 2024", ("NeurIPS", 2024)),
        ("ACL Findings 2023 papers", ("ACL Findings", 2023)),
        ("2025 reading list", ("", 2025)),
        ("This is a sentence that ends with a period.", None),
        ("x" * 100, None),
    ],
)
def test_parse_header(line: str, expected: tuple[str, int] | None) -> None:
    assert parse_header(line) == expected
