"""How fast this machine is right now: one fixed piece of Python, timed again and again.

    python -m benchmarks.machine_speed [--samples 20] [--every 12] [--additions 20000000]

Each sample runs the same loop of additions in a fresh interpreter and prints the CPU
time it took (the interpreter's start, about 0.05 s, included), with the time of day;
the last line gives the fastest, the median and the slowest. On a shared machine the
same work takes a different time from one minute to the next, so a figure of this
project (the test suite's time, a start-up time) is only comparable with another taken
in minutes when this probe ran about as fast.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

LOOP = "x = 0\nfor i in range({n}):\n    x += i\n"


def sample(additions: int) -> float:
    """Seconds of CPU (user and system) a fresh interpreter takes for `additions` additions."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", LOOP.format(n=additions)], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20, help="how many times to time the loop")
    parser.add_argument("--every", type=float, default=12.0, help="seconds from one sample's start to the next")
    parser.add_argument("--additions", type=int, default=20_000_000, help="the loop's length")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.every < 0 or args.additions < 1:
        parser.error("--samples and --additions must be at least 1, --every at least 0")
    seconds = []
    for n in range(args.samples):
        started = time.monotonic()
        seconds.append(sample(args.additions))
        print(f"{time.strftime('%H:%M:%S', time.gmtime())} UTC  {seconds[-1]:.2f} s", flush=True)
        if n + 1 < args.samples:
            time.sleep(max(0.0, args.every - (time.monotonic() - started)))
    print(f"{args.additions:,} additions, {len(seconds)} samples: fastest {min(seconds):.2f} s, "
          f"median {statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
