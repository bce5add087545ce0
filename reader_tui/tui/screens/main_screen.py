"""The main screen: the paper browser, the side pane (the current paper's detail, related
papers and notes), the saved searches and a status line.

Each widget owns its state (the browser its filter, sort and search; the list its cursor
and marks, and so which papers an action is about; the side pane the paper it shows and
when; the related list its index; the saved searches their counts; the invisible
LibraryWatcher the index worker and the disk poll); the screen composes them, turns key
presses into Library calls, opens the dialogs and hands their choice to the Library or
the browser, and passes what one widget says on to another (attributes down, messages
up). Library changes arrive once, through the app's `library_changed_signal`, and each
widget handles its own part.

The search bar sits above every pane, so the screen owns it and routes what is typed
there: to the browser (`search_for`, `submit_search`, `cancel_search`) or, after `/` in
the detail pane, to the detail pane (`find`), as in less. The state stays in the widgets
(the bar's `finding`, the browser's search).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, Static

from reader_tui.core.library.library import Library, undo_words
from reader_tui.core.library.saved_searches import SavedSearch, get_search
from reader_tui.core.model import Status
from reader_tui.core.process_tuning import resume_after_start
from reader_tui.core.text.display import one_line
from reader_tui.tui.listing import counts
from reader_tui.tui.messages import IndexReady, RelatedReady
from reader_tui.tui.saving import SavingIndicator
from reader_tui.tui.screens.start_styles import breakpoint_classes, skip_first_refresh
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.for_you_model import ForYouModel
from reader_tui.tui.widgets.library_sync import LibrarySync
from reader_tui.tui.widgets.library_watcher import LibraryWatcher
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_browser import PaperBrowser
from reader_tui.tui.widgets.paper_list import PaperList
from reader_tui.tui.widgets.related_list import RelatedList
from reader_tui.tui.widgets.saved_searches import SavedSearchList
from reader_tui.tui.widgets.search_bar import SearchBar
from reader_tui.tui.widgets.search_typing import ENTER as SEARCH_ENTERED
from reader_tui.tui.widgets.search_typing import OPEN as SEARCH_OPENED
from reader_tui.tui.widgets.search_typing import SearchTyping
from reader_tui.tui.widgets.side_pane import SidePane
from reader_tui.tui.widgets.status_bar import StatusBar

WAITING_SHOWN = 12
"""Changes a "Changes waiting for the sync" notification names; it counts the rest."""
STATUS_KEYS = {"1": Status.UNREAD, "2": Status.TO_READ, "3": Status.READING, "4": Status.READ, "5": Status.SKIPPED}


class MainScreen(Screen):
    """List on the left, detail and notes on the right (stacked on narrow terminals)."""

    AUTO_FOCUS = "PaperList"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    BINDINGS = [
        Binding("r", "toggle_read", "Read", id="paper.toggle_read"),
        *(
            Binding(key, f"set_status('{status.value}')", f"Status {status.value}", show=False, id=f"paper.status_{key}")
            for key, status in STATUS_KEYS.items()
        ),
        Binding("t", "edit_tags", "Tags", id="paper.tags"),
        Binding("a", "edit_notes", "Notes", id="paper.notes"),
        Binding("R", "reviews", "Reviews", id="paper.reviews"),
        Binding("n", "next_match(1)", "Next match", show=False, id="list.next_match"),
        Binding("N", "next_match(-1)", "Previous match", show=False, id="list.previous_match"),
        Binding("slash", "search", "Search", id="list.search"),
        Binding("f", "filter", "Filter", id="list.filter"),
        Binding("s", "sort", "Sort", id="list.sort"),
        Binding("equals_sign", "rerank", "Re-rank for you", show=False, id="list.rerank"),
        Binding("x", "export", "Export", id="list.export"),
        Binding("y", "copy_bibtex", "BibTeX", id="paper.copy_bibtex"),
        Binding("e", "edit_paper", "Edit", show=False, id="paper.edit"),
        Binding("o", "open_url", "Open forum / url", show=False, id="paper.open_url"),
        Binding("p", "open_pdf", "Open PDF", show=False, id="paper.open_pdf"),
        Binding("u", "undo", "Undo", id="app.undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, id="app.redo"),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="focus.next"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="focus.previous"),
        Binding("escape", "back", "Back", show=False, id="focus.list"),
        Binding("ctrl+o,alt+left", "jump_back", "Jump back", show=False, id="list.jump_back"),
        Binding("ctrl+i,alt+right", "jump_forward", "Jump forward", show=False, id="list.jump_forward"),
        Binding("T", "triage", "Triage", id="list.triage"),
        Binding("S", "stats", "Stats", id="app.stats"),
        Binding("right_square_bracket", "related(1)", "Next related paper", show=False, id="paper.related_next"),
        Binding("left_square_bracket", "related(-1)", "Previous related paper", show=False, id="paper.related_previous"),
        Binding("M", "more_like_this", "More like this", show=False, id="list.more_like_this"),
        Binding("b", "toggle_saved_searches", "Saved searches", show=False, id="list.saved_searches"),
        Binding("ctrl+s", "sync", "Sync now (git)", show=False, id="app.sync"),
    ]

    def __init__(self, library: Library) -> None:
        # Made with the breakpoint classes the first Resize would give it: styled once.
        super().__init__(classes=breakpoint_classes(MainScreen, self.app, self.app.size))
        self.library = library
        self.saving = SavingIndicator(self, library)
        self._for_you_shown = False  # the detail pane says why (the list is sorted "for you")

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        search = SearchBar(id="search")
        search.display = False
        yield search
        sample = sample_line(self.library)
        note = Static(sample, id="sample-note", markup=False)
        note.display = bool(sample)
        yield note
        with Horizontal(id="panes"):
            yield SavedSearchList(self.library, id="saved-searches")
            browser = PaperBrowser(self.library, id="browser")  # not queried: gone as the app quits
            yield browser
            yield SidePane(
                self.library, lambda paper_id: browser.matched.get(paper_id, ()),
                lambda paper_id: browser.order.why(paper_id), id="side",
            )
        yield StatusBar(id="status")
        yield LibraryWatcher(self.library)
        yield ForYouModel(self.library)
        yield LibrarySync(self.library)
        yield KeyFooter()

    @property
    def browser(self) -> PaperBrowser:
        return self.query_one(PaperBrowser)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def side(self) -> SidePane:
        return self.query_one(SidePane)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def for_you(self) -> ForYouModel:
        return self.query_one(ForYouModel)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        skip_first_refresh(self, event)

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)
        self.browser.order.model = self.for_you
        self.for_you.trained_signal.subscribe(self, self._for_you_trained)
        self._update_counts()
        self._describe()
        self.browser.restore_place()
        if self.browser.search_text:
            self._show_search()  # the search the app was left with, in its bar
        self.call_after_refresh(resume_after_start)  # the list is on screen: collect again
        self.call_after_refresh(self.library.start_background_work)  # the start's backup, the catalog read ahead

    # -- what the list shows ----------------------------------------------------------------

    def on_paper_browser_listing_changed(self, message: PaperBrowser.ListingChanged) -> None:
        self.status_bar.listed(message.note)
        browser = self.browser
        self.status_bar.set_every_word(browser.every_word if browser.search_text.strip() else None)
        self._update_counts()
        self._describe()
        self.query_one(LibraryWatcher).report_damaged()  # a filter or sort met every record
        if self.browser.order.by_model != self._for_you_shown:
            self._for_you_shown = self.browser.order.by_model
            self.side.show(self.side.detail.paper_id)  # with or without its "for you" line

    def on_paper_browser_search_failed(self, message: PaperBrowser.SearchFailed) -> None:
        self.status_bar.set_message(f"search: {message.error}", error=True)

    def _describe(self) -> None:
        papers = self.paper_list
        hidden = len(papers.marked - set(papers.ids)) if papers.marked else 0
        self.status_bar.set_view(self.browser.describe(), len(papers.marked), hidden)

    def _update_counts(self) -> None:
        self.status_bar.set_counts(*counts(self.library, self.paper_list.ids))

    # -- the search bar (above every pane: the screen passes it to the browser) -----------------

    def action_search(self) -> None:
        """`/`: find in the detail pane when it has focus, else search the list."""
        bar = self.query_one(SearchBar)
        detail = self.side.detail
        if detail.has_focus:  # `/` in the detail pane finds in it, as in less
            bar.open_find(detail.find_text, keys_after=detail)
            return
        self._end_find()
        self.browser.begin_search()
        bar.reviews = self.library.review_store.exists  # the hint names area: and rating: then
        bar.open_search(keys_after=self.paper_list)

    def _end_find(self) -> None:
        """A find in the detail pane ends: the bar holds the list's search again."""
        if self.query_one(SearchBar).finding:
            self._show_search()

    def _show_search(self) -> None:
        """The bar shows the browser's search (after a jump through the history)."""
        self.query_one(SearchBar).show_search(self.browser.search_text)

    def action_next_match(self, step: int) -> None:
        """`n` / `N`: in the detail pane the next line holding what `/` found there; in the
        list the next search result, round the end as vim does, saying so."""
        detail = self.side.detail
        if detail.has_focus:
            if not detail.find_next(step):
                self.status_bar.set_message("nothing to find: / finds in this paper")
            return
        papers = self.paper_list
        if not self.browser.search_text.strip() and self.browser.more_like is None:
            self.status_bar.set_message("no search: / searches, then n / N go through the results")
            return
        if not papers.ids:
            return
        row = papers.cursor + step
        if row >= len(papers.ids):
            row = 0
            self.status_bar.set_message("search hit the bottom, continuing at the top")
        elif row < 0:
            row = len(papers.ids) - 1
            self.status_bar.set_message("search hit the top, continuing at the bottom")
        papers.move_to(row)

    def on_search_typing_typed_ahead(self, message: SearchTyping.TypedAhead) -> None:
        # Keys meant for the bar reached the list before it had focus: "/" opens it, the
        # text goes in it, enter enters the search; in the order they were typed.
        bar = self.query_one(SearchBar)
        if message.text == SEARCH_OPENED or not bar.display:
            self.action_search()
        if message.text == SEARCH_ENTERED:
            # the bar's last changes may not have reached the list yet: what it holds is entered
            self.browser.search_for(bar.value)
            self._search_entered()
        elif message.text != SEARCH_OPENED:
            bar.insert_text_at_cursor(message.text)

    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        # Find it in the paper, or search the list once typing pauses.
        value = event.value
        if not self.query_one(SearchBar).finding:
            self.browser.search_for(value)
            return
        found = self.side.detail.find(value)
        if value.strip():
            self.status_bar.set_message(
                f"found on {found} line{'s' if found != 1 else ''}" if found else "not in this paper", error=not found
            )

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self._search_entered()

    def _search_entered(self) -> None:
        # Enter: keep what was found and read on, or show the search's results.
        if self.query_one(SearchBar).finding:
            self._end_find()
            self.side.detail.focus()
        elif not self.browser.submit_search():
            self._search_cancelled()

    @on(SearchBar.Cancelled)
    def _search_cancelled(self) -> None:
        """Escape: the list, cursor and scroll position as they were before `/` (or, finding
        in the detail pane, the find ends)."""
        bar = self.query_one(SearchBar)
        if bar.finding:
            self.side.detail.find("")
            self._end_find()
            self.side.detail.focus()
            return
        with bar.prevent(Input.Changed):
            bar.value = ""
        bar.display = False
        self.browser.cancel_search()

    # -- the indexes (from the LibraryWatcher) and the Library's changes ------------------------

    def on_index_ready(self, message: IndexReady) -> None:
        # From the LibraryWatcher: each index to its owner.
        self.browser.set_index(message.index)
        self.for_you.set_index(message.index)
        self.query_one(SavedSearchList).index = message.index

    def on_related_ready(self, message: RelatedReady) -> None:
        self.side.set_related_index(message.index, message.seconds)

    def _for_you_trained(self, model: object) -> None:
        self.browser.for_you_trained()
        self._describe()
        self.side.show(self.side.detail.paper_id)  # the "for you" line from the new model

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        # The browser redraws its rows and tells its index; the saved searches recount;
        # the watcher re-indexes after another process's import.
        current = self.paper_list.current_id
        if ids is None or current in ids:
            self.side.reload(current)
        if ids is None:  # an import (of reviews, say) may have brought keys into use
            self.refresh_bindings()
        self._update_counts()
        self.saving.watch()

    # -- current paper ------------------------------------------------------------------------

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.side.follow(message.paper_id)
        self.reviews_ahead(message.paper_id)

    def show_current_now(self) -> None:
        """Bring the side pane up to date with the cursor without waiting."""
        self.side.show_now(self.paper_list.current_id)

    def on_paper_list_selected(self, message: PaperList.Selected) -> None:
        self.side.detail.focus()

    def on_paper_list_marks_changed(self, message: PaperList.MarksChanged) -> None:
        self._describe()

    def on_notes_editor_edited(self, message: NotesEditor.Edited) -> None:
        self.saving.watch()

    def on_notes_editor_saved(self, message: NotesEditor.Saved) -> None:
        self.saving.notes_saved(message.paper_id)

    def on_notes_editor_save_failed(self, message: NotesEditor.SaveFailed) -> None:
        self.saving.notes_refused(message.error)

    def remember_place(self) -> None:
        """Keep the paper under the cursor with the library (the app quits)."""
        self.browser.remember_place()

    def save_pending(self) -> None:
        """Hand unsaved notes to the Library (the app then flushes it to disk)."""
        self.side.notes.save_now()

    # -- actions on the current or marked papers ---------------------------------------------------

    def say(self, message: str, *, about_marks: bool = False) -> None:
        """Put `message` in the status line, there still once a list on its way arrives
        (`about_marks`: until the marks change)."""
        self.status_bar.say(message, about_marks=about_marks)

    def _say_targets(self, what: str, ids: list[str]) -> None:
        """Say what a bulk action did to the marked papers, and how many of them are out of
        sight (a search or filter hides them): marks act where the user is told."""
        papers = self.paper_list
        if not papers.marked or not ids:
            return
        shown = set(papers.ids)
        visible = sum(pid in shown for pid in ids)
        noun = "paper" if len(ids) == 1 else "papers"
        if visible == len(ids):
            self.say(f"{what}: {len(ids)} marked {noun}", about_marks=True)
            return
        # Out of sight: the status line says it in short, a notification in full.
        self.status_bar.set_message(f"{what}: {len(ids)} marked, {visible} visible", error=True, about_marks=True)
        self.notify(
            f"{what}: {len(ids)} marked {noun}, {visible} of them visible; escape clears marks",
            title="Marked papers out of sight", severity="warning", markup=False,
        )

    def action_toggle_read(self) -> None:
        """`r`: read / unread."""
        if ids := self.paper_list.targets():
            self.library.toggle_read(ids)
            self._say_targets("read / unread", ids)

    def action_set_status(self, value: str) -> None:
        """`1`-`5`: a status."""
        status = Status(value)
        if ids := self.paper_list.targets():
            self.library.set_status(ids, status)
            self._say_targets(status.value, ids)

    def action_edit_notes(self) -> None:
        """`a`: the notes of the paper under the cursor, without waiting for the pane."""
        self.show_current_now()
        notes = self.side.notes
        if notes.paper_id is not None:
            notes.focus()

    def action_back(self) -> None:
        """Escape, one step at a time (the order docs/keys.md gives): in the detail pane, what `/`
        found there; from another pane to the list; then the marks, "more like this", the
        search, the filter."""
        papers = self.paper_list
        browser = self.browser
        detail = self.side.detail
        if detail.has_focus and detail.find_text:
            detail.find("")  # what `/` found there first, then back to the list
        elif not papers.has_focus:
            papers.focus()
        elif papers.marked:
            count = len(papers.marked)
            papers.clear_marks()
            self.status_bar.set_message(f"{count} mark{'s' if count != 1 else ''} cleared")
        elif browser.leave_more_like():
            pass
        elif browser.searching:
            self._search_cancelled()
        elif browser.clear_filter():
            self.say("filter cleared (ctrl+o brings it back)")

    # -- the jump list, undo -------------------------------------------------------------------

    def action_jump_back(self) -> None:
        self._jumped(self.browser.go(back=True), "no earlier place (ctrl+o goes back after a search, filter, M or jump)")

    def action_jump_forward(self) -> None:
        self._jumped(self.browser.go(back=False), "no later place")

    def _jumped(self, moved: bool, otherwise: str) -> None:
        """After `ctrl+o` / `ctrl+i`: the search bar shows the place's search (or `otherwise`
        is said when there was no place to go to)."""
        if not moved:
            self.status_bar.set_message(otherwise)
            return
        self._show_search()
        self.paper_list.focus()

    def _jump_to(self, paper_id: str) -> None:
        """Put the list's cursor on `paper_id`, showing every paper when the current
        filter or search hides it (ctrl+o comes back)."""
        papers = self.paper_list
        papers.focus()
        if paper_id == papers.current_id:
            return
        self.browser.jumping()
        if paper_id in papers.ids:
            papers.move_to(papers.ids.index(paper_id))
            return
        hidden_by = self.browser.describe()
        self.browser.show_everything(keep=paper_id)
        self._show_search()
        self.notify(f"The paper was outside the list ({hidden_by}): showing every paper; ctrl+o goes back", markup=False)

    def action_undo(self) -> None:
        self._undo(redo=False)

    def action_redo(self) -> None:
        self._undo(redo=True)

    def _undo(self, *, redo: bool) -> None:
        """Undo (or redo) the last change, put the cursor on its paper and say it in words."""
        self.save_pending()
        library = self.library
        change = library.redo() if redo else library.undo()
        if change is None:
            self.status_bar.set_message(f"nothing to {'redo' if redo else 'undo'}")
            return
        self.say(undo_words(library, change, redo=redo))
        self._show_changed(change.after)

    def _show_changed(self, ids: Iterable[str]) -> None:
        """Put the cursor on the first paper of `ids` in list order (showing it if hidden)."""
        papers = self.paper_list
        changed = set(ids)
        first = next((pid for pid in papers.ids if pid in changed), None)
        if first is not None:
            if first != papers.current_id:
                papers.move_to(papers.ids.index(first))
            return
        hidden = sorted(pid for pid in changed if pid in self.library.papers)
        if hidden:
            self._jump_to(hidden[0])

    def action_open_url(self) -> None:
        from reader_tui.tui.open_url import open_url

        open_url(self, self.library, self.paper_list.current_id)

    def action_open_pdf(self) -> None:
        from reader_tui.tui.open_url import open_pdf

        open_pdf(self, self.library, self.paper_list.current_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A library without reviews gives the footer's room to the keys it can use (at 80
        # columns R would push out / and f); R comes with the first import of reviews.
        if action == "reviews":
            return self.paper_list.show_scores  # the browser's one look at the reviews store
        return True

    # -- the dialogs: they collect a choice, the Library (or the browser) acts on it -----------

    def action_reviews(self) -> None:
        """`R`: the reviews of the paper under the cursor, the search's words highlighted."""
        from reader_tui.tui.screens.reviews_screen import open_reviews

        pid = self.paper_list.current_id
        if pid is not None:
            open_reviews(self.app, self.library, pid, self._reviews_words(pid))

    def reviews_ahead(self, pid: str | None) -> None:
        """The cursor moved to `pid`: its reviews made ready once it rests there, so that
        `R` only shows them (`reviews_ahead.read_ahead`)."""
        from reader_tui.tui.screens.reviews_ahead import read_ahead

        if pid is not None:
            read_ahead(self.app, pid, lambda: self._reviews_words(pid))

    def _reviews_words(self, pid: str) -> tuple[str, ...]:
        """The words the reviews of `pid` highlight: the search's, and what it matched in `pid`."""
        from reader_tui.tui.listing import search_words

        browser = self.browser
        return (*browser.matched.get(pid, ()), *search_words(browser.query_text()))

    def action_filter(self) -> None:
        """`f`: ask for a filter; the browser shows what it lets through."""
        from reader_tui.tui.dialogs.filter_dialog import FilterDialog

        browser = self.browser

        def apply(choice) -> None:
            if choice is not None:
                browser.set_filter(choice)

        self.app.push_screen(FilterDialog(self.library.all_tags(), browser.list_filter), apply)

    def action_sort(self) -> None:
        """`s`: ask for an order; the browser shows the list in it and remembers it."""
        browser = self.browser

        def apply(key) -> None:
            if key is not None:
                browser.set_order(key)

        self.app.push_screen(browser.order.dialog(scores=browser.paper_list.show_scores), apply)

    def action_rerank(self) -> None:
        """`=`: the list in the newest "for you" model's order (it holds still until then)."""
        if not self.browser.rerank():  # (re-ranked, the status line describes the new order)
            self.say("nothing to re-rank: the list is in the newest model's order" if self.browser.order.by_model
                     else "= re-ranks a list sorted for you (s, then y)")

    def action_more_like_tag(self) -> None:
        """Rank the list by a model of one tag's papers (the palette's "More like tag…"):
        ask for a tag; the browser ranks the list by a model of that tag's papers."""
        from reader_tui.core.search.sorting import SortKey
        from reader_tui.tui.dialogs.tag_picker import TagPicker

        browser, tags = self.browser, self.library.all_tags()
        if not tags:
            self.say("more like tag: no paper is tagged yet (t tags the current paper)")
            return

        def apply(tag: str | None) -> None:
            if tag is not None:
                browser.set_order(SortKey("for-you", tag=tag))

        self.app.push_screen(TagPicker(tags, browser.order.tag), apply)

    def action_edit_tags(self) -> None:
        """`t`: ask for tags to add and remove on the papers (the related index suggests some
        for one paper)."""
        from reader_tui.tui.dialogs.tag_editor import TagEditor

        library, ids, suggest = self.library, self.paper_list.targets(), self.side.related.suggest_tags_for
        self._say_targets("tags", ids)
        if not ids:
            return
        views = library.views(ids)
        common = [t for t in views[0].tags if all(t.casefold() in {x.casefold() for x in v.tags} for v in views[1:])]
        known = library.all_tags()
        suggestions = suggest(ids[0]) if len(ids) == 1 else sorted(known, key=lambda t: -known[t])[:8]
        editor = TagEditor([v.title for v in views], common, known, suggestions)

        def apply(edit) -> None:
            if edit is None:
                return
            try:
                library.retag(ids, add=edit.add, remove=edit.remove)
            except ValueError as error:
                self.notify(str(error), severity="error", markup=False)

        self.app.push_screen(editor, apply)

    def action_edit_paper(self) -> None:
        """`e`: ask for new catalog fields of the paper under the cursor (an edited title is
        searchable at once)."""
        from reader_tui.tui.dialogs.edit_dialog import EditDialog

        library, pid, reindex = self.library, self.paper_list.current_id, self.browser.reindex
        if pid is None:
            return

        def apply(changes: dict | None) -> None:
            if not changes:
                return
            try:
                library.edit(pid, **changes)
            except ValueError as error:
                self.notify(str(error), severity="error", markup=False)
                return
            if {"title", "authors"} & changes.keys():
                reindex(pid)  # an edited title is searchable at once
                self.app.indexes_stale = True  # the caches are rebuilt as the app exits

        self.app.push_screen(EditDialog(library.view(pid), library.citekeys()), apply)

    def action_export(self) -> None:
        """`x`: ask what to export (the marked papers, those the list shows, or all) and how."""
        from reader_tui.tui.dialogs.export_dialog import EXPORT_SETTING, ExportDialog

        library, papers, label = self.library, self.paper_list, self.browser.describe()
        marked, shown = [pid for pid in papers.ids if pid in papers.marked], list(papers.ids)

        scopes = {"marked": marked, "filter": shown, "all": list(library.papers)}
        dialog = ExportDialog(
            len(marked), len(shown), len(library.papers), filter_label=label, remembered=library.settings.get(EXPORT_SETTING)
        )

        def apply(request) -> None:
            if request is None:
                self.status_bar.answer("")  # cancelled: "opening…" goes, the list is described
            if request is not None:
                if request.format != "markdown":
                    library.keep_citekeys(scopes[request.scope])  # on the UI thread: may be cited now
                if not library.read_only:  # the next export starts from this one's choices
                    library.set_setting(EXPORT_SETTING, dialog.remembered())
                # Rendering thousands of entries takes seconds: off the UI thread, and said
                # at once, so the closed dialog is not taken for an export that did nothing.
                count = len(scopes[request.scope])
                self.say(f"exporting {count:,} paper{'s' if count != 1 else ''}…")
                job = lambda: self._export(request, scopes[request.scope])  # noqa: E731
                self.run_worker(job, thread=True, group="export", exit_on_error=False)

        # The dialog takes a few tenths of a second to style and lay out on a busy machine:
        # the status line says so first, and the dialog comes on the next refresh.
        self.status_bar.set_message("opening the export dialog…")
        self.call_after_refresh(self.app.push_screen, dialog, apply)

    def _export(self, request: Any, ids: list[str]) -> None:
        # In a worker thread: the result is reported through the app (call_from_thread),
        # never by touching widgets here.
        from reader_tui.core.formats.exporters import export_text
        from reader_tui.core.formats.write import write_export
        from reader_tui.tui.clipboard import copy_text

        views = self.library.views(ids)
        text = export_text(request.format, views, abstract=request.abstract)
        what = f"{len(views):,} paper{'s' if len(views) != 1 else ''}"
        notify = self.app.call_from_thread
        if request.to_clipboard or request.path is None:
            how = notify(copy_text, self.app, text)
            done = f"Copied {what} to the {how}"
        else:
            try:
                write_export(text, request.path, force=request.overwrite)
            except OSError as error:
                notify(self.status_bar.answer, "export failed", error=True)
                notify(self.notify, f"Export failed: {error}", severity="error", markup=False)
                return
            done = f"Exported {what} to {request.path}"
        notify(self.status_bar.answer, done)  # in place of its "exporting…"
        notify(self.notify, done, markup=False)

    def action_copy_bibtex(self) -> None:
        """`y`: copy the BibTeX entries of the marked papers (or the current one)."""
        from reader_tui.core.formats.bibtex.writer import entry_for
        from reader_tui.tui.clipboard import copy_text

        library, ids = self.library, self.paper_list.targets()
        self._say_targets("BibTeX copied", ids)
        if not ids:
            return
        text = "\n".join(entry_for(view) for view in library.views(ids))
        how = copy_text(self.app, text)
        library.keep_citekeys(ids)
        what = one_line(library.view(ids[0]).title, 50) if len(ids) == 1 else f"{len(ids)} papers"
        self.notify(f"Copied BibTeX of {what} to the {how}", markup=False)

    def action_copy_cites(self) -> None:
        """Copy `\\cite{key1,key2}` for the marked papers (or the current one)."""
        from reader_tui.tui.clipboard import copy_text

        library, ids = self.library, self.paper_list.targets()
        if not ids:
            return
        text = "\\cite{" + ",".join(view.citekey for view in library.views(ids)) + "}"
        how = copy_text(self.app, text)
        library.keep_citekeys(ids)
        self.notify(f"Copied {text} to the {how}", markup=False)

    def action_import_file(self) -> None:
        """Ask for a file and import it (the dialog runs the import and reports)."""
        from reader_tui.tui.dialogs.import_dialog import ImportDialog

        self.app.push_screen(ImportDialog(self.library))

    def action_help(self) -> None:
        from reader_tui.tui.screens.help_screen import HelpScreen

        self.app.push_screen(HelpScreen())

    # -- triage, stats, related papers ---------------------------------------------------------

    def action_triage(self) -> None:
        """`T`: triage the papers the list shows; back on the list, the cursor is on the last one."""
        from reader_tui.tui.listing import search_words
        from reader_tui.tui.screens.triage_screen import TriageScreen, triage_key

        self.save_pending()
        library, papers, browser, suggest = self.library, self.paper_list, self.browser, self.side.related.suggest_tags_for

        def back(pid: str | None) -> None:
            if pid is not None and pid in papers.ids:
                papers.move_to(papers.ids.index(pid))
            papers.focus()

        ids = list(papers.ids)
        triage_screen = TriageScreen(
            library, ids, filter_key=triage_key(library, ids, browser.query_text()), filter_label=browser.describe(),
            suggest=suggest, matched=browser.matched, words=search_words(browser.query_text()),
            for_you=self.for_you,
        )
        self.app.push_screen(triage_screen, back)

    def action_stats(self) -> None:
        """`S`: statistics of the papers the list shows (of the whole library when it shows all)."""
        from reader_tui.tui.screens.stats_screen import StatsScreen

        library, shown, label = self.library, list(self.paper_list.ids), self.browser.describe()
        self.app.push_screen(StatsScreen(library, None if len(shown) == len(library.papers) else shown, filter_label=label))

    def action_related(self, step: int) -> None:
        """`]` / `[`: the next or previous related paper in the side pane."""
        self.show_current_now()
        if not self.side.step_related(step):
            computing = self.side.related.index is None
            self.notify("related: computing…" if computing else "No related papers", markup=False)

    def on_related_list_chosen(self, message: RelatedList.Chosen) -> None:
        self._jump_to(message.paper_id)

    def action_more_like_this(self) -> None:
        """`M`: the papers related to the current one, over the list (escape goes back)."""
        from reader_tui.tui.navigation import MoreLike

        pid = self.paper_list.current_id
        if pid is None:
            return
        ids = self.side.related.more_like_this(pid)
        if ids is None:
            self.notify("related: computing…, try again in a moment", markup=False)
            return
        title = one_line(self.library.view(pid).title, 30)
        self.browser.show_more_like(MoreLike(pid, tuple(ids), f"more like: {title}"))
        self.paper_list.focus()

    # -- sync through git ----------------------------------------------------------------------

    def action_sync(self) -> None:
        """Sync now: what `reader-tui sync` does, in a thread; one line says how it went."""
        if self.library.read_only:
            self.say("sync: the library is read-only here, nothing can be merged into it")
        else:
            self.save_pending()  # the notes being typed go into the commit too
            self.say("syncing…" if self.query_one(LibrarySync).sync_now() else "a sync is running")

    def on_library_sync_finished(self, message: LibrarySync.Finished) -> None:
        self.status_bar.answer(message.line, error=message.severity == "error")
        self.notify(message.line, severity=message.severity, markup=False, timeout=8)
        for note in message.notes:
            self.notify(note, severity="warning", markup=False, timeout=10)
        # the merged files: read them now rather than at the next poll
        self.query_one(LibraryWatcher).poll_disk()

    def on_library_sync_started(self, message: LibrarySync.Started) -> None:
        self.say(message.line)  # a sync on start or before quitting

    def on_library_sync_state_read(self, message: LibrarySync.StateRead) -> None:
        self.side.detail.set_group(message.state.group)
        self.paper_list.group = message.state.group  # the list's group column
        self.browser.set_group(message.state.group)  # by:, group:, is:group-* search them
        self.status_bar.set_synced(message.state.last_synced, message.state.unsent, message.state.waiting)

    def action_list_waiting(self) -> None:
        """Say what the status line's "N changes waiting" are (in a thread: git)."""
        self.save_pending()
        self.query_one(LibrarySync).list_waiting()

    def on_library_sync_waiting_listed(self, message: LibrarySync.WaitingListed) -> None:
        changes = message.changes
        if not changes:
            self.notify("Nothing is waiting for the next sync.", title="Changes waiting", markup=False)
            return
        shown = [f"{kind}: {one_line(what)}" for kind, what in changes[:WAITING_SHOWN]]
        if len(changes) > WAITING_SHOWN:
            shown.append(f"… and {len(changes) - WAITING_SHOWN} more")
        noun = "change" if len(changes) == 1 else "changes"
        self.notify("\n".join(shown), title=f"{len(changes)} {noun} waiting for the next sync (ctrl+s sends them)",
                    markup=False, timeout=15)

    # -- saved searches ------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[tuple[str, str, Any]]:
        """Commands for the palette that are not key bindings: saved searches."""
        yield "Save this search…", "name the current filter and search", self.action_save_search
        yield ("Changes waiting for the sync", "list the changes made here that the next sync sends (which papers, what)",
               self.action_list_waiting)
        yield from self.query_one(SavedSearchList).palette_commands(self.run_saved_search)

    def action_save_search(self) -> None:
        self.query_one(SavedSearchList).save_search(self.browser.query_text())

    def run_saved_search(self, search: SavedSearch) -> None:
        """Run the saved `search` in the bar (within the current filter; escape restores)."""
        self.browser.jumping()
        self.action_search()
        self.query_one(SearchBar).value = search.query  # the bar's Changed event runs the search
        self.paper_list.focus()

    def action_toggle_saved_searches(self) -> None:
        """`b`: show or hide the saved searches beside the list (focused when shown)."""
        side = self.query_one(SavedSearchList)
        if not side.toggle():
            self.paper_list.focus()
        elif self.has_class("-narrow"):
            self.notify("Too narrow for the saved searches list: find them in ctrl+p (\"Search: …\")", markup=False)
        else:
            self.call_after_refresh(side.focus)

    def on_saved_search_list_chosen(self, message: SavedSearchList.Chosen) -> None:
        found = get_search(self.library, message.search.name)  # as saved now: the list's may be older
        if found is not None:
            self.run_saved_search(found)


def sample_line(library: Library) -> str:
    """A line for the first screen while the library holds only the bundled sample list
    (the seed's papers, nothing imported): what it is and how to bring in a whole
    conference. "" otherwise."""
    from reader_tui.core.paths import DEFAULT_SEED

    papers = library.papers
    if not 0 < len(papers) <= SAMPLE_MAX:  # a conference's list: no Paper built to find out
        return ""
    if any(papers[pid].source != f"seed:{DEFAULT_SEED}" for pid in list(papers)):
        return ""
    return (f"{len(papers)} sample abstracts of ICLR 2026 — bring in the whole conference: "
            "reader-tui fetch ICLR.cc/2026/Conference, or reader-tui import FILE")


#: More papers than the bundled sample list holds: not the sample alone.
SAMPLE_MAX = 100
