"""`reader-tui sync` prints what the remote named (a member's file, a commit's author)
through the one safe-text function: no escape sequence from the remote reaches the
terminal (issue 31, attack 3), in the report of a sync as in that of a clone."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "sync"))
from hostile import REGULAR, SYMLINK, make_group  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
REPO = Path(__file__).resolve().parents[2]
ESCAPES = "\x1b]0;PWNED\x07\x1b[2J"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))


def _member_file() -> bytes:
    from reader_tui.core.library.files import annotation_doc_id

    return json.dumps({"_meta": {"1": {"format": 1, "kind": "annotations"}},
                       "annotations": {annotation_doc_id("p0"): {"paper_id": "p0", "status": "read"}}}).encode()


def test_a_member_file_named_with_terminal_escapes_reaches_no_terminal(tmp_path: Path, reader_tui,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    group = make_group(tmp_path)
    group.push({f"members/{ESCAPES}evil.json".encode(): (REGULAR, _member_file()),
                "members/bob.json": (REGULAR, _member_file())}, author=f"mal{ESCAPES}lory")
    monkeypatch.chdir(tmp_path)
    out, err = reader_tui("--db", "alice", "sync")  # (a folder named relative to here, as people type it)
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "received: 1 status change by bob" in out
    assert "refused from the remote: members/␛]0;PWNED␇␛[2Jevil.json" in out
    out, err = reader_tui("--db", str(group.alice), "show", "p0")
    assert "\x1b" not in out + err and "bob: read" in out


def test_a_clone_says_what_it_refused_safely(tmp_path: Path, reader_tui) -> None:
    group = make_group(tmp_path)
    group.push({"members/bob.json": (SYMLINK, str(group.canary).encode())}, author=f"mal{ESCAPES}lory")
    out, err = reader_tui("--db", str(tmp_path / "bob"), "sync", "init", str(group.remote), "--member", "bob")
    assert "cloned" in out and "refused from the remote: members/bob.json" in out and "symbolic link" in out
    assert "\x1b" not in out + err and "\x07" not in out + err


def test_a_push_refused_by_a_hook_exits_with_an_error_that_says_so(tmp_path: Path, reader_tui) -> None:
    group = make_group(tmp_path)
    hook = group.remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'read-only until Monday' >&2\nexit 1\n")
    hook.chmod(0o755)
    reader_tui("--db", str(group.alice), "status", "to-read", "p0")
    out, _ = reader_tui("--db", str(group.alice), "sync", code=1)
    assert "not pushed: the remote refused the push (read-only until Monday" in out
    assert "kept moving" not in out
