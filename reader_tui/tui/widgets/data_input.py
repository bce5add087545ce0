"""An Input for text that came from a user or a file: it keeps the text exactly and
shows its control characters as symbols (ESC -> ␛, BEL -> ␇, newline -> ␊, U+202E -> �).

Textual's Input draws its value through Rich, which removes a few controls (BEL, CR...)
and passes the rest, ESC included, to the terminal: a title holding `ESC ] 0 ; ... BEL`
would retitle the terminal when the edit dialog opens. `core.text.visible_controls`
swaps one character for one, so the cursor, the selection and mouse clicks keep their
offsets into the real value.
"""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text
from textual.widgets import Input

from reader_tui.core.text.display import visible_controls


class DataInput(Input):
    """An `Input` whose value is data: stored as typed or given, drawn safely."""

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        text = Text(visible_controls(self.value), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text

    def _position_to_cell(self, position: int) -> int:
        return cell_len(visible_controls(self.value[:position]))

    def _cell_offset_to_index(self, offset: int) -> int:
        cell_offset = 0
        offset += self.scroll_offset.x
        shown = visible_controls(self.value)
        for index, char in enumerate(shown):
            width = get_character_cell_size(char)
            if cell_offset <= offset < cell_offset + width:
                return index
            cell_offset += width
        return max(0, min(offset, len(shown)))
