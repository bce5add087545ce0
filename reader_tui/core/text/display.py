"""Paper text for people and for matching: LaTeX/markdown -> display text, ids.

Abstracts arrive as authors typed them: LaTeX (`\\textbf{}`, `$O(K)$`, `5\\%`),
markdown (`**bold**`, `*italic*`, backticks) and now and then control characters.
Titles, abstracts, names and venues shown on screen or printed go through `to_display`
(plain unicode), `one_line`/`names_line` or `styled_segments` (styled chunks). LaTeX that
markdown would misread (accents such as `\\`a`, ``` ``quotes'' ```) is read first, then
markdown, then the rest of the LaTeX.

A user's own words (notes, tags, search text) and verbatim fields (ids, urls, citation
keys) are not LaTeX: they are shown as typed, through `sanitize` (multi-line) or
`visible_controls` (one line). Those two are the one place that decides how control
characters look: every path to the terminal ends in one of them.

pylatexenc is thorough but slow (about 10 ms for a long abstract), so plain text
skips it, results are cached, and the code that runs once per imported paper
(`stable_id`, and `derive_title` in `core.titles`) never converts a whole abstract.

This module must not import textual or rich: the core runs without a UI.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from .latex_symbols import LATEX_SYMBOLS

Segment = tuple[str, str]

# pylatexenc logs a warning for every macro it cannot render; with no handler configured
# those land on stderr, in the middle of the TUI's screen. Our fallbacks cover them.
_pylatexenc_log = logging.getLogger("pylatexenc")
_pylatexenc_log.addHandler(logging.NullHandler())
_pylatexenc_log.propagate = False

# --------------------------------------------------------------------------- sanitize


#: What a control character with no control picture is shown as: C1 controls (CSI 0x9b
#: starts escape sequences on some terminals), bidi embeddings, overrides and isolates,
#: and lone surrogates (which no terminal encoding can carry).
UNSHOWABLE = "\ufffd"
_BIDI_CONTROLS = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_BIDI_MARKS = (0x200E, 0x200F, 0x061C)
_INVISIBLE = (0x200B, 0x2060, 0xFEFF, 0x00AD, 0x180E)


def _visible_table() -> dict[int, str]:
    """One visible character for each character that would act on a terminal instead of
    being drawn: C0 controls -> their control pictures (ESC -> ␛, BEL -> ␇, CR -> ␍),
    DEL -> ␡, the rest -> �. One character for one: an input field's cursor stays put."""
    table = {code: chr(0x2400 + code) for code in range(0x20)}
    table[0x7F] = "\u2421"  # ␡
    for code in (*range(0x80, 0xA0), *_BIDI_CONTROLS, *range(0xD800, 0xE000)):
        table[code] = UNSHOWABLE
    table[0x2028] = table[0x2029] = "\u2424"  # ␤: a line break inside one line of input
    return table


_VISIBLE = _visible_table()
# For a multi-line editor that draws one line at a time and expands tabs itself.
_VISIBLE_KEEP_TABS = {code: sym for code, sym in _VISIBLE.items() if code != 0x09}


def _sanitize_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {k: v for k, v in _VISIBLE.items() if chr(k) not in "\n\t"}
    # Bidi embeddings, overrides and isolates would reorder what the terminal draws
    # around them (the "Trojan Source" trick): shown as �, like C1 controls. The marks
    # (LRM, RLM, ALM) reorder nothing but neutral characters and are invisible: dropped,
    # as are zero-width spaces, word joiners, soft hyphens and stray BOMs, which only
    # break cell widths. ZWJ/ZWNJ (U+200C/D) stay: emoji and Indic/Persian words need them.
    for code in (*_BIDI_MARKS, *_INVISIBLE):
        table[code] = None
    table[0x2028] = "\n"
    table[0x2029] = "\n\n"
    return table


_SANITIZE = _sanitize_table()


_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069"
    "\ufeff\ud800-\udfff]"
)


