"""The flat postings: a whole list's abstracts indexed at once (numpy) give exactly the
postings and results of indexing them one paper at a time; ordinals kept in 16 bits, in segments once a list outgrows them,
read back as the same ordinals; a cached index of segmented postings loads and searches
like a fresh build; an index built, flattened and grown again searches like a fresh one;
acronyms read whatever the length of their words."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from benchmarks.synthetic import load_views
from reader_tui.core.model import PaperView
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search import index as index_module
from reader_tui.core.search import postings, word_pairs
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.postings import FlatPostings, segments_for

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "papers_sample.jsonl"
QUERIES = [
    "conformal singleton", "geopurfy", "log-lin atten", "NorMuon", "attenton sparse", "llm", "rl",
    "large language models", '"linear attention" -softmax', "year:2026 reasoning", "pre training",
    "diffusion language model inference", "the", "-diffusion", "does reinforcement learning improve reasoning",
]


@pytest.fixture(scope="module")
def papers() -> list[PaperView]:
    return load_views(FIXTURE)


def _fields(index: SearchIndex) -> list[dict[str, list[int]]]:
    return [{word: list(ordinals) for word, ordinals in post.items()} for post in index._post]


def test_a_flattened_index_that_takes_more_papers_searches_like_a_fresh_build(papers):
    grown = SearchIndex.build(papers[:-5])
    vocab, n = grown._vocab, len(grown._ids)
    # as loaded: flat, the counts inside
    grown._post = tuple(FlatPostings.of(vocab, post, n, counts=tf) for post, tf in zip(grown._post, grown._tf))
    grown.add(papers[-5:])
    fresh = SearchIndex.build(papers)
    assert _fields(grown) == _fields(fresh) and grown._title_vocab == fresh._title_vocab
    for query in QUERIES:
        assert grown.search(query) == fresh.search(query), query


@pytest.mark.parametrize(("bits", "chunk"), [(16, 4096), (5, 4096), (16, 7), (5, 7)])
def test_abstracts_indexed_at_once_give_the_postings_of_one_at_a_time(papers, monkeypatch, bits, chunk):
    monkeypatch.setattr(postings, "BITS", bits)  # 5: 32 papers a segment, ten segments
    # laid out in chunks of 7 papers (and of 100 pairs for the title and meta fields)
    monkeypatch.setattr(postings, "_CHUNK_PAPERS", chunk)
    monkeypatch.setattr(postings, "_CHUNK_PAIRS", 100 if chunk == 7 else 1 << 19)
    if chunk == 7:  # and the texts tokenised four at a time (word_pairs' chunks)
        monkeypatch.setattr(word_pairs, "_DOC_BITS", 2)
        monkeypatch.setattr(word_pairs, "_CHUNK_BYTES", 64)
    monkeypatch.setattr(index_module, "BULK_MIN", 10**9)
    appended = SearchIndex.build(papers)
    monkeypatch.setattr(index_module, "BULK_MIN", 1)
    bulk = SearchIndex.build(papers)
    assert all(isinstance(post, dict) for post in appended._post)
    assert all(isinstance(post, FlatPostings) and post.bits == bits for post in bulk._post)
    assert bulk._post[2].segments == segments_for(len(papers), bits)
    assert _fields(bulk) == _fields(appended)
    assert bulk._vocab == appended._vocab and bulk._length_buckets() == appended._length_buckets()
    assert bulk._title_vocab == appended._title_vocab  # first-seen order: the infix search's
    assert bulk._acronyms == appended._acronyms
    for query in QUERIES:
        assert bulk.search(query) == appended.search(query), query
    # a titles-first build (what the app does) ends the same, and so do both grown after it
    head = SearchIndex.build(papers[:-5], abstracts=False)
    head.index_abstracts()
    head.add(papers[-5:])
    assert _fields(head) == _fields(appended) and head._title_vocab == appended._title_vocab
    grown = SearchIndex.build(papers[:-5])
    grown.add(papers[-5:])
    assert _fields(grown) == _fields(appended) and grown._title_vocab == appended._title_vocab
    assert grown.search("conformal singleton") == appended.search("conformal singleton")


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
    # the numpy form (what "for you" reads)
    indptr, ordinals = flat.columns()
    assert [ordinals[indptr[i]:indptr[i + 1]].tolist() for i in range(len(VOCAB))] == [
        SAMPLE.get(w, []) for w in VOCAB
    ]
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
    cache = tmp_path / "search.idx"
    with monkeypatch.context() as m:
        m.setattr(postings, "BITS", 5)  # 32 papers a segment: the fixture's 300 take ten
        assert search_cache.save(SearchIndex.build(papers), cache)
    loaded = search_cache.load(papers, cache)
    assert loaded is not None and loaded._post[2].segments == 10 and loaded._post[2].bits == 5
    assert _fields(plain) == _fields(loaded)
    for query in QUERIES:
        assert plain.search(query) == loaded.search(query), query
    loaded.add([])  # thawed and flat again on save: still the same
    assert _fields(plain) == _fields(loaded)


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


@pytest.mark.parametrize("bulk_min", [1, 10**9])
def test_an_index_built_a_slice_of_papers_at_a_time_is_the_one_built_at_once(papers, monkeypatch, tmp_path, bulk_min):
    """`_append` takes a list a slice at a time (its title words freed before the next
    slice's are made): three papers a slice give the same index, cache bytes and hits as
    one slice, a whole list at once (bulk_min 1) or paper by paper, and titles first."""
    monkeypatch.setattr(index_module, "BULK_MIN", bulk_min)
    whole = SearchIndex.build(papers)
    titles_first = SearchIndex.build(papers, abstracts=False)
    monkeypatch.setattr(index_module, "APPEND_SLICE", 3)
    sliced = SearchIndex.build(papers)
    sliced_titles = SearchIndex.build(papers, abstracts=False)
    assert _fields(sliced) == _fields(whole) and _fields(sliced_titles) == _fields(titles_first)
    for built, alone in ((sliced, whole), (sliced_titles, titles_first)):
        assert built._title_vocab == alone._title_vocab and built._vocab == alone._vocab
        assert (built._ids, built._titles, built._status) == (alone._ids, alone._titles, alone._status)
        assert (dict(built._years), dict(built._venues)) == (dict(alone._years), dict(alone._venues))
    search_cache.save(sliced, tmp_path / "sliced")
    search_cache.save(whole, tmp_path / "whole")
    assert (tmp_path / "sliced").read_bytes() == (tmp_path / "whole").read_bytes()
    for query in QUERIES:
        assert sliced.search(query) == whole.search(query), query
