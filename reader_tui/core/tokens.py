"""The tokeniser every index and query shares, and a pause of the garbage collector for
bulk builds."""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager

from rapidfuzz.utils import default_process

_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def tokens(text: str) -> list[str]:
    """Lower-case words of `text` (letters and digits; LaTeX command names dropped).

    The same tokeniser serves papers and queries, so "Log-Linear" and "log-lin" agree.
    """
    if "\\" in text:
        text = _LATEX_COMMAND.sub(" ", text)
    return default_process(text).split()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold off the cyclic garbage collector during a bulk build: the build allocates
    millions of objects, none of them cyclic, and each full collection it would trigger
    walks the whole catalog (about 0.1 s each on a 2-core machine)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
