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
from collections.abc import Iterable

from rapidfuzz.utils import default_process

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


def _words(text: str) -> list[str]:
    """The words (`_WORD`) of `text`, lower case. An ASCII text (nearly every window read
    below) is split by rapidfuzz's `default_process` (C++: every character but a letter or
    digit a space), 2.5 times faster than the regular expression; a test holds the two
    together."""
    return default_process(text).split() if text.isascii() else _WORD.findall(text.lower())


def _expansion(before: str, letters: str, known: dict[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...] | None:
    """The words at the end of `before` whose initials spell `letters`, or None. A
    common word may be an initial ("chain of thought": CoT) or skipped ("reinforcement
    learning from human feedback": RLHF). `known` keeps the expansions found from the
    words they were made of, for the definitions whose words are the last ones of the
    text, one per letter (most of them): "large language models (LLMs)" is met 4,000
    times in the cold build."""
    # The words are read from the end: a window of a dozen letters per initial nearly
    # always holds them. Only the window's first word may be cut: the whole text is read
    # when the choice reaches it (the same result, for a fraction of the regex work).
    # (One function, the walk inlined: this runs for 23,000 definitions in the cold
    # build, where each call and attribute lookup showed.)
    need = len(letters)
    last = letters[-1]
    window = 12 * need + 12
    whole = window >= len(before)
    words = _words(before[-window:])
    if not whole and len(words) <= 1:
        whole = True
        words = _words(before)
    if len(words) > need or (whole and len(words) == need):
        # The last words spell the letters, their initials one for one: the walk below
        # would choose them all and stop there (short of the window's first word, which
        # may be cut), whatever comes before. Their expansion is known once made.
        tail = tuple(words[-need:])
        if "".join(next(zip(*tail))) == letters:
            found = known.get(tail)
            if found is None:
                found = known[tail] = _expanded(list(tail))
            return found
    while True:
        if not words or words[-1][0] != last:
            return None  # most parentheses: cheap to refuse
        chosen: list[str] = []
        left = need
        i = len(words) - 1
        while i >= 0 and left:
            if i == 0 and not whole:
                break  # reached the window's first word, perhaps cut: read the whole text
            word = words[i]
            if word[0] == letters[left - 1]:
                chosen.append(word)
                left -= 1
            elif not (chosen and word in _SKIPPED):
                return None
            i -= 1
        else:
            break
        whole = True
        words = _words(before)
    if left:
        return None
    chosen.reverse()
    return _expanded(chosen)


def _expanded(chosen: list[str]) -> tuple[str, ...]:
    """An expansion's words as stored: the last one singular, tokenised as the index
    tokenises."""
    chosen[-1] = singular(chosen[-1])
    joined = " ".join(chosen)
    # lower-case ASCII letters and digits are tokens already (most definitions): the
    # tokeniser is only needed for accents
    return tuple(chosen) if joined.isascii() else tuple(tokens(joined))


def mine(texts: Iterable[str | None]) -> dict[str, tuple[str, ...]]:
    """Acronym (lower case, singular) -> the words of its usual expansion in `texts`."""
    return chosen(definitions(texts))


def definitions(texts: Iterable[str | None]) -> dict[tuple[str, tuple[str, ...]], int]:
    """(acronym, expansion) -> how many times `texts` define it, in the order first seen."""
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    get = seen.get
    # the expansions made so far: a common acronym is defined thousands of times
    known: dict[tuple[str, ...], tuple[str, ...]] = {}
    finditer = _DEFINED.finditer
    for text in texts:
        if not text or "(" not in text:
            continue
        for m in finditer(text):
            raw = m[1]
            letters = (raw[:-1] if raw[-1] == "s" and raw[:-1].isupper() else raw).lower()
            # most parentheses fail here, before any tokenising: the word right before
            # an acronym starts with its last letter
            at = m.start()
            before = text[at - 120 if at > 120 else 0 : at].rstrip()
            space, hyphen = before.rfind(" "), before.rfind("-")
            cut = space if space > hyphen else hyphen
            if before[cut + 1 : cut + 2].lower() != letters[-1]:
                continue
            words = _expansion(before, letters, known)
            if words:
                key = (letters, words)
                seen[key] = get(key, 0) + 1
    return seen


def chosen(seen: dict[tuple[str, tuple[str, ...]], int]) -> dict[str, tuple[str, ...]]:
    """Each acronym's usual expansion among its `definitions` (ties go to the first seen),
    if it has been defined often enough and mostly so."""
    by_acronym: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    for (acronym, words), n in seen.items():
        by_acronym.setdefault(acronym, []).append((words, n))
    found = {}
    for acronym, counts in by_acronym.items():
        words, n = max(counts, key=_count)  # the first of the most seen, as Counter.most_common
        if n >= _MIN_SEEN and n >= _MIN_SHARE * sum(c for _, c in counts):
            found[acronym] = words
    return found


def _count(item: tuple[tuple[str, ...], int]) -> int:
    return item[1]


__all__ = ["chosen", "definitions", "mine", "singular"]
