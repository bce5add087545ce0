"""The start's cost in instructions: a figure the machine's load does not move.

`python -m benchmarks.bench_start_instructions --db STORE [--floor] [--json]` runs, under
valgrind's callgrind, a TUI start as `reader-tui --db STORE` makes it (the CLI imported,
the collector held off, the store opened, the app run headless at 140x45) up to the first
paint of the paper list, where the process ends; and, with `--floor`, a bare interpreter
(`python -c pass`) and the bare Textual app of `bench_terminal` up to its first paint.
It prints the instructions each executed, in millions.

Why: on a shared machine the wall time of a start moves by a third from one minute to
the next (the bare Textual app took 0.28 s at one hour and 0.47 s at another), so a change
worth 5 % of a start cannot be seen in it; the instructions executed are the same from run
to run (within 0.3 %). They are not time (a cache miss costs more than an addition) but a
change that removes work removes instructions. Callgrind runs the program some 50 times
slower: a start takes about 40 s.

The store's index caches are used as they are (a start loads them on a worker after the
first frame, so they do not count); the parsed-CSS cache is first written by one run of
the same start (`WARM_PROBE`).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench_terminal import FLOOR_APP, compile_tree, tui_env

START_PROBE = """
import os, sys
from pathlib import Path
from reader_tui.cli.main import build_parser  # noqa: F401 - the command line, imported as `reader-tui` does
from reader_tui.core.process_tuning import tune_for_tui_start
tune_for_tui_start()
from reader_tui.core.library.library import Library
library = Library.open(Path(sys.argv[1]), background_writes=True)
from reader_tui.tui import paste_input
paste_input.install()
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList

def first_paint(self, y):
    print("first paint", flush=True)
    os._exit(0)

PaperList.render_line = first_paint
create_app(library).run(headless=True, size=(140, 45))
"""
"""`cli.main.cmd_tui` up to the first paint of the list (headless: no terminal under valgrind)."""

WARM_PROBE = START_PROBE.replace(
    """    print("first paint", flush=True)
    os._exit(0)""",
    """    from reader_tui.tui import css_cache
    css_cache.save(self.app.css_cache_path)  # what a real start saves 2 s in
    print("first paint", flush=True)
    os._exit(0)""",
)
"""The same start, run once before the count without valgrind, saving Textual's parsed CSS
as a start does (`tui.css_cache`): its keys depend on the order the widgets' CSS came in,
so a cache written by another kind of run (a test, a session that opened dialogs first)
may lack some of the start's rules."""

FLOOR_PROBE = FLOOR_APP.replace(
    "Floor().run()",
    """import os
def _first_paint():
    print("first paint", flush=True)
    os._exit(0)
Floor.on_mount = lambda self: self.call_after_refresh(_first_paint)
Floor().run(headless=True, size=(140, 45))""",
)
"""The bare Textual app, ended once its rows were first drawn."""

_COLLECTED = re.compile(r"Collected : (\d+)")


def count_instructions(arguments: Sequence[str]) -> int:
    """Instructions executed by `python ARGUMENTS` (all its threads), under callgrind."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *arguments],
        capture_output=True, text=True, env=tui_env(), timeout=600,
    )
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run of {' '.join(arguments)[:60]} failed: {done.stderr.strip()[-300:]}")
    return int(found.group(1))


def measure(db: Path, floor: bool) -> dict[str, float]:
    """Millions of instructions: the TUI's start to its first frame, and with `floor` the
    bare interpreter's and the bare Textual app's."""
    compile_tree()  # bytecode as an installed package has it: compiling is not the start's
    subprocess.run([sys.executable, "-c", WARM_PROBE, str(db)], env=tui_env(), capture_output=True, timeout=120, check=True)
    figures = {"start_minstr": count_instructions(["-c", START_PROBE, str(db)]) / 1e6}
    if floor:
        figures["floor_interpreter_minstr"] = count_instructions(["-c", "pass"]) / 1e6
        with tempfile.TemporaryDirectory(prefix="reader-tui-floor-") as folder:
            probe = Path(folder) / "floor_probe.py"
            probe.write_text(FLOOR_PROBE, encoding="utf-8")
            figures["floor_textual_minstr"] = count_instructions([str(probe)]) / 1e6
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_start_instructions",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the store to start on")
    parser.add_argument("--floor", action="store_true", help="also count a bare interpreter and a bare Textual app")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("bench_start_instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    figures = measure(args.db, args.floor)
    if args.json:
        print(json.dumps(figures))
        return 0
    labels = {
        "start_minstr": "TUI start to the list's first paint",
        "floor_interpreter_minstr": "floor: python -c pass",
        "floor_textual_minstr": "floor: a bare Textual app to its first paint",
    }
    for key, value in figures.items():
        print(f"{labels[key]:50} {value:8.1f} M instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
