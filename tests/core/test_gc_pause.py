"""core.gc_pause: the collector held off during bulk builds and during the TUI's start."""

import gc

import pytest

from reader_tui.core import gc_pause


@pytest.fixture
def frozen(monkeypatch):
    """gc.freeze recorded, not done: a test process must not freeze its garbage."""
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    yield calls
    gc.enable()


def test_a_paused_start_collects_again_once_resumed_with_what_it_made_frozen(frozen):
    gc_pause.pause_for_start()
    assert not gc.isenabled()
    gc_pause.resume_after_start()
    assert gc.isenabled() and frozen == ["freeze"]
    gc_pause.resume_after_start()  # once only
    assert frozen == ["freeze"]


def test_resuming_without_a_pause_changes_nothing(frozen):
    gc.disable()  # someone else's pause (a bulk build) is not ended by the main screen
    gc_pause.resume_after_start()
    assert not gc.isenabled() and frozen == []


def test_a_bulk_build_pause_restores_what_it_found():
    with gc_pause.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
