"""One person's name in parts, as BibTeX reads it, and back: for CSL-JSON, RIS and Zotero.

BibTeX writes a name "First von Last", "von Last, First" or "von Last, Jr, First"; a
name in one pair of braces ("{World Health Organization}") is one literal name, never
split. `name_parts` gives the CSL name object (`family`, `given`,
`non-dropping-particle`, `suffix`, or `literal`); `bibtex_name` writes such an object
back as a name that BibTeX (and `name_parts`) reads into the same parts.

The splitting is bibtexparser's (`parse_single_name_into_parts`, which keeps an accent
at the start of a part, `\\'{E}va`, in that part); the author list itself is split by
`text.names.split_authors`, whose backslash handling is right where bibtexparser's
multi-name splitter is not.
"""

from __future__ import annotations

from collections.abc import Callable

from bibtexparser.middlewares.names import parse_single_name_into_parts

__all__ = ["name_parts", "bibtex_name", "PARTICLE"]

#: The CSL name part that holds BibTeX's "von" part ("van Beethoven" sorts under "van").
PARTICLE = "non-dropping-particle"


def _one_group(name: str) -> bool:
    """Whether `name` is a single brace group from its first character to its last."""
    if not (name.startswith("{") and name.endswith("}")):
        return False
    depth = 0
    for index, char in enumerate(name):
        depth += 1 if char == "{" else -1 if char == "}" else 0
        if depth == 0 and index < len(name) - 1:
            return False
    return True


def name_parts(name: str, text: Callable[[str], str] = lambda part: part.replace("{", "").replace("}", "")) -> dict[str, str]:
    """The CSL name object of one BibTeX-style `name`; `text` turns each part into plain
    text (for a .bib name: LaTeX to Unicode). {} for a blank name."""
    name = " ".join(name.split())
    if not name:
        return {}
    if _one_group(name):
        return {"literal": text(name[1:-1])}
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # a name bibtexparser cannot split is still somebody: kept whole
        return {"literal": text(name)}
    family = " ".join(parts.last)
    if not family:
        return {"literal": text(name)}
    if _one_group(family) and not parts.first and not parts.von and not parts.jr:
        return {"literal": text(family[1:-1])}
    found = {"family": text(family)}
    if parts.first:
        found["given"] = text(" ".join(parts.first))
    if parts.von:
        found[PARTICLE] = text(" ".join(parts.von))
    if parts.jr:
        found["suffix"] = text(" ".join(parts.jr))
    return {key: value for key, value in found.items() if value}


def bibtex_name(parts: dict) -> str:
    """A CSL name object as one name BibTeX reads into the same parts (plain text, not
    LaTeX): "Given Family" where that is unambiguous, else "von Family, Jr, Given"; a
    literal name in braces. "" for an object with no name in it."""
    def part(key: str) -> str:
        value = parts.get(key)
        return " ".join(str(value).split()) if isinstance(value, (str, int, float)) else ""

    literal, family, given = part("literal"), part("family"), part("given")
    if literal or not family:
        whole = literal or given
        return "{%s}" % whole if whole else ""
    if "," in family or " and " in f" {family.lower()} ":
        family = "{%s}" % family  # one part, as the .bib had it braced
    particle = " ".join(p for p in (part("dropping-particle"), part(PARTICLE)) if p)
    suffix = part("suffix")
    last = f"{particle} {family}" if particle else family
    if suffix:
        name = f"{last}, {suffix}, {given}"
    elif not given:
        return "{%s}" % family if " " in family else last
    elif " " in family or "," in given or (particle and not particle[:1].islower()) or family[:1].islower():
        name = f"{last}, {given}"
    else:
        return f"{given} {last}"
    if " " in family and not family.startswith("{") and _family_of(name) != family:
        # BibTeX would take part of a family name for its particle ("Vázques de Parga"
        # splits at "de"): braced, it is one part, as the .bib had it.
        name = name.replace(last, f"{particle} {{{family}}}" if particle else f"{{{family}}}", 1)
    return name


def _family_of(name: str) -> str:
    try:
        return " ".join(parse_single_name_into_parts(name, strict=False).last)
    except Exception:
        return ""
