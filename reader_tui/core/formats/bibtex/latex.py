"""LaTeX escaping for BibTeX field text from the catalog (titles, abstracts, authors,
venues, ...): `escape_latex` (`title_case.protect_case` protects titles' capitals).
`bibtex.writer` builds the entries from these. The user's own notes and tags are not
escaped here: `user_text.encode_user_text` encodes them exactly.

`escape_latex` turns a field's text into BibTeX field text:

* LaTeX that is already there stays: known commands (`\\textbf{..}`, `\\'e`, `5\\%`), and
  balanced math (`$O(K)$`, `$$..$$`, `\\(..\\)`, `\\[..\\]`). OpenReview abstracts often
  double their backslashes (markdown escaping: `$7.9\\\\%$`, `\\\\(x\\\\)`); a doubled backslash
  before a letter or a LaTeX special is read as a single one.
* Bare specials are escaped: `& % #` everywhere; outside math `_ -> \\_`,
  `~ -> \\textasciitilde{}`, `^ -> \\textasciicircum{}`, `< > |` to their text commands;
  an unpaired `$ -> \\$`.
* Unknown commands (`\\method`, `C:\\Users`) and stray backslashes are shown literally
  (`\\textbackslash{}`), so a field can never run a command (`\\input`, `\\write18`) or
  stop a document on an undefined macro.
* Braces always balance, for bibtex *and* bibtexparser. The two count differently:
  bibtex counts `\\{` as a brace, bibtexparser does not. So group braces and escaped
  braces are matched separately, and an unmatched one becomes `\\textbraceleft{}` /
  `\\textbraceright{}` (no raw brace at all), never `\\{`. A field cannot end its entry early.
* A line inside a field never starts with `@` (bibtexparser would read a new entry):
  such an `@` is written `{@}`.
* Non-ASCII becomes LaTeX through pylatexenc (`é -> {\\'e}`, `α -> {\\ensuremath{\\alpha}}`)
  unless `unicode=True` (biblatex/biber read UTF-8). Characters pylatexenc cannot name
  are dropped when they are symbols or emoji and written `?` when they are letters,
  digits or punctuation (a CJK title keeps its shape). Control characters are stripped.

Titles also get their capitals protected from BibTeX styles that lowercase them
(see `title_case.protect_case`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pylatexenc import latex2text, latexwalker
from pylatexenc.latexencode import UnicodeToLatexEncoder

from .commands import MATH_ONLY, MATH_SUBSTITUTES, NEEDS_PACKAGE, TAKES_ARGUMENT, TEXT_SUBSTITUTES
from .package_free import text_form

__all__ = ["escape_latex", "lossy_characters", "to_ascii"]

# ---------------------------------------------------------------------------------------
# Which commands count as "LaTeX already there".

# Known to pylatexenc but unsafe or meaningless inside a bibliography field: they load
# files, define macros, or start document structure.
_DENY = frozenset(
    """documentclass usepackage RequirePackage include input newcommand renewcommand
    providecommand newenvironment renewenvironment provideenvironment DeclareMathOperator
    verb section subsection subsubsection chapter paragraph subparagraph pagagraph part
    label item bibliography includegraphics hypersetup setcounter addcounter setlength
    addlength definecolor colorlet providecolor pagecolor nopagecolor rowcolors
    selectlanguage author title date keywords maketitle exercise subexercise uebung
    subuebung hint hints hinweis hinweise pdfloesung pdfsolution""".split()
)
# Common in abstracts and safe, but missing from pylatexenc's tables.
_EXTRA = frozenset(
    """left right bigl bigr Bigl Bigr big Big bigg Bigg biggl biggr middle boldsymbol bm
    pmb operatorname tfrac dfrac binom mathord cal coloneqq colon ne land lor Pr Re Im arg
    det dim ker deg gcd hom bf it rm sf tt sc em sl textnormal small large Large tiny
    scriptsize footnotesize normalsize huge Huge textsuperscript textsubscript LaTeX TeX
    textless textgreater textbar textbraceleft textbraceright lbrace rbrace backslash
    thicksim cdots ldots vdots ddots dots noindent quad qquad""".split()
)


@lru_cache(maxsize=1)
def _known_commands() -> frozenset[str]:
    names = {m.macroname for m in latexwalker.get_default_latex_context_db().iter_macro_specs()}
    names |= {m.macroname for m in latex2text.get_default_latex_context_db().iter_macro_specs()}
    names = {n for n in names if n.isalpha() and not n.startswith(("Uebung", "CYR", "cyr"))}
    return frozenset((names - _DENY) | _EXTRA)


# Control symbols kept as they are. Accents (' ` ^ " ~ = .) need something to sit on.
_KEPT_SYMBOLS = frozenset("%&#_$,;:!-/@|")
_ACCENTS = frozenset("'`^\"~=.")

# ---------------------------------------------------------------------------------------
# Tokens of the input text.

_TOKEN = re.compile(
    r"(?P<plain>[^\\$&%#_^~{}<>|\n\t\x00-\x1f\x7f-\U0010ffff]+)"  # the bulk: nothing to do
    r"|(?P<word>\\[A-Za-z]+)"  # control word
    r"|(?P<sym>\\[^A-Za-z])"  # control symbol, including \\ and "\<newline>"
    r"|(?P<lone>\\)"  # a backslash at the very end
    r"|(?P<dollar>\$\$?)"
    r"|(?P<special>[&%#_^~{}<>|\n\t])"
    r"|(?P<ctrl>[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff])"
    r"|(?P<wide>[^\x00-\x9f\ud800-\udfff]+)",
    re.S,
)
# Text needing no work at all: the common case, tested first for speed.
# (One character class, no alternation: `re` scans for a class much faster.)
_NEEDS_WORK = re.compile(r"[\\$&%#_^~{}<>|\x00-\x1f\x7f]")
# Without these, text has no LaTeX, math or braces: one substitution pass will do.
_LATEXISH = re.compile(r"[\\${}]")
_SIMPLE = re.compile(r"[&%#_^~<>|\x00-\x1f\x7f-\U0010ffff]")
# A markdown-doubled backslash before something a single backslash would escape.
_DOUBLED = re.compile(r"\\\\(?=[A-Za-z%&#_$(){}\[\]])")

_TEXT_SPECIALS = {
    "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "\t": " ",
}
_MATH_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "\t": " ", "\n": " "}
_UNMATCHED = {
    # (mode, brace) -> replacement without any raw brace character
    ("text", "{"): r"\textbraceleft{}", ("text", "}"): r"\textbraceright{}",
    ("math", "{"): r"\lbrace ", ("math", "}"): r"\rbrace ",
}


def _tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) pairs covering all of `text` (every character matches some group)."""
    return [(m.lastgroup or "plain", m.group()) for m in _TOKEN.finditer(text)]


