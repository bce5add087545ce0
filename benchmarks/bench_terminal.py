"""What a user sees: the TUI started as a console command in a real terminal.

`python -m benchmarks.bench_terminal --db STORE [--runs 5] [--json]` starts
`python -m reader_tui --db STORE` in a 140x45 terminal (tmux when it is installed, else a
bare pseudo-terminal), as if the user had typed the command in a shell and pressed Enter,
and times, from that Enter (before Python starts):

- the list on screen: until rows of the paper list are in the terminal;
- the first key answered: `j` sent as soon as the list is there, until the cursor row moved;
- idle: until the TUI process stops using the CPU (its index caches loaded);
- quit: from `q` until the process has exited.

Memory is the TUI process's own: `VmHWM` (peak) and `VmRSS` (when idle) from
/proc/PID/status, read just before `q`. Not the rusage of a child: Linux hands the peak of
the process that starts a program on to it, so a benchmark holding a catalog would report
its own. Each figure is the median of several runs with their range; the in-process
figures of `benchmarks.bench` (store already open, headless) are not what a user sees.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SIZE = (140, 45)
LIST_TIMEOUT_S = 180.0
KEY_TIMEOUT_S = 30.0
IDLE_TIMEOUT_S = 300.0
QUIT_TIMEOUT_S = 30.0
# The process is idle once it used at most this share of one core for a whole second:
# Textual's own timers cost a little even when nothing happens.
IDLE_SHARE = 0.05
IDLE_WINDOW_S = 1.0

_ESCAPE = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\|[@-Z\\-_])")
_LEADING_SGR = re.compile(r"^(?:\x1b\[[0-9;:]*m)*")
_PLAIN_WORDS = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)+")


@dataclass(slots=True)
class Run:
    """One launch, seconds from the Enter key; memory in MB (None: not measured)."""

    list_s: float
    first_key_s: float | None
    idle_s: float
    quit_s: float
    peak_rss_mb: float
    idle_rss_mb: float


# -- what to look for --------------------------------------------------------------------


def list_marks(titles: Sequence[str], count: int = 2) -> list[str]:
    """Strings that only the paper list's rows put on screen: the plain beginnings of the
    titles of its first rows, in catalog order (what the TUI shows first). Row 0 is left
    out: the detail pane shows that title too. Titles that start with LaTeX, markup or
    anything a display could change are skipped."""
    marks: list[str] = []
    rows = list(titles[1:40]) or list(titles[:1])
    for title in rows:
        mark = plain_start(title)
        if mark:
            marks.append(mark)
        if len(marks) == count:
            break
    if not marks:
        raise ValueError("no title among the list's first rows starts with plain words to look for")
    return marks


def plain_start(title: str) -> str | None:
    """The start of `title` that any display shows as it is (plain words, at most 28
    characters), or None when it has fewer than 10 of them."""
    found = _PLAIN_WORDS.match(" ".join(title.split()))
    return found.group()[:28] if found and len(found.group()) >= 10 else None


def forget_place(folder: Path) -> None:
    """Clear the list's place that a session keeps on quit (its sort and the paper under
    the cursor): each run times the first screen of the store as a new user sees it, in
    catalog order from the top, which is what `list_marks` looks for. (A place saved by
    the previous run, or by a person who used this store, would put other rows first.)"""
    from reader_tui.core.library.library import Library

    library = Library.open(folder)
    try:
        for key in ("cursor", "sort"):
            if library.settings.get(key) is not None:
                library.set_setting(key, None)
    finally:
        library.close()


def store_titles(folder: Path) -> list[str]:
    """The titles of the store's papers in catalog order."""
    from reader_tui.core.library.library import Library

    library = Library.open(folder)
    try:
        return [library.papers[pid].title for pid in list(library.papers)[:40]]
    finally:
        library.close()


# -- terminals ---------------------------------------------------------------------------


