"""Titles for papers known only by their abstract: `derive_title` and `unique_titles`.

This module finds what an abstract names and describes (a name after "we propose", an
acronym's expansion, a claim); `title_wording` words it as a title. The code runs once per
imported paper, so it never converts a whole abstract: `display_fragment` renders only a
short fragment.

This module must not import textual or rich: the core runs without a UI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .display import collapse_spaces, cut_to_width, sanitize
from .title_wording import (
    INTERJECTION,
    TITLE_WIDTH,
    TRAILING_CHARS,
    as_title,
    complete_kind,
    display_fragment,
    finish_title,
    polish_named,
)


def unique_titles(titles: list[str]) -> list[str]:
    """`titles` in the same order, repeats made unique: "X", "X (2)", "X (3)"..."""
    seen: set[str] = set(titles)
    counts: dict[str, int] = {}
    out: list[str] = []
    for title in titles:
        n = counts.get(title, 0) + 1
        counts[title] = n
        if n == 1:
            out.append(title)
            continue
        candidate = f"{title} ({n})"
        while candidate in seen:
            n += 1
            candidate = f"{title} ({n})"
        counts[title] = n
        seen.add(candidate)
        out.append(candidate)
    return out


# --------------------------------------------------------------------------- derived titles


@dataclass(frozen=True, slots=True)
class DerivedTitle:
    """A title made from an abstract, and the contribution's bare name ("" if none)."""

    title: str
    short_name: str = ""


# No look-behind: a pattern that starts with a character class is scanned for fast.
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)]*\s+(?=[A-Z0-9\\$*\u201c\"(\[])|\n\s*\n")
_STRONG = (
    r"propos(?:e|es|ing)|introduc(?:e|es|ing)|present(?:s|ing)?|develop(?:s|ing)?|put(?:s|ting)?\s+forth"
    r"|design(?:s|ing)?|devis(?:e|es|ing)|formulat(?:e|es|ing)|contribut(?:e|es|ing)|unveil(?:s|ing)?"
)
_WEAK = (
    r"stud(?:y|ies|ying)|investigat(?:e|es|ing)|explor(?:e|es|ing)|analy[sz](?:e|es|ing)|examin(?:e|es|ing)"
    r"|provid(?:e|es|ing)"
)
_TRIGGER = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study|article)|our\s+(?:paper|work)|and|by|to)\s+"
    r"(?:(?:also|further|first|then|thus|therefore|hence|now|here|herein|instead|newly)\s+)?"
    rf"(?:(?P<strong>{_STRONG})|(?P<weak>{_WEAK}))\b\s*"
    r"(?:(?:here(?:in)?|in\s+this\s+(?:paper|work))\b\s*,?\s*)?",
    re.I,
)
_NAMING = re.compile(r"\b(?:called|named|dubbed|termed|coined|we\s+call)\s+", re.I)
_OUR_THING = re.compile(
    r"^(?:Our|The\s+proposed)\s+(?:approach|method|framework|model|system|algorithm|technique|solution"
    r"|pipeline|benchmark|dataset|architecture|work),?\s+(?P<name>[^,]{2,60}),"
)
# "We address these challenges with a unified framework that ...", "... by incorporating X".
_REMEDY_VERBS = ("address", "tackle", "overcome", "mitigate", "alleviate", "resolve", "bridge", "close", "fill")
_REMEDY = re.compile(
    r"\bwe\s+(?:\w+\s+)?(?:address|tackle|overcome|mitigate|alleviate|resolve|bridge|close|fill)\s+[^.;]{0,80}?"
    r"\s+(?:with|by|through|via)\s+(?P<how>\S)",
    re.I,
)
# "... that our algorithm, RPWithPrior, guarantees ...": a name in passing, after "our".
_OUR_NAMED = re.compile(
    r"\bour\s+(?:[\w-]+\s+)?(?:approach|method|framework|model|system|algorithm|technique|solution|pipeline"
    r"|benchmark|dataset|architecture|estimator|agent|library|tool),\s+(?P<name>[^,\s]{2,40}),",
    re.I,
)
# "we develop \\method(Benchmark Tuning with ...), a framework": the name was a macro.
_LEADING_PAREN = re.compile(r"^\(([^()]{3,80})\),?\s+")
_IS_A = re.compile(r"^\s*(?:is|are)\s+(an?\s.+)$", re.I)
_APPOSITIVE_START = re.compile(r"^(?P<name>[^\s,]+(?: [^\s,]+){0,3}), an? (?:novel|new)\b")
_VERB_STEMS = ("propos", "introduc", "present", "develop", "forth", "design", "devis", "formulat",
               "contribut", "unveil", "stud", "investigat", "explor", "analy", "examin", "provid")
