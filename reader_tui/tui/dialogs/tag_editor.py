"""The tag editor: add and remove tags of one paper or of all marked papers.

Type a tag and press enter to add it, "-tag" to remove it; several tags can be given at
once, separated by commas (only commas: "llm reasoning" is one tag, and the dialog says
so, with how to make it two). Completions from the tags already in use (best first) and the
suggestions appear below the input: down or tab moves into them, enter applies one.
The modal stays open for several edits and shows the resulting tags; escape closes it
and hands back the collected `TagEdit`. The app applies it to the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...core.paths import styles_dir
from ...core.text.display import one_line, sanitize, visible_controls
from ..widgets.data_input import DataInput

MAX_COMPLETIONS = 8
MAX_TITLES = 3


@dataclass(frozen=True, slots=True)
class TagEdit:
    """Tags to add to and remove from each chosen paper (as typed, case-insensitive)."""

    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()


def _clean(tag: str) -> str:
    return " ".join(tag.split())


def spaced_note(tags: Sequence[str]) -> str:
    """What to tell the user who typed tags holding spaces: each is one tag, and commas
    would have made several ("" when there are none)."""
    if not tags:
        return ""
    shown = ", ".join(f'"{tag}"' for tag in tags)
    example = tags[0].split()
    one = "is one tag" if len(tags) == 1 else "are one tag each"
    return f'{shown} {one}; "{", ".join(example)}" would be {len(example)}'


class TagEditor(ModalScreen[TagEdit | None]):
    """Edit the tags of `paper_titles`; dismisses with a `TagEdit`, or None when nothing changed.

    `current_tags` are the tags every chosen paper has, `known_tags` every tag in use with
    how many papers carry it (for completion), `suggestions` tags worth proposing.
    """

    CSS_PATH = str(styles_dir() / "dialogs.tcss")

    BINDINGS = [
        Binding("escape", "close", "Close and apply", id="tags.close"),
        Binding("tab", "toggle_focus", "Completions", show=False, id="tags.completions"),
        Binding("down", "enter_completions", "Completions", show=False, id="tags.down"),
    ]

    def __init__(
        self,
        paper_titles: list[str],
        current_tags: list[str],
        known_tags: dict[str, int],
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.paper_titles = list(paper_titles)
        self.original = [t for t in map(_clean, current_tags) if t]
        self.known_tags = dict(known_tags)
        self.suggestions = [t for t in map(_clean, suggestions) if t]
        self.added: dict[str, str] = {}
        self.removed: dict[str, str] = {}
        # One spelling per tag: the first one seen in the library wins, as in the store.
        self._spelling = {t.casefold(): t for t in reversed([*self.suggestions, *self.known_tags, *self.original])}
        self._choices: list[tuple[str, str]] = []  # (action "+"/"-", tag) per completion row

    # -- state -------------------------------------------------------------------------

    @property
    def tags(self) -> list[str]:
        """The tags the papers will have in common after the edit."""
        kept = [t for t in self.original if t.casefold() not in self.removed]
        return kept + [t for k, t in self.added.items() if k not in {o.casefold() for o in kept}]

    @property
    def edit(self) -> TagEdit | None:
        """What to do to the store, or None when nothing changed."""
        if not self.added and not self.removed:
            return None
        return TagEdit(add=tuple(self.added.values()), remove=tuple(self.removed.values()))

    def add_tag(self, tag: str) -> str | None:
        """Add `tag`; returns why it cannot be added, or None."""
        tag = _clean(tag)
        if not tag:
            return None
        if "," in tag:
            return "a tag cannot contain a comma"
        tag = self._spelling.setdefault(tag.casefold(), tag)
        key = tag.casefold()
        self.removed.pop(key, None)
        if key not in {t.casefold() for t in self.original}:
            self.added[key] = tag
        return None

    def remove_tag(self, tag: str) -> str | None:
        """Remove `tag`; returns why it cannot be removed, or None."""
        tag = _clean(tag)
        if not tag:
            return None
        key = tag.casefold()
        was_added = self.added.pop(key, None) is not None
        in_use = key in {t.casefold() for t in [*self.original, *self.known_tags]}
        if in_use:
            self.removed[key] = self._spelling.get(key, tag)
        elif not was_added:
            return f"no paper has the tag {tag!r}"
        return None

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="tag-editor", classes="dialog"):
            count = len(self.paper_titles)
            heading = "Tags" if count == 1 else f"Tags of {count} papers"
            yield Static(heading, classes="dialog-title", markup=False)
            yield Static(self._titles_content(), id="tag-papers", classes="dialog-subtitle")
            yield Static(id="tag-chips")
            yield DataInput(placeholder="tags to add (a, b), -tag to remove, then enter", id="tag-input")
            yield OptionList(id="tag-completions")
            yield Static("", id="tag-error", classes="dialog-error", markup=False)
            yield Static("", id="tag-note", classes="dialog-note", markup=False)
            yield Static(
                "enter apply · commas separate tags · tab completions · esc closes",
                classes="dialog-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self._refresh()
        self.query_one("#tag-input", Input).focus()

    def _titles_content(self) -> Content:
        shown = [Content("• " + one_line(t, 70)) for t in self.paper_titles[:MAX_TITLES]]
        if len(self.paper_titles) > MAX_TITLES:
            shown.append(Content(f"  … and {len(self.paper_titles) - MAX_TITLES} more"))
        return Content("\n").join(shown)

    def _chips_content(self) -> Content:
        kept = [t for t in self.original if t.casefold() not in self.removed]
        parts: list[Content] = [Content.styled(f" {visible_controls(t)} ", "reverse") for t in kept]
        parts += [Content.styled(f" +{visible_controls(t)} ", "reverse bold") for t in self.added.values()]
        parts += [Content.styled(f" -{visible_controls(t)} ", "strike dim") for t in self.removed.values()]
        if not parts:
            return Content.styled("no tags", "dim italic")
        return Content(" ").join(parts)

    def _refresh(self) -> None:
        self.query_one("#tag-chips", Static).update(self._chips_content())
        self._update_completions(self.query_one("#tag-input", Input).value)

    # -- completion --------------------------------------------------------------------

    def completions(self, text: str) -> list[tuple[str, str]]:
        """Rows for the completion list: ("+", tag) to add, ("-", tag) to remove."""
        text = text.split(",")[-1].strip()
        removing = text.startswith("-")
        query = text[1:].strip() if removing else text
        have = {t.casefold() for t in self.tags}
        if removing:
            candidates = [t for t in self.tags] + [t for t in self.known_tags if t.casefold() not in have]
            action = "-"
        else:
            candidates = [t for t in self.known_tags if t.casefold() not in have]
            action = "+"
        if not query:
            if removing:
                return [("-", t) for t in self.tags][:MAX_COMPLETIONS]
            offered = [t for t in self.suggestions if t.casefold() not in have]
            return [("+", t) for t in offered][:MAX_COMPLETIONS]
        found = process.extract(
            query, candidates, scorer=fuzz.WRatio, processor=utils.default_process,
            limit=MAX_COMPLETIONS * 3, score_cutoff=50,
        )
        low = query.casefold()
        # A tag that starts with what was typed beats a better-scored one that merely contains it.
        ranked = sorted(found, key=lambda m: (not m[0].casefold().startswith(low), -m[1], -self.known_tags.get(m[0], 0)))
        return [(action, m[0]) for m in ranked][:MAX_COMPLETIONS]

    def _update_completions(self, text: str) -> None:
        self._choices = self.completions(text)
        options = self.query_one("#tag-completions", OptionList)
        options.set_options(self._option(action, tag) for action, tag in self._choices)
        options.display = bool(self._choices)

    def _option(self, action: str, tag: str) -> Option:
        count = self.known_tags.get(tag)
        label = Content.assemble(
            ("add " if action == "+" else "remove ", "dim"),
            visible_controls(tag),
            (f"  {count}" if count else "  suggested" if tag in self.suggestions else "", "dim"),
        )
        return Option(label)

    @on(Input.Changed, "#tag-input")
    def _typed(self, event: Input.Changed) -> None:
        if event.value:  # not the clearing after an edit, which would hide its error
            self._show_error("")
            self._show_note("")
        self._update_completions(event.value)

    @on(Input.Submitted, "#tag-input")
    def _submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.action_close()
            return
        errors = []
        spaced = []
        for part in event.value.split(","):
            part = part.strip()
            error = self.remove_tag(part[1:]) if part.startswith("-") else self.add_tag(part)
            if error:
                errors.append(error)
            elif not part.startswith("-") and " " in _clean(part):
                spaced.append(_clean(part))
        self._show_error("; ".join(errors))
        self._show_note(spaced_note(spaced))
        event.input.value = ""
        self._refresh()

    @on(OptionList.OptionSelected, "#tag-completions")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        action, tag = self._choices[event.option_index]
        error = self.remove_tag(tag) if action == "-" else self.add_tag(tag)
        self._show_error(error or "")
        tag_input = self.query_one("#tag-input", Input)
        tag_input.value = ""
        tag_input.focus()
        self._refresh()

    def on_key(self, event: Key) -> None:
        # Typing while the completion list has focus goes on into the input.
        options = self.query_one("#tag-completions", OptionList)
        if options.has_focus and event.is_printable and event.character:
            tag_input = self.query_one("#tag-input", Input)
            tag_input.focus()
            tag_input.insert_text_at_cursor(event.character)
            event.stop()

    def _show_note(self, text: str) -> None:
        note = self.query_one("#tag-note", Static)
        note.update(sanitize(text))
        note.set_class(bool(text), "-shown")

    def _show_error(self, text: str) -> None:
        error = self.query_one("#tag-error", Static)
        error.update(sanitize(text))
        error.set_class(bool(text), "-shown")

    # -- actions -----------------------------------------------------------------------

    def action_enter_completions(self) -> None:
        options = self.query_one("#tag-completions", OptionList)
        if self.query_one("#tag-input", Input).has_focus and options.option_count:
            options.focus()
            options.highlighted = 0

    def action_toggle_focus(self) -> None:
        options = self.query_one("#tag-completions", OptionList)
        if options.has_focus:
            self.query_one("#tag-input", Input).focus()
        else:
            self.action_enter_completions()

    def action_close(self) -> None:
        self.dismiss(self.edit)
