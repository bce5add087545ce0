"""Write the key tables of docs/keys.md from the bindings themselves, as the help screen
(`?`) is made, so the page cannot drift from what the keys do: every binding with an `id`
and a description, one row per action, grouped by place. The hand-written text around
the tables stays; only what lies between the two markers is replaced.

Run: python docs/make_keys.py (tests/test_docs_keys.py fails when the page is stale)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.binding import Binding
from textual.keys import key_to_character

import reader_tui.tui
from reader_tui.tui.keys import GROUPS, group_of

PAGE = Path(__file__).resolve().parent / "keys.md"
BEGIN = "<!-- keys: made by docs/make_keys.py from the bindings; edit the bindings, then run it -->"
END = "<!-- keys: end -->"

PLACES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The main screen", ("ReaderApp", "MainScreen", "PaperList", "PaperDetail", "RelatedList", "SavedSearchList",
                         "SearchBar")),
    ("Triage (`T`)", ("TriageScreen",)),
    ("The reviews view (`R`)", ("ReviewsScreen", "ReviewsView")),
    ("Statistics (`S`) and help (`?`)", ("StatsScreen", "HelpScreen", "KeyScroll")),
    ("The sort dialog (`s`)", ("SortDialog",)),
    ("The filter dialog (`f`)", ("FilterDialog",)),
    ("The export dialog (`x`)", ("ExportDialog", "ChoiceSet", "SpaceCheckbox")),
    ("The tag editor (`t`)", ("TagEditor",)),
    ('The tag picker ("more like a tag")', ("TagPicker",)),
    ("The edit dialog (`e`)", ("EditDialog",)),
    ("The import dialog", ("ImportDialog",)),
    ("The fetch dialog (palette: Fetch a venue from OpenReview…)", ("FetchDialog",)),
    ("Naming a saved search", ("NamePrompt",)),
    ("Confirming", ("ConfirmDialog",)),
)
"""Where each class's keys are listed, in the page's order (class names)."""

_NAMES = {"pageup": "pgup", "pagedown": "pgdn", "slash": "/"}


def binding_classes() -> dict[str, type]:
    """Every class of the TUI that declares bindings of its own, by name."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(reader_tui.tui.__path__, "reader_tui.tui."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__ and "BINDINGS" in vars(value):
                found[name] = value
    return found


def own_bindings(cls: type) -> list[Binding]:
    """The app's own bindings `cls` declares (those help lists: an id and a description)."""
    return [b for b in vars(cls)["BINDINGS"] if isinstance(b, Binding) and group_of(b) is not None]


def key_name(key: str) -> str:
    """A Textual key as the docs write it: "?", "ctrl+o", "pgup"."""
    key = key.strip()
    if key in _NAMES:
        return _NAMES[key]
    if len(key) == 1:
        return key
    character = key_to_character(key)
    return character if character and character.isprintable() and not character.isspace() else key


def rows(bindings: list[Binding]) -> list[tuple[str, str, str]]:
    """(group, keys, description), one row per action, keys of the same action shared."""
    merged: dict[tuple[str, str, str], list[str]] = {}
    for binding in bindings:
        keys = merged.setdefault((group_of(binding) or "", binding.action, binding.description), [])
        for key in binding.key.split(","):
            if key.strip() and key_name(key) not in keys:
                keys.append(key_name(key))
    return [(group, " ".join(f"`{k}`" for k in keys), text) for (group, _a, text), keys in merged.items()]


def tables() -> str:
    classes = binding_classes()
    lines: list[str] = []
    for title, names in PLACES:
        found = [row for name in names for row in rows(own_bindings(classes[name]))]
        lines += [f"## {title}", ""]
        if title != PLACES[0][0]:  # one table a place; the main screen's keys by help's groups
            found = [("", keys, text) for _, keys, text in found]
        order = list(GROUPS)
        groups = sorted(dict.fromkeys(g for g, _, _ in found), key=lambda g: order.index(g) if g in order else len(order))
        for group in groups:
            if group:
                lines += [f"### {GROUPS.get(group, group.capitalize())}", ""]
            lines += ["| key | does |", "|---|---|"]
            lines += [f"| {keys} | {text} |" for g, keys, text in found if g == group]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def page(text: str) -> str:
    """`text` (the page) with its generated part made again."""
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n\n{tables()}\n{END}{tail}"


if __name__ == "__main__":
    PAGE.write_text(page(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
