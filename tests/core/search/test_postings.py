"""The flat postings: a whole list's abstracts indexed at once (numpy) give exactly the
postings and results of indexing them one paper at a time; ordinals kept in 16 bits,
in segments once a list outgrows them, read back as the same ordinals; and a cached
index of segmented postings loads and searches like a fresh build."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from benchmarks.synthetic import load_views
from reader_tui.core.model import PaperView
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search import index as index_module
from reader_tui.core.search import postings
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.postings import FlatPostings, lay_out, segments_for, word_pairs

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "papers_sample.jsonl"
QUERIES = [
    "conformal singleton", "geopurfy", "log-lin atten", "NorMuon", "attenton sparse", "llm", "rl",
    "large language models", '"linear attention" -softmax', "year:2026 reasoning", "pre training",
    "diffusion language model inference", "the", "-diffusion", "does reinforcement learning improve reasoning",
]


@pytest.fixture(scope="module")
def papers() -> list[PaperView]:
    return load_views(FIXTURE)


def _build(papers, monkeypatch, *, bulk: bool) -> SearchIndex:
    with monkeypatch.context() as m:
        m.setattr(index_module, "BULK_MIN", 1 if bulk else 10**9)
        m.setattr(postings, "_CHUNK", 7)  # many chunks of papers, as a long list has
        return SearchIndex.build(papers)


def _fields(index: SearchIndex) -> list[dict[str, list[int]]]:
    return [{word: list(ordinals) for word, ordinals in post.items()} for post in index._post]


def test_bulk_build_gives_the_postings_and_results_of_one_by_one(papers, monkeypatch):
    bulk, single = _build(papers, monkeypatch, bulk=True), _build(papers, monkeypatch, bulk=False)
    assert all(isinstance(post, FlatPostings) for post in bulk._post)  # built flat, as loaded
    assert not isinstance(single._post[2], FlatPostings)  # the other path really ran
    assert _fields(bulk) == _fields(single)
    assert bulk._vocab == single._vocab and bulk._by_length == single._by_length
    assert bulk._title_vocab == single._title_vocab and bulk._acronyms == single._acronyms
    for query in QUERIES:
        assert bulk.search(query) == single.search(query), query


def test_a_bulk_built_index_takes_more_papers_like_a_fresh_build(papers, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(index_module, "BULK_MIN", 1)
        grown = SearchIndex.build(papers[:-5])
        grown.add(papers[-5:])
        fresh = SearchIndex.build(papers)
    assert _fields(grown) == _fields(fresh)
    for query in QUERIES:
        assert grown.search(query) == fresh.search(query), query


def _laid_out(docs, vocab, papers, bits=None, first=0) -> FlatPostings:
    words, pairs = word_pairs(docs, first)
    return FlatPostings(vocab, *lay_out(words, pairs, dict(zip(vocab, range(len(vocab)))), len(vocab), papers, bits))


def test_word_pairs_are_distinct_ascending_and_laid_out_in_vocabulary_order():
    docs = [["b", "a", "b"], [], ["c", "a"], ["a"]]
    words, pairs = word_pairs(docs, first=10)
    assert words == ["b", "a", "c"] and sum(len(part[3]) for part in pairs) == 5  # each (word, paper) once
    flat = _laid_out(docs, ["a", "b", "c", "d"], papers=14, first=10)
    assert {w: list(o) for w, o in flat.items()} == {"a": [10, 12, 13], "b": [10], "c": [12]}
    empty = _laid_out([], [], papers=1)
    assert len(empty) == 0 and empty.arrays[0].tolist() == [0]


SAMPLE = {"alpha": [0, 1, 5, 9, 10], "beta": [3], "delta": [7, 8, 9, 11], "gamma": []}
VOCAB = ["alpha", "beta", "delta", "epsilon", "gamma"]


@pytest.mark.parametrize("bits", [16, 2, 1])
def test_segmented_postings_read_back_the_same_ordinals(bits):
    flat = FlatPostings.of(VOCAB, SAMPLE, papers=12, bits=bits)
    assert flat.segments == segments_for(12, bits) and flat.arrays[1].typecode == "H"
    assert {w: list(flat[w]) for w in flat} == {w: o for w, o in SAMPLE.items() if o}
    assert list(flat) == ["alpha", "beta", "delta"] and len(flat) == 3
    assert "gamma" not in flat and "epsilon" not in flat and flat.get("zeta") is None
    with pytest.raises(KeyError):
        flat["gamma"]
    # the numpy form (what "for you" reads) and the one built from numpy agree
    indptr, ordinals = flat.columns()
    assert [ordinals[indptr[i]:indptr[i + 1]].tolist() for i in range(len(VOCAB))] == [
        SAMPLE.get(w, []) for w in VOCAB
    ]
    docs = [[w for w, ordinals in SAMPLE.items() if o in ordinals] for o in range(12)]
    again = _laid_out(docs, VOCAB, 12, bits)  # the numpy build lays them out the same
    assert again.arrays == flat.arrays and again.segments == flat.segments
    # thawed to growable arrays of full ordinals
    thawed = flat.thaw()
    assert {w: list(o) for w, o in thawed.items()} == {w: o for w, o in SAMPLE.items() if o}
    assert all(isinstance(o, array) and o.typecode == "I" for o in thawed.values())


def test_sixteen_bit_ordinals_halve_the_postings():
    many = {"word": list(range(0, 70000, 3))}
    flat = FlatPostings.of(["word"], many, papers=70000)
    starts, ordinals = flat.arrays
    assert flat.segments == 2 and ordinals.itemsize == 2 and len(ordinals) == len(many["word"])
    assert list(flat["word"]) == many["word"]


def test_an_index_of_segmented_postings_searches_and_caches_like_one_segment(papers, monkeypatch, tmp_path):
    plain = SearchIndex.build(papers)
    with monkeypatch.context() as m:
        m.setattr(postings, "BITS", 5)  # 32 papers a segment: the fixture's 300 take ten
        m.setattr(postings, "_CHUNK", 13)  # chunks across segments
        m.setattr(index_module, "BULK_MIN", 1)
        segmented = SearchIndex.build(papers)
        assert segmented._post[2].segments == 10
        cache = tmp_path / "search.idx"
        assert search_cache.save(segmented, cache)
    loaded = search_cache.load(papers, cache)
    assert loaded is not None and loaded._post[2].segments == 10
    assert _fields(segmented) == _fields(plain) == _fields(loaded)
    for query in QUERIES:
        assert segmented.search(query) == plain.search(query) == loaded.search(query), query


def test_acronyms_are_read_whatever_the_length_of_their_words():
    # the expansion's words are read from a window at the end of the text first: words
    # longer than it holds, or a definition at the very start, still count
    from reader_tui.core.search.acronyms import mine

    long = "Incomprehensibilities Electroencephalographically Characterised Measurements (IECM)"
    texts = [
        f"We study {long}.", f"Our {long} help.",
        "Reinforcement Learning (RL) at the start.", "Reinforcement Learning (RL) again.",
        "Chain of Thought (CoT) is used; see chain of thought (CoT).",
        "Direct preference optimization (DPO), a kind of RL from human feedback (RLHF).",
    ]
    found = mine(texts)
    assert found["iecm"] == ("incomprehensibilities", "electroencephalographically", "characterised", "measurement")
    assert found["rl"] == ("reinforcement", "learning") and found["cot"] == ("chain", "of", "thought")
    assert "dpo" not in found  # seen once: not trusted
