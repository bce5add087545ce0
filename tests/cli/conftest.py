"""Every CLI test runs its commands against its own cache folder, with the debug switch
off (a failure is one line, not a traceback); the background index build is off for
every test (tests/conftest.py)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import Result, Run

from reader_tui import cli
from reader_tui.cli import main


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


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture
def run(db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """`reader-tui ARGS --db DB`, in this process; stdin is `stdin` (or empty, not a terminal)."""

    def run(*args: str, stdin: str | None = None, use_db: bool = True, extra_env: dict | None = None) -> Result:
        argv = [*args, *(["--db", str(db)] if use_db else [])]
        capsys.readouterr()
        with monkeypatch.context() as patch:
            for name, value in (extra_env or {}).items():
                patch.setenv(name, value)
            patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin or "").encode())))
            try:
                code = main(argv)
            except SystemExit as done:  # argparse: --help, --version, usage errors
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run