def sanitize(text: str) -> str:
    """`text` made safe to print in a terminal, for every place that shows a user's or a
    file's text (the stored text is never changed).

    Control characters other than newline and tab become visible (ESC -> ␛, BEL -> ␇,
    a CR that is not part of a CRLF line break -> ␍, DEL -> ␡; C1 controls, bidi
    embeddings/overrides/isolates and lone surrogates -> �) so no text can move the
    cursor, retitle the terminal or reorder the screen around it; invisible zero-width
    characters and bidi marks are dropped; U+2028/U+2029 are line/paragraph breaks.
    """
    text = str(text)
    # translate() looks up every character; most text has nothing to replace.
    if not _UNSAFE.search(text):
        return text
    return text.replace("\r\n", "\n").translate(_SANITIZE)


def visible_controls(text: str, *, keep_tabs: bool = False) -> str:
    """`text` with every character that would act on a terminal replaced by one visible
    character (the same symbols as `sanitize`; newline -> ␊, tab -> ␉, U+2028/9 -> ␤), and nothing else
    changed: the same length, index for index. For one-line input fields, whose cursor
    and selection are offsets into the text, and for one line of the notes editor, which
    passes `keep_tabs` because it lays out tab stops itself."""
    text = str(text)
    if text.isascii() and text.isprintable():
        return text
    return text.translate(_VISIBLE_KEEP_TABS if keep_tabs else _VISIBLE)


# --------------------------------------------------------------------------- display


def _latex_context():
    from pylatexenc.latex2text import MacroTextSpec, get_default_latex_context_db

    db = get_default_latex_context_db()
    # Plain letters, not pylatexenc's mathematical bold (𝐱): they stay searchable and
    # every terminal font has them.
    plain = ("texttt", "textsc", "textsf", "textup", "textnormal", "mathbf", "boldsymbol", "bm", "mathtt",
             "mathsf", "mathit", "textit", "emph")
    keep = [MacroTextSpec(name, discard=False) for name in plain]
    db.add_context_category(
        "reader-tui",
        prepend=True,
        macros=[
            *keep,
            MacroTextSpec("url", simplify_repl="%(1)s"),
            MacroTextSpec("href", simplify_repl="%(2)s"),
            # pylatexenc drops these logos: "\LaTeX\ models" came out as " models"
            MacroTextSpec("LaTeX", simplify_repl="LaTeX"),
            MacroTextSpec("LaTeXe", simplify_repl="LaTeX2e"),
            MacroTextSpec("TeX", simplify_repl="TeX"),
        ],
    )
    return db


@lru_cache(maxsize=1)
def _latex_to_text():
    """pylatexenc's renderer with our macros, made at the first LaTeX the light path
    (`_light`) cannot render: importing pylatexenc costs about 10 ms of every start,
    and most abstracts never need it."""
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(latex_context=_latex_context(), math_mode="text")


USE_LIGHT = True  # tests switch it off to check the fast path renders like pylatexenc

_STYLE_MACROS = {
    "textbf": "bold", "mathbf": "bold", "boldsymbol": "bold", "bm": "bold",
    "emph": "italic", "textit": "italic", "mathit": "italic", "textsl": "italic",
    "texttt": "code", "mathtt": "code", "verb": "code",
}

