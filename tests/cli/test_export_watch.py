"""`reader-tui export -o FILE --watch` keeps FILE up to date: rewritten shortly after a
change made by another process, only when its text changed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the watcher, with its poll (and the pause after a change) at 50 ms instead of half a second
WATCHER = ("import sys; from reader_tui.cli import export, main; export.WATCH_POLL_S = 0.05; sys.exit(main())")


def _sigint_as_in_a_terminal() -> None:
    # A job started in the background by a shell without job control inherits SIGINT
    # ignored; ctrl-c in a terminal always reaches the command.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_watch_rewrites_the_export_after_another_process_changes_the_library(tmp_path: Path, reader_tui) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # the cache and no background index: conftest
    db = tmp_path / "lib"
    bib = tmp_path / "in.bib"
    bib.write_text("@article{a1, title={Attention}, year={2017}}\n@article{b2, title={Residual}, year={2016}}\n", "utf-8")

    def run(*args: str) -> str:  # the other process: this one, the watcher being a process of its own
        out, _ = reader_tui("--db", str(db), "--no-seed", *args)
        return out

    run("import", str(bib))
    out = tmp_path / "reading.bib"
    watcher = subprocess.Popen([sys.executable, "-c", WATCHER, "--db", str(db), "--no-seed", "export",
                                "--status", "read", "-o", str(out), "--watch"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_sigint_as_in_a_terminal)
    # its lines as they come: the file is replaced a moment before "wrote" is printed
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(watcher.stderr), daemon=True)
    reader.start()

    def writes() -> int:
        return sum("wrote" in line for line in list(said))

    try:
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert out.exists() and "@" not in out.read_text("utf-8")  # nothing read yet
        pid = run("list", "--search", "Residual").split()[0]
        run("status", "read", pid)
        while "Residual" not in out.read_text("utf-8") and time.monotonic() < deadline:
            time.sleep(0.02)
        text = out.read_text("utf-8")
        assert "Residual" in text and "Attention" not in text
        other = run("list", "--search", "Attention").split()[0]
        run("tag", other, "+kept")  # a change to a paper the export leaves out: its text stays
        time.sleep(0.3)  # several polls see that change (and must write nothing)
        run("status", "unread", pid)
        while "Residual" in out.read_text("utf-8") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "Residual" not in out.read_text("utf-8")
        while writes() < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        watcher.send_signal(signal.SIGINT)
        watcher.wait(timeout=30)
        reader.join(timeout=30)
    err = "".join(said)
    assert watcher.returncode == 130
    # nothing read, then Residual, then nothing again: the tag changed no text, so no write
    # (a tag on Residual itself would: the export writes a paper's tags)
    assert err.count("wrote") == 3 and "Traceback" not in err, err
