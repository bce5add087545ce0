"""Related papers: on a fixture of three topics the answer is known, so the ranking is too."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.related.similar import RelatedIndex, tokenize

CLUSTERS = {
    "diff": [
        (
            "Faster sampling for denoising diffusion models",
            "Denoising diffusion models generate images by reversing a noising process. We cut "
            "the number of sampling steps of the diffusion sampler with a learned ODE solver "
            "while keeping image quality (FID) on ImageNet.",
            ("diffusion models", "sampling"),
        ),
        (
            "Guidance for text-to-image diffusion",
            "Classifier-free guidance steers a diffusion model toward the prompt. We study how "
            "guidance scale trades image diversity for fidelity in text-to-image diffusion and "
            "propose a schedule for the noise levels.",
            ("diffusion", "text-to-image"),
        ),
        (
            "Score matching and the denoising objective",
            "Score-based generative models learn the gradient of the log density of noised "
            "data. We connect score matching to the denoising diffusion objective and derive "
            "a better noise schedule for image generation.",
            ("score matching", "generative models"),
        ),
        (
            "Latent diffusion for video generation",
            "We extend latent diffusion models from images to video: a denoising network "
            "generates frames in a compressed latent space, with temporal attention and a "
            "sampling procedure that keeps frames consistent.",
            ("video diffusion",),
        ),
    ],
    "graph": [
        (
            "Over-smoothing in deep graph neural networks",
            "Message passing graph neural networks lose node information as depth grows: node "
            "embeddings over-smooth. We bound over-smoothing on the graph Laplacian and add "
            "residual message passing to keep node features apart.",
            ("graph neural networks", "over-smoothing"),
        ),
        (
            "Expressive power of message passing",
            "We compare message passing graph networks with the Weisfeiler-Lehman test for "
            "graph isomorphism, and propose subgraph features that distinguish more graphs "
            "for node and graph classification.",
            ("GNN", "expressivity"),
        ),
        (
            "Graph transformers for molecules",
            "Graph transformers attend over all node pairs of a molecular graph. We add edge "
            "features and positional encodings from the graph Laplacian, and predict molecule "
            "properties better than message passing networks.",
            ("graph transformers", "molecules"),
        ),
        (
            "Link prediction on large graphs",
            "Link prediction asks which edges a graph is missing. We sample subgraphs around "
            "node pairs and train a graph neural network on them, scaling to graphs with "
            "millions of nodes and edges.",
            ("link prediction", "graphs"),
        ),
    ],
    "rl": [
        (
            "Offline reinforcement learning with conservative value estimates",
            "Offline reinforcement learning learns a policy from a fixed dataset of "
            "trajectories. We penalise the value function on actions outside the dataset so "
            "the policy stays conservative, and improve returns on D4RL.",
            ("offline reinforcement learning", "value function"),
        ),
        (
            "Exploration bonuses for sparse reward",
            "An agent with sparse reward must explore. We give the reinforcement learning "
            "agent an intrinsic reward for novel states, and the policy reaches the goal in "
            "hard exploration Atari games.",
            ("exploration", "reinforcement learning"),
        ),
        (
            "Policy gradient with a learned baseline",
            "Policy gradient estimates have high variance. A learned value baseline reduces "
            "the variance of the policy update, and the agent learns faster from reward in "
            "continuous control.",
            ("policy gradient", "RL"),
        ),
        (
            "Model-based planning for robot control",
            "A model-based reinforcement learning agent learns the dynamics of its "
            "environment and plans actions with it, needing fewer episodes of reward than "
            "model-free policy learning on robot control.",
            ("model-based RL", "planning"),
        ),
    ],
}


def views() -> list[PaperView]:
    result = []
    for topic, papers in CLUSTERS.items():
        for n, (title, abstract, keywords) in enumerate(papers):
            paper = Paper(id=f"{topic}{n}", title=title, abstract=abstract, keywords=keywords)
            result.append(PaperView(paper, Annotation()))
    return result


@pytest.fixture(scope="module")
def index() -> RelatedIndex:
    return RelatedIndex.build(views())


@pytest.mark.parametrize("paper_id", [v.id for v in views()])
def test_the_nearest_papers_share_the_topic(index: RelatedIndex, paper_id: str) -> None:
    topic = paper_id.rstrip("0123456789")
    found = index.related(paper_id, k=3)
    assert [pid for pid, _ in found] and all(pid.startswith(topic) for pid, _ in found), found


def test_scores_are_cosines_best_first_without_the_paper_itself(index: RelatedIndex) -> None:
    found = index.related("graph0", k=11)
    ids = [pid for pid, _ in found]
    scores = [score for _, score in found]
    assert "graph0" not in ids
    assert len(ids) == len(set(ids))
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= 1.0 + 1e-9 for s in scores)
    # Every paper of its own topic ranks above every paper of another topic.
    assert set(ids[:3]) == {"graph1", "graph2", "graph3"}


def test_a_closer_paper_ranks_higher(index: RelatedIndex) -> None:
    # Two message-passing papers about nodes are closer than the link-prediction one.
    ids = [pid for pid, _ in index.related("graph0", k=3)]
    assert ids.index("graph1") < ids.index("graph3")
    ids = [pid for pid, _ in index.related("diff0", k=3)]
    assert ids[0] in {"diff2", "diff3"}  # denoising + sampling, not the guidance paper


def test_more_like_this_is_a_longer_related_list(index: RelatedIndex) -> None:
    # The topics share no indexed word, so even 50 asked for stay within the topic.
    assert [pid for pid, _ in index.more_like_this("rl0")] == ["rl1", "rl2", "rl3"]
    assert index.more_like_this("rl0", k=2) == index.related("rl0", k=2)


def test_unknown_papers_and_empty_indexes_give_nothing() -> None:
    index = RelatedIndex.build(views())
    assert index.related("nope") == []
    assert index.related("rl0", k=0) == []
    assert "nope" not in index and "rl0" in index
    empty = RelatedIndex.build([])
    assert len(empty) == 0 and empty.related("rl0") == []


def test_a_paper_without_text_has_no_relatives() -> None:
    blank = PaperView(Paper(id="blank", title="", abstract="n/a"), Annotation())
    index = RelatedIndex.build([*views(), blank])
    assert index.related("blank") == []
    assert all(pid != "blank" for pid, _ in index.related("rl1", k=20))


def test_terms_explain_the_match(index: RelatedIndex) -> None:
    terms = [t for t, _ in index.terms("rl0")]
    assert {"policy", "reinforcement", "value"} <= set(terms)
    # Stop words, and words of one paper only (they can match nothing), are not indexed.
    assert "the" not in terms and "offline" not in terms


def test_tokenize_splits_latex_hyphens_and_unicode() -> None:
    assert tokenize(r"Log-Linear \textbf{Attention} in $O(n)$ — naïve") == [
        "log", "linear", "textbf", "attention", "in", "o", "n", "na", "ve",
    ]  # fmt: skip


def test_the_cache_is_used_only_for_the_same_papers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache" / "related.bin"
    papers = views()
    built = RelatedIndex.load_or_build(papers, cache)
    assert cache.exists()

    def no_build(*args, **kwargs):
        raise AssertionError("built again although the cache was good")

    with monkeypatch.context() as patch:
        patch.setattr(RelatedIndex, "build", classmethod(no_build))
        loaded = RelatedIndex.load_or_build(papers, cache)
    assert all(loaded.related(v.id, 5) == built.related(v.id, 5) for v in papers)
    assert loaded.terms("rl0") == built.terms("rl0")
    assert all(a is v.id for a, v in zip(loaded._ids, papers))  # the papers' id strings, not copies
    # the views may come one at a time (the app makes each as the load reads it)
    streamed = RelatedIndex.load(iter(papers), cache)
    assert streamed is not None and streamed._ids == [v.id for v in papers]
    assert streamed.related("rl0", 5) == built.related("rl0", 5)

    # One changed abstract makes the cache stale: the answer follows the new text.
    changed = list(papers)
    rl0 = changed[8].paper
    assert rl0.id == "rl0"
    changed[8] = PaperView(rl0.evolve(title="Graph networks", abstract=CLUSTERS["graph"][0][1]), Annotation())
    assert RelatedIndex.load_or_build(changed, cache).related("rl0", 1)[0][0].startswith("graph")


def test_a_damaged_or_unwritable_cache_means_a_build(tmp_path: Path) -> None:
    cache = tmp_path / "related.bin"
    cache.write_bytes(b"\x00garbage")
    assert RelatedIndex.load_or_build(views(), cache).related("diff0", 3)
    assert cache.read_bytes() != b"\x00garbage"
    blocked = tmp_path / "file"
    blocked.write_text("a file where a folder should be")
    assert RelatedIndex.load_or_build(views(), blocked / "related.bin").related("diff0", 3)


def test_weights_are_single_precision_and_a_twin_scores_one_at_most() -> None:
    # single precision halves the index's two weight columns (25 MB at 100,000 papers)
    twins = views() + [PaperView(Paper(id="twin", title=v.title, abstract=v.paper.abstract, keywords=v.keywords),
                                 Annotation()) for v in views()[:1]]
    built = RelatedIndex.build(twins)
    assert built._weights.typecode == "f" and built._posting_weights.typecode == "f"
    (best, score), *_ = built.related("twin", k=3)
    assert best == twins[0].id and 0.999 < score <= 1.0
