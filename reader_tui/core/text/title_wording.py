"""How a derived title is worded: a described contribution made to stand on its own.

`core.text.titles` finds what an abstract names and describes; this module words it as a
title: what leans on earlier sentences is cut ("avoids this problem by ..."), "novel" and
"we" are dropped, a bare kind ("a novel guidance mechanism") is completed with what the next
sentence says it does, and the result is cut to `TITLE_WIDTH`. It works on short fragments
rendered for display (`display_fragment`), never on whole abstracts.
"""

from __future__ import annotations

import re

from .display import collapse_spaces, cut_to_width, render_uncached

TITLE_WIDTH = 100

INTERJECTION = re.compile(r",?\s*(?:to\s+(?:the\s+best\s+of\s+)?our\s+(?:best\s+)?knowledge)\s*,?", re.I)
TRAILING_CHARS = " \t\n,;:.-\u2013\u2014("
# A phrase that leans on sentences the title does not have: "avoids this problem",
# "handle such complex constraints", "to address these limitations".
_VAGUE_NOUNS = (
    r"problems?|issues?|challenges?|limitations?|gaps?|questions?|drawbacks?|shortcomings?|bottlenecks?"
    r"|difficult(?:y|ies)|phenomen(?:on|a)|observations?|insights?|findings?|settings?|needs?|concerns?"
    r"|obstacles?|barriers?|deficienc(?:y|ies)|weakness(?:es)?|trade-?offs?|dilemmas?|tasks?|cases?|scenarios?"
)
_CONTEXT = re.compile(
    r"\b(?:(?P<vague>(?:this|these|those|such|the\s+above|the\s+aforementioned|aforementioned)"
    rf"\s+(?:[\w-]+\s+){{0,2}}?(?:{_VAGUE_NOUNS})\b)"
    r"|(?P<such>such)\s+(?!as\b)[\w(]"
    r"|(?P<these>these|those)\s+(?=[\w(])"
    r"|(?P<pointer>this(?!\s+(?:paper|work|study|article)\b)|it|the\s+former|the\s+latter|the\s+above)\b)",
    re.I,
)
# Where a clause starts: a phrase that leans on context is cut off from here.
_CLAUSE_START = re.compile(
    r",\s+|\s+(?=(?:that|which|where|whereby|to|by|so\s+as\s+to|in\s+order\s+to|for|while|and)\s)", re.I
)
_DANGLING = re.compile(
    r"(?:\s+(?:designed|aimed|intended|developed|tailored|built|used|proposed|able|\w+ly"
    r"|and|or|that|which|to|by|for))+$",
    re.I,
)
# "... this problem by using algorithmic generation": how it does it survives the cut.
_HOW_TAIL = re.compile(r"^[^,;]*?\s+(?:by\s+)?(?P<how>(?:using|via|through|leveraging)\s.*)$", re.I)
_NOVEL = re.compile(r"\b(?P<art>an?|the)\s+(?:(?:novel|new|innovative)\s+(?=\w))+(?P<next>\w)", re.I)
_LEADING_THAT = re.compile(r"^(?:that|how\s+(?=we\b))\s+", re.I)
# A contribution described by its kind alone ("a novel classifier-free guidance mechanism").
_GENERIC_END = re.compile(
    r"\b(?:method|approach|mechanism|framework|model|algorithm|technique|system|architecture|strategy"
    r"|scheme|paradigm|pipeline|objective|loss|module|network|procedure|solution)s?$",
    re.I,
)
_WHAT_IT_DOES = re.compile(
    r"^(?:[\w-]+,\s+)?(?:our|the\s+proposed|this|the\s+new)\s+(?:[\w-]+\s+)?"
    r"(?:method|approach|mechanism|framework|model|algorithm|technique|system|architecture|strategy|scheme"
    r"|paradigm|pipeline|objective|loss|module|network|procedure|solution)\s+(?:also\s+|further\s+)?"
    r"(?P<verb>[a-z]+[^s\W]*s)\s+(?P<rest>.+)$",
    re.I,
)
# Verbs that report a result rather than say what the contribution does.
_RESULT_VERBS = frozenset(
    """is was has does achieves outperforms shows demonstrates yields attains surpasses performs works
    requires remains obtains reaches exhibits sets beats matches delivers consistently significantly""".split()
)

# "A multiphysics training framework that ..." reads as a title without its article;
# "A model that ..." does not.
_ARTICLE_DROPS = re.compile(r"^an?\s+(?=[^\s,]+\s+[^\s,]+(?:\s|$))(?![^\s,]+\s+(?:that|which|to|for|of|with)\b)", re.I)


