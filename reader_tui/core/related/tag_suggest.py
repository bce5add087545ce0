"""Tag suggestions: the tags the user puts on similar papers, and the paper's own keywords.

Tags and keywords are compared by `normalise_tag`, so "LLMs", "Large Language Models",
"large-language-model" and "llm" are one suggestion, spelled the way the user already
spells it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ..model import PaperView

# Common ML phrases and their acronyms. A phrase inside a longer tag is replaced too
# ("large language model agents" -> "llm agent"); longer phrases are tried first, so
# "multimodal large language model" becomes "mllm", not "multimodal llm".
_ACRONYMS = {
    "llm": ["large language model"],
    "mllm": ["multimodal large language model", "multimodal llm"],
    "vlm": ["vision language model", "visual language model"],
    "lvlm": ["large vision language model"],
    "vla": ["vision language action model", "vision language action"],
    "lm": ["language model"],
    "slm": ["small language model"],
    "rl": ["reinforcement learning"],
    "marl": ["multi agent reinforcement learning", "multiagent reinforcement learning"],
    "rlhf": ["reinforcement learning from human feedback"],
    "rlvr": ["reinforcement learning with verifiable reward"],
    "gnn": ["graph neural network"],
    "cnn": ["convolutional neural network"],
    "rnn": ["recurrent neural network"],
    "snn": ["spiking neural network"],
    "pinn": ["physics informed neural network"],
    "nn": ["neural network"],
    "gan": ["generative adversarial network"],
    "vae": ["variational autoencoder", "variational auto encoder"],
    "vit": ["vision transformer"],
    "diffusion": ["diffusion model", "diffusion probabilistic model", "denoising diffusion model"],
    "nlp": ["natural language processing"],
    "cv": ["computer vision"],
    "ml": ["machine learning"],
    "dl": ["deep learning"],
    "moe": ["mixture of expert"],
    "ssm": ["state space model"],
    "rag": ["retrieval augmented generation"],
    "cot": ["chain of thought"],
    "icl": ["in context learning"],
    "ood": ["out of distribution"],
    "kg": ["knowledge graph"],
    "nerf": ["neural radiance field"],
    "3dgs": ["3d gaussian splatting", "gaussian splatting"],
    "peft": ["parameter efficient fine tuning", "parameter efficient finetuning"],
    "lora": ["low rank adaptation"],
    "fl": ["federated learning"],
    "xai": ["explainable ai", "explainable artificial intelligence"],
    "ai": ["artificial intelligence"],
    "ode": ["ordinary differential equation"],
    "pde": ["partial differential equation"],
}

# Spelling variants folded before the phrase table applies.
_VARIANTS = {
    "multi modal": "multimodal",
    "multi agent": "multiagent",
    "fine tuning": "finetuning",
    "pre training": "pretraining",
    "post training": "posttraining",
    "auto encoder": "autoencoder",
}

# Words whose final s is not a plural (or whose singular would merge unrelated tags).
_KEEP_S = frozenset(
    "analysis basis bias corpus lens loss news physics process progress series "
    "species status success thesis synthesis hypothesis diagnosis dynamics robotics semantics "
    "statistics mathematics economics linguistics graphics ethics kinematics genomics "
    "proteomics".split()
)

_SEPARATORS = re.compile(r"[\s\-_/.]+")
_NOT_WORD = re.compile(r"[^\w ]+")


def _singular(word: str) -> str:
    if len(word) <= 3 or word in _KEEP_S or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("es") and word[:-2] in _KEEP_S:  # biases, processes
        return word[:-2]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _fold(text: str) -> str:
    text = _SEPARATORS.sub(" ", text.casefold())
    text = _NOT_WORD.sub("", text)
    return " ".join(_singular(w) for w in text.split())


def _phrase_table() -> list[tuple[re.Pattern[str], str]]:
    pairs = [(_fold(variant), _fold(short)) for short, long in _ACRONYMS.items() for variant in long]
    # Longest first, so a phrase that contains another one is replaced whole.
    pairs.sort(key=lambda pair: -len(pair[0]))
    return [(re.compile(rf"(?<!\w){re.escape(long)}(?!\w)"), short) for long, short in pairs]


_VARIANT_TABLE = [(re.compile(rf"(?<!\w){re.escape(k)}(?!\w)"), v) for k, v in _VARIANTS.items()]
_PHRASES = _phrase_table()


def normalise_tag(tag: str) -> str:
    """The comparison key of a tag or keyword: case-folded, hyphens, underscores, slashes
    and spaces alike, plurals made singular, known ML phrases replaced by their acronym.

    "LLMs", "Large Language Models", "large-language-model" and "llm" all give "llm".
    """
    key = _fold(tag)
    for pattern, replacement in _VARIANT_TABLE:
        key = pattern.sub(replacement, key)
    for pattern, short in _PHRASES:
        key = pattern.sub(short, key)
    return key


def keyword_list(keywords: Iterable[str]) -> list[str]:
    """A paper's keywords one per entry: some sources pack a whole list into one string
    ("LLM; agents, planning"), and a tag may not hold a comma."""
    result = []
    for keyword in keywords:
        for part in re.split(r"[;,\n]", keyword):
            part = " ".join(part.split()).strip(" .")
            if part:
                result.append(part)
    return result


def suggest_tags(
    view: PaperView,
    related_views: Sequence[PaperView],
    known_tags: Mapping[str, int],
    limit: int = 5,
) -> list[str]:
    """Tags to offer for `view`, best first, at most `limit`.

    Candidates: the tags on `related_views` (most similar first; a tag on the nearest paper
    is worth 1, on the second 1/2, ...), the paper's keywords that match a tag the user
    already has (worth 1, they are the paper's own word for it) and its other keywords
    (worth 0.3, new vocabulary the user may want). Candidates that normalise alike are one,
    spelled as the user's most used tag with that key; the paper's own tags are left out.
    """
    spelling: dict[str, str] = {}
    for tag, _count in sorted(known_tags.items(), key=lambda item: -item[1]):
        spelling.setdefault(normalise_tag(tag), tag)
    own = {normalise_tag(tag) for tag in view.tags}

    scores: dict[str, float] = {}
    order: dict[str, int] = {}  # first-seen position breaks ties, keeping results stable
    shown: dict[str, str] = {}

    def offer(text: str, value: float) -> None:
        key = normalise_tag(text)
        if not key or key in own:
            return
        shown.setdefault(key, spelling.get(key, text))
        order.setdefault(key, len(order))
        scores[key] = scores.get(key, 0.0) + value

    for rank, other in enumerate(related_views):
        for tag in other.tags:
            offer(tag, 1.0 / (rank + 1))
    for keyword in keyword_list(view.keywords):
        if len(keyword) <= 40:  # a sentence typed into the keyword box is not a tag
            offer(keyword, 1.0 if normalise_tag(keyword) in spelling else 0.3)

    best = sorted(scores, key=lambda key: (-scores[key], order[key]))
    return [shown[key] for key in best[: max(limit, 0)]]
