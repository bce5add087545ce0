"""The saved-searches side list: each saved search with how many papers it finds now.

Hidden by default (`b` shows it) and at narrow widths. The list owns the saved searches'
rows and their counting: it recounts them off the UI thread when it is shown, when the
search index arrives (handed down as `index`) and when the library changes. Enter on a
row posts `SavedSearchList.Chosen` and the screen runs that search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from textual import work
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader_tui.core.library.library import Library
from reader_tui.core.library.saved_searches import SavedSearch, delete_search, list_searches, save_search
from reader_tui.core.text.display import visible_controls

NAME_WIDTH = 40
COUNT_DELAY = 0.5


class SavedSearchList(OptionList):
    """Saved searches with live counts (None: still counting)."""

    BINDINGS = [
        Binding("enter", "select", "Run saved search", id="saved.run"),
        Binding("j", "cursor_down", "Down", show=False, id="saved.down"),
        Binding("k", "cursor_up", "Up", show=False, id="saved.up"),
    ]

    class Chosen(Message):
        """The user picked the saved search `search`."""

        def __init__(self, search: SavedSearch) -> None:
            super().__init__()
            self.search = search

    class Counted(Message):
        """How many papers each saved search finds now (by name)."""

        def __init__(self, counts: dict[str, int]) -> None:
            super().__init__()
            self.counts = counts

    def __init__(self, library: Library, **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.border_title = "saved searches"
        self.searches: list[SavedSearch] = []
        self.counts: dict[str, int | None] = {}
        self._index: Any = None
        self._count_timer = None

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)

    # -- the saved searches and their counts ---------------------------------------------

    @property
    def index(self) -> Any:
        """The search index the counts are made with (None: titles only)."""
        return self._index

    @index.setter
    def index(self, index: Any) -> None:
        self._index = index
        if self.shown:
            self.update_searches()

    def toggle(self) -> bool:
        """Show or hide the list (`b`); True when it is shown now."""
        self.set_class(not self.shown, "-shown")
        if self.shown:
            self.update_searches()
        return self.shown

    def update_searches(self) -> None:
        """Redraw the rows and recount them in the background (when the list is shown)."""
        searches = list_searches(self.library)
        self.show(searches, {s.name: self.counts.get(s.name) for s in searches})
        if self.shown and searches:
            self._count(searches, self._index)

    @work(thread=True, exclusive=True, group="saved-counts", exit_on_error=False)
    def _count(self, searches: list[SavedSearch], index: Any) -> None:
        from reader_tui.core.library.listing import compute_listing

        counts = {}
        for search in searches:
            listing = compute_listing(self.library, search=search.query, index=index)
            counts[search.name] = len(listing.ids)
        self.post_message(self.Counted(counts))

    def on_saved_search_list_counted(self, message: Counted) -> None:
        message.stop()
        self.show(self.searches, message.counts)

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        # A status or tag change can change every count: recount (debounced) when shown.
        if self.shown:
            if self._count_timer is not None:
                self._count_timer.stop()
            self._count_timer = self.set_timer(COUNT_DELAY, self.update_searches, name="saved-recount")

    # -- saving and deleting ---------------------------------------------------------------

    def palette_commands(self, run: Callable[[SavedSearch], Any]) -> Iterator[tuple[str, str, Any]]:
        """Palette commands that `run` each saved search, and that delete each."""
        for search in list_searches(self.library):
            yield f"Search: {search.name}", search.query, lambda s=search: run(s)
        for search in list_searches(self.library):
            yield f"Delete saved search: {search.name}", search.query, lambda s=search: self.forget(s)

    def save_search(self, query: str) -> None:
        """Ask for a name and save `query` under it."""
        from reader_tui.tui.dialogs.name_prompt import NamePrompt

        if not query:
            self.notify("There is no search to save: search (/) or filter (f) first", severity="warning", markup=False)
            return

        def save(name: str | None) -> None:
            if not name:
                return
            try:
                saved = save_search(self.library, name, query)
            except ValueError as error:
                self.notify(str(error), severity="error", markup=False)
                return
            self.update_searches()
            self._say_once_written(f"Saved search {saved.name!r}")

        self.app.push_screen(NamePrompt("Save this search", subject=query, placeholder="name, e.g. to-read llm"), save)

    def forget(self, search: SavedSearch) -> None:
        """Delete `search`."""
        if delete_search(self.library, search.name):
            self._say_once_written(f"Deleted saved search {search.name!r}")
        self.update_searches()

    @work(thread=True, group="say-written", exit_on_error=False)
    def _say_once_written(self, message: str) -> None:
        """Notify `message` once the Library's writes are on disk; a failed write is
        reported by the saving indicator instead, so nothing claims a save that failed."""
        try:
            written = self.library.flush(timeout=30)
        except Exception:
            return
        if written:
            self.app.call_from_thread(self.notify, message, markup=False)

    # -- drawing ---------------------------------------------------------------------------

    @property
    def shown(self) -> bool:
        """Asked for with `b` (CSS still hides it on narrow terminals)."""
        return self.has_class("-shown")

    @property
    def text(self) -> str:
        """The rows as plain text (for tests)."""
        return "\n".join(getattr(o.prompt, "plain", str(o.prompt)) for o in self.options)

    def show(self, searches: Sequence[SavedSearch], counts: Mapping[str, int | None]) -> None:
        """Show `searches`, each with its count in `counts` (by name; None: counting)."""
        self.searches = list(searches)
        self.counts = dict(counts)
        highlighted = self.highlighted
        if not self.searches:
            hint = "none yet: ctrl+p, “Save this search…”"
            self.set_options([Option(Content.styled(hint, "$text-muted italic"), disabled=True)])
            return
        options = []
        for search in self.searches:
            count = self.counts.get(search.name)
            shown = "…" if count is None else f"{count:,}"
            # The name is the user's own text: shown as typed, not as LaTeX or markup.
            name = visible_controls(search.name)
            if len(name) > NAME_WIDTH:
                name = name[: NAME_WIDTH - 1] + "…"
            prompt = Content.assemble(Content(name), "  ", (shown, "$text-muted"))
            options.append(Option(prompt))
        self.set_options(options)
        if highlighted is not None or self.has_focus:
            self.highlighted = min(highlighted or 0, len(options) - 1)

    def on_focus(self, event) -> None:
        if self.highlighted is None and self.searches:
            self.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.searches):
            self.post_message(self.Chosen(self.searches[event.option_index]))