class TmuxTerminal:
    """A tmux server of its own (its own socket and an empty configuration) with one pane
    of `size`, whose shell-like `sh -c 'read _; exec ...'` starts the command on Enter.
    The pane's output is also piped to a file, so the screen is captured only when
    something was drawn, not in a busy loop that would take a core from the app."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], size: tuple[int, int]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="reader-tui-term-"))
        self.socket = self.folder / "tmux.sock"
        self.output = self.folder / "pane.out"
        config = self.folder / "tmux.conf"
        config.write_text("set -g status off\nset -g remain-on-exit on\nset -g default-terminal tmux-256color\n")
        width, height = size
        self._env = env
        self._tmux("-f", str(config), "new-session", "-d", "-s", "bench", "-x", str(width), "-y", str(height),
                   "sh", "-c", 'read _; exec "$@"', "sh", *argv)
        self.pid = int(self._tmux("display-message", "-p", "-t", "bench", "#{pane_pid}"))
        self.output.touch()
        self._tmux("pipe-pane", "-t", "bench", f"cat > {_sh_quote(str(self.output))}")
        self._seen = -1

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True, text=True,
                                env=self._env, timeout=30, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {result.stderr.strip()}")
        return result.stdout

    def press_enter(self) -> float:
        start = time.perf_counter()
        self._tmux("send-keys", "-t", "bench", "Enter")
        return start

    def send(self, key: str) -> float:
        sent = time.perf_counter()
        self._tmux("send-keys", "-t", "bench", "-l", key)
        return sent

    def lines(self, first: int = 0, last: int | None = None, styles: bool = False) -> list[str]:
        args = ["capture-pane", "-p", "-t", "bench", "-S", str(first), "-E", str(last if last is not None else "-")]
        return self._tmux(*args, *(["-e"] if styles else [])).split("\n")

    def wait_drawn(self, deadline: float) -> None:
        """Until the app wrote something new to the terminal (or `deadline`)."""
        while time.perf_counter() < deadline:
            size = self.output.stat().st_size
            if size != self._seen:
                self._seen = size
                return
            if not _alive(self.pid):
                return
            time.sleep(0.002)

    def wait_for(self, marks: Sequence[str], deadline: float) -> float:
        while time.perf_counter() < deadline:
            self.wait_drawn(deadline)
            now = time.perf_counter()
            screen = "\n".join(self.lines())
            if all(mark in screen for mark in marks):
                return now
            if not _alive(self.pid):
                raise RuntimeError(f"the TUI exited before showing its list:\n{screen.strip()}")
        raise TimeoutError(f"the list did not appear; the screen shows:\n{self.screen_text().strip()}")

    def wait_cursor_moved(self, deadline: float, send: Callable[[], float]) -> float | None:
        """Send the key (`send`) and wait until row 1 of the list is drawn as row 0 was,
        the cursor's look: the seconds between the two. None if the rows look alike."""
        cursor = _leading_style(self.lines(0, 0, styles=True)[0])
        while _leading_style(self.lines(1, 1, styles=True)[0]) == cursor:  # not yet drawn apart
            if time.perf_counter() > deadline:
                return None
            self.wait_drawn(min(deadline, time.perf_counter() + 0.05))
        sent = send()
        while time.perf_counter() < deadline:
            self.wait_drawn(deadline)
            now = time.perf_counter()
            if _leading_style(self.lines(1, 1, styles=True)[0]) == cursor:
                return now - sent
        return None

    def screen_text(self) -> str:
        try:
            return "\n".join(self.lines())
        except RuntimeError:
            return ""

    def exited(self) -> bool:
        return not _alive(self.pid)

    def close(self) -> None:
        try:
            self._tmux("kill-server")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class PtyTerminal:
    """A bare pseudo-terminal of `size` (for machines without tmux): nothing emulates a
    screen, so the list counts as shown once its rows' text went through the terminal."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], size: tuple[int, int]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: a shell line waiting for Enter, then the command itself
            try:
                os.execvpe("sh", ["sh", "-c", 'read _; exec "$@"', "sh", *argv], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        width, height = size
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self._chunks: list[tuple[float, bytes]] = []
        self._lock = threading.Condition()
        self._status: int | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:  # always drained, or the app would block on a full terminal
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            with self._lock:
                if not data:
                    self._chunks.append((time.perf_counter(), b""))
                    self._lock.notify_all()
                    return
                self._chunks.append((time.perf_counter(), data))
                self._lock.notify_all()

    def press_enter(self) -> float:
        start = time.perf_counter()
        os.write(self.fd, b"\r")
        return start

    def send(self, key: str) -> float:
        sent = time.perf_counter()
        os.write(self.fd, key.encode())
        return sent

    def _text_since(self, index: int) -> tuple[str, int, float, bool]:
        with self._lock:
            chunks = self._chunks[index:]
        closed = any(not data for _, data in chunks)
        raw = b"".join(data for _, data in chunks)
        stamp = chunks[-1][0] if chunks else 0.0
        return _ESCAPE.sub(b"", raw).decode("utf-8", "replace"), index + len(chunks), stamp, closed

    def _wait(self, index: int, marks: Sequence[str], deadline: float) -> float | None:
        while True:
            text, end, stamp, closed = self._text_since(index)
            if end > index and all(mark in text for mark in marks):
                return stamp  # when the chunk that completed the marks was read
            if closed:
                raise RuntimeError(f"the TUI exited before showing its list:\n{text[-2000:].strip()}")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            with self._lock:
                if len(self._chunks) == end:
                    self._lock.wait(min(remaining, 0.1))

    def wait_for(self, marks: Sequence[str], deadline: float) -> float:
        found = self._wait(0, marks, deadline)
        if found is None:
            raise TimeoutError("the list did not appear in the terminal's output")
        self._after_list = len(self._chunks)
        self._marks = marks
        return found

    def wait_cursor_moved(self, deadline: float, send: Callable[[], float]) -> float | None:
        """Send the key and wait for the list's rows to be drawn again (the cursor row
        is redrawn with its neighbour): without a screen, the best a bare pty can tell."""
        with self._lock:
            index = len(self._chunks)
        sent = send()
        found = self._wait(index, self._marks[:1], deadline)
        return None if found is None else found - sent

    def screen_text(self) -> str:
        return self._text_since(0)[0][-4000:]

    def exited(self) -> bool:
        if self._status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0:
                return False
            self._status = status
        return True

    def close(self) -> None:
        if not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self._status = -1
        try:
            os.close(self.fd)
        except OSError:
            pass


def terminal_kind(kind: str = "auto") -> str:
    """`kind`, with "auto" resolved: tmux when it is installed, else a bare pty."""
    if kind == "auto":
        return "tmux" if shutil.which("tmux") else "pty"
    return kind


def open_terminal(argv: Sequence[str], env: dict[str, str], size: tuple[int, int], kind: str = "auto") -> Any:
    """A TmuxTerminal or a PtyTerminal (see `terminal_kind`)."""
    if terminal_kind(kind) == "tmux":
        return TmuxTerminal(argv, env, size)
    return PtyTerminal(argv, env, size)


# -- one run -----------------------------------------------------------------------------


def measure_run(argv: Sequence[str], marks: Sequence[str], env: dict[str, str] | None = None,
                size: tuple[int, int] = SIZE, kind: str = "auto") -> Run:
    """Start `argv` in a terminal, press Enter and time what the user sees (see the module)."""
    terminal = open_terminal(argv, dict(os.environ if env is None else env), size, kind)
    try:
        start = terminal.press_enter()
        shown = terminal.wait_for(marks, start + LIST_TIMEOUT_S)
        first_key = terminal.wait_cursor_moved(time.perf_counter() + KEY_TIMEOUT_S, lambda: terminal.send("j"))
        idle = wait_idle(terminal.pid, time.perf_counter() + IDLE_TIMEOUT_S)
        peak, resident = status_mb(terminal.pid, "VmHWM:"), status_mb(terminal.pid, "VmRSS:")
        asked = terminal.send("q")
        deadline = asked + QUIT_TIMEOUT_S
        while not terminal.exited():
            if time.perf_counter() > deadline:
                raise TimeoutError(f"the TUI was still running {QUIT_TIMEOUT_S:.0f} s after q")
            time.sleep(0.005)
        quit_s = time.perf_counter() - asked
    finally:
        terminal.close()
    return Run(
        list_s=shown - start,
        first_key_s=first_key,
        idle_s=idle - start,
        quit_s=quit_s,
        peak_rss_mb=peak,
        idle_rss_mb=resident,
    )


def wait_idle(pid: int, deadline: float) -> float:
    """The moment after which `pid` used at most IDLE_SHARE of a core for IDLE_WINDOW_S."""
    tick = os.sysconf("SC_CLK_TCK")
    step = 0.1
    samples: list[tuple[float, float]] = [(time.perf_counter(), _cpu_s(pid, tick))]
    busy_until = samples[0][0]
    while time.perf_counter() < deadline:
        time.sleep(step)
        now, cpu = time.perf_counter(), _cpu_s(pid, tick)
        if cpu - samples[-1][1] > IDLE_SHARE * step + 1 / tick:
            busy_until = now
        samples.append((now, cpu))
        if now - busy_until >= IDLE_WINDOW_S:
            return busy_until
    return busy_until


def _cpu_s(pid: int, tick: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / tick  # utime, stime


def status_mb(pid: int, field: str) -> float:
    """A memory figure (`VmHWM:`, `VmRSS:`) of process `pid` in MB, from /proc; NaN when gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _leading_style(line: str) -> str:
    return _LEADING_SGR.match(line).group()  # type: ignore[union-attr]


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# -- several runs ------------------------------------------------------------------------


