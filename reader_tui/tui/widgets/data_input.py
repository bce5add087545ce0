"""An Input for text that came from a user or a file: it keeps the text exactly and
shows its control characters as symbols (ESC -> ␛, BEL -> ␇, newline -> ␊, U+202E -> �).

Textual's Input draws its value through Rich, which removes a few controls (BEL, CR...)
and passes the rest, ESC included, to the terminal: a title holding `ESC ] 0 ; ... BEL`
would retitle the terminal when the edit dialog opens. `core.text.visible_controls`
swaps one character for one, so the cursor, the selection and mouse clicks keep their
offsets into the real value.

Textual's Input and TextArea insert only the keys whose character `str.isprintable()`
calls printable, which drops text a keyboard or an input method does type: the
ideographic space of a CJK input method (U+3000), a no-break space (option+space on a
Mac), the zero-width joiner inside an emoji (👩‍🔬 became 👩🔬) and the bidi marks.
`typed_character` gives those back, and DataInput, the search bar and the notes insert
them like any other character.
"""

from __future__ import annotations

import unicodedata

from textual import events
from textual.widgets import Input

from reader_tui.core.text.display import visible_controls
from reader_tui.tui.textual_patches import DrawnValueInput

TYPED_CATEGORIES = frozenset({"Zs", "Cf"})
"""Spaces (U+3000, U+00A0, U+2009...) and format characters (U+200D, U+200E...): typed
text that `str.isprintable()` rejects. Control characters (Cc) stay keys."""


def typed_character(event: events.Key) -> str | None:
    """The character `event` types when Textual's widgets would drop it, else None."""
    char = event.character
    if char is None or len(char) != 1 or event.is_printable:
        return None
    return char if unicodedata.category(char) in TYPED_CATEGORIES else None


def insert_typed_character(widget: Input, event: events.Key) -> None:
    """Insert what `typed_character` finds, as Input inserts a printable key."""
    char = typed_character(event)
    if char is None:
        return
    event.stop()
    event.prevent_default()
    selection = widget.selection
    if selection.is_empty:
        widget.insert_text_at_cursor(char)
    else:
        widget.replace(char, *selection)


class DataInput(DrawnValueInput, Input):
    """An `Input` whose value is data: stored as typed or given, drawn safely."""

    def on_key(self, event: events.Key) -> None:
        # (Input's own handler runs after this one unless the default is prevented.)
        insert_typed_character(self, event)

    def drawn(self, text: str) -> str:
        return visible_controls(text)
