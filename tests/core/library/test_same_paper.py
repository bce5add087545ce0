"""Recognising one paper from two sources, and merging the two records."""

from __future__ import annotations

import random

from reader_tui.core.formats.identifiers import fold, normalise_doi, normalise_url, openreview_forum_id
from reader_tui.core.library.catalog.same_paper import Match, match_papers, merge_paper
from reader_tui.core.model import Paper

ABSTRACT = (
    "We introduce Quasar, a retrieval-augmented planner for household robots that grounds "
    "language instructions in scene graphs and replans when objects move. On three simulated "
    "benchmarks Quasar improves success rates by twelve points over the strongest baseline."
)


def paper(pid: str, title: str = "", **fields) -> Paper:
    return Paper(id=pid, title=title, **fields)


def reasons(matches: list[Match]) -> list[tuple[str | None, str]]:
    return [(m.existing_id, m.reason) for m in matches]


def test_identifiers_normalise():
    assert normalise_doi(" https://doi.org/10.1/ABC ") == "10.1/abc"
    assert normalise_doi("doi:10.1/Abc") == "10.1/abc"
    assert normalise_url("https://www.Example.org/paper/") == "example.org/paper"
    assert normalise_url("http://example.org/paper#sec2") == "example.org/paper"
    assert normalise_url("https://openreview.net/pdf?id=AbC") == "openreview.net/forum?id=AbC"
    assert normalise_url("https://arxiv.org/pdf/2101.00001v3.pdf") == "arxiv.org/abs/2101.00001"
    assert openreview_forum_id("https://openreview.net/forum?id=X_y-1&noteId=Z") == "X_y-1"
    assert openreview_forum_id("https://example.org/?id=X") == ""
    assert fold(r"{\'E}tude of $\alpha$-Nets: A {B}ig Study") == "etude of nets a big study"


def test_same_id_first():
    existing = [paper("a", "Alpha"), paper("b", "Beta")]
    assert reasons(match_papers(existing, [paper("b", "Completely different")])) == [("b", "id")]


def test_doi_and_url():
    existing = [paper("a", "One", doi="10.5/XYZ"), paper("b", "Two", url="https://www.site.org/p/2/")]
    incoming = [paper("x", "Uno", doi="https://doi.org/10.5/xyz"), paper("y", "Dos", url="http://site.org/p/2")]
    assert reasons(match_papers(existing, incoming)) == [("a", "doi"), ("b", "url")]


def test_title_with_year_or_missing_year():
    existing = [paper("a", "Attention Is All You Need", year=2017)]
    for year, expected in [(2017, ("a", "title")), (None, ("a", "title")), (2019, (None, "new"))]:
        incoming = [paper("x", r"Attention is All You {N}eed.", year=year)]
        assert reasons(match_papers(existing, incoming)) == [expected]


def test_fuzzy_title_small_typo():
    existing = [paper("a", "Learning Reactive Synthesis from Model Checking Feedback", year=2026)]
    incoming = [paper("x", "Learning Reactive Synthesis from Model-Checking Feedbacks", year=2026)]
    assert reasons(match_papers(existing, incoming)) == [("a", "title")]


def test_derived_titles_never_match_by_title():
    existing = [paper("a", "A Shared First Sentence", title_derived=True)]
    incoming = [paper("x", "A Shared First Sentence")]
    assert reasons(match_papers(existing, incoming)) == [(None, "new")]


def test_fuzzy_abstract_with_small_edits():
    edited = ABSTRACT.replace("twelve points", "11.5 points").replace("household", "home")
    existing = [paper("seed1", "Quasar: a planner", abstract=ABSTRACT, title_derived=True)]
    incoming = [paper("or1", "Quasar: Grounded Replanning for Robots", abstract=edited)]
    assert reasons(match_papers(existing, incoming)) == [("seed1", "abstract")]