def _can_open(tokens: list[tuple[str, str]], i: int) -> bool:
    # Pandoc's rule: `$` opens math only when a non-space follows it.
    nxt = tokens[i + 1][1] if i + 1 < len(tokens) else ""
    return bool(nxt) and not nxt[0].isspace()


def _can_close(tokens: list[tuple[str, str]], i: int) -> bool:
    # ... and closes only after a non-space, and not before a digit ("$5 and $6").
    prev = tokens[i - 1][1] if i > 0 else ""
    nxt = tokens[i + 1][1] if i + 1 < len(tokens) else ""
    return bool(prev) and not prev[-1].isspace() and not nxt[:1].isdigit()


def _closes_before_digit(tokens: list[tuple[str, str]], open_at: int, i: int) -> bool:
    # `A$\beta$25-35`: a `$` before a digit closes math that does not start with a digit
    # (a price, "$5 and $6", does; a formula, `$\beta$`, does not).
    prev = tokens[i - 1][1]
    first = tokens[open_at + 1][1][:1] if open_at + 1 < i else ""
    return bool(prev) and not prev[-1].isspace() and tokens[i + 1][1][:1].isdigit() and not first.isdigit()


def _spaced_span(tokens: list[tuple[str, str]], i: int) -> int | None:
    """The closing `$` of a spaced `$ K $` opened at `i`: a short formula between
    spaces, not a price; None when there is none."""
    for j in range(i + 1, min(len(tokens), i + 12)):
        kind, tok = tokens[j]
        if kind == "dollar":
            inner = "".join(t for _, t in tokens[i + 1 : j])
            ok = tok == tokens[i][1] and inner.strip() and inner[-1].isspace() and not inner.strip()[0].isdigit()
            return j if ok and "\n" not in inner and len(inner) <= 40 else None
    return None


