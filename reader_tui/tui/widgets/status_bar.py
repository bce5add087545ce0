"""The status line: counts of what the list shows, the filter, marks, a message,
whether the notes and changes are on disk yet, and "read-only" when they never can be."""

from __future__ import annotations

from datetime import datetime

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from reader_tui.core.text.display import sanitize
from reader_tui.tui.keys import legend_line


class StatusBar(Horizontal):
    """Counts on the left, a saving indicator on the right (attributes down)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._counts: tuple[int, int, int] = (0, 0, 0)
        self._total = 0
        self._describe = ""
        self._marked = 0
        self._hidden = 0
        self._message = ""
        self._message_is_error = False
        self._message_about_marks = False  # said of the marks: gone when they change
        self._side_width = 0  # columns of #status-saving and #status-synced
        self._saving: tuple[str, bool] = ("", False)
        self._read_only = False
        self._every_word: int | None = None
        self._kept = ""  # said by `say`: said again as the list on its way arrives
        self._synced: tuple[str, int, int] = ("", 0, 0)  # what #status-synced says (set_synced)
        # The glyphs at the start of each row, explained where the eye goes to find out
        # (the same legend is in help).
        self._legend = f"{legend_line()}\n? lists every key and the search syntax"
        self.tooltip = self._legend

    def on_mount(self) -> None:
        # A notification fades; a library that cannot be written stays so for the whole
        # session, so the line the user keeps looking at says it, at its right end.
        library = getattr(self.app, "library", None)
        self._read_only = bool(getattr(library, "read_only", False))
        if self._read_only:
            self._draw_saving()

    def compose(self) -> ComposeResult:
        yield Static(id="status-text", markup=False)
        yield Static(id="status-saving", markup=False)
        yield Static(id="status-synced", markup=False)

    def set_counts(self, shown: int, read: int, reading: int, total: int) -> None:
        self._counts = (shown, read, reading)
        self._total = total
        self._redraw()

    def set_view(self, describe: str, marked: int, hidden: int = 0) -> None:
        """`describe`: the filter, sort and search in effect ("filter: tag:llm"); `marked`
        papers, `hidden` of them not in the list shown."""
        self._describe = describe
        if marked != self._marked and self._message_about_marks:
            # "tags: 3 marked papers" describes marks that are no longer the ones marked
            self._kept = ""
            self._message, self._message_about_marks = "", False
        self._marked = marked
        self._hidden = hidden
        self._redraw()

    def set_every_word(self, count: int | None) -> None:
        """Of the search's hits, `count` have every word of it (None: all do, or no search)."""
        if count != self._every_word:
            self._every_word = count
            self._redraw()

    def set_message(self, message: str = "", *, error: bool = False, about_marks: bool = False) -> None:
        """Show `message` in place of the last one; `about_marks`: it describes the marked
        papers, and goes when the marks change."""
        self._message = sanitize(message)
        self._message_is_error = error
        self._message_about_marks = about_marks and bool(message)
        self._redraw()

    def say(self, message: str, *, about_marks: bool = False) -> None:
        """Put `message` in the status line, there still once a list on its way arrives."""
        self._kept = message
        self.set_message(message, about_marks=about_marks)

    def answer(self, message: str, *, error: bool = False) -> None:
        """Put `message` in the status line in place of what `say` kept: the end of a
        sync answers its "syncing…", which must not come back with the next list."""
        self._kept = ""
        self.set_message(message, error=error)

    def listed(self, note: str = "") -> None:
        """A new list is shown: say `note` about it, or else what `say` kept for it."""
        note, self._kept = note or self._kept, ""
        self.set_message(note)

    def set_saving(self, state: str, *, error: bool = False) -> None:
        """"editing…", "saving…", "saved", "not saved: …" (`error`) or ""."""
        if (state, error) != self._saving:
            self._saving = (state, error)
            self._draw_saving()

    def _draw_saving(self) -> None:
        state, error = self._saving
        content = Content.styled(state, "bold $text-error" if error else "$text-muted")
        if self._read_only:
            content = Content.assemble(content, "  " if state else "", ("read-only", "bold $text-warning"))
        self.query_one("#status-saving", Static).update(content)
        self._side_widths(saving=max(8, content.cell_length))

    def set_synced(self, when: datetime | None, unsent: int = 0, waiting: int = 0) -> None:
        """When the library last synced through git (None: never, or not synced), how
        many changes made here are not committed yet and how many commits made here
        wait for the next sync to go out."""
        said = (synced_text(when), unsent, waiting)
        # Read after the first frame (and after every sync): an update lays the whole
        # screen out again and draws it twice, which the first key waited behind, so
        # the same line (no sync, nothing waiting: most libraries) is not drawn again.
        if said == self._synced:
            return
        self._synced = said
        text = Content.styled(said[0], "$text-muted")
        if waiting:
            words = f"{waiting} change{'s' if waiting != 1 else ''} waiting"
            text = Content.assemble(text, (f" · {words}" if when else f"  {words}", "$text-warning"))
        if unsent:
            text = Content.assemble(text, (f" · {unsent} commit{'s' if unsent != 1 else ''} to send", "$text-warning"))
        synced = self.query_one("#status-synced", Static)
        synced.update(text)
        synced.tooltip = 'ctrl+p "Changes waiting for the sync" lists them' if waiting else None
        self._side_widths(synced=text.cell_length)

    def _side_widths(self, *, saving: int | None = None, synced: int | None = None) -> None:
        # The message's room is what these leave: it is fitted to it when they grow, so
        # that its end is never drawn cut, or against "not saved" as if one message.
        if saving is not None:
            self._saving_width = saving
        if synced is not None:
            self._synced_width = synced
        width = self._saving_width + self._synced_width
        if width != self._side_width:
            self._side_width = width
            self._redraw()

    _saving_width = 8  # #status-saving's min-width
    _synced_width = 0

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        shown, read, reading = self._counts
        noun = "paper" if shown == 1 else "papers"
        count: list[str | tuple[str, str]] = [f"{shown:,} {noun}"]
        if shown != self._total:
            count.append(f" of {self._total:,}")
        if self._every_word is not None:
            # a long query lists papers with most of its words: say how many have them all
            count.append(f" · {self._every_word:,} with every word")
        counts_read: list[str | tuple[str, str]] = [f" · {read:,} read · {reading:,} reading"]
        details = list(counts_read)
        describe = sanitize(self._describe)
        if describe:
            details += [" · ", (describe, "$text-accent")]
        marked: list[str | tuple[str, str]] = []
        if self._marked:
            hidden = f" ({self._hidden:,} out of sight)" if self._hidden else ""
            marked = [" · ", (f"{self._marked:,} marked{hidden}", "bold $text-warning")]
        message: list[str | tuple[str, str]] = []
        if self._message:
            message = ["  ", (self._message, "$text-error" if self._message_is_error else "$text-success")]
        text = Content.assemble(*count, *details, *marked, *message)
        room = self.content_size.width and max(0, self.content_size.width - self._saving_width - self._synced_width)
        whole = True
        if message and room and text.cell_length > room:
            # What just happened ("undid status read → unread: ...") matters more than the
            # read/reading counts and the search, which are on screen elsewhere: on a narrow
            # line they give way, so the message is not the part that is cut.
            text = Content.assemble(*count, *marked)
            left = room - text.cell_length - 2
            short = shorten(self._message, left)
            whole = short == self._message
            message = ["  ", (short, message[1][1])] if short else []
            text = Content.assemble(text, *message)
        elif describe and room and text.cell_length > room:
            # No message: the search or filter is what gives way, cut at a word and marked
            # "…", never cut off after its "search:" as if it were empty.
            base = Content.assemble(*count, *counts_read, *marked)
            short = shorten(describe, room - base.cell_length - 3)
            whole = False
            shown = [" · ", (short, "$text-accent")] if short else []
            text = Content.assemble(*count, *counts_read, *shown, *marked)
        # what was shortened to fit is there in full under the mouse
        full = self._message if message else describe
        self.tooltip = self._legend if whole else f"{full}\n\n{self._legend}"
        self.query_one("#status-text", Static).update(text)


def shorten(text: str, room: int) -> str:
    """`text` in at most `room` cells: whole, or cut at the end of a word and ended with
    "…" (cut inside a word only when its first word alone does not fit); "" when
    nothing fits."""
    if cell_len(text) <= room:
        return text
    if room < 2:
        return ""
    cut = text[: room - 1]
    while cut and cell_len(cut) > room - 1:  # wide characters take two cells
        cut = cut[:-1]
    if text[len(cut)] != " " and " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:·(") + "…"


def synced_text(when: datetime | None, now: datetime | None = None) -> str:
    """"synced 14:05" today, "synced 3 Dec" before ("" when never)."""
    if when is None:
        return ""
    now = now or datetime.now(when.tzinfo)
    return f"  synced {when:%H:%M}" if when.date() == now.date() else f"  synced {when.day} {when:%b}"