_NAMING_WORDS = ("called", "named", "dubbed", "termed", "coined", "we call")
_APPOSITIVE_START_RAW = re.compile(r"^\S+(?: \S+){0,3}, an? (?:novel|new)\b")
_WE_SENTENCE = re.compile(r"\b(?:we|our|this\s+(?:paper|work))\b", re.I)
_MARKED = re.compile(r"^(?:\$?\\(?:textbf|texttt|textsc|emph|textit|mathbf|mathtt)\{|\*)")
_OBJ_END = re.compile(
    r"\s*(?:[,:;]\s*|\s[\u2014\u2013-]+\s|\u2014)"
    r"|\s+(?=(?:that|which|where|whereby|to|for|with|by|in|on|as|using|via|based|and|leveraging|from|through)\s)"
)
_ACRONYM = re.compile(r"^(?P<exp>[^(),;:]{3,90}?)\s*\((?P<acr>[^()\s,;]{2,24})\)")
_APPOSITIVE = re.compile(r"^(?:an?|the)\s", re.I)
_NOT_NAME_START = frozenset(
    "a an the this that these those our its their his her it them we two three four five several"
    " multiple many new novel some such each both any all how what why whether when where which"
    " to one more first various simple efficient general unified further additional extensive"
    " theoretical empirical".split()
)
_SMALL_WORDS = frozenset("of with for and the in on to via a an from by as or".split())
_NOT_EXPANSION = re.compile(r"\b(?:that|which|to|using|by|where|whose|is|are|we)\b")
_PAREN_NAME = re.compile(r"^(\S+(?: \S+)?) \([^()]+\)$")
_CLAUSE_NAME = re.compile(r"^((?:an?|the) [^,]{3,80}), ([^\s,.]{2,30})\.?(?:,|$| that | which )")
_NAME_PAREN = re.compile(r"^([^\s(),]+(?: [^\s(),]+)?) \(([^()]{3,100})\)")
_RELATIVE = re.compile(r"^(?:that|which)\s+(?:is\s+|are\s+)?", re.I)

# Field-wide terms that a sentence names in passing ("teaching multimodal language models
# (MLLMs) to ..."): never the contribution's own name.
_COMMON_ACRONYMS = frozenset(
    """llm llms mllm mllms vlm vlms lvlm lvlms lm lms slm slms lrm lrms gnn gnns cnn cnns rnn rnns dnn dnns
    rl rlhf nlp ai ml pde pdes ode odes sde sdes vit vits mlp mlps gan gans vae vaes ssl sgd kv rag cot
    gpt bert clip mdp mdps""".split()
)

_CLAIM = re.compile(
    r"\b(?:we|this\s+(?:paper|work))\s+(?:first\s+|also\s+)?(?:show|shows|demonstrate|demonstrates|find"
    r"|prove|proves|argue|argues|reveal|reveals|establish|establishes)\s+that\s+",
    re.I,
)


_SELF_REFERENCE = re.compile(r"^(?:our|the\s+proposed|this|it|these|they|such)\b", re.I)
def _words_look_named(name: str) -> bool:
    """A proper name: one token with a capital or digit (GeoPurify, H³GNNs), or words
    in title case (Active Reading)."""
    words = name.split()
    if len(words) == 1:
        return any(c.isupper() or c.isdigit() for c in name[1:]) or (name[:1].isupper() and len(name) > 1)
    content = [w for w in words if w.lower() not in _SMALL_WORDS]
    return bool(content) and all(w[:1].isupper() or w[:1].isdigit() for w in content)


def _plausible_name(name: str) -> bool:
    words = name.split()
    return (
        0 < len(words) <= 6
        and len(name) <= 60
        and words[0].lower() not in _NOT_NAME_START
        and any(c.isalpha() for c in name)
        and name.lower() not in _COMMON_ACRONYMS
    )


