"""Relevance properties of the search score (issue 16): coverage, words side by side,
no ties in id order, acronyms from the corpus both ways, plurals, withdrawn papers last,
a paper named by its id, DOI or citation key first. Handmade papers, each pair built so
that the old order (ids, all-or-any) gives the wrong answer."""

from __future__ import annotations

from reader_tui.core.model import Annotation, Paper, PaperView, Scores
from reader_tui.core.search.index import SearchIndex


def view(pid, title, abstract="", **fields):
    return PaperView(Paper(id=pid, title=title, abstract=abstract, **fields), Annotation())


FILLER = [view(f"f{i}", f"Filler paper {i}", "Nothing about anything in particular here.") for i in range(20)]
DEFINITIONS = [
    view(f"d{i}", f"Agents number {i}", "We train agents with reinforcement learning (RL) on many tasks. Large "
         "language models (LLMs) are used as judges.")
    for i in range(3)
]


def ids(hits):
    return [h.id for h in hits]


def test_words_side_by_side_rank_above_scattered_words():
    papers = [
        view("a-scattered", "Methods one", "A linear probe reads the attention of every head."),
        view("b-adjacent", "Methods two", "We replace softmax with linear attention in every head."),
        *FILLER,
    ]
    assert ids(SearchIndex.build(papers).search("linear attention"))[:2] == ["b-adjacent", "a-scattered"]


def test_more_of_a_long_query_ranks_higher_and_the_result_says_how_many_have_every_word():
    papers = [
        view("a-two", "Reasoning with planning", "We study reasoning."),
        view("b-four", "Reinforcement learning improves reasoning", "Careful reasoning."),
        view("c-all", "Reinforcement learning improves reasoning and planning", "Planning."),
        *FILLER,
    ]
    result = SearchIndex.build(papers).search("reinforcement learning improves planning reasoning")
    assert ids(result)[:2] == ["c-all", "b-four"]
    assert "a-two" not in ids(result)  # 2 of 5 words: fewer than a long query asks for
    assert result.complete == 1 and not result.partial
    # no paper has every word: the best partial matches, and the result says so
    partial = SearchIndex.build(papers).search("reinforcement learning improves reasoning xylophone")
    assert partial.partial and partial.complete == 0 and ids(partial)[0] in ("b-four", "c-all")


def test_ties_never_fall_back_to_id_order():
    papers = [
        view("a1", "Long Context Retrieval Models", "A method.", scores=Scores(ratings=(2, 2))),
        view("a2", "Long Context Retrieval Models", "A method.", scores=Scores(ratings=(8, 6))),
        *FILLER,
    ]
    assert ids(SearchIndex.build(papers).search("long context"))[:2] == ["a2", "a1"]


def test_acronyms_found_in_the_abstracts_work_both_ways():
    papers = [
        view("a-spelled", "Sample-efficient reinforcement learning for robots", "Robots learn."),
        view("b-short", "Scaling RL for robots", "Robots learn."),
        view("c-llm", "Judging with LLMs", "Judges."),
        *DEFINITIONS,
        *FILLER,
    ]
    index = SearchIndex.build(papers)
    assert index._acronyms["rl"] == ("reinforcement", "learning")
    assert {"a-spelled", "b-short"} <= set(ids(index.search("rl robots"))[:2])
    assert {"a-spelled", "b-short"} <= set(ids(index.search("reinforcement learning robots"))[:2])
    assert "c-llm" in ids(index.search("large language models judging"))


def test_plural_and_singular_find_each_other():
    # three edits apart: no typo tolerance would take one for the other
    papers = [view("p", "A safe policy for driving", "Driving."), *FILLER]
    index = SearchIndex.build(papers)
    result = index.search("safe policies driving")
    assert ids(result)[:1] == ["p"] and not result.partial  # every word matched


def test_withdrawn_papers_come_after_the_others_that_cover_the_query():
    papers = [
        view("a-gone", "Test-Time Scaling for EEG", "Scaling at test time.", withdrawn=True),
        view("b-kept", "Test-Time Scaling of Reasoning", "Scaling at test time."),
        *FILLER,
    ]
    index = SearchIndex.build(papers)
    assert ids(index.search("test-time scaling"))[:2] == ["b-kept", "a-gone"]
    assert ids(index.search("test-time scaling is:withdrawn")) == ["a-gone"]


def test_an_id_doi_or_citation_key_typed_alone_finds_that_paper_first():
    papers = [
        view("mO3nEGibLA", "Conformal prediction", "Sets.", doi="10.5555/conf.2026.42", citekey="smith2026conformal"),
        view("other", "Prediction of 2026 elections", "10.5555 and smith."),
        *FILLER,
    ]
    index = SearchIndex.build(papers)
    for text in ("mO3nEGibLA", "10.5555/conf.2026.42", "https://doi.org/10.5555/CONF.2026.42", "smith2026conformal"):
        result = index.search(text)
        assert ids(result)[:1] == ["mO3nEGibLA"], text
        assert result.found == "mO3nEGibLA"
    assert index.search("conformal prediction").found is None


def test_hyphenation_is_folded_both_ways():
    papers = [
        view("joined", "Finetuning vision transformers", "Adapting."),
        view("hyphen", "Fine-tuning language transformers", "Adapting."),
        *FILLER,
    ]
    index = SearchIndex.build(papers)
    assert set(ids(index.search("fine-tuning transformers"))[:2]) == {"joined", "hyphen"}
    assert set(ids(index.search("finetuning transformers"))[:2]) == {"joined", "hyphen"}
    result = index.search("finetuning transformers")
    assert result.complete == 2
