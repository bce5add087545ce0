"""Triage: one paper at a time, a single key per decision.

The screen gets the main list's ids (its filter, search and sort) and walks the papers
that were untriaged (unread) when it opened. Each decision is a Library call, so it is
saved at once, shown in the list behind, and undone by `u` like any other change. The
last paper triaged is remembered per list in the library's settings (the whole library,
a filter and search, or an unnamed list such as "more like this", each under its own
key), so the next triage of the same list starts after it.

Once the user has made enough decisions (`core.related.for_you.readiness`), `f` offers
the "for you" order: the next paper is the untriaged one the model ranks first, and the
model (the main screen's `ForYouModel`) is trained again after each decision, so the
paper after a decision reflects it: when the new model arrives before the next key, the
paper shown becomes the one it ranks first. In that order a line says "learning…" from
the key until the model that knows the decision arrives, then what it learned from ("12
kept and 30 skipped"), and one more says why the paper shown was chosen (its words, the
kept papers closest to it). Papers passed over with `l` count as seen
and left undecided (weak negatives). Until then a line says how many more decisions
"for you" needs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from reader_tui.core.library.library import Library, undo_words
from reader_tui.core.model import Status
from reader_tui.core.text.display import sanitize, visible_controls
from reader_tui.tui.screens.reviews_ahead import read_ahead
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.notes_editor import NotesEditor
from reader_tui.tui.widgets.paper_detail import PaperDetail

POSITION_SETTING = "triage_position"
MAX_REMEMBERED = 50  # filters whose triage position is kept
PACE_EVERY = 5.0


def triage_key(library: Library, ids: list[str], query: str) -> str:
    """Under which key triage remembers its place in the list `ids`: "all" for the whole
    library, the filter and search for one, and for a list that no query names ("more
    like this", a list of jumps) a key of its papers: so a 50-paper triage of such a list
    never moves where the triage of the whole library resumes."""
    if query:
        return query
    if len(ids) == len(library.papers):
        return "all"
    digest = hashlib.sha1("\n".join(sorted(ids)).encode("utf-8")).hexdigest()[:16]
    return f"list:{len(ids)}:{digest}"


def _now() -> datetime:
    return datetime.now(UTC)


class TriageScreen(Screen[str | None]):
    """Decide on `ids`' untriaged papers one by one; dismisses with the last paper shown."""

    AUTO_FOCUS = "#triage-paper"

    BINDINGS = [
        Binding("w,2", "decide('to-read')", "To read", id="triage.to_read"),
        Binding("s,5", "decide('skipped')", "Skip", id="triage.skip"),
        Binding("r,4", "decide('read')", "Read", id="triage.read"),
        Binding("i,3", "decide('reading')", "Reading", show=False, id="triage.reading"),
        Binding("t", "tags", "Tag", id="triage.tags"),
        # `a` as on the main screen (where n / N go through search results); `n` too
        Binding("a,n", "notes", "Note", id="triage.notes"),
        Binding("b,h,left", "back", "Back", id="triage.back"),
        Binding("l,right", "next", "Next", id="triage.next"),
        Binding("R", "reviews", "Reviews", id="triage.reviews"),
        Binding("o", "open_url", "Open forum / url", show=False, id="triage.open_url"),
        Binding("p", "open_pdf", "Open PDF", show=False, id="triage.open_pdf"),
        Binding("f", "for_you", "For you", id="triage.for_you"),
        Binding("u", "undo", "Undo", id="triage.undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, id="triage.redo"),
        Binding("escape,q", "close", "Done", id="triage.close"),
    ]

    def __init__(
        self,
        library: Library,
        ids: Sequence[str],
        *,
        filter_key: str = "",
        filter_label: str = "",
        suggest: Callable[[str], list[str]] | None = None,
        clock: Callable[[], datetime] = _now,
        matched: Mapping[str, Iterable[str]] | None = None,
        words: Sequence[str] = (),
        for_you: Any = None,
    ) -> None:
        """`matched`: the words each paper matched in the list's search (highlighted);
        `words`: the search's own words (highlighted in the reviews); `for_you`: the main
        screen's `ForYouModel` (None: the order is not offered)."""
        super().__init__()
        self.for_you = for_you
        self.by_for_you = False
        """The papers come in "for you" order (`f`), not the list's."""
        self.passed: set[str] = set()
        self._repick = False  # a decision was made: the next model may choose the paper shown
        self.library = library
        self.ids = [pid for pid in ids if pid in library.papers]
        self.filter_key = filter_key or "all"
        self.filter_label = filter_label
        self.suggest = suggest
        self.clock = clock
        self.matched = matched or {}
        self.words = tuple(words)
        # The store records times to the second: a decision in this very second counts.
        self.started = clock().replace(microsecond=0)
        annotations = library.annotations
        self.queue = [pid for pid in self.ids if (a := annotations.get(pid)) is None or a.status is Status.UNREAD]
        self._where = {pid: n for n, pid in enumerate(self.queue)}
        self.pos = self._start_position()
        self.decided: list[int] = []  # queue positions in the order they were decided
        self.touched: set[str] = set()
        self.last_shown: str | None = None

    # -- where we are ----------------------------------------------------------------------

    @property
    def current_id(self) -> str | None:
        return self.queue[self.pos] if 0 <= self.pos < len(self.queue) else None

    def _untriaged(self, pid: str) -> bool:
        return self.library.annotation(pid).status is Status.UNREAD

    def _start_position(self) -> int:
        """After the paper remembered for this filter (in list order), else the first."""
        positions = self.library.settings.get(POSITION_SETTING)
        last = positions.get(self.filter_key) if isinstance(positions, dict) else None
        if not self.queue:
            return 0
        if isinstance(last, str) and last in self.ids:
            rank = self.ids.index(last)
            order = {pid: n for n, pid in enumerate(self.ids)}
            for n, pid in enumerate(self.queue):
                if order[pid] > rank:
                    return n
        return 0

    def _remember(self, pid: str) -> None:
        positions = self.library.settings.get(POSITION_SETTING)
        positions = dict(positions) if isinstance(positions, dict) else {}
        positions.pop(self.filter_key, None)
        positions[self.filter_key] = pid  # most recent last, so trimming drops the oldest
        while len(positions) > MAX_REMEMBERED:
            positions.pop(next(iter(positions)))
        self.library.set_setting(POSITION_SETTING, positions)

    def remaining(self) -> int:
        """Papers of the queue still untriaged."""
        return sum(1 for pid in self.queue if self._untriaged(pid))

    def decided_count(self) -> int:
        """Papers decided in this triage (and not undone since)."""
        return sum(1 for pid in self.touched if not self._untriaged(pid))

    def pace(self) -> float:
        """Papers decided per minute since the screen opened (the first minute counts as
        one). A decision undone is no decision, and neither is the undo: the count is of
        papers decided now, not of status changes."""
        minutes = (self.clock() - self.started).total_seconds() / 60
        return self.decided_count() / max(minutes, 1.0)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="triage-column"):
            yield Static(id="triage-progress", markup=False)
            yield Static(id="triage-scope", markup=False)
            if self.for_you is not None:
                yield Static(id="triage-for-you", markup=False)
                yield Static(id="triage-why", markup=False)
            yield PaperDetail(id="triage-paper")
            notes = NotesEditor(self.library, id="triage-notes")
            notes.display = False
            yield notes
        yield KeyFooter(pinned=("close", "help"))

    def on_mount(self) -> None:
        if self.for_you is not None:
            self.for_you.trained_signal.subscribe(self, self._for_you_trained)
        self._show()
        self.set_interval(PACE_EVERY, self._update_progress, name="triage-pace")

    def _show(self) -> None:
        pid = self.current_id
        notes = self.query_one(NotesEditor)
        notes.load(pid)
        notes.display = notes.has_focus or bool(pid and self.library.annotation(pid).notes)
        detail = self.query_one(PaperDetail)
        detail.show(self.library.view(pid) if pid is not None else None, self.matched.get(pid, ()) if pid else ())
        if pid is None:
            detail.show(None)
        else:
            self.last_shown = pid
            read_ahead(self.app, pid, lambda: self._reviews_words(pid))
        self._update_progress()

    def _update_progress(self) -> None:
        # Two lines: where one is (never cut: it fits 80 columns), then which list, as the
        # user typed its filter and search (control characters shown as symbols), cut
        # with an ellipsis when long.
        total = len(self.queue)
        left = self.remaining()
        if total == 0:
            line = Content.assemble(("Nothing untriaged", "bold"), ("  · escape returns", "$text-muted"))
        elif self.current_id is None:
            line = Content.assemble(
                ("All triaged: ", "bold $text-success"), f"{total:,} papers", ("  · b goes back", "$text-muted")
            )
        elif self.by_for_you:  # the position in the list says nothing in this order
            line = Content.assemble(
                ("For you", "bold"),
                (f" · {left:,} of {total:,} left · {self.decided_count():,} decided · {self.pace():.1f}/min", "$text-muted"),
            )
        else:
            line = Content.assemble(
                (f"{self.pos + 1:,} of {total:,}", "bold"),
                " untriaged",
                (f" · {left:,} left · {self.decided_count():,} decided · {self.pace():.1f}/min", "$text-muted"),
            )
        self.query_one("#triage-progress", Static).update(line)
        where = f"in this list: {visible_controls(self.filter_label)}" if self.filter_label else "in the library"
        self.query_one("#triage-scope", Static).update(Content.styled(where, "$text-muted"))
        self._update_for_you()

    def _update_for_you(self) -> None:
        if self.for_you is None:
            return
        ready, line = self.for_you.readiness()
        line = line.replace(" (to-read, reading, read or tagged)", "")
        why = self.query_one("#triage-why", Static)
        why.display = False
        if self.by_for_you:
            # at once on `f` and after each decision, until the model that knows it arrives
            model = self.for_you.model
            state = "learning…" if self.for_you.training or model is None else model.learned()
            text = Content.assemble(
                ("in for you order", "$text-accent"), (f" · {state}", "$text-muted"), ("  · f: list order", "$text-muted")
            )
            reason = self._why()
            if reason:
                why.update(Content.assemble(("why: ", "$text-accent"), (reason, "$text-muted")))
                why.display = True
        elif ready:
            text = Content.assemble(("f: for you order", "$text-accent"), (f"  · {line}", "$text-muted"))
        else:
            text = Content.styled(line, "$text-muted")
        self.query_one("#triage-for-you", Static).update(text)

    def _why(self) -> str:
        """Why the model put the paper shown first: its words that weigh most and the kept
        papers closest to it ("" without a model or paper)."""
        from reader_tui.tui.list_order import PaperTitles

        pid = self.current_id
        if pid is None or self.for_you is None or not self._untriaged(pid):
            return ""
        return self.for_you.explain(pid, PaperTitles(self.library))

    # -- moving ------------------------------------------------------------------------------

    def _advance(self) -> None:
        """To the next untriaged paper after the current one, wrapping around; past the
        end (all done) when there is none. In "for you" order: the untriaged paper the
        model ranks first, of those not passed over yet."""
        if self.by_for_you and self._advance_for_you():
            return
        n = len(self.queue)
        for step in range(1, n + 1):
            candidate = (self.pos + step) % n
            if self._untriaged(self.queue[candidate]) and candidate != self.pos:
                self.pos = candidate
                return
        if self.current_id is None or not self._untriaged(self.current_id):
            self.pos = n  # every paper decided

    def _advance_for_you(self, keep_current: bool = False) -> bool:
        scores = self.for_you.scores() if self.for_you is not None else None
        if not scores:
            return False
        current = None if keep_current else self.current_id
        best, best_score = None, None
        for n, pid in enumerate(self.queue):
            if pid == current or pid in self.passed or not self._untriaged(pid):
                continue
            score = scores.get(pid)
            if score is not None and (best_score is None or score > best_score):
                best, best_score = n, score
        if best is None:
            return False
        self.pos = best
        return True

    def _for_you_trained(self, model: Any) -> None:
        self._update_for_you()
        if not self.by_for_you or not self.is_current:
            return
        if self._repick or self.current_id is None or self.current_id in self.passed:
            # the paper after a decision is the one the model that learned from it ranks first
            self._repick = False
            if self._advance_for_you(keep_current=True):
                self._show()

    def action_for_you(self) -> None:
        """Triage in "for you" order (once there are enough decisions), or back to the list's."""
        if self.for_you is None:
            return
        if self.by_for_you:
            self.by_for_you = False
            self._update_progress()
            return
        ready, line = self.for_you.readiness()
        if not ready:
            self.notify(line, markup=False)
            return
        self.by_for_you = True
        self._repick = True  # the paper shown now becomes the model's first
        self.for_you.want()
        if self.for_you.scores() is not None:
            self._for_you_trained(self.for_you.model)
        self._update_progress()

    # -- actions -----------------------------------------------------------------------------

    def action_decide(self, value: str) -> None:
        pid = self.current_id
        if pid is None:
            return
        self.library.set_status([pid], Status(value))
        self.touched.add(pid)
        self.decided.append(self.pos)
        self._remember(pid)
        self._advance()
        self._show()
        if self.by_for_you and self.for_you is not None:
            self._repick = True
            self.for_you.request(0)  # the next paper should reflect this decision: no debounce
            self._update_for_you()  # "learning…" until it does

    def action_next(self) -> None:
        pid = self.current_id
        if pid is None:
            return
        self._remember(pid)
        self._repick = False
        if self.for_you is not None:
            self.passed.add(pid)
            self.for_you.seen.add(pid)  # seen and left undecided: a weak "no"
        before = self.pos
        self._advance()
        if self.by_for_you and self.for_you is not None:
            self.for_you.request()  # a paper passed over is a weak "no": learned in a moment
        if self.pos == before:
            self.notify("No other untriaged paper in this filter", markup=False)
        self._show()

    def action_back(self) -> None:
        self._repick = False
        if not self.decided:
            self.notify("Nothing decided yet in this triage", markup=False)
            return
        self.pos = self.decided.pop()
        self._show()

    def action_undo(self) -> None:
        self._repick = False
        self.query_one(NotesEditor).save_now()
        change = self.library.undo()
        if change is None:
            self.notify("Nothing to undo", markup=False)
            return
        if change.field == "status":
            back = [self._where[pid] for pid in change.after if pid in self._where]
            if back:
                self.pos = back[0]
                if self.decided and self.decided[-1] == self.pos:
                    self.decided.pop()
        self.notify(_sentence(undo_words(self.library, change, redo=False)), markup=False)
        self._show()

    def action_redo(self) -> None:
        change = self.library.redo()
        self.notify(_sentence(undo_words(self.library, change, redo=True)) if change else "Nothing to redo", markup=False)
        self._show()


    def action_open_url(self) -> None:
        from reader_tui.tui.open_url import open_url

        open_url(self, self.library, self.current_id or self.last_shown)

    def action_open_pdf(self) -> None:
        from reader_tui.tui.open_url import open_pdf

        open_pdf(self, self.library, self.current_id or self.last_shown)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # as on the main screen: R (and its footer room) only once the library has reviews
        if action == "reviews":
            return self.library.review_store.exists
        return True

    def action_reviews(self) -> None:
        pid = self.current_id or self.last_shown
        if pid is None:
            return
        from reader_tui.tui.screens.reviews_screen import open_reviews

        open_reviews(self.app, self.library, pid, self._reviews_words(pid))

    def _reviews_words(self, pid: str) -> tuple[str, ...]:
        return (*self.matched.get(pid, ()), *self.words)

    def action_tags(self) -> None:
        from reader_tui.tui.dialogs.tag_editor import TagEditor

        self._repick = False  # the user works on the paper shown: it stays

        pid = self.current_id
        if pid is None:
            return
        view = self.library.view(pid)
        suggestions = self.suggest(pid) if self.suggest is not None else []

        def apply(edit: Any) -> None:
            if edit is None:
                return
            try:
                self.library.retag([pid], add=edit.add, remove=edit.remove)
            except ValueError as error:
                self.notify(sanitize(str(error)), severity="error", markup=False)
            self._show()

        self.app.push_screen(TagEditor([view.title], list(view.tags), self.library.all_tags(), suggestions), apply)

    def action_notes(self) -> None:
        self._repick = False  # the user works on the paper shown: it stays
        notes = self.query_one(NotesEditor)
        if notes.paper_id is None:
            return
        notes.display = True
        notes.focus()

    def action_close(self) -> None:
        notes = self.query_one(NotesEditor)
        if notes.has_focus:  # escape from the notes: back to the paper
            notes.save_now()
            notes.display = bool(notes.text)
            self.query_one(PaperDetail).focus()
            return
        notes.save_now()
        self.dismiss(self.current_id or self.last_shown)


def _sentence(text: str) -> str:
    """`text` as a notification reads: its first letter capital, the rest as it is."""
    return text[:1].upper() + text[1:]
