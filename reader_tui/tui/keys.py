"""The app's own keys, grouped, for the help screen and the command palette.

Every binding reader-tui defines has an `id` ("list.search", "paper.tags"): its prefix
names the group it is listed under. Textual's inherited bindings (Scroll Left, Page
Right, Copy selected text, Maximize...) have none, so neither help nor the palette
shows them: they list what this app does, not what a scroll container could do.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App
from textual.binding import Binding

from reader_tui.core.model import NOTES_MARK, Status

GROUPS: dict[str, str] = {
    "list": "The list",
    "paper": "The current paper (or the marked ones)",
    "focus": "Panes",
    "detail": "The detail pane",
    "related": "Related papers",
    "saved": "Saved searches",
    "search": "The search bar",
    "triage": "Triage",
    "reviews": "The reviews view",
    "scroll": "Scrolling",
    "app": "Anywhere",
}
"""Group titles by binding id prefix, in the order help lists them."""

MOVES = {"up", "down", "first", "last", "page_up", "page_down", "half_page_up", "half_page_down", "select"}
"""Id suffixes of cursor moves: in help, not in the palette (a palette that moves the
cursor one row is noise)."""

SEARCH_SYNTAX: tuple[tuple[str, str], ...] = (
    ("words", "title, abstract, authors, keywords, tags, notes; typos forgiven"),
    ('"exact phrase"', "the words in this order"),
    ("-word", "leave out papers with the word (or -tag:old)"),
    ("tag:llm", "papers tagged llm"),
    ("status:to-read", "unread, to-read, reading, read, skipped"),
    ("is:marked", "marked now; is:tagged, is:noted"),
    ("year:2024..2026", "by year (or year:2026)"),
    ("venue:iclr", "venue contains the text"),
    ("rating:>=6", "mean rating of the reviews (rating:4..6); reviews:>=3, spread:>=4"),
    ("area:robotics", "primary area, forgiving; decision:oral, is:withdrawn"),
)


def legend() -> list[tuple[str, str]]:
    """(glyph, meaning) of the marks at the start of each list row."""
    return [(status.mark, status.value) for status in Status] + [(NOTES_MARK, "has notes")]


def legend_line() -> str:
    """The glyph legend on one line: "· unread  ○ to-read  ... ✎ has notes"."""
    return "  ".join(f"{glyph} {meaning}" for glyph, meaning in legend())


def group_of(binding: Binding) -> str | None:
    """The group key of one of the app's bindings; None for Textual's own."""
    if not binding.id or not binding.description:
        return None
    return binding.id.split(".", 1)[0]


def is_move(binding: Binding) -> bool:
    return bool(binding.id) and binding.id.split(".", 1)[-1] in MOVES


def key_text(app: App, binding: Binding) -> str:
    """All the keys of `binding` as the footer shows them, "j / ↓"."""
    keys = [key.strip() for key in binding.key.split(",") if key.strip()]
    return " / ".join(app.get_key_display(Binding(key, binding.action, binding.description)) for key in keys)


def grouped(app: App, bindings: Iterable[Binding]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(group title, [(keys, description)]) for the app's own `bindings`, groups in
    `GROUPS` order, one row per action (keys of the same action share it)."""
    rows: dict[str, dict[tuple[str, str], list[str]]] = {}
    for binding in bindings:
        group = group_of(binding)
        if group is None:
            continue
        keys = rows.setdefault(group, {}).setdefault((binding.action, binding.description), [])
        for shown in key_text(app, binding).split(" / "):
            if shown not in keys:
                keys.append(shown)
    order = list(GROUPS) + sorted(set(rows) - set(GROUPS))
    return [
        (GROUPS.get(group, group.capitalize()), [(" / ".join(keys), text) for (_a, text), keys in rows[group].items()])
        for group in order
        if group in rows
    ]
