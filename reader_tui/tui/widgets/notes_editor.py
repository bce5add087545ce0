"""The notes pane: the current paper's notes, saved without asking.

A save happens 0.8 s after typing stops, when the pane loses focus, when another paper
is shown and when the app quits (`save_now`), so nothing typed is lost on `q`. The
Library writes on its own thread, so saving never blocks typing.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.timer import Timer
from textual.widgets import TextArea

from reader_tui.core.store import Library

AUTOSAVE_DELAY = 0.8


def _markdown_available() -> bool:
    try:
        from textual._tree_sitter import TREE_SITTER, get_language

        return bool(TREE_SITTER) and get_language("markdown") is not None
    except Exception:
        return False


class NotesEditor(TextArea):
    """A TextArea bound to one paper's notes at a time."""

    class Edited(Message):
        """Text was typed that is not saved yet."""

    class Saved(Message):
        """The notes of `paper_id` were handed to the Library."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    def __init__(self, library: Library, **kwargs) -> None:
        language = "markdown" if _markdown_available() else None
        super().__init__(language=language, soft_wrap=True, tab_behavior="focus", **kwargs)
        self.library = library
        self.paper_id: str | None = None
        self._saved_text = ""
        self._timer: Timer | None = None
        self.read_only = True
        self.border_title = "notes"

    @property
    def dirty(self) -> bool:
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

    def save_now(self) -> None:
        """Hand unsaved text to the Library at once."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.dirty or self.paper_id is None or self.paper_id not in self.library:
            return
        text = self.text
        self._saved_text = text
        self.library.set_notes(self.paper_id, text)
        self.post_message(self.Saved(self.paper_id))

    def _on_text_area_changed(self, event: TextArea.Changed) -> None:
        if not self.dirty:
            return
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(AUTOSAVE_DELAY, self.save_now, name="notes-autosave")
        self.post_message(self.Edited())

    def _on_blur(self, event: events.Blur) -> None:
        self.save_now()
