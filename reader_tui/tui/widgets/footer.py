"""Textual's key footer, rebuilt only when the keys it shows change.

Textual's `Footer` throws its keys away and mounts new ones whenever the screen says its
bindings may have changed: on every focus change and, at start-up, three times in the
quarter second after the first frame (about 40 ms of styling each at 140 columns). The
first key a user presses waited behind those rebuilds. This one remembers what it drew
and skips a rebuild that would draw the same keys.

It also pins a few keys at its right end, beside `^p Commands` (`? Help`, and `esc
Done` in triage): keys that do not fit are cut at the right, and these are the ones a
user must always be able to find, at 80 columns too.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """A `Footer` that recomposes only when its keys, descriptions or states change, and
    keeps the keys of the `pinned` actions (with the palette's) at its right end."""

    DEFAULT_CSS = """
    KeyFooter > .footer-pinned {
        dock: right;
        width: auto;
        height: 1;
        border-left: vkey $foreground 20%;
    }
    KeyFooter > .footer-pinned FooterKey.-command-palette {
        dock: none;
        border-left: none;
    }
    """

    _drawn: Hashable = None
    _pending = False

    def __init__(self, *children, pinned: Iterable[str] = ("help",), **kwargs) -> None:
        super().__init__(*children, **kwargs)
        self.pinned = tuple(pinned)
        """Actions whose keys stay visible at the right end, in this order."""

    def _keys(self, screen: Screen) -> Hashable:
        """What `compose` would draw for `screen`'s bindings now."""
        shown = tuple(
            (binding.key, binding.key_display, binding.description, binding.action, binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in screen.active_bindings.values()
            if binding.show
        )
        return shown, self.show_command_palette, self.compact

    def compose(self) -> ComposeResult:
        self._pending = False
        if self._bindings_ready:
            self._drawn = self._keys(self.screen)
        widgets = list(super().compose())
        pinned = [w for w in widgets if isinstance(w, FooterKey) and w.action in self.pinned]
        pinned.sort(key=lambda w: self.pinned.index(w.action))
        pinned += [w for w in widgets if w.has_class("-command-palette")]
        yield from (w for w in widgets if w not in pinned)
        if pinned:
            yield HorizontalGroup(*pinned, classes="footer-pinned")

    def bindings_changed(self, screen: Screen) -> None:
        # Footer.bindings_changed, less the rebuilds that would draw what is there: the
        # same keys, or a rebuild already waiting (it reads the bindings when it runs).
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if self._pending or self._keys(screen) == self._drawn:
            return
        self._pending = True
        self.call_after_refresh(self.recompose)
