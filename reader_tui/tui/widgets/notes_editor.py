"""The notes pane: the current paper's notes, saved without asking.

A save happens `save_after_pause` seconds after typing stops, at most `save_at_most_after`
seconds after the first unsaved change however steadily one types, when the pane loses
focus, when another paper is shown and when the app quits (`save_now`), so nothing typed
is lost on `q`. The Library writes on its own thread, so saving never blocks typing.

The editor holds a note exactly as stored: lines are split at "\\n" only (TextArea would
also split at \\r, \\x0b, \\x0c, U+2028... and join them back as "\\n", so merely showing
a note would change it), and only an edit by the user makes it differ from what was
loaded. Control characters stay in the text but are drawn as visible symbols, so a note
holding terminal escapes cannot retitle or clear the terminal.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.timer import Timer
from textual.widgets import TextArea
from textual.widgets.text_area import Document, EditResult, Location

from reader_tui.core.library.library import Library
from reader_tui.core.text.display import visible_controls

from ..textual_patches import (
    ReplacesDocument,
    document_lines,
    markdown_highlighting_available,
    replace_as_typed,
    restart_cursor_blink,
    set_document_lines,
)
from .data_input import typed_character

AUTOSAVE_DELAY = 0.8
AUTOSAVE_MAX_WAIT = 2.0
PLACEHOLDER_WRITING = "type your notes (markdown), saved as you type; escape leaves"


def notes_key(screen: object) -> str:
    """The key that opens the notes on `screen` (its binding's id ends in ".notes"), or ""."""
    for binding in getattr(screen, "BINDINGS", ()):
        if getattr(binding, "id", None) and binding.id.endswith(".notes"):
            return binding.key.split(",")[0].strip()
    return ""


class NotesDocument(Document):
    """A TextArea document whose only line break is "\\n": its text is what it was given."""

    def __init__(self, text: str) -> None:
        set_document_lines(self, text.split("\n"))

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        top, bottom = sorted((start, end))
        top_row, top_column = top
        bottom_row, bottom_column = bottom
        insert_lines = text.split("\n")
        lines = document_lines(self)
        replaced_text = self.get_text_range(top, bottom)
        after = lines[bottom_row][bottom_column:] if bottom_row < len(lines) else ""
        before = lines[top_row][:top_column] if top_row < len(lines) else ""
        insert_lines[0] = before + insert_lines[0]
        destination_column = len(insert_lines[-1])
        insert_lines[-1] = insert_lines[-1] + after
        lines[top_row : bottom_row + 1] = insert_lines
        return EditResult((top_row + len(insert_lines) - 1, destination_column), replaced_text)


class NotesEditor(ReplacesDocument, TextArea):
    """A TextArea bound to one paper's notes at a time."""

    SAVE_AFTER_PAUSE = AUTOSAVE_DELAY
    SAVE_AT_MOST_AFTER = AUTOSAVE_MAX_WAIT

    class Edited(Message):
        """Text was typed that is not saved yet."""

    class Saved(Message):
        """The notes of `paper_id` were handed to the Library (not yet known to be on disk)."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    class SaveFailed(Message):
        """The Library refused the notes of `paper_id`; they stay unsaved in the editor."""

        def __init__(self, paper_id: str, error: Exception) -> None:
            super().__init__()
            self.paper_id = paper_id
            self.error = error

    def __init__(
        self,
        library: Library,
        *,
        save_after_pause: float | None = None,
        save_at_most_after: float | None = None,
        **kwargs,
    ) -> None:
        language = "markdown" if markdown_highlighting_available() else None
        # Read-only and collapsed until a paper is loaded: given to TextArea's __init__
        # (the class with the state), not set after it, where each would style the
        # editor and its eight component classes once more before it is even mounted.
        classes = " ".join(filter(None, (kwargs.pop("classes", None), "-read-only -collapsed")))
        super().__init__(language=language, soft_wrap=True, tab_behavior="focus", read_only=True, classes=classes, **kwargs)
        self.library = library
        self.save_after_pause = self.SAVE_AFTER_PAUSE if save_after_pause is None else save_after_pause
        self.save_at_most_after = self.SAVE_AT_MOST_AFTER if save_at_most_after is None else save_at_most_after
        self.paper_id: str | None = None
        self._saved_text = ""
        self._timer: Timer | None = None
        self._max_timer: Timer | None = None
        self.border_title = "notes"
        self._placeholder = "notes"
        self.placeholder = self._placeholder

    def on_mount(self) -> None:
        # Named from the screen's own binding, so the hint follows the key wherever it is.
        key = notes_key(self.screen)
        self._placeholder = f"notes: {key} to write" if key else "notes"
        self._update_collapsed()

    def _update_collapsed(self, focused: bool | None = None) -> None:
        """An empty note takes one line until the pane is focused (the abstract gets the
        room); a note with text, or the pane being written in, gets its box."""
        focused = self.has_focus if focused is None else focused
        self.set_class(not focused and not self.text, "-collapsed")
        self.placeholder = PLACEHOLDER_WRITING if focused else self._placeholder

    def on_focus(self, event: events.Focus) -> None:
        # (Widget's own handler, which sets has_focus, runs after this one)
        self._update_collapsed(focused=True)

    # -- an exact document, drawn visibly ------------------------------------------------------

    def replacement_document(self, text: str, language: str | None) -> Document | None:
        if self.document.text == text:
            return None
        # TextArea's document split at a line break other than "\n": use ours instead.
        if type(self.document) is Document:
            return NotesDocument(text)
        from textual.widgets.text_area import SyntaxAwareDocument  # tree-sitter's markdown document

        class _SyntaxNotes(SyntaxAwareDocument, NotesDocument):
            pass

        return _SyntaxNotes(text, self.document.language)

    def get_line(self, line_index: int) -> Text:
        # From the document, not TextArea.get_line: rich's Text drops BEL, BS, VT, FF and
        # CR, which would shift every column after them and hide them from the user.
        # One symbol per character keeps columns; tabs stay for TextArea's tab stops.
        line = visible_controls(self.document.get_line(line_index), keep_tabs=True)
        return Text(line, end="", no_wrap=True)

    async def on_key(self, event: events.Key) -> None:
        # TextArea drops a typed U+3000, no-break space or zero-width joiner (its
        # `is_printable` test): insert them as the text they are.
        char = typed_character(event)
        if char is None or self.read_only:
            return
        event.stop()
        event.prevent_default()
        restart_cursor_blink(self)
        replace_as_typed(self, char)

    async def on_paste(self, event: events.Paste) -> None:
        # Pasted Windows text: its \r\n are line breaks, not characters to keep. (Textual
        # calls TextArea's own handler after this one unless the default is prevented.)
        text = event.text.replace("\r\n", "\n")
        if text == event.text:
            return
        event.prevent_default()
        if not self.read_only and (result := replace_as_typed(self, text)):
            self.move_cursor(result.end_location)
            self.focus()

    # -- which paper, and saving ---------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        """The user edited the note and the edit is not handed to the Library yet."""
        return self.paper_id is not None and self.text != self._saved_text

    def load(self, paper_id: str | None) -> None:
        """Show the notes of `paper_id`, saving the notes shown before."""
        if paper_id == self.paper_id:
            return
        self.save_now()
        self.paper_id = paper_id
        notes = self.library.annotation(paper_id).notes if paper_id else ""
        self._saved_text = notes
        self.read_only = paper_id is None
        if self.text != notes:
            self.load_text(notes)
        self._update_collapsed()

    def reload(self) -> None:
        """Take in the Library's notes (undo, another process) unless the user is mid-edit."""
        if self.paper_id is None or self.dirty:
            return
        notes = self.library.annotation(self.paper_id).notes
        if notes != self.text:
            cursor = self.cursor_location
            self._saved_text = notes
            self.load_text(notes)
            self.cursor_location = self.clamp_visitable(cursor)
        else:
            self._saved_text = notes
        self._update_collapsed()

    def _stop_timers(self) -> None:
        for timer in (self._timer, self._max_timer):
            if timer is not None:
                timer.stop()
        self._timer = self._max_timer = None

    def save_now(self) -> None:
        """Hand unsaved text to the Library at once."""
        self._stop_timers()
        if not self.dirty or self.paper_id is None or self.paper_id not in self.library:
            return
        text, paper_id = self.text, self.paper_id
        try:
            self.library.set_notes(paper_id, text)
        except Exception as error:  # e.g. a store that cannot be written: the text stays unsaved
            self.post_message(self.SaveFailed(paper_id, error))
            return
        self._saved_text = text
        self.post_message(self.Saved(paper_id))

    def set_unsaved(self, unsaved: bool) -> None:
        """Say on the pane's border that its note is not on disk."""
        self.border_subtitle = "not saved" if unsaved else ""
        self.set_class(unsaved, "-unsaved")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if not self.dirty:
            self._stop_timers()  # typed back to what is saved: nothing to write
            return
        # Save after a pause in typing, and at most `save_at_most_after` after the first
        # unsaved change, so steady typing reaches the disk too.
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.save_after_pause, self.save_now, name="notes-autosave")
        if self._max_timer is None:
            self._max_timer = self.set_timer(self.save_at_most_after, self.save_now, name="notes-autosave-max")
        self.post_message(self.Edited())

    def on_blur(self, event: events.Blur) -> None:
        self.save_now()
        self._update_collapsed(focused=False)
