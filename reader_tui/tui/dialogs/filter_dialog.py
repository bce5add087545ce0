"""The filter dialog: show only papers of some statuses and/or tags.

Two checklists, statuses (any of those checked) and tags (narrowed by typing; all of
those checked, or any of them), space checks, enter applies, escape cancels; with
nothing checked (and no filter before), enter takes what is highlighted in the list
that has focus, so `f`, a few arrows and enter still pick one status. It dismisses with the core's
`ListFilter`, the one filter model of the list, the CLI and triage; the app filters.
"""

from __future__ import annotations

from rapidfuzz import fuzz, process, utils
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, SelectionList, Static

from ...core.model import Status
from ...core.paths import styles_dir
from ...core.search.filters import ListFilter
from ...core.text.display import sanitize
from ..widgets.marked_toggles import MarkedCheckbox


class _CheckList(SelectionList):
    """A checklist where space checks at once and enter applies the dialog.

    SelectionList toggles through a message to itself: keys typed ahead (space, down,
    space, enter) would run before it and check the wrong rows, or none.
    """

    BINDINGS = [
        Binding("space", "toggle_highlighted", "Check", show=False),
        Binding("enter", "screen.apply", "Apply", show=False),
    ]

    def action_toggle_highlighted(self) -> None:
        if self.highlighted is not None and self.option_count:
            self.toggle(self.get_option_at_index(self.highlighted))


class _Switch(MarkedCheckbox):
    """A checkbox where space toggles and enter applies the dialog."""

    BINDINGS = [Binding("enter", "screen.apply", "Apply", show=False)]


class FilterDialog(ModalScreen[ListFilter | None]):
    """Check statuses and tags; dismisses with a `ListFilter`, or None when cancelled."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="filter.cancel"),
        # Not a priority binding: that would run before the arrow keys queued at the lists.
        Binding("enter", "apply", "Apply", id="filter.apply"),
        Binding("delete", "clear", "Uncheck all", show=False, id="filter.clear"),
        Binding("down", "tags_list", "Tags", show=False, id="filter.down"),
    ]

    def __init__(self, known_tags: dict[str, int], current: ListFilter | None = None) -> None:
        super().__init__()
        # Most used first, the way people look for a tag.
        self.known_tags = dict(sorted(known_tags.items(), key=lambda kv: (-kv[1], kv[0].casefold())))
        self.current = current if current is not None else ListFilter()
        self._checked_tags: list[str] = list(self.current.tags)  # checked, kept while the list narrows

    def compose(self) -> ComposeResult:
        with Vertical(id="filter-dialog", classes="dialog"):
            yield Static("Filter", classes="dialog-title", markup=False)
            with Horizontal(id="filter-columns"):
                with Vertical(classes="filter-column"):
                    yield Static("Status (any of)", classes="dialog-label", markup=False)
                    yield _CheckList(
                        *((f"{s.mark} {s.value}", s, s in self.current.statuses) for s in Status),
                        id="filter-status",
                    )
                with Vertical(classes="filter-column"):
                    yield Static("Tags", classes="dialog-label", markup=False)
                    yield Input(placeholder="type to narrow the tags", id="filter-tag-query")
                    yield _CheckList(id="filter-tags")
                    yield _Switch("any tag (or), not all", self.current.any_tag, id="filter-any-tag")
            yield Static(
                "space check · enter apply · del uncheck all · escape cancel",
                classes="dialog-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self._show_tags("")
        self.query_one("#filter-status", SelectionList).focus()

    def _show_tags(self, query: str) -> None:
        self._sync_checked()
        tags: list[str] = list(self.known_tags)
        if query.strip():
            found = process.extract(
                query, tags, scorer=fuzz.WRatio, processor=utils.default_process, limit=50, score_cutoff=50
            )
            low = query.strip().casefold()
            tags = [m[0] for m in sorted(found, key=lambda m: (not m[0].casefold().startswith(low), -m[1]))]
        else:
            known = {t.casefold() for t in tags}
            # a filter on a tag no paper has any more still shows, checked
            tags = [t for t in self._checked_tags if t.casefold() not in known] + tags
        checked = {t.casefold() for t in self._checked_tags}
        tag_list = self.query_one("#filter-tags", SelectionList)
        tag_list.clear_options()
        tag_list.add_options((self._tag_label(t), t, t.casefold() in checked) for t in tags)
        if tags:
            tag_list.highlighted = 0

    def _tag_label(self, tag: str) -> Content:
        return Content.assemble(sanitize(tag), (f"  {self.known_tags.get(tag, 0)}", "dim"))

    def _sync_checked(self) -> None:
        """The tags checked: those the narrowed list hides as they were, those it shows as they are."""
        tag_list = self.query_one("#filter-tags", SelectionList)
        shown = {tag_list.get_option_at_index(i).value.casefold() for i in range(tag_list.option_count)}
        kept = [t for t in self._checked_tags if t.casefold() not in shown]
        now = [t for t in tag_list.selected if t.casefold() not in {k.casefold() for k in kept}]
        self._checked_tags = kept + [t for t in self._checked_tags if t in now] + [t for t in now if t not in self._checked_tags]

    @property
    def choice(self) -> ListFilter:
        """What is checked now."""
        self._sync_checked()
        statuses = frozenset(self.query_one("#filter-status", SelectionList).selected)
        any_tag = self.query_one("#filter-any-tag", Checkbox).value
        return ListFilter(statuses, tuple(self._checked_tags), any_tag=any_tag and len(self._checked_tags) > 1)

    @on(Input.Changed, "#filter-tag-query")
    def _narrow(self, event: Input.Changed) -> None:
        self._show_tags(event.value)

    @on(Input.Submitted, "#filter-tag-query")
    def _submitted(self) -> None:
        self.action_apply()

    def action_apply(self) -> None:
        choice = self.choice
        if not choice.has_conditions and not self.current.has_conditions:
            # nothing checked on a list that had no filter: enter picks what is
            # highlighted, as in a menu (with a filter, unchecking all and enter clears it)
            focused = self.focused
            if isinstance(focused, Input):
                focused = self.query_one("#filter-tags", SelectionList)
            if isinstance(focused, SelectionList) and focused.highlighted is not None and focused.option_count:
                value = focused.get_option_at_index(focused.highlighted).value
                choice = ListFilter(frozenset([value])) if isinstance(value, Status) else ListFilter(tags=(value,))
        self.dismiss(choice)

    def action_tags_list(self) -> None:
        if self.query_one("#filter-tag-query", Input).has_focus:
            self.query_one("#filter-tags", SelectionList).focus()

    def action_clear(self) -> None:
        self.query_one("#filter-status", SelectionList).deselect_all()
        self.query_one("#filter-tags", SelectionList).deselect_all()
        self._checked_tags = []

    def action_cancel(self) -> None:
        self.dismiss(None)
