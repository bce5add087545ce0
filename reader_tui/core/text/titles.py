"""Titles for papers known only by their abstract: `derive_title` and `unique_titles`.

Built on `core.text` (display conversion, sanitizing). The code here runs once per imported paper, so it never converts a whole abstract:
`_display_line` renders only a short fragment.

This module must not import textual or rich: the core runs without a UI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .display import _collapse, _cut, _render, sanitize


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

TITLE_WIDTH = 100


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
_TRAILING_CHARS = " \t\n,;:.-\u2013\u2014("

# Field-wide terms that a sentence names in passing ("teaching multimodal language models
# (MLLMs) to ..."): never the contribution's own name.
_COMMON_ACRONYMS = frozenset(
    """llm llms mllm mllms vlm vlms lvlm lvlms lm lms slm slms lrm lrms gnn gnns cnn cnns rnn rnns dnn dnns
    rl rlhf nlp ai ml pde pdes ode odes sde sdes vit vits mlp mlps gan gans vae vaes ssl sgd kv rag cot
    gpt bert clip mdp mdps""".split()
)
_INTERJECTION = re.compile(r",?\s*(?:to\s+(?:the\s+best\s+of\s+)?our\s+(?:best\s+)?knowledge)\s*,?", re.I)

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
_CLAIM = re.compile(
    r"\b(?:we|this\s+(?:paper|work))\s+(?:first\s+|also\s+)?(?:show|shows|demonstrate|demonstrates|find"
    r"|prove|proves|argue|argues|reveal|reveals|establish|establishes)\s+that\s+",
    re.I,
)


_SELF_REFERENCE = re.compile(r"^(?:our|the\s+proposed|this|it|these|they|such)\b", re.I)
# "A multiphysics training framework that ..." reads as a title without its article;
# "A model that ..." does not.
_ARTICLE_DROPS = re.compile(r"^an?\s+(?=[^\s,]+\s+[^\s,]+(?:\s|$))(?![^\s,]+\s+(?:that|which|to|for|of|with)\b)", re.I)


def _cut_context(text: str) -> str:
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
        head = _DANGLING.sub("", text[: starts[-1]]).rstrip(_TRAILING_CHARS) if starts else ""
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


def _plain(text: str) -> str:
    """`text` without "novel" and "new" after an article ("an innovative X" -> "a X")."""
    def fix(m: re.Match[str]) -> str:
        art = m.group("art")
        if art.lower() != "the":
            new = _article(m.group("next"))
            art = new.capitalize() if art[:1].isupper() else new
        return f"{art} {m.group('next')}"

    return _NOVEL.sub(fix, text)


def _as_title(clause: str) -> str:
    """An unnamed description as a title: standalone, without a leading article."""
    text = _cut_context(_LEADING_THAT.sub("", _without_we(clause.strip())))
    if not text:
        return ""
    text = _ARTICLE_DROPS.sub("", _plain(text))
    return text[:1].upper() + text[1:] if text[:1].islower() and not text.split(" ", 1)[0][1:2].isupper() else text


# "a framework where we train models" -> "a framework that trains models": no "we" in a title.
_WHERE_WE = re.compile(r"\s+(?:where|in\s+which|with\s+which|through\s+which)\s+we\s+(?P<verb>[a-z]{3,})\b", re.I)


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _without_we(text: str) -> str:
    found = _WHERE_WE.search(text)
    if found is None or found.group("verb").lower() in ("can", "could", "will", "would", "may", "might", "also", "have"):
        return text
    return f"{text[: found.start()].rstrip(',')} that {_third_person(found.group('verb'))}{text[found.end() :]}"


def _polish(name: str, title: str) -> str:
    """A named title with its description standing on its own ("ATLAS: a multi-agent
    framework", not "... designed to handle such complex nature of ...")."""
    if not name or not title.startswith(name) or len(title) == len(name):
        return title
    rest = title[len(name) :]
    sep = ": " if rest.startswith(": ") else " "
    desc = _cut_context(_plain(_without_we(rest[len(sep) :])))
    return f"{name}{sep}{desc}" if desc else name


def _what_it_does(clause: str, sentences: list[str]) -> str:
    """A bare kind ("a novel classifier-free guidance mechanism") completed with what the
    next sentences say it does ("... that smoothens the transport between ...")."""
    if len(clause.split()) > 7 or not _GENERIC_END.search(clause.rstrip(_TRAILING_CHARS)):
        return clause
    for sentence in sentences[:3]:
        shown = _INTERJECTION.sub("", _display_line(sentence.strip()))
        found = _WHAT_IT_DOES.match(shown)
        if found and found.group("verb").lower() not in _RESULT_VERBS:
            does = found.group("rest")
            end = re.search(r",\s+(?:which|while|and|thus|thereby|resulting)\b|;|\.\s", does)
            does = does[: end.start()] if end else does
            does = _cut_context(does)
            if does:
                return f"{clause.rstrip(_TRAILING_CHARS)} that {found.group('verb')} {does}"
    return clause


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


def _finish(title: str) -> str:
    title = _collapse(title).rstrip(_TRAILING_CHARS)
    first = title.split(" ", 1)[0]
    if first.replace("-", "").isalpha() and first.islower():
        title = title[:1].upper() + title[1:]  # "log-linear attention" leads: capitalise
    return _cut(title, TITLE_WIDTH)


def _display_line(raw: str) -> str:
    # Uncached and cut short: fragments of 20k abstracts would only evict the rows
    # the list needs from to_display's cache.
    return _collapse(_render(raw[:_FRAGMENT]))


_FRAGMENT = 320


def _after_trigger(raw_rest: str, strong: bool) -> tuple[str, str, str]:
    """(name, title, clause) from the words after "we propose": a name and its title
    when the object is a proper name, else the clause as an unnamed description."""
    rest = _INTERJECTION.sub("", _display_line(raw_rest))
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
        obj = (rest[: end.start()] if end else rest).rstrip(_TRAILING_CHARS)
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
            claim = _display_line(sentence[said.end() :]) if said else ""
            if _SELF_REFERENCE.match(claim):
                claim = ""
        if not remedy and any(verb in sentence for verb in _REMEDY_VERBS):
            fix = _REMEDY.search(sentence)  # "we address this limitation by incorporating X"
            if fix and not fix.group("how").lower().startswith(("propos", "introduc", "present", "develop")):
                remedy = _display_line(sentence[fix.start("how") :])
                cut = re.search(r",\s+(?:which|thereby|thus|enabling|allowing|leading|resulting|and)\b", remedy)
                remedy = remedy[: cut.start()] if cut else remedy
        if low and "our " in low and ", " in sentence:
            ours = _OUR_NAMED.search(_display_line(sentence))  # "we prove that our algorithm, X, ..."
            if ours and _plausible_name(ours.group("name")) and _words_look_named(ours.group("name")):
                name = ours.group("name")
                return name, (f"{name}: {strong_clause}" if strong_clause else name), ""
        naming = _NAMING.search(sentence) if any(w in low for w in naming_words) else None
        if naming and _WE_SENTENCE.search(sentence):
            rest = _display_line(sentence[naming.end() :])
            end = _OBJ_END.search(rest)
            name = rest[: end.start()] if end else rest
            if _plausible_name(name) and _words_look_named(name):
                before = _TRIGGER.search(sentence[: naming.start()])
                clause = _display_line(sentence[before.end() : naming.start()]) if before else ""
                clause = clause.rstrip(_TRAILING_CHARS) or strong_clause
                return name, (f"{name}: {clause}" if clause else name), ""
        start = sentence.lstrip()[:100]
        if start.startswith(("Our ", "The proposed ")) or (", a" in start and _APPOSITIVE_START_RAW.match(start)):
            shown = _display_line(start)
            m2 = _OUR_THING.match(shown) or _APPOSITIVE_START.match(shown)
            if m2 and _plausible_name(m2.group("name")) and _words_look_named(m2.group("name")):
                name = m2.group("name")
                if m2.re is _APPOSITIVE_START:
                    desc = _display_line(sentence)[len(name) + 2 :]
                    return name, f"{name}: {desc}", ""
                what = _IS_A.match(_display_line(sentence)[m2.end() :])  # "Our work, X, is a method for ..."
                if what:
                    return name, f"{name}: {what.group(1)}", ""
                return name, (f"{name}: {strong_clause}" if strong_clause else name), ""
    if strong_clause:
        strong_clause = _what_it_does(strong_clause, [x for x in sentences[strong_at + 1 :] if x and not x.isspace()])
    for clause in (strong_clause, remedy, weak_clause, claim):
        title = _as_title(clause) if clause else ""
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
            title = _polish(_collapse(name), title)
        else:
            title = clause or _display_line(_SENTENCE_END.split(text.strip(), 1)[0][:400])
        title = _finish(_LEADING_PAREN.sub(r"\1: ", title))
        if not title:
            title = _finish(_display_line(text[:400]))
        return DerivedTitle(title or "Untitled", _collapse(name)[:60])
    except Exception:  # a title must always come out; the importer relies on it
        fallback = _cut(_collapse(sanitize(str(abstract))), TITLE_WIDTH)
        return DerivedTitle(fallback or "Untitled", "")
