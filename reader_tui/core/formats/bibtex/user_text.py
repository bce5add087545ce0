"""The user's own text (notes, tags) in a BibTeX field, and exactly back.

Notes and tags are text the user typed, not LaTeX: `$x$` is two dollars and an x.
`encode_user_text` writes each character as LaTeX that shows that character, and
`decode_user_text` reads those forms back, so that for every string `s` (all of Unicode,
controls and lone surrogates included) `decode_user_text(encode_user_text(s, ...)) == s`
in every mode, and for a tag also after the `keywords` field is split on `,` and `;`.

Why it is exact: the encoding writes a raw `\\` or brace only as part of one of its own
forms, so the decoder never meets a backslash or brace that is not one of them.
Why the file stays sound: there is no raw brace but inside a form, and every form's
braces balance (for bibtex, which counts `\\{`, and bibtexparser, which does not: no form
has `\\{` or `\\}`); an `@` at a line start, which bibtexparser reads as a new entry, is `{@}`.

The forms:

* `\\ { } $ & % # _ ^ ~ < > |`: `\\textbackslash{}`, `\\textbraceleft{}`,
  `\\textbraceright{}`, `\\$`, `\\&`, `\\%`, `\\#`, `\\_`, `\\textasciicircum{}`,
  `\\textasciitilde{}`, `\\textless{}`, `\\textgreater{}`, `\\textbar{}`.
* Characters a reader or BibTeX would change (controls but the line feed, tab, DEL, C1,
  U+2028/U+2029, U+FEFF, lone surrogates), and whitespace at the ends of the text that
  readers strip: `\\char<decimal>{}` (`\\space{}` for a space). In a tag every whitespace
  character but an inner space is so written, and `,` `;` are `{,}` `{;}`.
* Other non-ASCII: mode "latex" (the default) writes the package-free LaTeX form when
  there is one (`é -> {\\'e}`, see `package_free`) and UTF-8 otherwise (BibTeX passes the
  bytes through); "unicode" writes UTF-8; "ascii" writes `\\char<decimal>{}` where there
  is no form, so the file is pure ASCII and still exact.

The decoder also reads the classic forms of older exports (`{\\'e}`) and undoes nothing
else: a foreign file's `annote` keeps its LaTeX, less the escapes listed above.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .package_free import text_form

__all__ = ["encode_user_text", "decode_user_text", "split_keywords", "MODES"]

MODES = ("latex", "unicode", "ascii")

_ASCII_FORMS = {
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
    "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}",
}
_TAG_FORMS = {",": "{,}", ";": "{;}"}
# Changed by a reader of the file: Python's line splitting, BOM stripping, CR handling.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]")
_PLAIN = re.compile(r"[^\\{}$&%#_^~<>|@,;\s\x00-\x1f\x7f-\U0010ffff]+")


def _char(ch: str) -> str:
    return r"\space{}" if ch == " " else "\\char%d{}" % ord(ch)


def encode_user_text(text: str, *, mode: str = "latex", tag: bool = False) -> str:
    """`text` as the inside of a BibTeX `{...}` field; `decode_user_text` gives it back.

    `tag=True` for one tag of a `keywords` list: no raw whitespace but inner spaces, and
    no raw `,` or `;` (the list's separators).
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    out: list[str] = []
    n = len(text)
    lead = n - len(text.lstrip())  # whitespace at the ends: readers trim it
    trail = len(text.rstrip())
    line_start = True
    i = 0
    while i < n:
        plain = _PLAIN.match(text, i)
        if plain:
            out.append(plain.group())
            i = plain.end()
            line_start = False
            continue
        ch = text[i]
        if ch.isspace() and (i < lead or i >= trail or (tag and ch != " ") or _UNSAFE.match(ch)):
            out.append(_char(ch))
        elif ch in _ASCII_FORMS:
            out.append(_ASCII_FORMS[ch])
        elif tag and ch in _TAG_FORMS:
            out.append(_TAG_FORMS[ch])
        elif ch == "@":
            out.append("{@}" if line_start else "@")
        elif ch.isascii() and not _UNSAFE.match(ch):
            out.append(ch)  # a space, a line feed, `,` `;` in notes
        elif _UNSAFE.match(ch):
            out.append(_char(ch))
        else:
            out.append(_wide(ch, mode))
        # bibtexparser reads `@` after a line feed and any whitespace as a new entry.
        line_start = ch == "\n" or (line_start and ch.isspace())
        i += 1
    return "".join(out)


@lru_cache(maxsize=4096)
def _wide(ch: str, mode: str) -> str:
    if mode == "unicode":
        return ch
    form = _form(ch)
    if form is not None:
        return form
    return ch if mode == "latex" else _char(ch)


@lru_cache(maxsize=4096)
def _form(ch: str) -> str | None:
    """The package-free form of `ch` when it reads back as `ch` alone (Å and the
    Ångström sign share `{\\r{A}}`: the second is written another way)."""
    form = text_form(ch)
    # Only forms the decoder reads whole (a group opening with a command, braces nested
    # no deeper than its pattern): `{--}` for U+2012 and `{---}` for U+2015 would come
    # back as the dashes they typeset, and U+2AFD's `{\ensuremath{{{/}\!\!{/}}}}` in parts.
    if form is None or not form.startswith("{\\") or _reverse().get(form) != ch or not _DECODE_TOKEN.fullmatch(form):
        return None
    return form


@lru_cache(maxsize=1)
def _reverse() -> dict[str, str]:
    """Form -> character for every character with a package-free form, plus the classic
    forms older exports wrote. The lowest code point wins a shared form."""
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    from .latex import _latex_char

    reverse: dict[str, str] = {}
    for code in sorted(get_builtin_uni2latex_dict()):
        ch = chr(code)
        if ch.isascii():
            continue
        for form in (text_form(ch), _latex_char(ch)):
            if form and form.startswith("{\\"):
                reverse.setdefault(form, ch)
    for ch in ("\u2011", "\u2012", "\u2015", "\u200b", "\u202f", "\u00ab", "\u00bb"):
        form = text_form(ch)
        if form:
            reverse[form] = ch
    return reverse


_DECODE_TOKEN = re.compile(
    r"\\char(?P<code>\d{1,7})\{\}"
    r"|(?P<fixed>\\space\{\}|\\text[a-z]+\{\}|\\[$&%#_]|\{[@,;]\})"
    r"|(?P<group>\{\\(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})"
)
_FIXED = {form: ch for ch, form in (*_ASCII_FORMS.items(), *_TAG_FORMS.items())}
_FIXED.update({r"\space{}": " ", "{@}": "@"})


def decode_user_text(value: str) -> str:
    """The text `encode_user_text` wrote as `value` (any mode). Anything that is not one of
    its forms is kept as written."""
    if "\\" not in value and "{" not in value:
        return value  # nothing was escaped: the common case
    return _DECODE_TOKEN.sub(_decode_one, value)


def _decode_one(match: re.Match[str]) -> str:
    tok = match.group()
    code = match.group("code")
    if code is not None:
        number = int(code)
        return chr(number) if number <= 0x10FFFF else tok
    if match.group("fixed") is not None:
        return _FIXED.get(tok, tok)
    return _reverse().get(tok, tok)


def split_keywords(value: str) -> list[str]:
    """A `keywords` field cut at the `,` and `;` outside braces, each part trimmed, empty
    parts left out (the parts still need `decode_user_text`)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(value):
        char = value[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char in ",;" and depth == 0:
            parts.append(value[start:i])
            start = i + 1
        i += 1
    parts.append(value[start:])
    return [part.strip() for part in parts if part.strip()]
