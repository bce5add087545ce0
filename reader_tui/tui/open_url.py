"""Opening a paper's url in the web browser, from any screen."""

from __future__ import annotations

import webbrowser
from functools import partial

from textual.screen import Screen

from reader_tui.core.library.library import Library


def open_url(screen: Screen, library: Library, pid: str | None) -> None:
    """Open the url of `pid` in the browser (off the UI thread: a browser starting up
    can take seconds), or say that it has none."""
    url = library.view(pid).url if pid is not None and pid in library.papers else ""
    if not url:
        screen.notify("This paper has no url", severity="warning", markup=False)
        return
    screen.run_worker(partial(webbrowser.open, url), thread=True, group="browser", exit_on_error=False)
    screen.notify(f"Opening {url}", markup=False)
