"""The filter dialog: show only papers of one status and/or one tag.

Two lists, status and tag (narrowed by typing); enter anywhere applies what is
highlighted in both, escape cancels. The app does the filtering.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...core.model import PaperView, Status
from ...core.paths import styles_dir
from ...core.search.filters import ListFilter
from ...core.text.display import sanitize


@dataclass(frozen=True, slots=True)
class FilterChoice:
    """Papers of `status` (None: any) carrying `tag` (None: any; case-insensitive)."""

    status: Status | None = None
    tag: str | None = None

    @property
    def is_empty(self) -> bool:
        return self.status is None and self.tag is None

    @property
    def list_filter(self) -> ListFilter:
        """This choice as the core list filter, which the list, the CLI and triage share."""
        return ListFilter.of(status=self.status, tag=self.tag)

    def matches(self, view: PaperView) -> bool:
        """True when `view` passes this filter."""
        return self.list_filter.matches(view)

    def describe(self) -> str:
        """A status-line description: "status:read tag:llm", or "" when there is no filter."""
        return self.list_filter.describe()


class FilterDialog(ModalScreen[FilterChoice | None]):
    """Choose a status and a tag; dismisses with a `FilterChoice`, or None when cancelled."""

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="filter.cancel"),
        Binding("ctrl+r", "clear", "Clear filter", id="filter.clear"),
        Binding("down", "tags_list", "Tags", show=False, id="filter.down"),
    ]

    def __init__(self, known_tags: dict[str, int], current: FilterChoice = FilterChoice()) -> None:
        super().__init__()
        # Most used first, the way people look for a tag.
        self.known_tags = dict(sorted(known_tags.items(), key=lambda kv: (-kv[1], kv[0].casefold())))
        self.current = current
        self._tags: list[str | None] = []
        self._statuses: list[Status | None] = [None, *Status]

    def compose(self) -> ComposeResult:
        with Vertical(id="filter-dialog", classes="dialog"):
            yield Static("Filter", classes="dialog-title", markup=False)
            with Horizontal(id="filter-columns"):
                with Vertical(classes="filter-column"):
                    yield Static("Status", classes="dialog-label", markup=False)
                    yield OptionList(
                        *(Option(self._status_label(s)) for s in self._statuses), id="filter-status"
                    )
                with Vertical(classes="filter-column"):
                    yield Static("Tag", classes="dialog-label", markup=False)
                    yield Input(placeholder="type to narrow the tags", id="filter-tag-query")
                    yield OptionList(id="filter-tags")
            yield Static(
                "tab next list · enter apply · ctrl+r clear filter · escape cancel",
                classes="dialog-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        status_list = self.query_one("#filter-status", OptionList)
        status_list.highlighted = self._statuses.index(self.current.status)
        self._show_tags("")
        status_list.focus()

    @staticmethod
    def _status_label(status: Status | None) -> str:
        return "  any status" if status is None else f"{status.mark} {status.value}"

    def _show_tags(self, query: str) -> None:
        tags: list[str] = list(self.known_tags)
        if query.strip():
            found = process.extract(
                query, tags, scorer=fuzz.WRatio, processor=utils.default_process, limit=50, score_cutoff=50
            )
            low = query.strip().casefold()
            tags = [m[0] for m in sorted(found, key=lambda m: (not m[0].casefold().startswith(low), -m[1]))]
        if self.current.tag is not None and not query.strip() and self.current.tag not in self.known_tags:
            tags.insert(0, self.current.tag)  # a filter on a tag no paper has any more
        self._tags = [None, *tags]
        tag_list = self.query_one("#filter-tags", OptionList)
        tag_list.set_options(Option(self._tag_label(t)) for t in self._tags)
        if query.strip() and len(self._tags) > 1:
            tag_list.highlighted = 1
        else:
            want = (self.current.tag or "").casefold()
            index = next((i for i, t in enumerate(self._tags) if t is not None and t.casefold() == want), 0)
            tag_list.highlighted = index

    def _tag_label(self, tag: str | None) -> Content:
        if tag is None:
            return Content.styled("any tag", "italic")
        return Content.assemble(sanitize(tag), (f"  {self.known_tags.get(tag, 0)}", "dim"))

    @property
    def choice(self) -> FilterChoice:
        """What is highlighted now."""
        status_index = self.query_one("#filter-status", OptionList).highlighted
        tag_index = self.query_one("#filter-tags", OptionList).highlighted
        status = self._statuses[status_index] if status_index is not None else None
        tag = self._tags[tag_index] if tag_index is not None and tag_index < len(self._tags) else None
        return FilterChoice(status=status, tag=tag)

    @on(Input.Changed, "#filter-tag-query")
    def _narrow(self, event: Input.Changed) -> None:
        self._show_tags(event.value)

    @on(Input.Submitted)
    @on(OptionList.OptionSelected)
    def _apply(self) -> None:
        self.dismiss(self.choice)

    def action_tags_list(self) -> None:
        if self.query_one("#filter-tag-query", Input).has_focus:
            self.query_one("#filter-tags", OptionList).focus()

    def action_clear(self) -> None:
        self.dismiss(FilterChoice())

    def action_cancel(self) -> None:
        self.dismiss(None)
