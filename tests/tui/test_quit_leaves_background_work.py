"""Quitting never waits for background work: an index build that has not finished (26 s
at 100,000 papers) is left behind, and the process ends as soon as the app does."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The app's index worker gets a builder that never finishes (it waits on an event nobody
# sets); the pilot presses q once the builder runs. The process must end all the same.
SCRIPT = textwrap.dedent(
    """
    import sys, threading
    from pathlib import Path
    import reader_tui.core.library.indexing as indexing
    from reader_tui.core.model import Paper
    from reader_tui.core.library.library import Library
    from reader_tui.tui.app import create_app

    started, never = threading.Event(), threading.Event()

    def slow_builder(library, on_search, on_related, cancelled=lambda: False):
        started.set()
        never.wait()  # an index build that is still running when the user quits

    indexing.provide_indexes = slow_builder
    library = Library.open(Path(sys.argv[1]), background_writes=True)
    library.import_papers([Paper(id=f"p{i}", title=f"Paper {i}") for i in range(30)])
    app = create_app(library)

    async def quit_during_build(pilot):
        while not started.is_set():
            await pilot.pause(0.01)
        await pilot.press("q")

    app.run(headless=True, auto_pilot=quit_during_build)
    library.close()
    print("left with", app.return_code)
    """
)


def test_quit_does_not_wait_for_a_running_index_build(tmp_path: Path) -> None:
    env = {**os.environ, "READER_TUI_CACHE": str(tmp_path / "cache"), "READER_TUI_BACKGROUND_INDEX": "0"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    # Before the fix the process waited for the builder forever; the timeout only ends
    # the test, it measures nothing.
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "db")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "left with 0" in done.stdout
