"""Every CLI test runs its commands against its own cache folder, with the debug switch
off (a failure is one line, not a traceback); the background index build is off for
every test (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reader_tui import cli


@pytest.fixture(autouse=True)
def _own_cache_no_debug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("READER_TUI_DEBUG", raising=False)


Cli = Callable[..., tuple[str, str]]


@pytest.fixture
def reader_tui(capsys: pytest.CaptureFixture[str]) -> Cli:
    """`reader-tui ARGS` in this process: (stdout, stderr), the exit code checked against
    `code=` (0 by default). Each call opens the library afresh from its files, as a new
    process would; what only a real process shows is tested once in test_cli.py."""

    def run(*args: str, code: int = 0) -> tuple[str, str]:
        capsys.readouterr()
        got = cli.main(list(args))
        out, err = capsys.readouterr()
        assert got == code, err
        return out, err

    return run
