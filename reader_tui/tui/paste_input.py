"""A pasted ESC stays text: Textual's terminal parser (8.2.8) reads an ESC inside a
bracketed paste as the start of an escape sequence, and one it does not know (a colour
code, `ESC [ 3 1 m`) is then sent on as key presses: pasting terminal output into the
notes ran list commands with the letters after it, and a tab left the notes pane.

`PasteSafeParser` hides each ESC inside a paste from the parser behind a character no
terminal input can hold (a lone surrogate: the driver decodes strict UTF-8), and puts
the ESC back into the Paste event's text, so the paste arrives whole and exact. What is
outside a paste reaches the parser as it came, at once: a lone ESC is still the escape
key. `install` makes Textual's Linux drivers use it; the text is data from there on (the
notes and inputs draw an ESC as ␛, see `core.text.display.visible_controls`).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events

from reader_tui.tui.textual_patches import XTermParser, use_input_parser

ESC = "\x1b"
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
HIDDEN_ESC = "\udc1b"  # never in strictly decoded UTF-8, so never typed or pasted


def _partial_suffix(text: str, marker: str) -> int:
    """How many characters at the end of `text` could begin `marker` (0 if none)."""
    for size in range(min(len(text), len(marker) - 1), 0, -1):
        if marker.startswith(text[-size:]):
            return size
    return 0


class PasteSafeParser(XTermParser):
    """Textual's XTermParser, with every ESC inside a bracketed paste kept as text."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._in_paste = False
        self._held = ""  # inside a paste: an end that may be the start of PASTE_END
        self._seen = ""  # outside: the last characters passed on, for a start split in two

    def feed(self, data: str) -> Iterable[events.Event]:
        if data:
            text = self._hide_pasted_escapes(data)
            chunks = [text] if text else []  # (an empty feed would end the input)
        else:  # the end of the input: what was held goes first
            held, self._held = self._held.replace(ESC, HIDDEN_ESC), ""
            chunks = [held, ""] if held else [""]
        for chunk in chunks:
            for token in super().feed(chunk):
                if isinstance(token, events.Paste) and HIDDEN_ESC in token.text:
                    token = events.Paste(token.text.replace(HIDDEN_ESC, ESC))
                yield token

    def _hide_pasted_escapes(self, data: str) -> str:
        """What the held part and `data` give the parser: each ESC inside a paste hidden,
        an end that may begin the paste's end held for the next read."""
        out: list[str] = []
        text, self._held = self._held + data, ""
        position = 0
        while position < len(text):
            if not self._in_paste:
                context = self._seen + text[position:]
                found = context.find(PASTE_START)
                if found < 0:
                    out.append(text[position:])
                    self._seen = context[-(len(PASTE_START) - 1) :]
                    break
                start = position + found - len(self._seen) + len(PASTE_START)
                out.append(text[position:start])
                position, self._in_paste, self._seen = start, True, ""
            else:
                found = text.find(PASTE_END, position)
                if found < 0:
                    cut = len(text) - _partial_suffix(text[position:], PASTE_END)
                    out.append(text[position:cut].replace(ESC, HIDDEN_ESC))
                    self._held = text[cut:]
                    break
                out.append(text[position:found].replace(ESC, HIDDEN_ESC) + PASTE_END)
                position, self._in_paste = found + len(PASTE_END), False
        return "".join(out)


def install() -> None:
    """Have Textual's Linux drivers read the terminal with `PasteSafeParser`."""
    use_input_parser(PasteSafeParser)
