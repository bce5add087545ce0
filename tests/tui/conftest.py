"""Fixtures for the TUI tests: small temporary libraries (one with hostile text, one with
the real seed list), each writing on a background thread as the TUI does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reader_tui.core.library.library import Library
from tui_support import make_library


@pytest.fixture(autouse=True)
def _quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot decides the app is idle after each key by sleeping 20 ms slices until
    one passes without CPU work: at least 40 ms a key, most of the suite's wall time. 5 ms
    slices make the same check (the process used under 5 % of a slice) four times sooner;
    what the tests wait on for real (workers, messages, the writer) they wait on explicitly."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.005)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 0.005 / 20)


@pytest.fixture(autouse=True, scope="session")
def _callback_parameters_counted_once() -> Iterator[None]:
    """Every `call_later` wraps its callback in a new `functools.partial`, and Textual counts
    the parameters of each callback it invokes with `inspect.signature`, caching the count
    on the callable: on the new partial, so never found again. The pilot's wait for the
    screen (every key and every pause) makes each widget of the screen invoke one such
    partial: a sixth of an idle pause's CPU went to `inspect`. A partial with no arguments
    of its own around a plain function takes exactly that function's parameters (the same
    `signature` count): here it is counted, and the count cached, on the function; every
    other callable is counted by Textual as before."""
    from functools import partial
    from inspect import isfunction

    import textual._callback

    original = textual._callback.count_parameters

    def count_parameters(func):
        if type(func) is partial and not func.args and not func.keywords and isfunction(func.func):
            return original(func.func)
        return original(func)

    textual._callback.count_parameters = count_parameters
    yield
    textual._callback.count_parameters = original


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The related-papers cache goes to the test's folder, not the user's cache."""
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    """Six papers, two with hostile titles."""
    lib = make_library(tmp_path / "lib")
    yield lib
    lib.close()


@pytest.fixture
def seed_library(tmp_path: Path) -> Iterator[Library]:
    """The bundled ICLR 2026 seed list, as a first run sees it."""
    seed = pytest.importorskip("reader_tui.core.formats.seed")
    from reader_tui.core.paths import default_seed_path

    lib = Library.open(tmp_path / "seed", background_writes=True)
    lib.import_papers(seed.read_seed(default_seed_path()).papers)
    yield lib
    lib.close()
