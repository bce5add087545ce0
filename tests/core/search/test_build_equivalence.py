"""A whole list's build (`SearchIndex._build_all`: numpy, every field at once) is the
reference build, the papers appended one by one, on a list whose texts hold every kind
of text the tokeniser meets: non-BMP letters, right-to-left scripts, combining marks,
CJK, control characters, odd spaces, LaTeX, words either side of what packs in 64 bits,
acronym definitions. The same postings (term frequencies too), vocabulary, title order, acronyms, titles and
hits, in one chunk of texts or many; and a cache that loads back the same."""

from __future__ import annotations

import random

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search import index as index_module
from reader_tui.core.search import word_pairs
from reader_tui.core.search.index import SearchIndex

WORDS = [
    "attention", "Attention", "sparse", "model", "models", "learning", "Reinforcement", "language", "large",
    "x86", "abcdefghijkl", "abcdefghijklm", "representationalisms", "l" * 30, "Log-Linear", "pre-training",
    "pretraining", "pre_training", "GRPO", "2026", "0", "İstanbul", "\u212aelvin", "Straße", "Vélez", "V{\\'e}lez",
    "Bj{\\o}rn", "naïve", "ｆｕｌｌ", "ﬁne", "Ⅻ", "x²",
]
OTHER = [
    "e\u0301", "a\u0301\u0302b", "\u05e9\u05b8\u05dc\u05d5\u05b9\u05dd", "\u0627\u064e\u0644\u0639\u064e\u0631\u064e\u0628",
    "\u202eevil\u202c", "\u200fשלום", "中文模型", "大 语言 模型", "한국어", "\u1100\u1161", "日本語の文", "𝒜𝒷𝒸",
    "😀", "\U00020000\U0002a6d6", "𐍈𐌰", "\x1b[31mred\x1b[0m", "\x07bell", "\x7f", "\ufeff", "\u00ad", "\u200b",
    "\u0301", "$\\alpha$-divergence", "\\mathbb{R}^n", "{B}ayesian", "\\textbf{Bold}",
]
SPACES = [" ", " ", " ", "\t", "\n", "\x00", "\x1c", "\x85", "\u00a0", "\u2028", "\u3000", "-", "_", "“", "”", ", ", ". "]
DEFINITIONS = [
    "large language models (LLMs)", "reinforcement learning (RL)", "Chain-of-Thought (CoT)",
    "reinforcement learning from human feedback (RLHF)", "mixture of experts (MoE)", "Vision Transformer (ViT)",
    "Vélez Ébauche (VE)", "robot learning (RL)", "graph neural networks (GNNs)",
]


def _text(rng: random.Random, pieces: int) -> str:
    out = []
    for _ in range(pieces):
        kind = rng.random()
        source = WORDS if kind < 0.5 else OTHER if kind < 0.7 else DEFINITIONS if kind < 0.8 else SPACES
        out.append(rng.choice(source))
        out.append(rng.choice(SPACES))
    return "".join(out)


def unicode_papers(n: int = 90, seed: int = 16) -> list[PaperView]:
    rng = random.Random(seed)
    views = []
    for i in range(n):
        paper = Paper(
            id=f"u{i:03d}",
            title=_text(rng, rng.randint(0, 6)) or "untitled",
            abstract="" if i % 17 == 0 else _text(rng, rng.randint(1, 60)),
            authors=tuple(_text(rng, 2) for _ in range(rng.randint(0, 3))),
            keywords=tuple(_text(rng, 1) for _ in range(rng.randint(0, 3))),
            short_name=rng.choice(["", "", "SOCOP", "ΑΒΓ", "中文"]),
            venue=rng.choice(["ICLR 2026", "Vélez Workshop", ""]),
            year=rng.choice([2025, 2026, None]),
        )
        views.append(PaperView(paper, Annotation()))
    return views


QUERIES = [
    "attention", "atten", "attenton", "llm", "rl", "large language models", "reinforcement learning",
    "velez", "Vélez", "bjørn", "istanbul", "中文模型", "한국어", "שלום", "𝒜𝒷𝒸", "pre training", "pretraining",
    '"sparse model"', "-attention model", "x86", "abcdefghijklm", "representationalism", "alpha", "fine",
]


def _state(index: SearchIndex) -> tuple:
    fields = [{word: list(zip(ordinals, index._counts(field, word) or [1] * len(ordinals), strict=True))
               for word, ordinals in post.items()} for field, post in enumerate(index._post)]
    return (fields, index._vocab, index._length_buckets(), index._title_vocab, list(index._acronyms.items()), index._titles,
            index._ids, index.abstracts_indexed)


@pytest.fixture(params=["one chunk", "many chunks"])
def chunks(request, monkeypatch):
    if request.param == "many chunks":  # four texts of 64 bytes at most a chunk
        monkeypatch.setattr(word_pairs, "_DOC_BITS", 2)
        monkeypatch.setattr(word_pairs, "_CHUNK_BYTES", 64)
    return request.param


def test_a_whole_lists_build_is_the_one_by_one_build(chunks, monkeypatch, tmp_path):
    papers = unicode_papers()
    monkeypatch.setattr(index_module, "BULK_MIN", 10**9)
    reference = SearchIndex.build(papers)  # appended paper by paper, no numpy
    titles_first = SearchIndex.build(papers, abstracts=False)
    monkeypatch.setattr(index_module, "BULK_MIN", 1)
    bulk = SearchIndex.build(papers)
    titles_first.index_abstracts()  # the abstracts of a titles-first build at once (numpy)
    assert all(isinstance(post, dict) for post in reference._post)
    assert reference._acronyms  # the fixture defines some
    assert _state(bulk) == _state(reference)
    assert _state(titles_first) == _state(reference)
    for query in QUERIES:
        expected = reference.search(query)
        assert bulk.search(query) == expected, query
        assert titles_first.search(query) == expected, query
    assert search_cache.save(bulk, tmp_path / "search.idx")
    loaded = search_cache.load(papers, tmp_path / "search.idx")
    assert loaded is not None and _state(loaded) == _state(reference)
    for query in QUERIES:
        assert loaded.search(query) == reference.search(query), query