def tui_command(folder: Path) -> list[str]:
    """The console command a user types, run from this tree: `reader-tui --db FOLDER`."""
    return [sys.executable, "-m", "reader_tui", "--db", str(folder)]


def tui_env() -> dict[str, str]:
    """This environment, with this tree first on the path (`python -m` from anywhere)."""
    root = str(Path(__file__).resolve().parent.parent)
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def compile_tree() -> None:
    """Compile this tree's modules to bytecode, as `pip install` does for an installed
    package: a user's start reads them compiled. Without it, a checkout run with
    PYTHONDONTWRITEBYTECODE set (as this machine's shells are) compiles every module of
    the app that changed since its bytecode was last written, on every start."""
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parent.parent / "reader_tui", quiet=1)


def measure(folder: Path, runs: int = 5, kind: str = "auto", size: tuple[int, int] = SIZE) -> dict[str, Any]:
    """`runs` launches of the TUI on the store in `folder`: each figure's median, min,
    max and every run's value, under the keys `terminal_*` (what `bench.py` reports)."""
    compile_tree()
    marks = list_marks(store_titles(folder))
    results = []
    for _ in range(runs):
        forget_place(folder)
        results.append(measure_run(tui_command(folder), marks, tui_env(), size, kind))
    figures: dict[str, Any] = {"terminal": terminal_kind(kind), "terminal_runs": runs}
    for name in Run.__dataclass_fields__:
        values = [getattr(run, name) for run in results if getattr(run, name) is not None]
        if values:
            figures[f"terminal_{name}"] = summary(values)
    return figures


