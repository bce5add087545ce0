"""Acronyms and their expansions, found in the papers themselves.

Abstracts define their acronyms: "reinforcement learning (RL)", "large language models
(LLMs)", "Group Relative Policy Optimization (GRPO)". `mine` reads those definitions
(the initials of the words before a parenthesised acronym, common words skipped) and
keeps each acronym's usual expansion, so that search can take "rl" for "reinforcement
learning" and the other way round. The expansion is stored as its words, tokenised as
the index tokenises, the last one singular ("large language model").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from ..text.tokens import tokens

# mostly capitals, each perhaps followed by one small letter: RL, GRPO, LLMs, CoT, MoE
_DEFINED = re.compile(r"\(((?:[A-Z][a-z]?){2,8})\)")
#: Words an acronym's initials skip ("reinforcement learning from human feedback": RLHF).
_SKIPPED = frozenset("a an and as at by for from in of on or the to via with".split())
_MIN_SEEN = 2  # definitions seen before an acronym is trusted
_MIN_SHARE = 0.5  # of its definitions, the share its usual expansion must have


def singular(word: str) -> str:
    """`word` without a plural ending (models -> model, policies -> policy), or as it is."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_WORD = re.compile(r"[^\W_]+")


_TOO_FEW: list[str] = []  # `_initials` reached the window's first word, perhaps cut


def _initials(words: list[str], letters: str, whole: bool) -> list[str] | None:
    """The last words of `words` whose initials spell `letters` (the last one first), or
    None when they do not. Unless `words` are the `whole` text's, their first word may be
    cut: `_TOO_FEW` when the choice reaches it."""
    chosen: list[str] = []
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
        elif not (word in _SKIPPED and chosen):
            return None
    return chosen if need == 0 else None


def _expansion(before: str, letters: str) -> tuple[str, ...] | None:
    """The words at the end of `before` whose initials spell `letters`, or None. A
    common word may be an initial ("chain of thought": CoT) or skipped ("reinforcement
    learning from human feedback": RLHF)."""
    # The words are read from the end: a window of a dozen letters per initial nearly
    # always holds them. Only the window's first word may be cut: the whole text is read
    # when the choice reaches it (the same result, for a fraction of the regex work).
    window = 12 * len(letters) + 12
    while True:
        whole = window >= len(before)
        words = _WORD.findall(before[-window:].lower())
        if whole or len(words) > 1:
            if not words or words[-1][0] != letters[-1]:
                return None  # most parentheses: cheap to refuse
            chosen = _initials(words, letters, whole)
            if chosen is not _TOO_FEW:
                break
        window = len(before)
    if not chosen:
        return None
    chosen.reverse()
    chosen[-1] = singular(chosen[-1])
    joined = " ".join(chosen)
    # lower-case ASCII letters and digits are tokens already (most definitions): the
    # tokeniser is only needed for accents
    return tuple(chosen) if joined.isascii() else tuple(tokens(joined))


def mine(texts: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Acronym (lower case, singular) -> the words of its usual expansion in `texts`."""
    seen: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        if not text or "(" not in text:
            continue
        for m in _DEFINED.finditer(text):
            raw = m.group(1)
            letters = raw[:-1] if raw.endswith("s") and raw[:-1].isupper() else raw
            letters = letters.lower()
            # most parentheses fail here, before any tokenising: the word right before
            # an acronym starts with its last letter
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
        if n >= _MIN_SEEN and n >= _MIN_SHARE * sum(counts.values()):
            found[acronym] = words
    return found


__all__ = ["mine", "singular"]
