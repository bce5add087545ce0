"""The main screen's extras (issue 8): triage, stats, related papers, "more like this",
suggested tags and saved searches.

Mixed into `MainScreen` like `MainActions`. Textual calls the message handlers of every
class in the screen's MRO, so the handlers here run beside the screen's own. The related
papers index is built in the search index's worker thread (after it) and arrives as
`RelatedReady`; workers never touch widgets.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from textual import work
from textual.binding import Binding
from textual.message import Message

from reader_tui.core.library.saved_searches import SavedSearch, delete_search, get_search, list_searches, save_search
from reader_tui.core.text.display import one_line
from reader_tui.tui.widgets.related_list import RelatedList
from reader_tui.tui.widgets.saved_searches import SavedSearchList

if TYPE_CHECKING:
    from reader_tui.tui.screens.main_screen import MainScreen

RELATED_SHOWN = 5
MORE_LIKE_THIS = 50
COUNT_DELAY = 0.5

EXTRA_BINDINGS = [
    Binding("T", "triage", "Triage", id="list.triage"),
    Binding("S", "stats", "Stats", id="app.stats"),
    Binding("right_square_bracket", "related(1)", "Next related paper", show=False, id="paper.related_next"),
    Binding("left_square_bracket", "related(-1)", "Previous related paper", show=False, id="paper.related_previous"),
    Binding("M", "more_like_this", "More like this", show=False, id="list.more_like_this"),
    Binding("b", "toggle_saved_searches", "Saved searches", show=False, id="list.saved_searches"),
]


class RelatedReady(Message):
    """The related-papers index was built (or loaded from its cache) in `seconds`."""

    def __init__(self, index: Any, seconds: float) -> None:
        super().__init__()
        self.index = index
        self.seconds = seconds


class SearchesCounted(Message):
    """How many papers each saved search finds now (by name)."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__()
        self.counts = counts


def filter_query(screen: MainScreen) -> str:
    """The current filter and search as one query ("status:to-read tag:llm attention")."""
    parts = []
    if screen.list_filter.status is not None:
        parts.append(f"status:{screen.list_filter.status.value}")
    if screen.list_filter.tag is not None:
        tag = screen.list_filter.tag
        parts.append(f'tag:"{tag}"' if " " in tag else f"tag:{tag}")
    if screen.search_text.strip():
        parts.append(screen.search_text.strip())
    return " ".join(parts)