def _math_spans(tokens: list[tuple[str, str]]) -> dict[int, int]:
    """Opening token index -> closing token index, for each balanced math span."""
    spans: dict[int, int] = {}
    open_at: int | None = None
    closer = ""
    skip_to = -1
    for i, (kind, tok) in enumerate(tokens):
        if i <= skip_to:
            continue
        if open_at is not None:
            if tok == closer and (kind != "dollar" or _can_close(tokens, i) or _closes_before_digit(tokens, open_at, i)):
                spans[open_at] = i
                open_at = None
            elif kind == "dollar" and tok == closer and _can_open(tokens, i):
                open_at = i  # the earlier `$` stays a bare dollar
            continue
        if kind == "dollar" and _can_open(tokens, i):
            open_at, closer = i, tok
        elif kind == "dollar" and (end := _spaced_span(tokens, i)) is not None:
            spans[i] = skip_to = end
        elif kind == "sym" and tok in ("\\(", "\\["):
            open_at, closer = i, "\\)" if tok == "\\(" else "\\]"
    return spans


def _modes(tokens: list[tuple[str, str]], spans: dict[int, int]) -> list[str]:
    """Each token's mode: "text", "math", or "delim" for a paired math delimiter."""
    modes = ["text"] * len(tokens)
    for start, end in spans.items():
        modes[start] = modes[end] = "delim"
        for i in range(start + 1, end):
            modes[i] = "math"
    return modes


def _unmatched_braces(tokens: list[tuple[str, str]], modes: list[str]) -> set[int]:
    """Indices of braces without a partner in the same text or math segment.

    Group braces `{}` and escaped braces `\\{\\}` are matched separately, so that both
    counts (bibtex's, which includes escaped ones, and bibtexparser's, which does not)
    stay balanced.
    """
    unmatched: set[int] = set()
    stacks: dict[str, list[int]] = {"{": [], "\\{": []}
    partner = {"}": "{", "\\}": "\\{"}
    for i, (_kind, tok) in enumerate(tokens):
        if modes[i] == "delim":  # a segment ends: what is still open stays unmatched
            for stack in stacks.values():
                unmatched.update(stack)
                stack.clear()
        elif tok in stacks:
            stacks[tok].append(i)
        elif tok in partner:
            stack = stacks[partner[tok]]
            if stack:
                stack.pop()
            else:
                unmatched.add(i)
    for stack in stacks.values():
        unmatched.update(stack)
    return unmatched


_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",
    unknown_char_warning=False,
)


@lru_cache(maxsize=8192)
def _latex_char(ch: str) -> str:
    """One non-ASCII character as LaTeX for classic 8-bit BibTeX."""
    out = _ENCODER.unicode_to_latex(ch)
    if out != ch:
        return out
    if unicodedata.category(ch)[0] in "LNP":
        return "?"
    return ""  # emoji, symbols, combining and format characters: nothing BibTeX can show


def _wide(run: str, unicode: bool, mode: str, keep_utf8: bool = False) -> str:
    if unicode:
        # Line and paragraph separators would look like line breaks to some readers; a
        # U+FEFF would be read back as a stray byte order mark and dropped anyway.
        return run.replace("\u2028", " ").replace("\u2029", " ").replace("\ufeff", "")
    return "".join(_text_char(ch, keep_utf8) for ch in unicodedata.normalize("NFC", run))


@lru_cache(maxsize=8192)
def _text_char(ch: str, keep_utf8: bool) -> str:
    """One non-ASCII character as LaTeX that compiles without packages (`package_free`);
    failing that, its compatibility form when that is ASCII (a fullwidth colon is `:`);
    failing that, the character itself (`keep_utf8`: BibTeX passes UTF-8 through) or
    `?` for a letter, digit or punctuation and nothing for other characters."""
    form = text_form(ch)
    if form is not None:
        return form
    if ch in "\u2028\u2029":
        return " "
    if ch == "\ufeff":
        return ""
    if keep_utf8:
        return ch
    compat = unicodedata.normalize("NFKC", ch)
    if compat.isascii() and compat.isprintable() and compat.strip() and compat not in "\\{}$&%#_^~":
        return compat
    return "?" if unicodedata.category(ch)[0] in "LNP" else ""