# Math, URLs and inline code are cut out first: markdown rules must not fire inside
# them, and URLs must keep their `~`, `%` and `_`. A `$` closes math only when no digit
# follows it (pandoc's rule), so that prices ("$19.95 + $1.50") stay text, and an
# escaped `\$` opens nothing.
_PIECES = re.compile(
    r"(?P<math>(?<!\\)\$\$(?:\\.|[^$\\])+?\$\$|(?<!\\)\$(?:\\.|[^$\\])+?\$(?!\d)|\\\((?:.|\n)+?\\\)|\\\[(?:.|\n)+?\\\])"
    r"|\[(?P<ltext>[^\]\n]+)\]\((?P<lurl>[^)\s]+)\)"
    r"|\\url\{(?P<urlarg>[^{}\s]*)\}"
    r"|(?P<url>https?://[^\s<>\"{}`]*[^\s<>\"{}`.,;:!?)\]'])"
    # Not after a backslash (the grave accent \\`a), and no apostrophe inside: `a' is
    # LaTeX's single quote, and "the `a' and `b' rule" holds no code.
    r"|(?<!\\)`(?P<code>[^`'\n]+)`"
)
# LaTeX accents (\'e, {\`a}, \"{u}, \c c, {\'\i}) and `` quotes are read before anything
# else: their backticks are not markdown code, and an accent cut out on its own cannot be
# split from its letter by the markdown and math rules that follow. A bare \i ends in a
# control word, which eats the spaces after it: `Ana\"\i s` is Anaïs.
_ACCENT_MACRO = r"""(?:[`'^"~=.]|[uvHckrdb](?![A-Za-z]))\s*(?:\{(?:[A-Za-z]|\\[ij])\}|[A-Za-z]|\\[ij](?![A-Za-z])\s*)"""
_ACCENT = re.compile(rf"(?<!\\)\{{\\{_ACCENT_MACRO}\}}|(?<!\\)\\{_ACCENT_MACRO}")
_MARKDOWN = re.compile(
    r"\*\*(?=\S)(?P<b>.+?)(?<=\S)\*\*"
    r"|(?<![\w*\\])\*(?=[^\s*])(?P<i>[^*\n]*?[^\s*\\])\*(?![*\w])"
    r"|(?<![\w\\])_(?=[^\s_])(?P<u>[^_\n]*?[^\s_\\])_(?!\w)"
)
_MD_STYLE = {"b": "bold", "i": "italic", "u": "italic"}
_NEEDS_LATEX = re.compile(r"[\\{}~^]|--|''|``")
_UNESCAPED = re.compile(r"(?<!\\)((?:\\\\)*)([%$&#])")
_WHOLE_STYLE = re.compile(r"^\s*\\(\w+)\s*\{([^{}]*)\}\s*$")
_SCRIPT = re.compile(r"(\\[A-Za-z]+)?([\^_])(?:\{([^{}]*)\}|([0-9A-Za-z+\-=()]))")
_SUP = dict(zip("0123456789+-=()niabcdefghjklmoprstuvwxyzABDEGHIJKLMNOPRTUVW",
                "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ"))
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_CRUDE_MACRO = re.compile(r"\\[A-Za-z]+\*?\s*|\\(.)")


def _scripts(math: str) -> str:
    """`^3` -> ³ and `_i` -> ᵢ where unicode has every character; else unchanged."""

    def repl(m: re.Match[str]) -> str:
        macro, mark = m.group(1) or "", m.group(2)
        body = (m.group(3) if m.group(3) is not None else m.group(4)).strip()
        table = _SUP if mark == "^" else _SUB
        if body and all(c in table for c in body):
            # "{}" ends a macro name: \alphaᵢ would read as one unknown macro.
            return macro + ("{}" if macro else "") + "".join(table[c] for c in body)
        return m.group(0)

    return _SCRIPT.sub(repl, math)


def _crude(text: str) -> str:
    """Last resort when pylatexenc fails: drop macro names and braces, keep the rest."""
    return _CRUDE_MACRO.sub(lambda m: m.group(1) or "", text).replace("{", "").replace("}", "")


def symbol_table() -> dict[str, str]:
    """Macros without arguments that pylatexenc renders as a fixed string (\\alpha -> α),
    worked out from pylatexenc's tables. The light path reads the copy kept in
    `latex_symbols` (written by `write_symbol_table`; a test checks it against the
    pylatexenc installed)."""
    from pylatexenc.latexwalker import get_default_latex_context_db as get_default_walker_db

    walker_db = get_default_walker_db()
    table = {}
    for spec in _latex_context().iter_macro_specs():
        wspec = walker_db.get_macro_spec(spec.macroname)
        takes_args = wspec is not None and getattr(wspec, "arguments_spec_list", None)
        repl = spec.simplify_repl
        if isinstance(repl, str) and "%" not in repl and not takes_args and spec.macroname.isalpha():
            table[spec.macroname] = repl
    table.pop("today", None)  # a date that changes daily has no place in a cache
    # Text-mode spellings of characters BibTeX cannot take bare (our own exporter writes
    # them); pylatexenc renders some as nothing, which would eat a title's "<" or "|".
    table.update(
        textless="<", textgreater=">", textbar="|", textasciicircum="^", textasciitilde="~",
        textbackslash="\\", textbraceleft="{", textbraceright="}", textunderscore="_",
    )
    return table


