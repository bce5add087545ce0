"""Shared by the kill -9 tests that kill a command at a random moment of its run: the
moment is a random fraction of how long such a command takes on this machine now, learnt
as the test goes, never a fixed number of seconds. (Imported as `tests.kill_aim`: pytest
puts the repository root on the path.)

Fixed delays aimed right on one machine miss on another: on a fresh, faster image the
syncs and imports were over before their kill, and the tests failed for want of kills.
And a machine too slow or too busy to aim a kill (others' work on a shared 2-core box)
lands too few in the test's time: such a run proved nothing wrong, only too little, so
it skips and says why (`enough_kills`) instead of failing; what the kills that landed
show (nothing acknowledged lost) is asserted before."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass

import pytest

#: How often a command's end is looked for while its kill is waited for.
POLL_S = 0.005
#: A killed command took longer than the aim assumed: the aim moves this much later.
LATER = 1.1


@dataclass
class KillAim:
    """How long the command takes here (`seconds`), and the window of its run in which it
    is killed: from `earliest` to `latest` times that."""

    seconds: float
    earliest: float
    latest: float

    def run(self, proc: subprocess.Popen, fraction: float, *, group: bool = False) -> bool:
        """Let `proc` (started just now) run for `fraction` (0-1: across the window) of the
        aim, then SIGKILL it (its whole process group with `group`). True if the kill ended
        it; False if it ended first, and then its run is what the aim takes from now on."""
        started = time.monotonic()
        deadline = started + (self.earliest + fraction * (self.latest - self.earliest)) * self.seconds
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(POLL_S)
        if proc.poll() is None:
            if group:
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.returncode == -signal.SIGKILL:
            self.seconds *= LATER
            return True
        self.seconds = time.monotonic() - started  # within POLL_S of its end, or of the kill that came too late
        return False


def enough_kills(kills: int, needed: int, what: str) -> None:
    """Skip the test, saying why, when it landed fewer than `needed` kills (`what`: what
    was killed, and how to run it again): the machine was too slow, or too busy, to aim
    enough kills in the test's time. Called once the test's other checks have passed."""
    if kills < needed:
        pytest.skip(f"only {kills} of the {needed} kills needed ({what}): this machine was too slow or busy to aim them")
