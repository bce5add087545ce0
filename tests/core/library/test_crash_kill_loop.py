"""The proof that kill -9 never loses an acknowledged change, nor leaves a store that will not open.

Writers run against one store at the same time, each owning one paper, so what each may
have written is known exactly:

- a writer script (a Library with background_writes=True, as the TUI runs it) looping:
  print "try i"; set status S(i), tags [t<i>], notes "i"; `flush()`; print "ack i".
  It is forked from a warm parent process (a small zygote script that has already
  imported the store), so a cycle costs milliseconds, not a Python start-up: that is
  what lets the loop kill many times in a few seconds. Each cycle's writer is SIGKILLed
  0-80 ms after it says it is ready (every other cycle: after its first acknowledgement,
  so that acknowledged writes are many even on a slow disk), so the kill lands among its
  writes.
- CLI commands `python -m reader_tui ... note cn --set i`, `tag ct +k<i>`, `mark S(i) cm`,
  acknowledged when they exit 0. Each is SIGKILLed if still running in an 80 ms window
  around how long such a command takes here (tracked as the loop goes), so about half
  finish and half die in their last, writing, moments.

After every writer cycle and every round of CLI commands the store must open, and each
field of each paper must hold a value it may hold: when something was acknowledged, the
last acknowledged value or a later tried one; otherwise the value verified before, or one
tried since. Anything else counts as lost. Run with -s to see the figures; set
KILL_LOOP_SEED to replay a run's random delays.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from reader_tui.core.library.doctor import check_store, report_lines
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper, Status
from tests.kill_aim import enough_kills

REPO = Path(__file__).resolve().parents[3]
STATUSES = list(Status)
TIME_BUDGET = 12.0  # seconds of killing; the whole test stays well under 30 s
TARGET_KILLS = 80
TARGET_CLI_KILLS = 15
MIN_KILLS = 30  # fewer means the machine is too slow for the test to prove much: it skips
WINDOW = 0.08  # random kill delays span 0-80 ms
# A killed CLI command moves the aim later, a finished one earlier: about a third die.
LATER, EARLIER = 1.2, 0.9

ZYGOTE = r"""
import os, sys
from pathlib import Path
from reader_tui.core.model import Status
from reader_tui.core.library.library import Library

def say(text):
    # One write call per line: PYTHONUNBUFFERED makes print() write the text and its
    # newline separately, and a kill between the two glued "ack 7" to the next line.
    sys.stdout.write(text + "\n")
    sys.stdout.flush()

def write_forever(folder, pid, start):
    statuses = list(Status)
    library = Library.open(folder, background_writes=True)
    say("ready")
    for i in range(start, start + 1_000_000):
        # "try" goes out before the change is queued, so the parent knows every value
        # that may have reached the disk; "ack" only once flush() says it all has.
        say(f"try {i}")
        library.set_status([pid], statuses[i % len(statuses)])
        library.set_tags(pid, [f"t{i}"])
        library.set_notes(pid, str(i))
        library.flush()
        say(f"ack {i}")

