"""The list's order: the sort chosen with `s` (a field of `core.search.sorting`), "for
you" (a model of the user's decisions) or "more like tag:X" (a model of the papers with
that tag: `SortKey("for-you", tag=X)`), kept in the library's settings.

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
"""The library setting that keeps the sort chosen last ({"field", "reverse"}, and "tag"
for "more like tag:X")."""


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
        self._shown: dict[str, float] | None = None
        """The model's scores the list is in: held while the user decides, tags and writes,
        so that the list stays still under their hands; `rerank` takes the newest."""

    @property
    def by_model(self) -> bool:
        """The list is in a model's order ("for you", or "more like tag:X")."""
        return self.key is not None and self.key.field in MODEL_FIELDS

    @property
    def tag(self) -> str | None:
        """The tag whose model orders the list ("more like tag:X"), else None."""
        return self.key.tag if self.key is not None else None

    def scores(self) -> dict[str, float] | None:
        """The scores the list is in when it is in a model's order and the model has
        learned (else None): the first model's after the order was chosen, until `rerank`."""
        if not self.by_model or self.model is None:
            return None
        if self._shown is None:
            self._shown = self.model.scores(self.tag)
        return self._shown

    @property
    def newer_model(self) -> bool:
        """A model trained on newer decisions than the one the list is in is waiting."""
        if not self.by_model or self.model is None or self._shown is None:
            return False
        latest = self.model.scores(self.tag)
        return latest is not None and latest is not self._shown

    def rerank(self) -> None:
        """Put the list in the newest model's order at its next refilter."""
        self._shown = None

    def label(self, *, within_search: bool = False) -> str:
        """The sort for the status line ("sort: title", "sort: for you (learning…)"), ""
        for none; `within_search`: it orders a search's matches."""
        if self.key is None:
            return ""
        learning = ""
        if self.by_model and self.scores() is None:
            if self.model is not None and self.model.failed:
                learning = " (failed)"
            elif self.tag is not None and self.model is not None and self.model.tag_trained:
                learning = " (no paper has the tag)"
            else:
                learning = " (learning…)"
        within = ", within the search" if within_search else ""
        waiting = " · newer decisions learned: = re-ranks" if self.newer_model else ""
        return f"sort: {self.key.label}{within}{learning}{waiting}"

    def why(self, paper_id: str) -> str:
        """Why `paper_id` ranks where it does when the list is sorted "for you" ("" when
        it is not, and for a decided paper: those come last for being decided)."""
        if not self.by_model or self.model is None or paper_id not in self.library.papers:
            return ""
        view = self.library.view(paper_id)
        if view.status is not Status.UNREAD or view.tags:
            return ""
        why = self.model.explain(paper_id, PaperTitles(self.library), self.tag)
        if why and self.tag is not None:  # which model: the tag's, not the user's decisions
            return f"more like tag:{self.tag} · {why}"
        return why

    def dialog(self, *, scores: bool) -> Any:
        """The sort dialog for this order (`scores`: the library has reviews)."""
        from reader_tui.tui.dialogs.sort_dialog import SortDialog

        for_you = tags = None
        if self.model is not None:
            for_you = (self.model.can_learn(), self.model.readiness()[1])
            tags = self.library.all_tags()
        return SortDialog(self.key or SortKey(), scores=scores, for_you=for_you, tags=tags)

    def choose(self, key: SortKey) -> None:
        """Order by `key` from now on, and remember it for the next start."""
        self.key = key
        self._shown = None
        setting: dict[str, Any] = {"field": key.field, "reverse": key.reverse}
        if key.tag is not None:
            setting["tag"] = key.tag
        self.library.set_setting(SETTING, setting)
        self._ask_model()

    def restore(self) -> bool:
        """The order saved last time, when it can still be used (True: one was restored;
        "more like tag:X" only while some paper has the tag)."""
        sort = self.library.settings.get(SETTING)
        restorable = {**SORT_FIELDS, **SCORE_FIELDS, **(MODEL_FIELDS if self.model is not None else {})}
        if not isinstance(sort, dict) or sort.get("field") not in restorable:
            return False
        tag = sort.get("tag") if sort["field"] in MODEL_FIELDS else None
        if tag is not None and (not isinstance(tag, str) or tag.casefold() not in {t.casefold() for t in self.library.all_tags()}):
            return False
        self.key = SortKey(sort["field"], bool(sort.get("reverse")), tag=tag)
        self._shown = None
        self._ask_model()  # trained once the search index is in
        return True

    def _ask_model(self) -> None:
        if self.model is None:
            return
        if self.tag is None:
            self.model.drop_tag()  # a tag's model no longer shown is not trained again
        if self.by_model:
            self.model.want(self.tag)  # the list follows once the model is trained
