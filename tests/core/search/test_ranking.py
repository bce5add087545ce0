"""Ranking on a small corpus with known answers (issue 33): a TL;DR or a sentence of an
abstract finds its paper first, a keyword's papers come first on that keyword's search,
a typo still finds them, and the base value is BM25F's (rare words and short fields
count more)."""

from __future__ import annotations

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search.index import SearchIndex


def view(pid, title, abstract="", keywords=()):
    return PaperView(Paper(id=pid, title=title, abstract=abstract, keywords=tuple(keywords)), Annotation())


COMMON = "We propose a new method for learning models and show results on many benchmarks."
PAPERS = [
    view("gnn-kw-1", "Message Passing Beyond Homophily", COMMON + " Nodes exchange messages over edges.",
         ["graph neural networks", "heterophily"]),
    view("gnn-kw-2", "Expressive Power of Higher-Order Aggregation", COMMON + " Aggregation over subgraphs.",
         ["Graph Neural Network", "expressivity"]),
    view("gnn-kw-3", "Oversquashing and Curvature", COMMON + " Rewiring with Ricci curvature.",
         ["graph neural networks", "rewiring"]),
    view("gnn-mention", "A Benchmark for Tabular Learning", COMMON + " Baselines include a graph model, neural "
         "networks and trees.", ["tabular data"]),
    view("diffusion", "Faster Diffusion Sampling with Few Steps", COMMON + " A distilled sampler for diffusion "
         "models reaches high fidelity in four denoising steps.", ["diffusion models", "distillation"]),
    view("protein", "Protein Inverse Folding with Equivariant Transformers", COMMON + " We design amino acid "
         "sequences that fold into a target backbone, scored by recovery and self-consistency.",
         ["protein design"]),
    view("quant", "Outlier-Aware Quantization of Language Models", COMMON + " Rotations remove activation "
         "outliers so that weights and activations fit in four bits with little perplexity loss.",
         ["quantization", "large language models"]),
    view("long", "A Long Survey of Learning", COMMON + " " + " ".join(
        f"Section {i} reviews learning models, benchmarks, methods and results." for i in range(40))
         + " Quantization appears once.", ["survey"]),
    *[view(f"filler-{i}", f"Filler Study {i}", COMMON + f" Topic number {i} about robots and vision.", ["robotics"])
      for i in range(20)],
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(PAPERS)


def ids(hits):
    return [h.id for h in hits]


@pytest.mark.parametrize("query, expected", [
    # TL;DRs: a sentence about the paper, in other words than its abstract's, common words and all
    ("We design protein sequences for a target backbone with an equivariant transformer.", "protein"),
    ("A distilled diffusion sampler that needs only four steps.", "diffusion"),
    # a sentence of the abstract, pasted
    ("Rotations remove activation outliers so that weights and activations fit in four bits with little "
     "perplexity loss.", "quant"),
])
def test_a_tldr_or_a_sentence_finds_its_paper_first(index, query, expected):
    assert ids(index.search(query))[0] == expected


def test_a_keywords_papers_come_first_on_that_keywords_search(index):
    top = ids(index.search("graph neural networks"))
    assert set(top[:3]) == {"gnn-kw-1", "gnn-kw-2", "gnn-kw-3"}
    assert "gnn-mention" in top  # the words scattered in an abstract: listed, after them


def test_a_typo_still_finds_them(index):
    assert set(ids(index.search("graph neural netwrok"))[:3]) == {"gnn-kw-1", "gnn-kw-2", "gnn-kw-3"}
    assert ids(index.search("equivarant transformers protien"))[0] == "protein"


def test_a_word_in_a_short_field_outranks_it_in_a_long_one(index):
    # BM25F's length normalisation: "quantization" once in a 40-section survey says less
    top = ids(index.search("quantization"))
    assert top.index("quant") < top.index("long")


ROUTINE = "We propose a new training method that improves results."


def ranked(query, *papers, filler):
    """The ids `query` finds among `papers` and twenty papers whose abstract is `filler`."""
    corpus = [*papers, *[view(f"filler-{i}", f"Study {i}", filler) for i in range(20)]]
    return ids(SearchIndex.build(corpus).search(query))


@pytest.mark.parametrize("query, papers, filler", [
    # The same words in each abstract, as many of them, of the same length: the first paper
    # uses the rare word four times, the second the common one. BM25's term frequency,
    # weighed by rarity, tells them apart (a count of the query's words in the abstract
    # could not, and the shorter title would win the tie).
    ("kernel sparse", [view("rare-often", "Studies of Operators Number One", "kernel kernel kernel kernel sparse."),
                       view("common-often", "Studies of Operators", "kernel sparse sparse sparse sparse.")],
     "sparse models and more."),
    # "DiffusionNFT" is one paper's word: rare, but not what "diffusion" asks for more
    ("diffusion", [view("word", "Online Diffusion Reinforcement with Forward Steps", "We train samplers online."),
                   view("nft", "DiffusionNFT: Online Reinforcement with Forward Steps", "We train samplers online.")],
     "A diffusion model and more."),
], ids=["a rare word used often counts more than a common one", "a rare completion is worth no more than the word typed"])
def test_the_first_of_two_papers_ranks_first(query, papers, filler):
    assert ranked(query, *reversed(papers), filler=filler)[:2] == [p.id for p in papers]


def test_a_pasted_tldr_finds_its_paper_holding_only_its_rare_words():
    # The TL;DR paraphrases its paper, which has its four rare words of ten; the other
    # papers have its six common ones, most of the query's words, and nothing else of it
    target = view("target", "Glosa Forecasting for Agents", "Agents forecast their own actions: predictability.")
    query = "We propose a new training method that improves results for agents forecasting GLOSA predictability"
    assert ranked(query, target, filler=ROUTINE)[0] == "target"


def test_a_quoted_phrase_no_paper_holds_counts_as_its_words(index):
    # a TL;DR pasted with its quotation marks: the phrase is nowhere, its words are
    result = index.search('We propose "equivariant protein inverse folders" for a target backbone.')
    assert ids(result)[:1] == ["protein"]
    assert ids(index.search('"inverse folding" protein')) == ["protein"]  # a phrase a paper holds: required


def test_a_pasted_sentence_lists_a_paper_with_few_of_its_words():
    # Nine words: a text pasted, answered by rank. The paper holds two of its rare words,
    # less than half of the query by rarity; the others hold its six common words
    target = view("target", "Signal Timing for Drivers", "Glosa advice gains predictability.")
    query = "We propose a new training method that improves results: glosa forecasting predictability"
    assert ranked(query, target, filler=ROUTINE)[0] == "target"
