"""The reviews of the paper under the cursor made ready before `R` (the list and triage
call `read_ahead` as their paper changes). A module of its own, light to import: the
screen it hands the paper to (`reviews_screen`) is imported only once the app made it,
when it is idle after the start."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import App

SCREEN_NAME = "reviews"
"""The name the app's one reviews screen is installed under."""


def read_ahead(app: App, paper_id: str | None, words: Callable[[], Sequence[str]] = tuple) -> None:
    """`paper_id` is the paper `R` would show, `words()` highlighted: once the cursor rests
    on it, the kept reviews screen makes it ready off screen (`ReviewsScreen.read_ahead`).
    Nothing before that screen is made, and the words are not worked out (the start's
    first highlight came before it, and their parse was 0.7 % of the first frame)."""
    if paper_id is not None and app.is_screen_installed(SCREEN_NAME):
        app.get_screen(SCREEN_NAME).read_ahead(paper_id, words())  # type: ignore[attr-defined]