def test_short_abstracts_do_not_count():
    existing = [paper("a", "T1", abstract="n/a", title_derived=True), paper("b", "T2", abstract="We study X.")]
    incoming = [paper("x", "U1", abstract="n/a"), paper("y", "U2", abstract="We study X.")]
    assert reasons(match_papers(existing, incoming)) == [(None, "new"), (None, "new")]


def test_similar_but_different_abstracts_do_not_match():
    other = ABSTRACT.replace("household robots", "warehouse drones").replace(
        "language instructions in scene graphs and replans when objects move",
        "delivery requests in occupancy maps and reroutes when shelves are blocked",
    )
    existing = [paper("a", "Quasar", abstract=ABSTRACT)]
    assert reasons(match_papers(existing, [paper("x", "Pulsar", abstract=other)])) == [(None, "new")]


def test_first_incoming_wins_and_stronger_rule_wins():
    existing = [paper("a", "Deep Sets", year=2017)]
    incoming = [paper("x", "Deep Sets", year=2017), paper("y", "Deep Sets", year=2017), paper("a", "Renamed")]
    # "a" arrives by id (strongest), so the title look-alikes stay new.
    assert reasons(match_papers(existing, incoming)) == [(None, "new"), (None, "new"), ("a", "id")]
    incoming = [paper("x", "Deep Sets"), paper("y", "Deep Sets")]
    assert reasons(match_papers(existing, incoming)) == [("a", "title"), (None, "new")]


def test_empty_sides():
    assert match_papers([], [paper("x", "T")]) == [Match(0, None, "new")]
    assert match_papers([paper("a", "T")], []) == []


def _random_title(rng: random.Random, words: list[str]) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(5, 10)))


def test_blocking_finds_every_near_duplicate_among_many():
    # Many papers built from a small vocabulary (so words are shared widely), each
    # re-imported with a small edit: the index must still bring every pair together.
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(400)]
    existing = []
    for i in range(600):
        abstract = " ".join(rng.choice(vocab) for _ in range(60))
        existing.append(paper(f"e{i}", f"T{i}", abstract=abstract, title_derived=True))
    incoming = []
    for i, old in enumerate(existing):
        words = old.abstract.split()
        words[rng.randrange(len(words))] = "edited"
        incoming.append(paper(f"n{i}", f"N{i}", abstract=" ".join(words), title_derived=True))
    rng.shuffle(incoming)
    matches = match_papers(existing, incoming)
    assert all(m.reason == "abstract" for m in matches)
    assert all(m.existing_id == "e" + incoming[m.incoming_index].id[1:] for m in matches)


def test_blocking_titles_among_many():
    rng = random.Random(3)
    vocab = [f"t{i}" for i in range(300)]
    existing = [paper(f"e{i}", _random_title(rng, vocab) + f" u{i}x", year=2020) for i in range(500)]
    incoming = [paper(f"n{i}", p.title + "s", year=2020) for i, p in enumerate(existing)]
    matches = match_papers(existing, incoming)
    assert [m.existing_id for m in matches] == [p.id for p in existing]


# --- merge -------------------------------------------------------------------------


def test_merge_fills_gaps_and_keeps_identity():
    old = paper("seed1", "Quasar: a planner", abstract=ABSTRACT, title_derived=True, short_name="Quasar",
                citekey="quasar2026")
    new = paper("or1", "Quasar: Grounded Replanning", abstract="other", authors=("A B",), url="u", doi="d",
                keywords=("k",), venue="ICLR", year=2026, citekey="x2026")
    merged = merge_paper(old, new)
    assert merged.id == "seed1" and merged.citekey == "quasar2026"
    assert merged.title == "Quasar: Grounded Replanning" and not merged.title_derived
    assert merged.abstract == ABSTRACT  # not a re-import: the old abstract stays
    assert (merged.authors, merged.url, merged.doi, merged.keywords, merged.venue, merged.year) == (
        ("A B",), "u", "d", ("k",), "ICLR", 2026)
    assert merged.short_name == "Quasar"