class MainExtras:
    """Mixed into `MainScreen`: everything here runs on the UI thread unless it says so."""

    related_index: Any = None
    related_seconds: float | None = None

    # -- triage and stats -------------------------------------------------------------------

    def action_triage(self: MainScreen) -> None:
        from reader_tui.tui.screens.triage_screen import TriageScreen

        self.save_pending()
        papers = self.paper_list
        label = self.status_bar_description()

        def back(pid: str | None) -> None:
            if pid is not None and pid in papers.ids:
                papers.move_to(papers.ids.index(pid))
            papers.focus()

        screen = TriageScreen(
            self.library, list(papers.ids), filter_key=filter_query(self) or "all", filter_label=label,
            suggest=self.suggest_tags_for,
        )
        self.app.push_screen(screen, back)

    def action_stats(self: MainScreen) -> None:
        from reader_tui.tui.screens.stats_screen import StatsScreen

        shown = None if len(self.paper_list.ids) == len(self.library.papers) else list(self.paper_list.ids)
        self.app.push_screen(StatsScreen(self.library, shown, filter_label=self.status_bar_description()))

    # -- related papers ----------------------------------------------------------------------

    def on_related_ready(self: MainScreen, message: RelatedReady) -> None:
        self.related_index = message.index
        self.related_seconds = message.seconds
        self.show_related(self.paper_list.current_id)

    def show_related(self: MainScreen, paper_id: str | None) -> None:
        """Fill the related list for `paper_id` (called with the detail pane)."""
        related = self.query_one(RelatedList)
        if self.related_index is None:
            related.show_computing()
            return
        rows = []
        if paper_id is not None:
            for pid, score in self.related_index.related(paper_id, RELATED_SHOWN):
                if pid in self.library.papers:
                    rows.append((pid, self.library.view(pid).title, score))
        related.show_papers(rows)

    def action_related(self: MainScreen, step: int) -> None:
        related = self.query_one(RelatedList)
        self.show_current_now()
        if not related.paper_ids:
            self.notify("related: computing…" if self.related_index is None else "No related papers", markup=False)
            return
        self.add_class("-related-open")
        related.step(step)

    def on_related_list_chosen(self: MainScreen, message: RelatedList.Chosen) -> None:
        self.jump_to(message.paper_id)

    def on_descendant_blur(self: MainScreen, event: Any) -> None:
        if isinstance(event.widget, RelatedList):
            self.remove_class("-related-open")

    def jump_to(self: MainScreen, paper_id: str) -> None:
        """Put the list's cursor on `paper_id`, showing every paper when the current
        filter or search hides it."""
        papers = self.paper_list
        papers.focus()
        if paper_id in papers.ids:
            papers.move_to(papers.ids.index(paper_id))
            return
        if self.search_text or self._before_search is not None:
            self.cancel_search()
        if paper_id in papers.ids:
            papers.move_to(papers.ids.index(paper_id))
            return
        from reader_tui.tui.dialogs.filter_dialog import FilterChoice

        self.list_filter = FilterChoice()
        self.refilter(keep=paper_id)
        self.notify("The paper was outside the filter: showing every paper", markup=False)

    def action_more_like_this(self: MainScreen) -> None:
        pid = self.paper_list.current_id
        if pid is None:
            return
        if self.related_index is None:
            self.notify("related: computing…, try again in a moment", markup=False)
            return
        ids = [pid] + [other for other, _ in self.related_index.more_like_this(pid, MORE_LIKE_THIS)]
        papers = self.paper_list
        if self._before_search is None:
            self._before_search = (list(papers.ids), papers.current_id, papers.scroll_y)
        self._token += 1  # a search still on its way must not replace this list
        self._matched = {}
        papers.set_ids([p for p in ids if p in self.library.papers], keep=pid)
        papers.focus()
        self._update_counts()
        self._describe()
        self.status_bar.set_message(f"more like: {one_line(self.library.view(pid).title, 40)} (escape restores)")

    def suggest_tags_for(self: MainScreen, paper_id: str) -> list[str]:
        """Tags for the tag editor: those on the most similar papers and the paper's own
        keywords (core.tag_suggest), then the most used tags."""
        from reader_tui.core.related.tag_suggest import suggest_tags

        view = self.library.view(paper_id)
        known = self.library.all_tags()
        near = []
        if self.related_index is not None:
            near = [self.library.view(p) for p, _ in self.related_index.related(paper_id, 10) if p in self.library.papers]
        suggestions = suggest_tags(view, near, known, limit=5)
        have = {t.casefold() for t in [*suggestions, *view.tags]}
        popular = [t for t in sorted(known, key=lambda t: -known[t]) if t.casefold() not in have]
        return suggestions + popular[: max(0, 8 - len(suggestions))]

    # -- saved searches ------------------------------------------------------------------------

    def palette_commands(self: MainScreen) -> Iterator[tuple[str, str, Any]]:
        """Commands for the palette that are not key bindings: saved searches."""
        yield "Save this search…", "name the current filter and search", self.action_save_search
        for search in list_searches(self.library):
            yield f"Search: {search.name}", search.query, lambda s=search: self.run_saved_search(s)
        for search in list_searches(self.library):
            yield f"Delete saved search: {search.name}", search.query, lambda s=search: self.forget_search(s)

    @work(thread=True, group="say-written", exit_on_error=False)
    def say_once_written(self: MainScreen, message: str) -> None:
        """Notify `message` once the Library's writes are on disk; a failed write is
        reported by the saving indicator instead, so nothing claims a save that failed."""
        try:
            written = self.library.flush(timeout=30)
        except Exception:
            return
        if written:
            self.app.call_from_thread(self.notify, message, markup=False)

    def action_save_search(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.name_prompt import NamePrompt

        query = filter_query(self)
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
            self.update_saved_searches()
            self.say_once_written(f"Saved search {saved.name!r}")

        self.app.push_screen(NamePrompt("Save this search", subject=query, placeholder="name, e.g. to-read llm"), save)

    def run_saved_search(self: MainScreen, search: SavedSearch) -> None:
        """Run `search` in the search bar (within the current filter); escape restores."""
        from reader_tui.tui.widgets.search_bar import SearchBar

        self.action_search()
        bar = self.query_one(SearchBar)
        bar.value = search.query  # the bar's Changed event runs the search
        self.paper_list.focus()

    def forget_search(self: MainScreen, search: SavedSearch) -> None:
        if delete_search(self.library, search.name):
            self.say_once_written(f"Deleted saved search {search.name!r}")
        self.update_saved_searches()

    def action_toggle_saved_searches(self: MainScreen) -> None:
        side = self.query_one(SavedSearchList)
        side.set_class(not side.shown, "-shown")
        if not side.shown:
            self.paper_list.focus()
            return
        self.update_saved_searches()
        if self.has_class("-narrow"):
            self.notify("Too narrow for the saved searches list: find them in ctrl+p (\"Search: …\")", markup=False)
        else:
            self.call_after_refresh(side.focus)

    def on_saved_search_list_chosen(self: MainScreen, message: SavedSearchList.Chosen) -> None:
        found = get_search(self.library, message.search.name)
        if found is not None:
            self.run_saved_search(found)

    def update_saved_searches(self: MainScreen) -> None:
        """Redraw the side list and recount it in the background (when it is shown)."""
        side = self.query_one(SavedSearchList)
        searches = list_searches(self.library)
        side.show(searches, {s.name: side.counts.get(s.name) for s in searches})
        if side.shown and searches:
            self._count_searches(searches, self.index)

    @work(thread=True, exclusive=True, group="saved-counts", exit_on_error=False)
    def _count_searches(self: MainScreen, searches: list[SavedSearch], index: Any) -> None:
        from reader_tui.tui.listing import compute_listing

        counts = {}
        for search in searches:
            listing = compute_listing(self.library, search=search.query, index=index)
            counts[search.name] = len(listing.ids)
        self.post_message(SearchesCounted(counts))

    def on_searches_counted(self: MainScreen, message: SearchesCounted) -> None:
        side = self.query_one(SavedSearchList)
        side.show(side.searches, message.counts)

    def on_library_changed(self: MainScreen, message: Any) -> None:
        # A status or tag change can change every count: recount (debounced) when shown.
        side = self.query_one(SavedSearchList)
        if side.shown:
            timer = getattr(self, "_count_timer", None)
            if timer is not None:
                timer.stop()
            self._count_timer = self.set_timer(COUNT_DELAY, self.update_saved_searches, name="saved-recount")

    def on_index_ready(self: MainScreen, message: Any) -> None:
        if self.query_one(SavedSearchList).shown:
            self.update_saved_searches()
