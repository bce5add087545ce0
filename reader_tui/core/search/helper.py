"""A second process that takes part of a whole list's abstracts while the build goes on.

A cold build of 19,630 papers is 1.3-1.5 s of CPU in one process, and no one thread of
CPython gets it under a second (see the README). With a core to spare, `SearchIndex.build`
starts a child process first thing and shares the abstracts with it: the texts are cut
into units of `UNIT` abstracts, the parent takes units from the front (after its titles
and meta fields), the child from the back, each claiming the next one under a lock until
they meet. Per unit, each makes the distinct (word, paper) pairs
(`word_pairs.distinct_pairs`) and reads the acronym definitions (`acronyms.definitions`).
Claiming as they go, the two end together whatever each one's speed: a child that starts
slowly (numpy's import from a cold disk) or gets little CPU simply takes fewer units, and
one that took none is not waited for. The parent then numbers the child's words in its
own vocabulary (one dict lookup per distinct word of the child's, not per word) and adds
its pairs and definitions after its own. The index is the one the one-process build makes
(the same pairs and definitions in the same text order; tests hold both to it).

The child is `python -S -P -m reader_tui.core.search.helper`, started with `subprocess`
(never a bare fork: the TUI builds in a worker thread), with only what it needs on its
path (this package's root, numpy's and rapidfuzz's folders; no `site`, whose `.pth` files
cost a fresh interpreter some 0.05 s). The abstracts go to it in an unlinked temporary
file (no pipe to feed from a thread while the parent works), written while its
interpreter starts; "go" on its stdin says they are all there. The claims are two
counters in that file under a POSIX record lock (`fcntl.lockf`). Its answer comes back
in another unlinked file, its stdout. Anything wrong (it cannot start, it fails, its
answer does not parse, it is not done in time) and the parent kills it and does its
units itself: the index is the same either way, only later.

The texts' file: `_MAGIC`, the claims (units taken from the front and from the back),
the number of texts and `UNIT` (64-bit integers each), each text's length in bytes
(`array("Q")`), then the texts in UTF-8 (`surrogatepass`: a lone surrogate goes through
as it is). The answer: `_MAGIC`, the first unit it did, the lengths of its eight parts
(64-bit each), then the parts: its words by its numbers, joined by newlines (no word holds
one: words are letters and digits); the pairs' runs (word numbers, sizes: `array("I")`),
each pair's paper within its chunk (`array("H")`), the chunks' first pair, first paper
and number of runs (`array("Q")`); and the acronym definitions (`marshal`: the child is
this interpreter; in the order first seen).
"""

from __future__ import annotations

import os
import sys
from array import array
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import accumulate, count
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

_MAGIC = b"reader-tui abstracts 2\n"
#: Where the two claim counters are in the texts' file (after `_MAGIC`).
_CLAIMS = len(_MAGIC)
#: From this many papers on, a whole list's build takes a child process (measured: at
#: fewer, the child's start, some 0.25 s of an interpreter and numpy's import, is not
#: paid back).
HELPER_MIN = 8000
#: Cores the load average must leave idle for a child: one for this process, most of one
#: for the child. On cores that others keep busy the two processes share what this one
#: alone would get (Linux schedules a session's processes as one), and the child's start
#: and its answer (0.4 s of CPU) make the build slower, not faster (measured: see README).
IDLE_CORES = 1.5
#: Abstracts per unit of work: 39 units at 19,630 papers, about 0.7 MB of text each (one
#: or two of `word_pairs`' chunks). A divisor of 65,536: no unit spans two of the postings'
#: segments.
UNIT = 512
#: Seconds the parent waits for the child once its own units are done, plus this per
#: paper: far above what the child's last unit takes, so only a stuck child is cut.
WAIT_S = 20.0
WAIT_PER_PAPER_S = 0.0002


def _command(fd: int) -> list[str]:
    return [sys.executable, "-S", "-P", "-m", __name__, str(fd)]


def _path() -> str:
    """PYTHONPATH for the child: this package's root and numpy's and rapidfuzz's folders."""
    from importlib.util import find_spec

    here = os.path.dirname(os.path.abspath(__file__))
    folders = [os.path.dirname(os.path.dirname(os.path.dirname(here)))]
    for name in ("numpy", "rapidfuzz"):
        spec = find_spec(name)
        if spec is None or spec.origin is None:
            raise ImportError(name)
        folders.append(os.path.dirname(os.path.dirname(spec.origin)))
    return os.pathsep.join(dict.fromkeys(folders))


def wanted(papers: int) -> bool:
    """Whether a whole list's build of `papers` papers should take a child: enough papers,
    POSIX (measured there), and a core to spare besides this process's own (`IDLE_CORES`,
    by the load average: on busy cores the child only adds its start to the build)."""
    if papers < HELPER_MIN or os.name != "posix":
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (macOS)
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # (no load average to read)
        load = 0.0
    return cores - load >= IDLE_CORES


