"""Styling a screen once at its start instead of three times.

Textual styles a pushed screen's widgets as they mount, then again in full when the
screen resumes (`ScreenResume.refresh_styles`, for a screen that comes back from under a
dialog) and again when the first Resize gives it its breakpoint classes (`-wide`,
`-tall`). On the main screen each full pass is some 15 ms of the start, with the list's
and the notes editor's component classes styled afresh every time. A screen made with
its breakpoint classes already set, and that skips the refresh on its first resume
(nothing changed since its widgets were styled), is styled once."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.geometry import Size
from textual.screen import Screen


def breakpoint_classes(screen: type[Screen], app: App, size: Size) -> str:
    """The breakpoint classes Textual gives a `screen` of this class at `size` on its
    first Resize (the rule Textual's Screen applies as it resizes: per axis, the class of
    the largest breakpoint not above the size), as a class string for the constructor."""
    classes = []
    for breakpoints, dimension in (
        (screen.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is not None else app.HORIZONTAL_BREAKPOINTS, size.width),
        (screen.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is not None else app.VERTICAL_BREAKPOINTS, size.height),
    ):
        for breakpoint, class_name in sorted(breakpoints or [], reverse=True):
            if dimension >= breakpoint:
                classes.append(class_name)
                break
    return " ".join(classes)


def skip_first_refresh(screen: Screen, event: events.ScreenResume) -> None:
    """Called from the screen's `on_screen_resume` (which runs before Screen's own):
    the first resume comes right after the widgets were mounted and styled, so it need
    not style them all again; later resumes (back from a dialog) do."""
    if not getattr(screen, "_resumed_once", False):
        screen._resumed_once = True  # type: ignore[attr-defined]
        event.refresh_styles = False