def write_symbol_table() -> None:
    """Write `latex_symbols.py` again from pylatexenc's tables (after an upgrade of it):
    `python -c "from reader_tui.core.text.display import write_symbol_table as w; w()"`.
    Characters are written as escapes, so none can hide in the source."""
    from pathlib import Path

    path = Path(__file__).with_name("latex_symbols.py")
    text = path.read_text("utf-8")
    head = text[: text.index("LATEX_SYMBOLS: dict[str, str] = ")]
    rows = "".join(f"    {ascii(name)}: {ascii(value)},\n" for name, value in sorted(symbol_table().items()))
    path.write_text(f"{head}LATEX_SYMBOLS: dict[str, str] = {{\n{rows}}}\n", "utf-8")


_SYMBOLS = LATEX_SYMBOLS
# LaTeX's letter commands (\o, \ss, \aa, \L, \i: one Latin letter each, from
# pylatexenc's table): inside a word the space after them is LaTeX's, not the author's.
_LETTER_COMMANDS = frozenset(
    name for name, out in _SYMBOLS.items()
    if len(name) <= 2 and len(out) == 1 and not out.isascii() and "LATIN" in unicodedata.name(out, "")
)
_COMMAND_BEFORE_SPACE = re.compile(r"\\([A-Za-z]+)(?=\s)")


def _keep_space_after_symbols(text: str) -> str:
    """`\\alpha values` -> `\\alpha{} values`. LaTeX's rule that a command eats the space
    after it made "we use \\alpha values" show as "αvalues", which no abstract's author
    meant; `{}` ends the command's name and leaves the space to the text. Only commands
    that take no argument: `\\textbf {x}` keeps its argument. Not letter commands:
    `Stra\\ss e` is Straße, as in LaTeX."""
    return _COMMAND_BEFORE_SPACE.sub(
        lambda m: m.group(0) + "{}" if m.group(1) in _SYMBOLS and m.group(1) not in _LETTER_COMMANDS else m.group(0),
        text,
    )


_WRAPPERS = {
    **dict.fromkeys(("text", "textrm", "mathrm", "textsc", "textsf", "mathsf", "textup", "textnormal", "mbox"), ""),
    **_STYLE_MACROS,
}
_LIGHT_TOKEN = re.compile(r"\\([A-Za-z]+)\s*(?:\{([^{}\\$%]*)\})?|\\([%$&#_{} ])|---|--|~|[{}\\]")
_LIGATURES = {"---": "\u2014", "--": "\u2013", "~": "\xa0"}
_LIGATURE_RE = re.compile(r"---|--|~")
# After a space or an opening bracket: "Fig.~3" is a tie, " ~10x" is "about".
_APPROX = re.compile(r"(?<![^\s(\[])~(?=\s?[\d.])")


def _balanced(text: str) -> bool:
    """True when every `{` of `text` is closed by a later `}` and no `}` comes first."""
    depth = 0
    for brace in _BRACE.findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


_BRACE = re.compile(r"(?<!\\)[{}]")


