"""A scrolling container that takes the app's scroll keys, as the detail pane does.

Textual's VerticalScroll answers the arrows, home / end and page up / down only: in help
(`?`) and the statistics (`S`), `j`, `k`, `g`, `G`, `space`, `ctrl+d` and `ctrl+u` did
nothing, though they scroll everywhere else in the app (the keys follow vim and less).
"""

from __future__ import annotations

from textual.actions import SkipAction
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget


def scroll_bindings(group: str) -> list[Binding]:
    """The app's scroll keys for a scrolling view whose binding ids start with `group`
    (the detail pane's, the reviews view's, help's and the statistics'): one list, so
    the keys are the same wherever text scrolls, each view's ids its own for keymaps."""
    return [
        Binding("up,k", "scroll_up", "Scroll up", show=False, id=f"{group}.up"),
        Binding("down,j", "scroll_down", "Scroll down", show=False, id=f"{group}.down"),
        Binding("home,g", "scroll_home", "Top", show=False, id=f"{group}.top"),
        Binding("end,G", "scroll_end", "Bottom", show=False, id=f"{group}.bottom"),
        Binding("pageup", "page_up", "Page up", show=False, id=f"{group}.page_up"),
        Binding("pagedown,space", "page_down", "Page down", show=False, id=f"{group}.page_down"),
        Binding("ctrl+u", "half_page(-1)", "Half page up", show=False, id=f"{group}.half_page_up"),
        Binding("ctrl+d", "half_page(1)", "Half page down", show=False, id=f"{group}.half_page_down"),
    ]


def scroll_lines(view: Widget, lines: int) -> None:
    """`lines` down (up when negative) from where the view is going, at once. Textual's
    own line scroll counts from where the view is going but scrolls after the next
    refresh, which is also when "where it is going" moves: two keys handled between two
    refreshes (a held `j` at a busy moment) scrolled one line, not two."""
    if not view.allow_vertical_scroll:
        raise SkipAction()
    view.scroll_to(y=view.scroll_target_y + lines, immediate=True)


def half_page(view: Widget) -> int:
    """The lines ctrl+d and ctrl+u scroll `view` by."""
    return max(1, view.scrollable_content_region.height // 2)


class ScrollKeyActions:
    """The actions of `scroll_bindings` that Textual's own do not answer as the app means,
    for every view that scrolls text (mixed in before its Textual base): a line at once,
    and half a page at once (see `scroll_lines`)."""

    def action_scroll_down(self) -> None:
        scroll_lines(self, 1)

    def action_scroll_up(self) -> None:
        scroll_lines(self, -1)

    def action_half_page(self, direction: int) -> None:
        self.scroll_to(y=max(0, round(self.scroll_y) + half_page(self) * direction), animate=False, immediate=True)


class KeyScroll(ScrollKeyActions, VerticalScroll):
    """A VerticalScroll with the detail pane's scroll keys."""

    BINDINGS = scroll_bindings("scroll")
