"""Case protection for BibTeX titles: `protect_case` braces the words of an escaped title
(`latex.escape_latex`'s output) that BibTeX styles must not lowercase."""

from __future__ import annotations

import re

__all__ = ["protect_case"]

_TITLE_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\$\$|\$|[{}]|\s+|[^\\${}\s]+", re.S)
_COMMAND = re.compile(r"\\[A-Za-z]+|\\.")
_TRAILING_PUNCT = re.compile(r"[:;,.!?]+$")
_MATH_START = re.compile(r"(?<!\\)\$|\\[(\[]")


def _title_words(title: str) -> list[str]:
    """Split escaped title text at spaces that are outside braces and math."""
    words, current, depth, math = [], [], 0, ""
    for tok in _TITLE_TOKEN.findall(title):
        if tok.isspace() and depth == 0 and not math:
            if current:
                words.append("".join(current))
                current = []
            continue
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(0, depth - 1)
        elif tok in ("$", "$$", "\\(", "\\)", "\\[", "\\]") and depth == 0:
            if not math:
                math = {"\\(": "\\)", "\\[": "\\]"}.get(tok, tok)
            elif tok == math:
                math = ""
        current.append(tok)
    if current:
        words.append("".join(current))
    return words


def _visible(word: str) -> str:
    if "\\" not in word and "{" not in word:
        return word
    return _COMMAND.sub("", word).replace("{", "").replace("}", "")


def _has_math_or_capital_command(word: str) -> bool:
    if _MATH_START.search(word):
        return True  # lowercasing math changes its meaning
    return any(c.isupper() for c in "".join(_COMMAND.findall(word)))  # \LaTeX -> undefined \latex


def _needs_protection(word: str, visible: str, proper_nouns: bool) -> bool:
    rest = visible.lstrip("\"'([`")
    tail = rest[1:]
    if tail != tail.lower():
        return True  # a capital after the first character: SOCOP, LLMs, GeoPurify, PG-Occ, 3D
    if proper_nouns and rest[:1].isupper():
        return True
    return ("$" in word or "\\" in word) and _has_math_or_capital_command(word)


def _is_sentence_case(visible: list[str]) -> bool:
    """True when capitals after the first word are rare: then they mark proper nouns."""
    long_words = [w for w in visible[1:] if len(w) > 3 and w.isalpha()]
    if len(long_words) < 3:
        return False
    capitalised = sum(1 for w in long_words if w[0].isupper())
    return capitalised * 2 < len(long_words)


def protect_case(title: str) -> str:
    """Brace-protect the words of an escaped title that BibTeX styles must not lowercase.

    Protected: words with a capital after their first letter or in all caps (`{SOCOP}`,
    `{LLMs}`, `{PG-Occ}`), math, and commands with capitals. In a sentence-case title
    every capitalised word after the first is taken as a proper noun and protected too.
    The first word gets no special care: styles keep its first letter as it is.
    Words already wrapped in braces are left alone.
    """
    if "{" in title or "\\" in title or "$" in title:
        words = _title_words(title)
        visible = [_visible(w) for w in words]
    else:
        words = visible = title.split()
        if title[1:] == title[1:].lower():
            return " ".join(words)  # no capital after the first letter: nothing to protect
    proper_nouns = _is_sentence_case(visible)
    out = []
    for index, word in enumerate(words):
        if word[0] == "{" and word[-1] == "}" or not _needs_protection(
            word, visible[index], proper_nouns and index > 0
        ):
            out.append(word)
            continue
        punct = _TRAILING_PUNCT.search(word)
        start = punct.start() if punct else len(word)
        if start and word[start - 1] == "\\":
            start += 1  # the first mark is a control symbol's (`\!`, `\.`): it stays with its backslash
        core, tail = (word[:start], word[start:]) if start else (word, "")
        # `{\cmd ..}` is a BibTeX "special character" whose letters styles still change:
        # a second brace level keeps it whole.
        out.append(("{{%s}}" if core.startswith("\\") else "{%s}") % core + tail)
    return " ".join(out)