def _light(text: str, style: str) -> list[Segment] | None:
    """The common, simple LaTeX (\\textbf{word}, \\alpha, \\%, ---) without pylatexenc,
    which costs about 1 ms even for a short fragment; None when the text needs the parser.
    Follows pylatexenc's output, spaces eaten after a control word included."""
    out: list[Segment] = []
    pos = 0
    groups_ok: bool | None = None  # worked out at the first bare brace
    for m in _LIGHT_TOKEN.finditer(text):
        out.append((text[pos : m.start()], style))
        name, arg, escaped = m.group(1), m.group(2), m.group(3)
        if escaped is not None:
            out.append((escaped, style))
        elif name is not None:
            if name in _WRAPPERS and arg is not None:
                out.append((_LIGATURE_RE.sub(lambda g: _LIGATURES[g.group(0)], arg), style or _STYLE_MACROS.get(name, "")))
            elif name in _SYMBOLS and not arg:
                out.append((_SYMBOLS[name], style))
            else:
                return None
        elif m.group(0) in _LIGATURES:
            out.append((_LIGATURES[m.group(0)], style))
        elif m.group(0) in "{}":
            # A group ("{B}ayesian", "{van der Berg}", the bulk of a .bib's titles and
            # names) reads as its content, as in pylatexenc; unbalanced braces need the parser.
            if groups_ok is None:
                groups_ok = _balanced(text)
            if not groups_ok:
                return None
        else:
            return None  # a bare backslash: leave it to the parser
        pos = m.end()
    out.append((text[pos:], style))
    return out


def _latex_segments(text: str, style: str) -> list[Segment]:
    """Text-mode LaTeX to segments; `\\textbf{}` and friends set the style."""
    text = text.replace("``", "\u201c").replace("''", "\u201d")
    if not _NEEDS_LATEX.search(text):
        return [(text, style)]
    # Bare % would start a comment and swallow the rest ("5% of"); bare $ # & are text.
    text = _UNESCAPED.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    # "~10x faster" in an abstract means about, not a tie: keep it before a number.
    text = _keep_space_after_symbols(_APPROX.sub(r"\\textasciitilde{}", text))
    light = _light(text, style) if USE_LIGHT else None
    if light is not None:
        return light
    from pylatexenc.latexwalker import LatexMacroNode, LatexWalker

    try:
        nodes, _, _ = LatexWalker(text, tolerant_parsing=True).get_latex_nodes()
        out: list[Segment] = []
        for node in nodes or ():
            node_style = style
            if not style and isinstance(node, LatexMacroNode):
                node_style = _STYLE_MACROS.get(node.macroname, "")
            out.append((_latex_to_text().nodelist_to_text([node]), node_style))
        return out
    except Exception:  # pylatexenc raises assorted errors on malformed input
        return [(_crude(text), style)]


def _math_segment(body: str) -> Segment:
    whole = _WHOLE_STYLE.match(body)
    style = _STYLE_MACROS.get(whole.group(1), "math") if whole else "math"
    inner = _scripts(body).replace("``", "\u201c").replace("''", "\u201d")
    inner = _keep_space_after_symbols(_UNESCAPED.sub(lambda m: m.group(1) + "\\" + m.group(2), inner))
    light = _light(inner, "") if USE_LIGHT else None
    if light is not None:
        return "".join(chunk for chunk, _ in light), style
    try:
        # Text mode on purpose: pylatexenc's math mode drops \texttt{} arguments.
        return _latex_to_text().latex_to_text(inner), style
    except Exception:
        return _crude(inner), style


@lru_cache(maxsize=512)
def _accented(latex: str) -> str:
    """One accented letter (`{\\'e}` -> é), as pylatexenc reads it; unchanged if it reads
    as anything but one character."""
    try:
        letter = unicodedata.normalize("NFC", _latex_to_text().latex_to_text(latex))
    except Exception:  # pylatexenc raises assorted errors on malformed input
        return latex
    return letter if len(letter) == 1 else latex


def _latex_first(text: str) -> str:
    """The LaTeX that markdown would misread, rendered first: accents and `` quotes."""
    if "``" in text:
        text = text.replace("``", "\u201c")
    if "\\" in text:
        text = _ACCENT.sub(lambda m: _accented(m.group(0)), text)
    return text


