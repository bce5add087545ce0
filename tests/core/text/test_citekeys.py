"""Citation keys: readable, ASCII, unique case-insensitively, valid for BibTeX."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.text.citekeys import (
    CitekeyAllocator,
    citekey_base,
    first_free_key,
    make_citekey,
    validate_citekey,
)


def paper(title: str = "A Title", **kw) -> Paper:
    return Paper(id="p", title=title, **kw)


@pytest.mark.parametrize(
    ("kw", "key"),
    [
        ({"authors": ("John Smith",), "year": 2024}, "smith2024"),
        ({"authors": ("Smith, John",), "year": 2024}, "smith2024"),
        ({"authors": ("Smith, Jr., John",), "year": 2024}, "smith2024"),
        ({"authors": ("Martin Luther King Jr.",), "year": 1999}, "king1999"),
        ({"authors": ("José Pérez",), "year": 2020}, "perez2020"),
        ({"authors": ("Gr{\\\"u}nwald, Peter",), "year": 2020}, "grunwald2020"),
        ({"authors": ("Bernhard Sch{\\\"o}lkopf",), "year": 2019}, "scholkopf2019"),
        ({"authors": ("Jean-Fran{\\c{c}}ois Lafleur",), "year": 2019}, "lafleur2019"),
        ({"authors": ("{\\'E}mile Ollivier",), "year": 2019}, "ollivier2019"),
        ({"authors": ("Łukasz Kaiser",), "year": 2017}, "kaiser2017"),
        ({"authors": ("Søren Hauberg",), "year": 2017}, "hauberg2017"),
        ({"authors": ("O'Neil, Cathy",), "year": 2016}, "oneil2016"),
        ({"authors": ("Smith",)}, "smith"),  # no year: no suffix
    ],
)
def test_key_from_first_author(kw: dict, key: str) -> None:
    assert make_citekey(paper(**kw), set()) == key


def test_only_the_first_author_counts() -> None:
    assert make_citekey(paper(authors=("Ada Lovelace", "Charles Babbage"), year=1843), set()) == "lovelace1843"


@pytest.mark.parametrize("anonymous", [(), ("Anonymous",), ("anonymous",), ("",), ("  ",), ("Anonymous Authors",)])
def test_unknown_authors_fall_back_to_short_name(anonymous: tuple[str, ...]) -> None:
    p = paper("SOCOP: Singleton-Optimized Conformal Prediction", authors=anonymous, short_name="SOCOP", year=2026)
    assert make_citekey(p, set()) == "socop2026"


def test_short_name_with_spaces() -> None:
    assert make_citekey(paper("Active Reading: a framework", short_name="Active Reading", year=2026), set()) == "activereading2026"


def test_author_without_ascii_letters_falls_back() -> None:
    assert make_citekey(paper(authors=("张三",), short_name="CyberV", year=2026), set()) == "cyberv2026"


@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("Towards Learning the Geometry of Attention", "geometryattention2026"),
        ("On the Convergence of Adam", "convergenceadam2026"),
        ("An $O(K)$ Algorithm for Bandits", "algorithmbandits2026"),
        ("PG-Occ: Occupancy Prediction", "pgocc2026"),
        ("BNPO: Beta Normalization Policy Optimization", "bnpo2026"),
        ("Rethinking: What Layers Matter", "layersmatter2026"),  # a word before a colon is no name
        ("Log-Linear Attention", "loglinearattention2026"),
        ("Scaling Laws for Reward Models", "scalinglawsreward2026"),  # short words: three
        ("Incentive-Aligned LLM Summaries", "incentivealignedllm2026"),
        ("Reasoning", "reasoning2026"),
        ("More Robust Metric for Assessing Layer Relevance", "metriclayerrelevance2026"),  # "assessing": a verb
        ("Multiphysics Training Framework", "multiphysicstraining2026"),  # "training": a noun
        ("Unified Operator that Combines Several Operators", "operatorseveral2026"),  # "combines": a verb
        ("Simple yet Efficient Graph Calibration", "graphcalibration2026"),
        ("Café Networks", "cafenetworks2026"),
        ("The Of And", "the2026"),  # all stop words: the first one
        ("", "paper2026"),
        ("$$ $$", "paper2026"),
    ],
)
def test_key_from_title_word(title: str, key: str) -> None:
    assert make_citekey(paper(title, year=2026), set()) == key


def test_clashes_get_letter_suffixes_case_insensitively() -> None:
    p = paper(short_name="SOCOP", year=2026)
    taken: set[str] = set()
    keys = []
    for _ in range(30):
        key = make_citekey(p, taken)
        taken.add(key)
        keys.append(key)
    assert keys[:4] == ["socop2026", "socop2026a", "socop2026b", "socop2026c"]
    assert keys[26] == "socop2026z" and keys[27] == "socop2026aa" and keys[28] == "socop2026ab"
    assert make_citekey(p, {"SOCOP2026"}) == "socop2026a"


def test_first_free_key_and_base() -> None:
    assert citekey_base(paper(authors=("Smith, J",), year=2024)) == "smith2024"
    assert first_free_key("smith2024", {"smith2024", "smith2024a"}) == "smith2024b"


def test_paper_view_overrides_are_used() -> None:
    view = PaperView(paper(authors=("Old Name",), year=2024), Annotation(overrides={"authors": ["New Person"]}))
    assert make_citekey(view, set()) == "person2024"


@given(
    title=st.text(max_size=60),
    authors=st.lists(st.text(max_size=30), max_size=3),
    short=st.text(max_size=20),
    year=st.none() | st.integers(1900, 2100),
)
def test_made_keys_are_always_valid(title: str, authors: list[str], short: str, year: int | None) -> None:
    key = make_citekey(paper(title, authors=tuple(authors), short_name=short, year=year), {"paper", "x"})
    assert validate_citekey(key) is None
    assert key == key.lower() and key.isascii() and key.isalnum()


@pytest.mark.parametrize("key", ["smith2024", "Smith:2024", "a-b_c.d/e", "x+y", "k@1"])
def test_valid_keys(key: str) -> None:
    assert validate_citekey(key) is None


@pytest.mark.parametrize(
    "key", ["", " ", "a b", "a\tb", "a,b", "a{b", "a}b", "a(b", "a)b", "a=b", "a#b", "a%b", 'a"b', "a'b", "a\\b", "a~b", "café", "a\x00b"]
)
def test_invalid_keys(key: str) -> None:
    message = validate_citekey(key)
    assert isinstance(message, str) and message


def test_allocator_hands_out_unique_keys_and_respects_claims() -> None:
    keys = CitekeyAllocator(["SOCOP2026"])
    p = paper(short_name="SOCOP", year=2026)
    assert keys.claim("socop2026a") is True
    assert keys.claim("Socop2026A") is False
    made = [keys.make(p) for _ in range(30)]
    assert made[:3] == ["socop2026b", "socop2026c", "socop2026d"]
    assert len(set(made)) == 30 and "socop2026a" not in made
    assert keys.claim("socop2026") is False


def test_empty_adjectives_do_not_make_keys() -> None:
    from reader_tui.core.model import Paper

    paper = Paper(id="x", title="A novel associative memory network", year=2026)
    assert make_citekey(paper, set()) == "associativememory2026"


def test_anonymous_papers_of_one_topic_get_telling_keys() -> None:
    """A conference list's anonymous submissions: one title word would give
    reasoning2026, reasoning2026a, ... reasoning2026aq."""
    titles = [
        "Reasoning Models Know When They Are Right",
        "Reasoning Gyms for Language Agents",
        "Reasoning Traces Under Compression",
        "Scaling Test-Time Compute",
        "Scaling Laws of Sparse Mixtures",
    ]
    keys = CitekeyAllocator()
    made = [keys.make(Paper(id=str(n), title=t, authors=("Anonymous",), year=2026)) for n, t in enumerate(titles)]
    assert made == [
        "reasoningmodels2026",
        "reasoninggyms2026",
        "reasoningtraces2026",
        "scalingtesttime2026",
        "scalinglawssparse2026",
    ]
