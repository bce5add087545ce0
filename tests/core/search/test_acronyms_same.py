"""Acronym mining reads 23,000 definitions in a cold build of the ICLR 2026 list, so its
walk is one function and its windows are split by rapidfuzz's `default_process` when
ASCII. Property: it finds exactly what the first implementation (kept here) found, on
texts made of definitions, near-definitions, skipped words, plurals, cut windows and
any Unicode; and the ASCII split is the regular expression's."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from reader_tui.core.search import acronyms as A
from reader_tui.core.text.tokens import tokens

_WORD = re.compile(r"[^\W_]+")
_TOO_FEW: list[str] = []


def _initials(words, letters, whole):
    chosen = []
    need = len(letters)
    for i in range(len(words) - 1, -1, -1):
        if need == 0:
            return chosen
        if i == 0 and not whole:
            return _TOO_FEW
        word = words[i]
        if word[0] == letters[need - 1]:
            chosen.append(word)
            need -= 1
        elif not (word in A._SKIPPED and chosen):
            return None
    return chosen if need == 0 else None


def _expansion(before, letters):
    window = 12 * len(letters) + 12
    while True:
        whole = window >= len(before)
        words = _WORD.findall(before[-window:].lower())
        if whole or len(words) > 1:
            if not words or words[-1][0] != letters[-1]:
                return None
            chosen = _initials(words, letters, whole)
            if chosen is not _TOO_FEW:
                break
        window = len(before)
    if not chosen:
        return None
    chosen.reverse()
    chosen[-1] = A.singular(chosen[-1])
    joined = " ".join(chosen)
    return tuple(chosen) if joined.isascii() else tuple(tokens(joined))


def first_mine(texts):
    """`acronyms.mine` as first written (per-definition Counters, the walk in two functions)."""
    seen = defaultdict(Counter)
    for text in texts:
        if not text or "(" not in text:
            continue
        for m in A._DEFINED.finditer(text):
            raw = m.group(1)
            letters = raw[:-1] if raw.endswith("s") and raw[:-1].isupper() else raw
            letters = letters.lower()
            before = text[max(0, m.start() - 120) : m.start()].rstrip()
            cut = max(before.rfind(" "), before.rfind("-"))
            if before[cut + 1 : cut + 2].lower() != letters[-1]:
                continue
            words = _expansion(before, letters)
            if words:
                seen[letters][words] += 1
    found = {}
    for acronym, counts in seen.items():
        (words, n), = counts.most_common(1)
        if n >= A._MIN_SEEN and n >= A._MIN_SHARE * sum(counts.values()):
            found[acronym] = words
    return found


PIECES = [
    "large language models (LLMs)", "large language model (LLM)", "reinforcement learning (RL)",
    "reinforcement learning from human feedback (RLHF)", "chain of thought (CoT)", "chain-of-thought (CoT)",
    "mixture of experts (MoE)", "policies (P)", "graph neural networks (GNNs)", "Group Relative Policy Optimization (GRPO)",
    "Vision Transformer (ViT)", "Vélez Ébauche (VE)", "Ｌarge Ｌanguage (LL)", "the of and (TOA)", "(RL)", "(LLMs)",
    "rl (RL)", " (RL)", "-learning (L)", "x" * 130 + " learning (RL)", "reinforce" * 9 + " learning (RL)",
    "reinforcement learning  (RL)", "a b c d e f g h (ABCDEFGH)", "(AbCdEfGhIj)", "models (MS)",
    " ", ". ", ", ", "(", ")", "-", "\n", "_", "r_l (RL)", "ΑΒ (ΑΒ)", "a\u0301b (AB)",
]
TEXT = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(alphabet=st.characters(codec=None), max_size=8),
              st.text(alphabet="rlmgRLMG ()-s_", max_size=12)),
    max_size=16,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT), max_size=8))
def test_mine_finds_what_the_first_implementation_found(texts):
    texts = texts + texts  # an acronym needs two definitions
    found, first = A.mine(texts), first_mine(texts)
    assert found == first
    assert list(found) == list(first)  # in the same order (the cache file's)


def test_ties_go_to_the_expansion_seen_first():
    texts = ["reinforcement learning (RL)", "robot learning (RL)"] * 2
    assert A.mine(texts) == first_mine(texts) == {"rl": ("reinforcement", "learning")}


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_the_ascii_split_is_the_regular_expressions(text):
    assert A._words(text) == _WORD.findall(text.lower())


def test_every_ascii_character_splits_as_the_regular_expression():
    for c in map(chr, range(128)):
        assert A._words(f"ab{c}cd") == _WORD.findall(f"ab{c}cd".lower()), repr(c)