def test_merge_never_lets_a_derived_title_replace_a_real_one():
    old = paper("a", "Real Title", year=2020)
    assert merge_paper(old, paper("b", "Derived", title_derived=True)).title == "Real Title"
    assert merge_paper(old, paper("a", "Derived", title_derived=True)).title == "Real Title"


def test_merge_reimport_by_id_updates_title_and_abstract():
    old = paper("a", "Old Title", abstract="old abstract", venue="V", citekey="k")
    new = paper("a", "New Title", abstract="new abstract", venue="W")
    merged = merge_paper(old, new)
    assert (merged.title, merged.abstract, merged.venue, merged.citekey) == ("New Title", "new abstract", "V", "k")
    assert merge_paper(old, paper("a", "", abstract="")).title == "Old Title"


def test_merge_short_name_prefers_the_new_one():
    old = paper("a", "T", short_name="OLD")
    assert merge_paper(old, paper("b", "T", short_name="NEW")).short_name == "NEW"
    assert merge_paper(old, paper("b", "T")).short_name == "OLD"


def test_an_exported_abstract_meets_its_original():
    # The rarest words of an abstract are often numbers with a percent sign or words with a
    # curly quote, which a BibTeX export writes as LaTeX: the copies must still meet.
    original = ABSTRACT + " It wins 66% of games (+313% relative) over the agents’ baselines at 23.3% cost."
    exported = original.replace("%", "\\%").replace("’", "{\\textquoteright}")
    existing = [paper("seed1", "derived", abstract=original, title_derived=True)]
    existing += [paper(f"other{i}", f"Other {i}", abstract=f"Unrelated text number {i} " * 8) for i in range(50)]
    incoming = [paper("bib1", "Quasar: Grounded Replanning for Robots", abstract=exported)]
    assert reasons(match_papers(existing, incoming)) == [("seed1", "abstract")]


def test_bibtex_entries_with_different_keys_never_match_by_title_or_abstract():
    bib = dict(source="bibtex:book.bib", entry_type="inbook", year=2010, abstract=ABSTRACT)
    existing = [paper("old", "Handbook of Things", citekey="ch1", **bib)]
    incoming = [paper("new", "Handbook of Things", citekey="ch2", **bib)]
    assert reasons(match_papers(existing, incoming)) == [(None, "new")]
    # the same key (an export of the library, a re-import) does match
    assert reasons(match_papers(existing, [incoming[0].evolve(citekey="CH1")])) == [("old", "title")]
    # a paper from elsewhere (seed, OpenReview) has a made-up key: a .bib entry may match it
    seed = [existing[0].evolve(source="seed:list.txt", entry_type="")]
    assert reasons(match_papers(seed, incoming)) == [("old", "title")]
    # an identifier says they are one paper whatever the keys
    existing = [existing[0].evolve(doi="10.1/x")]
    assert reasons(match_papers(existing, [incoming[0].evolve(doi="10.1/X")])) == [("old", "doi")]


def test_merge_takes_the_bib_entry_when_the_paper_has_none():
    seed = paper("s", "Title", venue="ICLR 2026", source="seed:x.txt")
    entry = paper("b", "Title", venue="Proc. ICLR", entry_type="inproceedings", citekey="mine",
                  extra_fields=(("booktitle", "Proc. ICLR"), ("pages", "1--9")), source="bibtex:x.bib")
    merged = merge_paper(seed, entry)
    assert (merged.entry_type, merged.extra_fields, merged.venue) == ("inproceedings", entry.extra_fields, "ICLR 2026")
    other = paper("c", "Title", entry_type="article", extra_fields=(("journal", "J"),))
    assert merge_paper(merged, other).extra_fields == entry.extra_fields  # the first entry stays
    junk = paper("j", "Title", entry_type="misc", extra_fields=(("year", "n.d."),))
    assert merge_paper(paper("y", "Title", year=2020), junk).extra_fields == ()  # the paper has a year
