"""The key footer: one line-rendered widget that redraws its text when the keys change.

Textual's `Footer` throws its keys away and mounts a new widget per key (each styled, data
bound and laid out) whenever the screen says its bindings may have changed: on every
focus change (tab between the panes, `/` and back, a dialog opened or closed). That cost
about 40 ms of CPU per focus change, more than the focus change itself. This footer
draws the same line (the same keys, colours and padding as Textual's) from one widget:
a focus change that changes the keys repaints one row, with no mount, styling or layout.

It also pins a few keys at its right end, beside `^p Commands` (`? Help`, and `esc Done`
in triage), after a separator: keys that do not fit are cut at the right, and these are
the ones a user must always be able to find, at 80 columns too.

As Textual's footer does, a key under the mouse is highlighted and shows its tooltip, a
click presses it (a bell if it is disabled) and the mouse wheel scrolls the keys that
were cut.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.css.styles import RenderStyles
from textual.screen import Screen
from textual.widget import Widget


class FooterItem(NamedTuple):
    """One key as the footer shows it."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool
    tooltip: str
    palette: bool = False  # the command palette's key, drawn compact (`^p Commands`)


class _Palette(NamedTuple):
    item: tuple[Color, Style]  # a key's background and style
    hover: tuple[Color, Style]  # the same under the mouse
    key: RenderStyles
    description: RenderStyles
    separator: Style


class _Placed(NamedTuple):
    item: FooterItem
    start: int
    end: int


