"""One line for a change the Library could not write: which file, and why."""

from __future__ import annotations

from reader_tui.core.atomic_storage import StoreError, describe_error
from reader_tui.core.library.library import Library
from reader_tui.core.text.display import sanitize


def write_error_line(error: BaseException, library: Library) -> str:
    """"Not saved: <file>: <why>. ..." for a notification (StoreError names its file)."""
    if isinstance(error, StoreError):
        where = str(error)
    elif isinstance(error, OSError):
        where = describe_error(error, library.files.annotations_path)
    else:
        where = f"{library.files.annotations_path}: {describe_error(error)}"
    # Paths and messages are shown as they are (no LaTeX or markup reading), on one line.
    return " ".join(sanitize(f"Not saved: {where}. The change is kept and tried again.").split())
