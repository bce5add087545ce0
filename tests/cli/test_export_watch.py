"""`reader-tui export -o FILE --watch` keeps FILE up to date: rewritten shortly after a
change made by another process, only when its text changed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_watch_rewrites_the_export_after_another_process_changes_the_library(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "READER_TUI_CACHE": str(tmp_path / "cache"), "READER_TUI_BACKGROUND_INDEX": "0"}
    db = tmp_path / "lib"
    bib = tmp_path / "in.bib"
    bib.write_text("@article{a1, title={Attention}, year={2017}}\n@article{b2, title={Residual}, year={2016}}\n", "utf-8")

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", *args],
                              env=env, capture_output=True, text=True, check=True)
        return done.stdout

    run("import", str(bib))
    out = tmp_path / "reading.bib"
    watcher = subprocess.Popen([sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", "export",
                                "--status", "read", "-o", str(out), "--watch"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert out.exists() and "@" not in out.read_text("utf-8")  # nothing read yet
        pid = run("list", "--search", "Residual").split()[0]
        run("status", "read", pid)
        while "Residual" not in out.read_text("utf-8") and time.monotonic() < deadline:
            time.sleep(0.05)
        text = out.read_text("utf-8")
        assert "Residual" in text and "Attention" not in text
        run("tag", pid, "+kept")  # a change that leaves the export's text as it is
        run("status", "unread", pid)
        while "Residual" in out.read_text("utf-8") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "Residual" not in out.read_text("utf-8")
    finally:
        watcher.send_signal(signal.SIGINT)
        _, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 130
    assert err.count("wrote") >= 3 and "Traceback" not in err