def _raw_segments(text: str) -> list[Segment]:
    text = _latex_first(text)
    out: list[Segment] = []

    def plain(chunk: str) -> None:
        pos = 0
        for m in _MARKDOWN.finditer(chunk):
            out.extend(_latex_segments(chunk[pos : m.start()], ""))
            kind = m.lastgroup or "b"
            out.extend(_latex_segments(m.group(kind), _MD_STYLE[kind]))
            pos = m.end()
        out.extend(_latex_segments(chunk[pos:], ""))

    pos = 0
    for m in _PIECES.finditer(text):
        plain(text[pos : m.start()])
        if m.group("math") is not None:
            body = m.group("math").strip("$")
            if body == m.group("math"):  # \( \) or \[ \]
                body = body[2:-2]
            out.append(_math_segment(body))
        elif m.group("ltext") is not None:
            plain(m.group("ltext"))
            out.append((f" ({m.group('lurl')})", ""))
        elif m.group("code") is not None:
            out.append((m.group("code"), "code"))
        else:
            out.append((m.group("urlarg") if m.group("urlarg") is not None else m.group("url"), ""))
        pos = m.end()
    plain(text[pos:])
    return out


_WS = re.compile(r"(\s+)")
_GAP_RANK = {"": 0, " ": 1, "\n": 2, "\n\n": 3}


def _tidy(segments: list[Segment]) -> list[Segment]:
    """Whitespace collapsed across chunk borders (a blank line stays a paragraph break,
    a single newline a line break), empty chunks dropped, neighbours of one style merged."""
    out: list[Segment] = []
    pending = ""
    for chunk, style in segments:
        buf: list[str] = []
        for i, part in enumerate(_WS.split(sanitize(chunk))):
            if i % 2:
                lines = part.count("\n")
                gap = "\n\n" if lines >= 2 else "\n" if lines else " "
                if _GAP_RANK[gap] > _GAP_RANK[pending]:
                    pending = gap
            elif part:
                if pending and buf:
                    buf.append(pending)
                elif pending and out:
                    # Gaps between chunks go to unstyled text, so a styled chunk
                    # (underlined, highlighted) neither starts nor ends with a space.
                    if out[-1][1] == "":
                        out[-1] = (out[-1][0] + pending, "")
                    elif style == "":
                        buf.append(pending)
                    else:
                        out.append((pending, ""))
                pending = ""
                buf.append(part)
        if buf:
            piece = "".join(buf)
            if out and out[-1][1] == style:
                out[-1] = (out[-1][0] + piece, style)
            else:
                out.append((piece, style))
    return out


@lru_cache(maxsize=4096)
def _segments(text: str) -> tuple[Segment, ...]:
    try:
        return tuple(_tidy(_raw_segments(sanitize(text))))
    except Exception:  # belt and braces: showing something beats crashing the UI
        return tuple(_tidy([(_crude(sanitize(text)), "")]))


_PLAIN_OK = re.compile(r"[\\$%{}~^_*`\[]|--|''")


_BLANK_RUN = re.compile(r"[^\S\n]*\n[^\S\n]*\n\s*")
_LINE_RUN = re.compile(r"[^\S\n]*\n[^\S\n]*")
_SPACE_RUN = re.compile(r"[^\S\n]+")


def _tidy_plain(text: str) -> str:
    """`_tidy` for one unstyled chunk, with regexes instead of a loop over words."""
    text = _BLANK_RUN.sub("\x00", sanitize(text).strip())  # sanitize leaves no NUL: a safe marker
    return _SPACE_RUN.sub(" ", _LINE_RUN.sub("\n", text)).strip().replace("\x00", "\n\n")


def render_uncached(text: str) -> str:
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if not _PLAIN_OK.search(text):
        return _tidy_plain(text)
    return "".join(chunk for chunk, _ in _segments(text))


@lru_cache(maxsize=20_000)
def to_display(text: str) -> str:
    """Plain, sanitized unicode for the screen: LaTeX and markdown rendered
    (`\\textbf{X}` -> X, `H$^3$GNNs` -> H³GNNs, `5\\%` -> 5%, `**x**` -> x).

    Spaces are collapsed; blank lines stay paragraph breaks. Never raises: malformed
    markup falls back to the text with the markup stripped.
    """
    return render_uncached(text)


# A LaTeX command other than a one-letter accent (\\c{c}, \\v s): `core.tokens` reads
# accents, braces and escapes itself, but a symbol (\\o, \\ss, \\alpha) needs rendering.
_SYMBOL_COMMAND = re.compile(r"\\(?![uvHckrdb](?![A-Za-z]))[A-Za-z]")