FLOOR_APP = """
from rich.text import Text
from textual.app import App
from textual.widgets import Static

ROWS = [f"Floor mark alpha beta row {i}" for i in range(40)]


class Floor(App):
    BINDINGS = [("q", "quit", "Quit"), ("j", "down", "Down")]
    row = 0

    def compose(self):
        yield Static(self.rows())

    def rows(self):
        text = Text()
        for i, row in enumerate(ROWS):
            text.append(row + chr(10), style="reverse" if i == self.row else "")
        return text

    def action_down(self):
        self.row += 1
        self.query_one(Static).update(self.rows())


Floor().run()
"""
"""The least a Textual app can be: 40 rows of text with a cursor row that `j` moves.
Started the same way as the TUI, it shows what of a start is Python's and Textual's."""


def measure_floor(runs: int = 5, kind: str = "auto", size: tuple[int, int] = SIZE) -> dict[str, Any]:
    """`runs` launches of FLOOR_APP, and of a bare interpreter (`python -c pass`, from
    the start of the process to its exit): the floor under the TUI's figures, as
    `floor_*` keys."""
    with tempfile.TemporaryDirectory(prefix="reader-tui-floor-") as folder:
        app = Path(folder) / "floor_app.py"
        app.write_text(FLOOR_APP, encoding="utf-8")
        results = [measure_run([sys.executable, str(app)], ["Floor mark alpha beta row 1"], tui_env(), size, kind)
                   for _ in range(runs)]
    interpreter = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        interpreter.append(time.perf_counter() - started)
    figures = {"floor_interpreter_s": summary(interpreter)}
    for name in ("list_s", "first_key_s", "peak_rss_mb"):
        values = [getattr(run, name) for run in results if getattr(run, name) is not None]
        if values:
            figures[f"floor_{name}"] = summary(values)
    return figures


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Median, range and the values themselves (rounded for reading)."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": [round(v, 3) for v in values]}


