"""Shared by the main-screen tests: a small library with hostile text, and helpers that
read what the screen shows. (A plain module: test files import it by name.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.worker import WorkerCancelled

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

HOSTILE_MARKUP = "[bold red]x[/] and [link=https://evil.example]click[/link]"
HOSTILE_ESCAPES = "Escape \x1b[31mred\x1b[0m bell\x07 title"

#: six ICLR 2026 papers, two with hostile titles, added one second apart (the "added" sort)
_FIELDS: list[dict[str, Any]] = [
    dict(
        id="p-attention",
        title="Attention Is Not All You Need for $O(n)$ Transformers",
        abstract="We show that **linear** attention with $\\alpha$-scaling matches softmax. See `code`.",
        authors=("Ada Lovelace", "Alan Turing"),
        url="https://openreview.net/forum?id=attention",
        keywords=("attention", "transformers"),
        citekey="lovelace2026attention",
    ),
    dict(
        id="p-graphs",
        title="Graph Neural Networks for Molecules",
        abstract="Message passing on molecular graphs.",
        keywords=("graphs",),
        citekey="curie2026graph",
    ),
    dict(
        id="p-markup",
        title=HOSTILE_MARKUP,
        abstract="An abstract with [bold]markup[/bold] that must stay literal.",
        citekey="markup2026",
    ),
    dict(
        id="p-escape",
        title=HOSTILE_ESCAPES,
        abstract="Bytes \x1b]0;pwned\x07 in the abstract.",
        citekey="escape2026",
    ),
    dict(
        id="p-rl",
        title="Reinforcement Learning from Human Feedback at Scale",
        abstract="Reward models and policy optimisation.",
        keywords=("reinforcement learning",),
        citekey="hopper2026rlhf",
    ),
    dict(
        id="p-diffusion",
        title="Diffusion Models Beat GANs on Tiny Images",
        abstract="Denoising score matching.",
        citekey="noether2026diffusion",
    ),
]
PAPERS = [
    Paper(venue="ICLR", year=2026, added=f"2025-11-01T00:00:{i:02d}+00:00", **fields) for i, fields in enumerate(_FIELDS)
]


def make_library(folder: Path, papers: list[Paper] = PAPERS) -> Library:
    library = Library.open(folder, background_writes=True)
    library.import_papers(papers)
    return library


def screen_text(app: App[Any]) -> str:
    """Everything on screen as plain text, one line per terminal row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle_workers(pilot: Any) -> None:
    """Let workers (search, index, reload) finish and their messages be handled.

    A worker that a newer one of its exclusive group replaced ends cancelled: that is the
    app working as meant (Textual's `wait_for_complete` raises for it), so it is waited
    past; a worker that failed still fails the test.
    """
    await pilot.pause()
    while pending := [worker for worker in pilot.app.workers if not worker.is_finished]:
        results = await asyncio.gather(*(worker.wait() for worker in pending), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, WorkerCancelled):
                raise result
        await pilot.pause()  # their messages handled, and any worker those start waited for in turn


# The first for-you training imports scikit-learn (2 s of CPU): on a loaded machine running
# tests side by side it took more than wait_until's usual 10 s bound.
FIRST_TRAINING_S = 60


#: How often `wait_until` looks at its condition.
POLL_S = 0.01


async def wait_until(pilot: Any, condition: Callable[[], object], seconds: float = 10.0) -> bool:
    """Let the app run until `condition()` holds (a thread or a timer works on its own):
    True as soon as it does, False after `seconds`. Bounded, never a fixed sleep.

    Between looks the test only sleeps: the app's tasks (its messages, timers and the
    screen's updates) run meanwhile as they do between keys. A pilot pause at each look
    made every widget of the screen handle a message of the pilot's first (4 ms of CPU
    a look on the main screen, most of what a test that waits on a thread spends).
    Once the condition holds, one such pause brings every widget and the layout up to
    date, as the pauses did, and the condition must still hold after it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    if condition():
        return True
    while True:
        if loop.time() > deadline:
            return False
        await asyncio.sleep(POLL_S)
        if condition():
            await pilot.pause(0)
            if condition():
                return True


async def settle(app: App[Any], pilot: Any) -> None:
    """`settle_workers` (a typed search's listings among them), then the detail pane
    brought up to date with the cursor."""
    await settle_workers(pilot)
    screen = app.screen
    show_now = getattr(screen, "show_current_now", None)
    # The detail pane waits for the cursor to rest: not in tests. A pane already showing
    # the paper under the cursor is left as the app keeps it (shown again, it was drawn
    # again: a third of a settle's CPU, and it would hide a pane the app left stale).
    if show_now is not None and (screen.side.behind or screen.side.detail.paper_id != screen.paper_list.current_id):
        show_now()
        await pilot.pause()


async def enter_text(pilot: Any, selector: str, text: str) -> None:
    """Put `text` into the Input at `selector` and press enter, as typing it would, without
    a key press (and a repaint) per character: for tests where typing is not what is tested."""
    from textual.widgets import Input

    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = text
    field.cursor_position = len(text)
    await pilot.pause()
    await pilot.press("enter")


NOTHING = object()
"""What `ModalHarness.result` holds until its screen is dismissed."""


class ModalHarness(App):
    """An app that pushes `modal` at start and keeps what it is dismissed with: a dialog
    or screen tested on its own, without the main screen around it."""

    def __init__(self, modal: Any) -> None:
        super().__init__()
        self.modal = modal
        self.result: Any = NOTHING

    def on_mount(self) -> None:
        self.push_screen(self.modal, self._done)

    def _done(self, result: Any) -> None:
        self.result = result


async def open_triage(app: App[Any], pilot: Any) -> Any:
    """Press T on the main screen and return the triage screen it opens."""
    from reader_tui.tui.screens.triage_screen import TriageScreen

    await settle(app, pilot)
    await pilot.press("T")
    await pilot.pause()
    assert isinstance(app.screen, TriageScreen)
    return app.screen