def cut_context(text: str) -> str:
    """`text` without what leans on earlier sentences: a clause about "this problem"
    is cut (keeping how it is solved: "using ..."), "these X" becomes "X", and a text
    that cannot stand on its own comes back empty."""
    for _ in range(4):
        found = _CONTEXT.search(text)
        if found is None:
            return text
        if found.group("these"):
            text = text[: found.start()] + text[found.end() :]
            continue
        starts = [m.start() for m in _CLAUSE_START.finditer(text, 0, found.start())]
        head = _DANGLING.sub("", text[: starts[-1]]).rstrip(TRAILING_CHARS) if starts else ""
        if len(head.split()) < 2:
            if found.group("such"):
                text = text[: found.start()] + text[found.start() + 4 :].lstrip()
                continue
            return ""
        how = _HOW_TAIL.match(text[found.end() :])
        if how and not _CONTEXT.search(how.group("how")):
            return f"{head} {how.group('how')}"
        return head
    return text


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def drop_novelty(text: str) -> str:
    """`text` without "novel" and "new" after an article ("an innovative X" -> "a X")."""
    def fix(m: re.Match[str]) -> str:
        art = m.group("art")
        if art.lower() != "the":
            new = _article(m.group("next"))
            art = new.capitalize() if art[:1].isupper() else new
        return f"{art} {m.group('next')}"

    return _NOVEL.sub(fix, text)


def as_title(clause: str) -> str:
    """An unnamed description as a title: standalone, without a leading article."""
    text = cut_context(_LEADING_THAT.sub("", without_we(clause.strip())))
    if not text:
        return ""
    text = _ARTICLE_DROPS.sub("", drop_novelty(text))
    return text[:1].upper() + text[1:] if text[:1].islower() and not text.split(" ", 1)[0][1:2].isupper() else text


# "a framework where we train models" -> "a framework that trains models": no "we" in a title.
_WHERE_WE = re.compile(r"\s+(?:where|in\s+which|with\s+which|through\s+which)\s+we\s+(?P<verb>[a-z]{3,})\b", re.I)


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def without_we(text: str) -> str:
    found = _WHERE_WE.search(text)
    if found is None or found.group("verb").lower() in ("can", "could", "will", "would", "may", "might", "also", "have"):
        return text
    return f"{text[: found.start()].rstrip(',')} that {_third_person(found.group('verb'))}{text[found.end() :]}"


def polish_named(name: str, title: str) -> str:
    """A named title with its description standing on its own ("ATLAS: a multi-agent
    framework", not "... designed to handle such complex nature of ...")."""
    if not name or not title.startswith(name) or len(title) == len(name):
        return title
    rest = title[len(name) :]
    sep = ": " if rest.startswith(": ") else " "
    desc = cut_context(drop_novelty(without_we(rest[len(sep) :])))
    return f"{name}{sep}{desc}" if desc else name


def complete_kind(clause: str, sentences: list[str]) -> str:
    """A bare kind ("a novel classifier-free guidance mechanism") completed with what the
    next sentences say it does ("... that smoothens the transport between ...")."""
    if len(clause.split()) > 7 or not _GENERIC_END.search(clause.rstrip(TRAILING_CHARS)):
        return clause
    for sentence in sentences[:3]:
        shown = INTERJECTION.sub("", display_fragment(sentence.strip()))
        found = _WHAT_IT_DOES.match(shown)
        if found and found.group("verb").lower() not in _RESULT_VERBS:
            does = found.group("rest")
            end = re.search(r",\s+(?:which|while|and|thus|thereby|resulting)\b|;|\.\s", does)
            does = does[: end.start()] if end else does
            does = cut_context(does)
            if does:
                return f"{clause.rstrip(TRAILING_CHARS)} that {found.group('verb')} {does}"
    return clause


def finish_title(title: str) -> str:
    title = collapse_spaces(title).rstrip(TRAILING_CHARS)
    first = title.split(" ", 1)[0]
    if first.replace("-", "").isalpha() and first.islower():
        title = title[:1].upper() + title[1:]  # "log-linear attention" leads: capitalise
    return cut_to_width(title, TITLE_WIDTH)


def display_fragment(raw: str) -> str:
    # Uncached and cut short: fragments of 20k abstracts would only evict the rows
    # the list needs from to_display's cache.
    return collapse_spaces(render_uncached(raw[:_FRAGMENT]))


_FRAGMENT = 320