ROWS = [
    ("terminal_list_s", "Enter to the list on screen", "{median:.2f} s ({min:.2f}-{max:.2f})"),
    ("terminal_first_key_s", "first key (j sent as the list appears) to the cursor moved",
     "{median:.3f} s ({min:.3f}-{max:.3f})"),
    ("terminal_idle_s", "Enter to the TUI idle (index caches loaded)", "{median:.2f} s ({min:.2f}-{max:.2f})"),
    ("terminal_peak_rss_mb", "peak memory of the TUI process (VmHWM)", "{median:.0f} MB ({min:.0f}-{max:.0f})"),
    ("terminal_idle_rss_mb", "resident memory once idle (VmRSS)", "{median:.0f} MB ({min:.0f}-{max:.0f})"),
    ("terminal_quit_s", "q to the process gone", "{median:.2f} s ({min:.2f}-{max:.2f})"),
    ("floor_interpreter_s", "floor: python -c pass, start to exit", "{median:.2f} s ({min:.2f}-{max:.2f})"),
    ("floor_list_s", "floor: Enter to a bare Textual app's 40 rows on screen", "{median:.2f} s ({min:.2f}-{max:.2f})"),
    ("floor_first_key_s", "floor: the bare Textual app's first key", "{median:.3f} s ({min:.3f}-{max:.3f})"),
    ("floor_peak_rss_mb", "floor: the bare Textual app's peak memory", "{median:.0f} MB ({min:.0f}-{max:.0f})"),
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_terminal", description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the store to open (not changed, apart from the "
                        "backup every TUI session takes)")
    parser.add_argument("--runs", type=int, default=5, help="launches to take the median of (default 5)")
    parser.add_argument("--terminal", choices=("auto", "tmux", "pty"), default="auto")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--floor", action="store_true", help="also time a bare Textual app and a bare interpreter")
    args = parser.parse_args(argv)
    figures = measure(args.db, args.runs, args.terminal)
    if args.floor:
        figures.update(measure_floor(args.runs, args.terminal))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{args.runs} runs in {figures['terminal']}, {SIZE[0]}x{SIZE[1]}: median (min-max)")
        for key, label, fmt in ROWS:
            if key in figures:
                print(f"{label:<62}  {fmt.format(**figures[key])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