def search_text(text: str) -> str:
    """A title's, name's or venue's text as search indexes it: the display text
    (`Bj{\\o}rn` -> Bjørn, `$\\alpha$` -> α) when it holds a LaTeX command the
    tokeniser cannot read, else the text as it is (`V{\\'e}lez`, `{B}ayesian` and markdown
    the tokeniser reads alike). Plain text, most of a 20,000-paper list, costs one
    substring check."""
    return to_display(text) if "\\" in text and _SYMBOL_COMMAND.search(text) else text


def search_texts(items: Iterable[str]) -> str:
    """`search_text` of each of `items` (authors, keywords), joined by spaces; one check
    over them all, since at 20,000 papers there are 100,000 of them."""
    items = tuple(items)
    joined = " ".join(items)
    return " ".join(map(search_text, items)) if "\\" in joined else joined


def styled_segments(text: str) -> list[tuple[str, str]]:
    """`to_display(text)` cut into `(chunk, style)` pairs for the detail pane; style is
    "", "bold", "italic", "code" or "math". The chunks join to `to_display(text)`."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if not _PLAIN_OK.search(text):
        plain = _tidy_plain(text)
        return [(plain, "")] if plain else []
    return list(_segments(text))


_SPACES = re.compile(r"\s+")


def collapse_spaces(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def cut_to_width(text: str, width: int) -> str:
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    room = text[: width - 1]
    space = room.rfind(" ")
    if space >= width // 2:
        room = room[:space]
    return room.rstrip(" ,;:-–—(") + "…"


def one_line(text: str, width: int | None = None) -> str:
    """Display text on one line (every whitespace run -> one space); with `width`,
    cut at a word boundary to at most `width` characters, ending in "…"."""
    line = collapse_spaces(to_display(text))
    return line if width is None else cut_to_width(line, width)


def names_line(names: Iterable[str]) -> str:
    """Authors or keywords as one line for people: each rendered like a title
    (`M{\\"u}ller, Hans` -> Müller, Hans), joined by ", ", or by "; " when a name has a
    comma of its own ("Müller, Hans; Vélez, Ana"). The one display of names, in the
    detail pane and `show` alike."""
    shown = [name for name in map(one_line, names) if name]
    return ("; " if any("," in name for name in shown) else ", ").join(shown)


# Characters a JSON string may hold raw but a terminal would act on, or a UTF-8 stream
# cannot carry (lone surrogates). json.dumps already escapes C0 controls.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def safe_json(data: object, *, indent: int | None = 2) -> str:
    """`data` as JSON, non-ASCII kept as UTF-8 but every character that could act on a
    terminal (DEL, C1 controls, bidi controls, line separators) written as a `\\uXXXX`
    escape: printing it is safe, and parsing it gives back exactly `data`."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


# --------------------------------------------------------------------------- matching, ids

_NON_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """A key for matching and dedup: display text, NFKC, casefolded, punctuation
    removed, whitespace collapsed."""
    return _key(to_display(text))


def _key(text: str) -> str:
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def stable_id(text: str) -> str:
    """A short stable id (10 lowercase base32 characters) for a text, such as an abstract.

    Whitespace, line endings, case and punctuation do not change it. It hashes the
    source text's words rather than `normalise()`d display text on purpose: that is
    500 times faster (20k abstracts import in well under a second) and does not change
    when a pylatexenc upgrade renders some macro differently, which would orphan the
    user's annotations keyed by this id.
    """
    digest = hashlib.blake2b(_key(sanitize(str(text))).encode("utf-8"), digest_size=10).digest()
    return base64.b32encode(digest).decode("ascii")[:10].lower()


def derived_title_note(entry_type: str) -> str:
    """The line under a stand-in title that says where it came from: an entry of the user's
    .bib (`entry_type` set) that has no title, else an abstract with no title."""
    return "(its .bib entry has no title)" if entry_type else "(title derived from the abstract)"
