"""Opening a paper's page (`o`: its url, OpenReview's forum) or its PDF (`p`) in the web
browser, from any screen; where no browser can be started, the url goes to the clipboard.

Over SSH there is no display to open a browser on: `webbrowser` would find none, or a
text browser that takes over the terminal the app is drawn on. So without `$BROWSER`,
on a system whose browsers need a display (X11 or Wayland) and none is set, or on macOS
and Windows inside an SSH session, no browser is started; nor when `webbrowser.open`
says it failed. The url is then copied, and the message says so and shows it: nothing
claims to have opened what it did not.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Mapping
from functools import partial

from textual.app import App
from textual.screen import Screen

from reader_tui.core.library.library import Library
from reader_tui.core.reviews import pdf_link


def browser_reachable(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """True when a web browser can be started from here: `$BROWSER` names one, or there is
    a display to show it on (X11 or Wayland; macOS and Windows: not an SSH session)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get("BROWSER", "").strip():
        return True
    if platform == "darwin" or platform.startswith(("win", "cygwin")):
        return not (environ.get("SSH_CONNECTION") or environ.get("SSH_TTY"))
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_link(screen: Screen, url: str, what: str) -> None:
    """Open `url` (the paper's `what`: "page", "PDF") in the browser, off the UI thread (a
    browser starting up can take seconds); where none can be started, copy it. An empty
    `url`: say that the paper has none."""
    app = screen.app
    if not url:
        app.notify(f"This paper has no {what}", severity="warning", markup=False)
        return
    if not browser_reachable():
        copy_instead(app, url, what, "No browser can be started here (no display)")
        return
    app.run_worker(partial(_open, app, url, what), thread=True, group="browser", exit_on_error=False)


def _open(app: App, url: str, what: str) -> None:
    # In a worker thread: what it found is said on the UI thread.
    try:
        opened = webbrowser.open(url)
    except Exception:  # a broken $BROWSER command and the like: the same as False
        opened = False
    if opened:
        app.call_from_thread(app.notify, f"Opened the {what} in the browser: {url}", markup=False)
    else:
        app.call_from_thread(copy_instead, app, url, what, "The browser did not start")


def copy_instead(app: App, url: str, what: str, why: str) -> None:
    """Copy `url` and say why it was not opened, and where it went."""
    from reader_tui.tui.clipboard import copy_text

    how = copy_text(app, url)
    app.notify(f"{why}: the link to the {what} is on the {how}: {url}", markup=False, timeout=10)


def open_url(screen: Screen, library: Library, pid: str | None) -> None:
    """Open the url of `pid` (OpenReview's forum of an OpenReview paper)."""
    url = library.view(pid).url if pid is not None and pid in library.papers else ""
    open_link(screen, url, "page")


def open_pdf(screen: Screen, library: Library, pid: str | None) -> None:
    """Open the PDF of `pid` (`core.reviews.pdf_link`)."""
    url = pdf_link(library.view(pid)) if pid is not None and pid in library.papers else ""
    open_link(screen, url, "PDF")