def _after_trigger(raw_rest: str, strong: bool) -> tuple[str, str, str]:
    """(name, title, clause) from the words after "we propose": a name and its title
    when the object is a proper name, else the clause as an unnamed description."""
    rest = INTERJECTION.sub("", display_fragment(raw_rest))
    if not rest:
        return "", "", ""
    if strong:
        acr = _ACRONYM.match(rest)
        if acr:
            exp, name = _expansion(acr.group("exp"), acr.group("acr"))
            if exp and len(exp.split()) <= 12 and any(c.isupper() for c in name) and name.lower() not in _COMMON_ACRONYMS:
                tail = rest[acr.end() :]
                if len(exp.split()) <= 3 and tail.startswith(","):
                    return name, f"{name}: {exp}{tail}", ""
                return name, f"{name}: {exp}", ""
        paren = _NAME_PAREN.match(rest)
        if paren and _plausible_name(paren.group(1)) and _words_look_named(paren.group(1)):
            # "SMART-3D (Scaling Masked AutoRegressive Transformers for 3D generation), a ..."
            return paren.group(1), f"{paren.group(1)}: {paren.group(2)}", ""
        end = _OBJ_END.search(rest)
        obj = (rest[: end.start()] if end else rest).rstrip(TRAILING_CHARS)
        paren = _PAREN_NAME.match(obj)
        if paren:  # "bi-GRPO (bidirectional Group Relative Policy Optimization)"
            obj = paren.group(1)
        after = rest[end.end() :] if end else ""
        delim = end.group(0).strip() if end else ""
        marked = bool(_MARKED.match(raw_rest))
        appositive = delim in (",", ":", "\u2014", "-", "\u2013") and bool(_APPOSITIVE.match(after))
        if _plausible_name(obj) and (marked or appositive or _words_look_named(obj)):
            if not after:
                return obj, obj, ""
            if delim in (",", ":", ";") or (delim and delim.strip("-\u2013\u2014") == ""):
                return obj, f"{obj}: {_RELATIVE.sub('', after)}", ""
            # "FooNet for robust detection" / "GeoPurify that applies ..."
            desc = _RELATIVE.sub("", after) if after[:5].lower() in ("that ", "which") else None
            return obj, (f"{obj}: {desc}" if desc is not None else f"{obj} {after}"), ""
        comma_name = _CLAUSE_NAME.search(rest)
        if comma_name and _plausible_name(comma_name.group(2)) and _words_look_named(comma_name.group(2)):
            name = comma_name.group(2)  # "a logic-aware framework, LogiStory, that ..."
            return name, f"{name}: {comma_name.group(1)}", ""
    return "", "", rest


def _expansion(exp: str, acronym: str) -> tuple[str, str]:
    """("Singleton-Optimized Conformal Prediction", "SOCOP") when the words in front of
    "(SOCOP)" spell it out; leading lowercase words that do not ("the notion of a") go."""
    if _NOT_EXPANSION.search(exp):
        return "", acronym
    words = _APPOSITIVE.sub("", exp.strip()).split()
    first = acronym[:1].lower()
    while words and words[0][:1].lower() != first and words[0][:1].islower():
        words.pop(0)
    if not words or words[0][:1].lower() != first and not words[0][:1].isupper():
        return "", acronym
    return " ".join(words), acronym


