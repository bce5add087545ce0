"""The list's order: the sort chosen with `s` (a field of `core.search.sorting`) or "for
you" (a model of the user's decisions), kept in the library's settings.

A plain object that the browser owns (not a widget, no worker): it holds the sort key
and the screen's `ForYouModel` (handed down), gives the listing worker the model's
scores, says which order is in effect for the status line and why a paper ranks where
it does (the detail pane's "for you" line), and asks the model to learn when the list
is shown in its order.
"""

from __future__ import annotations

from typing import Any

from reader_tui.core.library.library import Library
from reader_tui.core.model import Status
from reader_tui.core.search.sorting import MODEL_FIELDS, SCORE_FIELDS, SORT_FIELDS, SortKey
from reader_tui.core.text.display import one_line

SETTING = "sort"
"""The library setting that keeps the sort chosen last ({"field", "reverse"})."""


class PaperTitles:
    """Paper id -> its title on one line (short), looked up when asked: for "like: …"."""

    def __init__(self, library: Library) -> None:
        self.library = library

    def get(self, paper_id: str, default: str = "") -> str:
        if paper_id not in self.library.papers:
            return default
        return one_line(self.library.view(paper_id).title, 32)


class ListOrder:
    """The sort in effect (None: the catalog's order) and the model it may rank by."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.key: SortKey | None = None
        self.model: Any = None
        """The screen's `ForYouModel` (the "for you" sort's scores and readiness), or None."""

    @property
    def by_model(self) -> bool:
        """The list is in "for you" order (a model of the user's decisions)."""
        return self.key is not None and self.key.field in MODEL_FIELDS

    def scores(self) -> dict[str, float] | None:
        """The model's scores when the list is in its order and it has learned (else None)."""
        if not self.by_model or self.model is None:
            return None
        return self.model.scores()

    def label(self) -> str:
        """The sort for the status line ("sort: title", "sort: for you (learning…)"), ""
        for none."""
        if self.key is None:
            return ""
        learning = ""
        if self.by_model and self.scores() is None:
            learning = " (failed)" if self.model is not None and self.model.failed else " (learning…)"
        return f"sort: {self.key.label}{learning}"

    def why(self, paper_id: str) -> str:
        """Why `paper_id` ranks where it does when the list is sorted "for you" ("" when
        it is not, and for a decided paper: those come last for being decided)."""
        if not self.by_model or self.model is None or paper_id not in self.library.papers:
            return ""
        view = self.library.view(paper_id)
        if view.status is not Status.UNREAD or view.tags:
            return ""
        return self.model.explain(paper_id, PaperTitles(self.library))

    def dialog(self, *, scores: bool) -> Any:
        """The sort dialog for this order (`scores`: the library has reviews)."""
        from reader_tui.tui.dialogs.sort_dialog import SortDialog

        for_you = None
        if self.model is not None:
            for_you = (self.model.can_learn(), self.model.readiness()[1])
        return SortDialog(self.key or SortKey(), scores=scores, for_you=for_you)

    def choose(self, key: SortKey) -> None:
        """Order by `key` from now on, and remember it for the next start."""
        self.key = key
        self.library.set_setting(SETTING, {"field": key.field, "reverse": key.reverse})
        self._ask_model()

    def restore(self) -> bool:
        """The order saved last time, when it can still be used (True: one was restored)."""
        sort = self.library.settings.get(SETTING)
        restorable = {**SORT_FIELDS, **SCORE_FIELDS, **(MODEL_FIELDS if self.model is not None else {})}
        if not isinstance(sort, dict) or sort.get("field") not in restorable:
            return False
        self.key = SortKey(sort["field"], bool(sort.get("reverse")))
        self._ask_model()  # trained once the search index is in
        return True

    def _ask_model(self) -> None:
        if self.by_model and self.model is not None:
            self.model.want()  # the list follows once the model is trained