folder, pid = Path(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    sys.stdout.flush()
    child = os.fork()
    if child == 0:
        try:
            write_forever(folder, pid, int(line))
        finally:
            os._exit(1)
    say(f"pid {child}")
    _, status = os.waitpid(child, 0)
    # Written only after the child is gone, so everything it printed comes before this.
    say(f"\ndone {status}")  # on a line of its own even after a cut-off one
"""


@dataclass
class Slot:
    """One paper owned by one writer, and what each of its fields may hold."""

    paper: str
    fields: dict[str, Any]  # field -> the value verified last time (the baseline)
    tried: list[dict[str, Any]] = field(default_factory=list)  # since then, in order
    acked: int = -1  # index in `tried` of the last acknowledged values, -1 for none

    def possible(self, name: str) -> list[Any]:
        if self.acked >= 0:
            return [t[name] for t in self.tried[self.acked :]]
        return [self.fields[name]] + [t[name] for t in self.tried]

    def verify(self, library: Library, lost: list[str], when: str) -> None:
        ann = library.annotation(self.paper)
        stored = {"status": ann.status, "tags": ann.tags, "notes": ann.notes}
        for name, value in stored.items():
            if value not in self.possible(name):
                lost.append(f"{when}: {self.paper}.{name} is {value!r}, expected one of {self.possible(name)!r}")
        self.fields, self.tried, self.acked = stored, [], -1


@dataclass
class Tally:
    rounds: int = 0
    writer_kills: int = 0
    cli_kills: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)

    @property
    def kills(self) -> int:
        return self.writer_kills + self.cli_kills


class Zygote:
    """The warm parent of the writer script's processes."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, str(db), "py"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _line(self) -> str:
        while True:
            try:
                line = self._lines.get(timeout=60)  # a stalled zygote fails, never hangs CI
            except queue.Empty:
                pytest.fail("the writer zygote printed nothing for 60 s")
            if line is None:
                pytest.fail(f"the writer zygote died (exit {self.proc.wait()})")
            if line.strip():  # "done" comes after an empty line: see the zygote
                return line.strip()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def start(self, counter: int, *, until_ack: bool) -> int:
        """Fork a writer counting from `counter`; returns its pid once it is ready (or,
        `until_ack`, once it acknowledged its first change)."""
        self.proc.stdin.write(f"{counter}\n")
        self.proc.stdin.flush()
        self.lines: list[str] = []
        pid, ready, acked = None, False, False
        # The zygote's "pid" line and the child's own lines race: take them in any order.
        while pid is None or not ready or (until_ack and not acked):
            line = self._line()
            if line.startswith("pid "):
                pid = int(line.split()[1])
            elif line == "ready":
                ready = True
            elif line.startswith(("try ", "ack ")) and ready:
                self.lines.append(line)
                acked = acked or line.startswith("ack ")
            else:
                pytest.fail(f"the writer did not start: {line}")
        return pid

    def collect(self) -> list[str]:
        """The lines the last writer printed after "ready", read up to its end."""
        lines = self.lines
        while not (line := self._line()).startswith("done"):
            lines.append(line)
        status = int(line.split()[1])
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"the writer ended with {status}"
        return lines

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait()


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def _cli(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "reader_tui", "--db", str(db), "--no-seed", *args]


def test_kill_9_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "db"
    Library.open(db).import_papers([Paper(id=p, title=f"Paper {p}") for p in ("py", "cn", "ct", "cm", "cal", "other")])
    env = _env()
    seed = int(os.environ.get("KILL_LOOP_SEED") or random.randrange(1 << 30))
    rng = random.Random(seed)
    slots = {p: Slot(p, {"status": Status.UNREAD, "tags": (), "notes": ""}) for p in ("py", "cn", "ct", "cm")}
    tally = Tally()

    # How long one CLI write takes on this machine, to aim the CLI kills at its end.
    started = time.monotonic()
    subprocess.run(_cli(db, "mark", "read", "cal"), check=True, env=env, capture_output=True)
    estimate = time.monotonic() - started

    zygote = Zygote(db, env)
    counter = 1
    began = time.monotonic()
    try:
        while time.monotonic() - began + estimate < TIME_BUDGET and (
            tally.kills < TARGET_KILLS or tally.cli_kills < TARGET_CLI_KILLS
        ):
            tally.rounds += 1
            counter += 1
            clis = _start_clis(db, env, slots, counter)
            deadlines = sorted(
                (start + estimate - WINDOW / 2 + rng.uniform(0, WINDOW), name) for name, (start, _) in clis.items()
            )
            # Writer cycles run while the CLI commands do; CLI deadlines are served in time order.
            while deadlines:
                pid = zygote.start(counter, until_ack=tally.writer_kills % 2 == 1)
                kill_at = time.monotonic() + rng.uniform(0, WINDOW)
                while deadlines and deadlines[0][0] <= kill_at:
                    deadline, name = deadlines.pop(0)
                    time.sleep(max(0.0, deadline - time.monotonic()))
                    if clis[name][1].poll() is None:
                        clis[name][1].send_signal(signal.SIGKILL)
                        tally.cli_kills += 1
                time.sleep(max(0.0, kill_at - time.monotonic()))
                os.kill(pid, signal.SIGKILL)
                tally.writer_kills += 1
                counter = _read_writer(zygote.collect(), slots["py"], tally, counter)
                slots["py"].verify(Library.open(db), tally.lost, f"writer cycle {tally.writer_kills}")
            estimate = _finish_clis(clis, slots, tally, estimate)
            library = Library.open(db)
            for name in clis:
                slots[name].verify(library, tally.lost, f"CLI round {tally.rounds}")
            assert library.annotation("other").is_default
    finally:
        zygote.close()
        for _, proc in locals().get("clis", {}).values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    elapsed = time.monotonic() - began
    report = check_store(db)
    print(
        f"\nkill loop (seed {seed}): {elapsed:.1f} s, {tally.kills} kills ({tally.writer_kills} writer script, "
        f"{tally.cli_kills} CLI commands in {tally.rounds} rounds), {tally.acknowledged} acknowledged writes, "
        f"{len(tally.lost)} lost; {len(report.leftovers)} temp files left by killed writes, "
        f"{len(report.good_backups)} good backups"
    )
    assert not tally.lost, "\n".join(tally.lost[:20])
    assert tally.acknowledged > 0
    assert report.ok, report_lines(report)
    assert report.backups and len(report.good_backups) == len(report.backups)
    enough_kills(tally.kills, MIN_KILLS, f"writer and CLI, seed {seed}")
    enough_kills(tally.cli_kills, 1, f"CLI commands, seed {seed}")


def _start_clis(db: Path, env: dict[str, str], slots: dict[str, Slot], i: int) -> dict[str, tuple[float, subprocess.Popen]]:
    """Start the three CLI writers of round `i`, noting in their slots what they try."""
    status = STATUSES[i % len(STATUSES)]
    commands = {
        "cn": (_cli(db, "note", "cn", "--set", str(i)), {"notes": str(i)}),
        "ct": (_cli(db, "tag", "ct", f"+k{i}"), {"tags": (*slots["ct"].fields["tags"], f"k{i}")}),
        "cm": (_cli(db, "mark", status.value, "cm"), {"status": status}),
    }
    started = {}
    for name, (argv, values) in commands.items():
        slots[name].tried.append({**slots[name].fields, **values})
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        started[name] = (time.monotonic(), proc)
    return started


def _finish_clis(clis: dict[str, tuple[float, subprocess.Popen]], slots: dict[str, Slot], tally: Tally, estimate: float) -> float:
    """Wait for the round's CLI commands; count the acknowledged; return the new estimate."""
    for name, (_, proc) in clis.items():
        _, err = proc.communicate(timeout=60)
        if proc.returncode == 0:
            slots[name].acked = 0
            tally.acknowledged += 1
            estimate *= EARLIER
        else:
            assert proc.returncode == -signal.SIGKILL, f"{proc.args[5:]} failed: {err.decode(errors='replace')}"
            estimate *= LATER
    return estimate


def _read_writer(lines: list[str], slot: Slot, tally: Tally, counter: int) -> int:
    """Record what the writer tried and acknowledged; returns the next unused counter."""
    for line in lines:
        word, _, number = line.partition(" ")
        n = int(number)
        if word == "try":
            slot.tried.append({"status": STATUSES[n % len(STATUSES)], "tags": (f"t{n}",), "notes": str(n)})
            counter = max(counter, n + 1)
        elif word == "ack":
            slot.acked = len(slot.tried) - 1
            tally.acknowledged += 3  # status, tags and notes: three writes
    return counter