def _find(abstract: str) -> tuple[str, str, str]:
    """(name, title, fallback clause) for the first named contribution, else ("", "", clause)."""
    strong_clause = weak_clause = claim = remedy = ""
    strong_at = -1
    whole = abstract.lower()
    # Plain substring tests first: the regexes below are the slow part of an import.
    stems = [stem for stem in _VERB_STEMS if stem in whole]
    naming_words = [word for word in _NAMING_WORDS if word in whole]
    sentences = _SENTENCE_END.split(abstract)
    for number, sentence in enumerate(sentences):
        if not sentence or sentence.isspace():
            continue
        low = sentence.lower() if stems or naming_words else ""
        for m in _TRIGGER.finditer(sentence) if any(stem in low for stem in stems) else ():
            strong = m.group("strong") is not None
            if not strong and m.group(0)[:3].lower() == "to ":
                continue  # "rearranged to provide training data": no contribution
            name, title, clause = _after_trigger(sentence[m.end() :], strong)
            if name:
                return name, title, ""
            if strong and not strong_clause:
                strong_clause, strong_at = clause, number
            elif not strong and not weak_clause:
                weak_clause = clause
        if not claim and "that" in sentence:
            said = _CLAIM.search(sentence)
            claim = display_fragment(sentence[said.end() :]) if said else ""
            if _SELF_REFERENCE.match(claim):
                claim = ""
        if not remedy and any(verb in sentence for verb in _REMEDY_VERBS):
            fix = _REMEDY.search(sentence)  # "we address this limitation by incorporating X"
            if fix and not fix.group("how").lower().startswith(("propos", "introduc", "present", "develop")):
                remedy = display_fragment(sentence[fix.start("how") :])
                cut = re.search(r",\s+(?:which|thereby|thus|enabling|allowing|leading|resulting|and)\b", remedy)
                remedy = remedy[: cut.start()] if cut else remedy
        if low and "our " in low and ", " in sentence:
            ours = _OUR_NAMED.search(display_fragment(sentence))  # "we prove that our algorithm, X, ..."
            if ours and _plausible_name(ours.group("name")) and _words_look_named(ours.group("name")):
                name = ours.group("name")
                return name, (f"{name}: {strong_clause}" if strong_clause else name), ""
        naming = _NAMING.search(sentence) if any(w in low for w in naming_words) else None
        if naming and _WE_SENTENCE.search(sentence):
            rest = display_fragment(sentence[naming.end() :])
            end = _OBJ_END.search(rest)
            name = rest[: end.start()] if end else rest
            if _plausible_name(name) and _words_look_named(name):
                before = _TRIGGER.search(sentence[: naming.start()])
                clause = display_fragment(sentence[before.end() : naming.start()]) if before else ""
                clause = clause.rstrip(TRAILING_CHARS) or strong_clause
                return name, (f"{name}: {clause}" if clause else name), ""
        start = sentence.lstrip()[:100]
        if start.startswith(("Our ", "The proposed ")) or (", a" in start and _APPOSITIVE_START_RAW.match(start)):
            shown = display_fragment(start)
            m2 = _OUR_THING.match(shown) or _APPOSITIVE_START.match(shown)
            if m2 and _plausible_name(m2.group("name")) and _words_look_named(m2.group("name")):
                name = m2.group("name")
                if m2.re is _APPOSITIVE_START:
                    desc = display_fragment(sentence)[len(name) + 2 :]
                    return name, f"{name}: {desc}", ""
                what = _IS_A.match(display_fragment(sentence)[m2.end() :])  # "Our work, X, is a method for ..."
                if what:
                    return name, f"{name}: {what.group(1)}", ""
                return name, (f"{name}: {strong_clause}" if strong_clause else name), ""
    if strong_clause:
        strong_clause = complete_kind(strong_clause, [x for x in sentences[strong_at + 1 :] if x and not x.isspace()])
    for clause in (strong_clause, remedy, weak_clause, claim):
        title = as_title(clause) if clause else ""
        if title:
            return "", "", title
    return "", "", ""


def derive_title(abstract: str) -> DerivedTitle:
    """A readable one-line title (at most 100 characters, never empty) for a paper known
    only by its abstract.

    When the abstract names its contribution ("we propose Active Reading: a framework
    ...", "we introduce Singleton-Optimized Conformal Prediction (SOCOP)", "called X")
    the title leads with the name ("SOCOP: Singleton-Optimized Conformal Prediction")
    and `short_name` is the bare name. Otherwise the title is the contribution clause
    ("A novel associative memory network with ...") or the opening sentence.
    """
    try:
        text = sanitize(abstract if isinstance(abstract, str) else str(abstract or ""))
        name, title, clause = _find(text)
        if title:
            title = polish_named(collapse_spaces(name), title)
        else:
            title = clause or display_fragment(_SENTENCE_END.split(text.strip(), 1)[0][:400])
        title = finish_title(_LEADING_PAREN.sub(r"\1: ", title))
        if not title:
            title = finish_title(display_fragment(text[:400]))
        return DerivedTitle(title or "Untitled", collapse_spaces(name)[:60])
    except Exception:  # a title must always come out; the importer relies on it
        fallback = cut_to_width(collapse_spaces(sanitize(str(abstract))), TITLE_WIDTH)
        return DerivedTitle(fallback or "Untitled", "")
