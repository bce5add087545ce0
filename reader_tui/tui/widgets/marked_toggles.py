"""Radio buttons and checkboxes whose state shows in their characters, not only in colour.

Textual draws every toggle as `▐●▌` (a radio button) or `▐X▌` (a checkbox) and tells on
from off by colour alone, which a monochrome terminal, a screen reader's text or a
colour-blind user cannot see. These draw `●`/`○` and `X`/` ` instead; everything else is
Textual's own widget.
"""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class _ShowsState:
    """Mixed into a toggle button: its inner character follows its value."""

    ON: str
    OFF: str

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._show_state()

    def _show_state(self) -> None:
        # BUTTON_INNER is the public class attribute Textual draws the inside from.
        self.BUTTON_INNER = self.ON if self.value else self.OFF  # type: ignore[attr-defined]

    def watch_value(self) -> None:
        super().watch_value()  # type: ignore[misc]
        self._show_state()
        self.refresh()  # type: ignore[attr-defined]


class MarkedRadioButton(_ShowsState, RadioButton):
    """A radio button drawn `●` when chosen and `○` when not."""

    ON, OFF = "●", "○"


class MarkedCheckbox(_ShowsState, Checkbox):
    """A checkbox drawn `X` when ticked and blank when not."""

    ON, OFF = "X", " "
