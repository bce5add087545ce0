"""The tokeniser every index and query shares."""

from __future__ import annotations

import re

from rapidfuzz.utils import default_process

_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def tokens(text: str) -> list[str]:
    """Lower-case words of `text` (letters and digits; LaTeX command names dropped).

    The same tokeniser serves papers and queries, so "Log-Linear" and "log-lin" agree.
    """
    if "\\" in text:
        text = _LATEX_COMMAND.sub(" ", text)
    return default_process(text).split()


