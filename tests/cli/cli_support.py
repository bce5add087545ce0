"""What the CLI tests share by name (a plain module: test files import it, the fixtures
that use it live in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Result:
    """What a run of the command gave: its exit code and its output."""

    returncode: int
    stdout: str
    stderr: str


Run = Callable[..., Result]
