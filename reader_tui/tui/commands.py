"""The command palette (ctrl+p): every action of the main screen, found by name, grouped
as help groups them, and a command per theme. Built from the app's own bindings (those
with an id: Textual's inherited scroll and maximize bindings are not listed), so it
cannot drift from the keys."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.screen import Screen

from reader_tui.core.text.display import visible_controls
from reader_tui.tui.keys import GROUPS, group_of, is_move, key_text


def _main_screen(provider: Provider) -> Screen | None:
    from reader_tui.tui.screens.main_screen import MainScreen

    for screen in reversed(provider.app.screen_stack):
        if isinstance(screen, MainScreen):
            return screen
    return None


def _shown(text: str) -> Content:
    """A command's text or help as typed: saved-search names and queries are the user's
    own words, and the palette would read a plain string as markup."""
    return Content(visible_controls(text))


def _highlighted(matcher: Matcher, text: str) -> Content:
    """`matcher.highlight(text)` without reading `text` as markup. visible_controls keeps
    every index, so the match offsets still point at the right characters."""
    content = _shown(text)
    for offset in matcher.fuzzy_search.match(matcher.query, text)[1]:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content



#: Actions with no key of their own: found only here.
PALETTE_ONLY = (
    ("import_file", "Import papers from a file…", "BibTeX, OpenReview JSON/JSONL, CSV or a seed list"),
    ("copy_cites", "Copy \\cite{…} of the marked papers", "the citation keys, ready to paste into LaTeX"),
    ("more_like_tag", "More like tag…", "rank the list by a model of one tag's papers (as s, then l)"),
)


def _fetch_dialog(app, library) -> None:
    from reader_tui.tui.dialogs.fetch_dialog import FetchDialog

    app.push_screen(FetchDialog(library))


class ReaderCommands(Provider):
    """Paper and list actions (with their keys) and themes."""

    def _commands(self) -> Iterator[tuple[str, str, object]]:
        from reader_tui.tui.widgets.paper_list import PaperList

        screen = _main_screen(self)
        if screen is None:
            return
        papers = screen.query_one(PaperList)
        seen: set[str] = set()
        found: list[tuple[int, str, Binding, object]] = []
        order = list(GROUPS)
        for target, bindings in ((screen, screen.BINDINGS), (papers, PaperList.BINDINGS), (self.app, self.app.BINDINGS)):
            for binding in bindings:
                if not isinstance(binding, Binding) or binding.action in seen:
                    continue
                group = group_of(binding)
                # Cursor moves and the palette's own key are not commands worth a row.
                if group is None or is_move(binding) or binding.action == "command_palette":
                    continue
                seen.add(binding.action)
                rank = order.index(group) if group in order else len(order)
                found.append((rank, group, binding, target))
        for _rank, group, binding, target in sorted(found, key=lambda row: row[0]):
            where = GROUPS.get(group, group.capitalize())
            help_text = f"{where} · key {key_text(self.app, binding)}"
            yield binding.description, help_text, partial(target.run_action, binding.action)
        for action, text, help_text in PALETTE_ONLY:
            yield text, help_text, partial(screen.run_action, action)
        yield "Fetch a venue from OpenReview…", "a new snapshot of its papers and reviews, then what moved", partial(
            _fetch_dialog, self.app, screen.library)
        yield from screen.palette_commands()  # saved searches
        for name in sorted(self.app.available_themes):
            yield f"Theme: {name}", "switch to this colour theme (remembered)", partial(setattr, self.app, "theme", name)

    # help is given as Content, not str: the palette passes Content through as it is.
    async def discover(self) -> Hits:
        for text, help_text, command in self._commands():
            yield DiscoveryHit(_shown(text), command, text=text, help=_shown(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, command in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, _highlighted(matcher, text), command, text=text, help=_shown(help_text))