def lossy_characters(text: str) -> dict[str, int]:
    """How many characters of `text` an export without `keep_utf8` cannot write as they
    are, by kind: "written as ?" (letters, digits, punctuation) and "left out" (symbols,
    emoji, marks and format characters). Compatibility forms (`:` for a fullwidth colon)
    count as written."""
    counts: dict[str, int] = {}
    if text.isascii():
        return counts
    for ch in unicodedata.normalize("NFC", text):
        if ch.isascii() or ch in "\u2028\u2029\ufeff" or unicodedata.category(ch) == "Cc":
            continue
        out = _text_char(ch, False)
        if out == "?":
            counts["written as ?"] = counts.get("written as ?", 0) + 1
        elif out == "":
            counts["left out"] = counts.get("left out", 0) + 1
    return counts


def to_ascii(value: str) -> str:
    """LaTeX text (a .bib value) with its non-ASCII characters turned into LaTeX, `?`, or
    nothing, as `escape_latex` does without `keep_utf8`."""
    if value.isascii():
        return value
    return "".join(ch if ch.isascii() else _text_char(ch, False) for ch in unicodedata.normalize("NFC", value))


def _backslash(mode: str) -> str:
    return r"\textbackslash{}" if mode == "text" else r"\backslash{}"


def escape_latex(text: str, *, unicode: bool = False, multiline: bool = False, keep_utf8: bool = False) -> str:
    """`text` as the inside of a BibTeX `{...}` field value (see the module docstring).

    With `multiline`, single line breaks are kept (abstracts); otherwise all
    whitespace runs become one space. The result has no leading or trailing whitespace.
    `keep_utf8` writes non-ASCII characters without a package-free LaTeX form as UTF-8
    (fields no style prints: abstracts) rather than as `?` or nothing.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii() and not _NEEDS_WORK.search(text):
        return _tidy(text, multiline)
    if not _LATEXISH.search(text) and "~" not in text:  # a tie needs its neighbours: full pass
        return _tidy(_SIMPLE.sub(lambda m: _simple(m.group(), unicode, multiline, keep_utf8), text), multiline)
    return _escape_full(text, unicode=unicode, multiline=multiline, keep_utf8=keep_utf8)


def _simple(tok: str, unicode: bool, multiline: bool, keep_utf8: bool = False) -> str:
    """What the full pass makes of `tok` in text mode, for text without LaTeX."""
    if tok == "\n":
        return "\n" if multiline else " "
    if tok in _TEXT_SPECIALS:
        return _TEXT_SPECIALS[tok]
    if len(tok) == 1 and (tok < " " or "\x7f" <= tok <= "\x9f" or "\ud800" <= tok <= "\udfff"):
        return ""
    return _wide(tok, unicode, "text", keep_utf8)


def _escape_full(text: str, *, unicode: bool = False, multiline: bool = False, keep_utf8: bool = False) -> str:
    """The full pass: tokens, math spans, brace matching."""
    text = _DOUBLED.sub(r"\\", text)
    tokens = _tokenize(text)
    modes = _modes(tokens, _math_spans(tokens))
    unmatched = _unmatched_braces(tokens, modes)
    known = _known_commands()
    out: list[str] = []
    for i, (kind, tok) in enumerate(tokens):
        mode = modes[i]
        if mode == "delim" or kind == "plain":
            out.append(tok)
        elif kind == "word":
            out.append(_command(tok[1:], tokens, i, mode, known))
        elif tok in ("{", "}", "\\{", "\\}"):
            if i in unmatched:
                out.append(_UNMATCHED["text" if mode == "text" else "math", tok[-1]])
            else:
                out.append(tok)
        elif kind == "sym":
            out.append(_symbol(tok, tokens, i, mode, unicode, keep_utf8))
        elif kind == "lone":
            out.append(_backslash(mode))
        elif kind == "dollar":
            out.append(tok.replace("$", r"\$"))
        elif kind == "special":
            if tok == "\n":
                out.append("\n" if multiline and mode == "text" else " ")
            elif tok == "~" and mode == "text" and _is_tie(tokens, i):
                out.append("~")
            else:
                table = _TEXT_SPECIALS if mode == "text" else _MATH_SPECIALS
                out.append(table.get(tok, tok))
        elif kind == "wide":
            out.append(_wide(tok, unicode, mode, keep_utf8))
        # kind == "ctrl": dropped
    return _tidy("".join(out), multiline)


def _is_tie(tokens: list[tuple[str, str]], i: int) -> bool:
    """A `~` between a word (or `Fig.`) and a word or number is LaTeX's tie (`Fig.~3`,
    `D.~Knuth`), not a tilde to show; `~5%` and `a ~ b` are tildes."""
    prev = tokens[i - 1][1][-1:] if i > 0 else ""
    nxt = tokens[i + 1][1][:1] if i + 1 < len(tokens) else ""
    return bool(prev) and (prev.isalpha() or prev in ".)") and prev.isascii() and (nxt.isalnum() or nxt == "\\") and nxt.isascii()


def _command(name: str, tokens: list[tuple[str, str]], i: int, mode: str, known: frozenset[str]) -> str:
    """A control word: kept when it works here with no package loaded, replaced by a
    package-free stand-in (`\\text` -> `\\mbox`, `\\mathbb` -> `\\mathbf` in math),
    put in math when it only works there (`\\in` -> `\\ensuremath{\\in}`), else shown."""
    if name not in known:
        return _backslash(mode) + name
    if mode != "text":
        if name in MATH_SUBSTITUTES:
            return MATH_SUBSTITUTES[name]
        return _backslash(mode) + name if name in NEEDS_PACKAGE else "\\" + name
    if name in TEXT_SUBSTITUTES:
        return TEXT_SUBSTITUTES[name]
    if name in NEEDS_PACKAGE:
        return _backslash(mode) + name
    if name in MATH_ONLY:
        nxt = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        # With an argument (`\\hat{x}` in text) it cannot be wrapped alone: shown instead.
        if name in TAKES_ARGUMENT or nxt.startswith(("{", "_", "^")):
            return _backslash(mode) + name
        return "\\ensuremath{\\%s}" % name
    return "\\" + name


def _symbol(tok: str, tokens: list[tuple[str, str]], i: int, mode: str, unicode: bool, keep_utf8: bool = False) -> str:
    """A control symbol `\\X`: kept when LaTeX knows it here, else shown literally."""
    ch = tok[1]
    nxt = tokens[i + 1][1][:1] if i + 1 < len(tokens) else ""
    if ch == "\\":
        # A line break inside math (matrices); in text nobody means one in a bibliography.
        # The space keeps a following brace from looking escaped to bibtexparser.
        return "\\\\ " if mode == "math" else r"\textbackslash{}\textbackslash{}"
    if ch in _KEPT_SYMBOLS:
        return tok
    if _CONTROL_CHAR.match(ch):
        return _backslash(mode)  # the character is dropped, as everywhere else
    if ch.isspace():
        # A control space; the `{}` keeps it one even at the end of a field, where a
        # trailing `\` would make bibtexparser read the closing brace as escaped.
        # Any whitespace after the backslash (a tab, a line break) reads as this one.
        return "\\ {}"
    if ch in _ACCENTS and mode == "text" and (nxt.isascii() and nxt.isalpha() or nxt in ("{", "\\")):
        return tok
    if ch in "()[]" and mode != "text":
        # `{}` rather than a space ends the command, as `_backslash` writes it.
        return r"\backslash{}" + ch
    # Not a command LaTeX can run here: show the backslash, then the character.
    if mode == "text":
        rest = escape_latex(ch, unicode=unicode, keep_utf8=keep_utf8)
    else:  # a non-ASCII character still needs classic mode's LaTeX (or U+FEFF dropping)
        rest = _MATH_SPECIALS.get(ch, ch) if ch.isascii() else _wide(ch, unicode, mode, keep_utf8)
    return _backslash(mode) + rest




_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
# Braces the user put before the `@` count too: `{@}` they wrote at a line start becomes
# `{{@}}`, distinct from the `{@}` written here.
_AT_LINE_START = re.compile(r"(\n[ \t]*\{*)@")
_CONTROL_CHAR = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _tidy(value: str, multiline: bool) -> str:
    """One line: whitespace runs -> one space. Multiline (long notes and abstracts, where
    collapsing every run would cost most of the export's time): stripped, blank lines
    removed (a paragraph break inside a bibliography field is an error in some styles),
    other spacing left for BibTeX, which collapses it anyway."""
    if not multiline:
        return " ".join(value.split())
    value = value.strip()
    if "\n" not in value:
        return value
    if "\n\n" in value or "\n " in value or "\n\t" in value:
        value = _BLANK_LINES.sub("\n", value)
    if "@" in value:
        # bibtexparser reads `@` at the start of a line as a new entry, even inside a field.
        value = _AT_LINE_START.sub(r"\1{@}", value)
    return value
