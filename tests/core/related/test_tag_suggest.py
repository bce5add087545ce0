"""Tag suggestions: one key for the many spellings of a tag; tags of similar papers first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.related.tag_suggest import keyword_list, normalise_tag, suggest_tags


@pytest.mark.parametrize(
    "spellings",
    [
        ["LLMs", "Large Language Models", "llm", "large-language-model", "large_language_models", "LLM"],
        ["RL", "reinforcement learning", "Reinforcement-Learning"],
        ["GNN", "GNNs", "Graph Neural Networks", "graph neural network"],
        ["VLM", "VLMs", "Vision-Language Models", "vision language model"],
        ["MLLM", "MLLMs", "Multimodal Large Language Models", "multi-modal LLMs"],
        ["diffusion", "Diffusion Models", "diffusion model"],
        ["NLP", "natural language processing"],
        ["CV", "Computer Vision"],
        ["LLM agents", "Large language model agents", "llm-agent"],
        ["Policies", "policy"],
        ["bias", "biases"],
    ],
)
def test_spellings_of_one_tag_share_a_key(spellings: list[str]) -> None:
    assert len({normalise_tag(s) for s in spellings}) == 1, [normalise_tag(s) for s in spellings]


@pytest.mark.parametrize(
    "different",
    [
        ("llm", "mllm"),
        ("llm", "language model"),
        ("rl", "rlhf"),
        ("analysis", "analyses of variance"),
        ("physics", "physic"),
        ("graph", "gnn"),
    ],
)
def test_different_tags_stay_apart(different: tuple[str, str]) -> None:
    assert normalise_tag(different[0]) != normalise_tag(different[1])


@given(st.text(max_size=40))
def test_normalise_is_idempotent_and_never_fails(text: str) -> None:
    key = normalise_tag(text)
    assert normalise_tag(key) == key


def test_keywords_packed_in_one_string_are_split() -> None:
    assert keyword_list(["LLM; agents, planning.", "  ", "RL"]) == ["LLM", "agents", "planning", "RL"]


def make(pid: str, tags: tuple[str, ...] = (), keywords: tuple[str, ...] = ()) -> PaperView:
    return PaperView(Paper(id=pid, title=pid, keywords=keywords), Annotation(tags=tags))


def test_tags_of_the_nearest_papers_come_first_spelled_as_the_user_does() -> None:
    paper = make("p", keywords=("Large Language Models", "Reasoning benchmark"))
    related = [
        make("a", tags=("agents", "LLM")),
        make("b", tags=("agents", "theory")),
        make("c", tags=("llms",)),
        make("d", tags=("theory",)),
    ]
    known = {"LLM": 12, "llms": 1, "agents": 4, "theory": 7}
    suggestions = suggest_tags(paper, related, known)
    # "LLM": rank 1 + rank 3 + the paper's own keyword; "agents": 1 + 1/2; "theory": 1/2 + 1/4.
    assert suggestions == ["LLM", "agents", "theory", "Reasoning benchmark"]
    assert len(suggest_tags(paper, related, known, limit=2)) == 2
    assert suggest_tags(paper, related, known, limit=0) == []


def test_the_papers_own_tags_are_not_suggested() -> None:
    paper = make("p", tags=("llm",), keywords=("LLMs", "Planning"))
    related = [make("a", tags=("Large Language Models", "planning", "agents"))]
    assert suggest_tags(paper, related, {"Large Language Models": 3, "planning": 2}) == ["planning", "agents"]


def test_keywords_matching_a_known_tag_beat_new_keywords() -> None:
    paper = make("p", keywords=("Optimal transport", "Graph Neural Networks"))
    assert suggest_tags(paper, [], {"GNN": 5}) == ["GNN", "Optimal transport"]


def test_a_sentence_in_the_keyword_box_is_not_a_tag() -> None:
    paper = make("p", keywords=("we study how large models fail to generalise out of distribution",))
    assert suggest_tags(paper, [], {}) == []


def test_no_related_papers_no_keywords_no_suggestions() -> None:
    assert suggest_tags(make("p"), [], {"llm": 3}) == []