class KeyFooter(Widget, can_focus=False):
    """The active bindings that have `show=True`, in one line; the keys of the `pinned`
    actions (and the palette's) at the right end."""

    ALLOW_SELECT = False

    COMPONENT_CLASSES = {
        "footer-key--item",
        "footer-key--key",
        "footer-key--description",
        "footer-key--hover",
        "footer-key--separator",
    }
    # The colours of Textual's Footer / FooterKey / the pinned group's border, by name.
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        width: 1fr;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        & > .footer-key--item {
            background: $footer-item-background;
        }
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .footer-key--separator {
            color: $foreground 20%;
        }
    }
    """

    def __init__(
        self,
        *,
        pinned: Iterable[str] = ("help",),
        show_command_palette: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.pinned = tuple(pinned)
        """Actions whose keys stay visible at the right end, in this order."""
        self.show_command_palette = show_command_palette
        self.items: tuple[FooterItem, ...] = ()
        """The keys drawn, in the order of the screen's bindings (not yet pinned)."""
        self._bindings_ready = False
        self._hover: FooterItem | None = None
        self._scroll = 0  # columns of the unpinned keys scrolled out at the left
        self._scroll_room = 0  # columns of them that the last render cut at the right
        self._placed: list[_Placed] = []  # where the last render put each key

    # -- the keys ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        """The screen's bindings may have changed (a focus change, `refresh_bindings`):
        repaint only if the keys to show did."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        items = self.read_items(screen)
        if items != self.items:
            self.items = items
            if self._hover is not None and self._hover not in items:
                self._set_hover(None)
            self.refresh()

    def read_items(self, screen: Screen) -> tuple[FooterItem, ...]:
        """The keys Textual's Footer would show for `screen` now (the first binding of
        each action, as it shows them)."""
        app = self.app

        def item(binding: Binding, enabled: bool, tooltip: str, palette: bool = False) -> FooterItem:
            display = app.get_key_display(binding)
            return FooterItem(binding.key, display, binding.description, binding.action, enabled, tooltip, palette)

        items: list[FooterItem] = []
        actions: set[str] = set()
        active = screen.active_bindings
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in actions:
                actions.add(binding.action)
                items.append(item(binding, enabled, tooltip))
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _, binding, enabled, _ = palette
                items.append(item(binding, enabled, binding.tooltip or binding.description, palette=True))
        return tuple(items)

    def split(self) -> tuple[list[FooterItem], list[FooterItem]]:
        """The keys at the left, and the pinned ones (in `pinned` order, the palette's last)."""
        pinned = sorted(
            (item for item in self.items if not item.palette and item.action in self.pinned),
            key=lambda item: self.pinned.index(item.action),
        )
        pinned += [item for item in self.items if item.palette]
        return [item for item in self.items if item not in pinned], pinned

    # -- drawing -------------------------------------------------------------------------

    def _palette(self) -> _Palette:
        """The styles of the line, from the component classes' colours layered the way
        Textual layers FooterKey's over the footer's background."""
        footer = self.background_colors[1]

        def layer(name: str, under: Color) -> tuple[Color, Color | None, Style]:
            styles = self.get_component_styles(name)
            background = under + styles.background if styles.has_rule("background") else under
            color = background + styles.color if styles.has_rule("color") else None
            return background, color, styles.text_style

        item, _, _ = layer("footer-key--item", footer)
        hover, hover_color, _ = layer("footer-key--hover", footer)
        _, separator, _ = layer("footer-key--separator", footer)
        return _Palette(
            item=(item, Style(color=(item + self.styles.color).rich_color, bgcolor=item.rich_color)),
            hover=(hover, Style(color=hover_color.rich_color if hover_color else None, bgcolor=hover.rich_color)),
            key=self.get_component_styles("footer-key--key"),
            description=self.get_component_styles("footer-key--description"),
            separator=Style(color=separator.rich_color if separator else None, bgcolor=footer.rich_color),
        )

    @staticmethod
    def _part(styles: RenderStyles, under: Color) -> Style:
        background = under + styles.background
        return Style(color=(background + styles.color).rich_color, bgcolor=background.rich_color) + styles.text_style

    def _item_text(self, item: FooterItem, palette: _Palette) -> Text:
        """One key as FooterKey renders it: `key` then `description`, each padded (the
        palette's compact: no padding around the key, a space before the description)."""
        background, base = palette.hover if item == self._hover else palette.item
        if item == self._hover:
            base = palette.item[1] + base
        key_style = self._part(palette.key, background)
        text_style = self._part(palette.description, background)
        if not item.enabled:
            base += Style(dim=True)
        if not item.description:
            text = Text.assemble((item.key_display, key_style))
        elif item.palette:
            text = Text.assemble((item.key_display, key_style), (" " + item.description, text_style))
        else:
            text = Text.assemble((f" {item.key_display} ", key_style), (f"{item.description} ", text_style))
        text.stylize_before(base)
        if item.palette:
            text.append(" ", base)  # FooterKey.-command-palette's right padding
        return text

    def render(self) -> Text:
        width = self.size.width
        self._placed = []
        if not self._bindings_ready or width <= 0:
            return Text()
        palette = self._palette()
        left_items, pinned_items = self.split()

        left = Text()
        for item in left_items:
            start = len(left)
            left.append_text(self._item_text(item, palette))
            self._placed.append(_Placed(item, start, len(left)))
        pinned = Text()
        if pinned_items:
            pinned.append("\u258f", palette.separator)  # the left edge of a `vkey` border
        for item in pinned_items:
            start = len(pinned)
            pinned.append_text(self._item_text(item, palette))
            self._placed.append(_Placed(item, start, len(pinned)))

        room = max(0, width - len(pinned))  # the keys at the left are cut here
        self._scroll = max(0, min(self._scroll, len(left) - room))
        self._scroll_room = max(0, len(left) - room - self._scroll)
        shifts = [-self._scroll] * len(left_items) + [room] * len(pinned_items)
        self._placed = [_Placed(p.item, p.start + d, p.end + d) for p, d in zip(self._placed, shifts, strict=True)]
        shown = left[self._scroll : self._scroll + room]
        shown.pad_right(room - len(shown))
        line = shown + pinned
        if len(line) > width:  # narrower than the pinned keys: their left end is cut
            line = line[len(line) - width :]
        return line

    # -- the mouse -----------------------------------------------------------------------

    def item_at(self, x: int) -> FooterItem | None:
        width = self.size.width
        for placed in reversed(self._placed):  # pinned keys are drawn over cut ones
            if placed.start <= x < placed.end and 0 <= x < width:
                return placed.item
        return None

    def _set_hover(self, item: FooterItem | None) -> None:
        if item == self._hover:
            return
        self._hover = item
        self.tooltip = (item.tooltip or None) if item else None
        self.styles.pointer = "pointer" if item else "default"
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self.item_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        item = self.item_at(event.x)
        if item is None:
            return
        if item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()

    def _scroll_by(self, columns: int, event: events.MouseEvent) -> None:
        """Scroll the keys at the left, as Textual's footer does on the mouse wheel."""
        columns = max(-self._scroll, min(columns, self._scroll_room))
        if columns:
            self._scroll += columns
            self._scroll_room -= columns
            self.refresh()
            event.stop()
            event.prevent_default()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll_by(2, event)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll_by(-2, event)