def _claim(fd: int, units: int, back: bool) -> int | None:
    """The next unit for the front (the parent) or the back (the child), claimed under
    the file's lock; None once the two have met."""
    import fcntl

    fcntl.lockf(fd, fcntl.LOCK_EX, 16, _CLAIMS)
    try:
        front_taken, back_taken = array("Q", os.pread(fd, 16, _CLAIMS))
        if front_taken + back_taken >= units:
            return None
        if back:
            os.pwrite(fd, array("Q", (back_taken + 1,)).tobytes(), _CLAIMS + 8)
            return units - 1 - back_taken
        os.pwrite(fd, array("Q", (front_taken + 1,)).tobytes(), _CLAIMS)
        return front_taken
    finally:
        fcntl.lockf(fd, fcntl.LOCK_UN, 16, _CLAIMS)


class Helper:
    """A started child (`start`). The parent takes units by `claim` until None, then
    `result` reads the child's; `close` makes sure the child is gone."""

    def __init__(self, process: subprocess.Popen, source: IO[bytes], output: IO[bytes], texts: int) -> None:
        self.process = process
        self.texts = texts
        self.units = -(-texts // UNIT)
        self.unit = UNIT
        #: units the parent took (the first ones); the child's are the rest
        self.taken = 0
        self._source = source
        self._output = output
        self._wait = WAIT_S + WAIT_PER_PAPER_S * texts
        self._failed = False

    def claim(self) -> range | None:
        """The texts of the parent's next unit, or None once the parent and the child
        have met (the rest, from `child_start`, are the child's)."""
        try:
            unit = _claim(self._source.fileno(), self.units, back=False)
        except OSError:  # (no lock to be had: the rest is done here, as if the child had failed)
            unit = None
            self._failed = True
        if unit is None:
            return None
        self.taken = unit + 1
        return range(unit * self.unit, min(self.texts, (unit + 1) * self.unit))

    @property
    def child_start(self) -> int:
        """The first text of the child's units, once `claim` has given None."""
        return min(self.texts, self.taken * self.unit)

    def result(self, number: Callable[[str], int], into: Any) -> dict[tuple[str, tuple[str, ...]], int] | None:
        """Once `claim` has given None: wait for the child, add its pairs (its words
        numbered by `number`) to the `word_pairs.Pairs` `into` (the parent's, of the texts
        before `child_start`) and return its acronym definitions (`acronyms.definitions`);
        None, and `into` unchanged, if it failed in any way. The child is gone afterwards."""
        try:
            if self._failed:
                return None
            if self.child_start >= self.texts:
                return {}  # it took nothing: not waited for
            if _waited(self.process, self._wait) != 0:
                return None
            self._output.seek(0)
            return _merged(self._output.read(), self.taken, number, into)
        except Exception:  # a stuck child, a short or garbled answer: the parent does its units
            return None
        finally:
            self.close()

    def close(self) -> None:
        """Kill the child if it still runs (idempotent) and drop the files."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()
        self._source.close()
        self._output.close()


def _waited(process: subprocess.Popen, timeout: float) -> int:
    """`process.wait(timeout)`, told of the exit at once where Linux can (a pidfd):
    `Popen.wait` with a timeout polls, sleeping up to 50 ms between looks."""
    import select

    try:
        fd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):  # (not Linux 5.3 or later)
        return process.wait(timeout=timeout)
    try:
        if not select.select([fd], [], [], timeout)[0]:
            raise TimeoutError("the child is not done")
    finally:
        os.close(fd)
    return process.wait()


def start(texts: Sequence[str | None]) -> Helper | None:
    """A child to share `texts` with (see the module docstring), or None when it cannot
    start. It is started first, so that its interpreter and imports run while the texts
    are written for it."""
    import subprocess
    import tempfile

    source = output = process = None
    try:
        env = dict(os.environ, PYTHONPATH=_path())
        source = tempfile.TemporaryFile()
        output = tempfile.TemporaryFile()
        fd = source.fileno()
        process = subprocess.Popen(_command(fd), stdin=subprocess.PIPE, stdout=output, stderr=subprocess.DEVNULL,
                                   env=env, pass_fds=(fd,))
        encoded = [(text or "").encode("utf-8", "surrogatepass") for text in texts]
        os.write(fd, _MAGIC + array("Q", (0, 0, len(encoded), UNIT)).tobytes() + array("Q", map(len, encoded)).tobytes())
        for at in range(0, len(encoded), 1024):  # (written as they are: no copy of them all joined)
            os.writev(fd, encoded[at : at + 1024])
        del encoded
        assert process.stdin is not None
        process.stdin.write(b"go\n")  # (a few bytes: the pipe takes them at once)
        process.stdin.flush()
    except (OSError, ImportError, ValueError):
        if process is not None:
            Helper(process, source, output, len(texts)).close()  # type: ignore[arg-type]
        else:
            for file in (source, output):
                if file is not None:
                    file.close()
        return None
    return Helper(process, source, output, len(texts))


_PARTS = 8


def _merged(data: bytes, taken: int, number: Callable[[str], int], into: Any) -> dict[tuple[str, tuple[str, ...]], int]:
    """Parse the child's answer (see the module docstring), add its pairs to `into` and
    return its acronym definitions; ValueError (`into` unchanged) if it does not parse or
    does not start at unit `taken`."""
    import marshal

    np = into._np
    if not data.startswith(_MAGIC):
        raise ValueError("not the child's answer")
    at = len(_MAGIC)
    head = array("Q", data[at : at + 8 * (1 + _PARTS)])
    at += 8 * (1 + _PARTS)
    first, *sizes = head
    if len(sizes) != _PARTS or at + sum(sizes) != len(data) or first != taken:
        raise ValueError("a short answer, or not for the units left")
    parts = []
    for size in sizes:
        parts.append(data[at : at + size])
        at += size
    words_text, run_words, run_sizes, local, chunk_starts, chunk_firsts, chunk_runs, acronyms = parts
    words = words_text.decode("utf-8", "surrogatepass").split("\n") if words_text else []
    child_words = np.frombuffer(run_words, dtype=np.uint32)
    if len(child_words) and int(child_words.max()) >= len(words):
        raise ValueError("a word the child did not name")
    seen = marshal.loads(acronyms)  # (the same interpreter wrote it)
    if type(seen) is not dict:
        raise ValueError("no acronym definitions")
    # every distinct word of the child's numbered here: one lookup each
    renumbered = np.fromiter(map(number, words), dtype=np.uint32, count=len(words))
    into.extend(array("I", renumbered[child_words].tobytes()), array("I", run_sizes), array("H", local),
                array("Q", chunk_starts), array("Q", chunk_firsts), array("Q", chunk_runs))
    return seen


def _answer(fd: int) -> bytes:
    """The child's work, on the texts' file of descriptor `fd`: units claimed from the
    back until the parent and it meet, answered as `_merged` reads it."""
    import marshal

    from ..gc_pause import gc_paused
    from ..numeric import load_numpy
    from .acronyms import add, definitions
    from .word_pairs import Pairs, distinct_pairs

    np = load_numpy()
    data = os.pread(fd, len(_MAGIC) + 32, 0)
    if not data.startswith(_MAGIC):
        raise ValueError("not the parent's texts")
    n, unit = array("Q", data[_CLAIMS + 16 : _CLAIMS + 32])
    units = -(-n // unit)
    at = _CLAIMS + 32
    lengths = array("Q", os.pread(fd, 8 * n, at))
    ends = list(accumulate(lengths, initial=0))
    at += 8 * n
    done: list[tuple[int, Any, dict]] = []
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    number = numbers.__getitem__
    with gc_paused():
        pairs = Pairs(np)
        while (which := _claim(fd, units, back=True)) is not None:
            a, b = which * unit, min(n, (which + 1) * unit)
            blob = os.pread(fd, ends[b] - ends[a], at + ends[a])
            texts = [str(blob[x - ends[a] : y - ends[a]], "utf-8", "surrogatepass")
                     for x, y in zip(ends[a:b], ends[a + 1 : b + 1])]
            pairs = distinct_pairs(texts, number, a, into=Pairs(np, like=pairs))
            done.append((which, pairs, definitions(texts)))
    done.reverse()  # (claimed from the back: put in text order)
    # the units' pairs one after another, as `Pairs.parts` gives them
    whole = (array("I"), array("I"), array("H"), array("Q"), array("Q"), array("Q"))
    seen: dict = {}
    for _, part, found in done:
        run_words, run_sizes, local, chunk_starts, chunk_firsts, chunk_runs = part.parts()
        whole[3].extend([start + len(whole[2]) for start in chunk_starts])
        for into, more in zip(whole, (run_words, run_sizes, local, None, chunk_firsts, chunk_runs)):
            if more is not None:
                into.extend(more)
        add(seen, found)
    parts = [
        "\n".join(numbers).encode("utf-8", "surrogatepass"),
        *(part.tobytes() for part in whole),
        marshal.dumps(seen),
    ]
    first = done[0][0] if done else units
    return b"".join([_MAGIC, array("Q", [first, *map(len, parts)]).tobytes(), *parts])


def main(argv: Sequence[str] | None = None) -> int:
    """The child: its texts in the file of descriptor `argv[0]` once "go" comes on
    stdin, its answer on stdout."""
    argv = sys.argv[1:] if argv is None else argv
    from ..numeric import load_numpy

    load_numpy()  # (while the parent writes the texts)
    from . import acronyms, word_pairs  # noqa: F401

    if sys.stdin.buffer.readline() != b"go\n":
        return 1  # the parent gave up
    sys.stdout.buffer.write(_answer(int(argv[0])))
    sys.stdout.buffer.flush()
    # Ended at once: the interpreter's own ending frees every object and module one by
    # one, which the parent, waiting for this exit, would wait for too. Nothing is left
    # to flush or close.
    os._exit(0)


if __name__ == "__main__":
    raise SystemExit(main())
