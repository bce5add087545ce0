"""A second process that takes part of a whole list's abstracts while the build goes on.

A cold build of 19,630 papers is 1.3-1.5 s of CPU in one process, and no one thread of
CPython gets it under a second (benchmarks/README.md has the current figure). With a
core to spare, `SearchIndex.build` starts a child process first thing and shares the
abstracts with it: the parent claims
texts from the front (after its titles and meta fields), the child from the back, `UNIT`
at a time (fewer near the end), under a lock, until they meet. Per unit, each makes the
distinct (word, paper) pairs (`word_pairs.distinct_pairs`) and reads the acronym
definitions (`acronyms.definitions`). Claiming as they go, the two end together whatever
each one's speed: a child that starts slowly (numpy's import from a cold disk) or gets
little CPU takes fewer units, and one that took none is not waited for. The child answers
each unit as it is done, and the parent reads those answers between its own units,
numbering the child's new words in its own vocabulary (one dict lookup per distinct word
of the child's, not per word); at the end it adds the child's pairs and definitions
after its own. The index is the one the one-process build makes (the same pairs and
definitions in the same text order; tests hold both to it).

The child is `python -S -P -m reader_tui.core.search.helper`, started with `subprocess`
(never a bare fork: the TUI builds in a worker thread), with only what it needs on its
path (this package's root, numpy's and rapidfuzz's folders; no `site`, whose `.pth` files
cost a fresh interpreter some 0.05 s). The abstracts go to it in an unlinked temporary
file (no pipe to feed from a thread while the parent works), written while its
interpreter starts; "go" on its stdin says they are all there. The claims are two
counters in that file under a POSIX record lock (`fcntl.lockf`). Its answers come back in
another unlinked file, its stdout. Anything wrong (it cannot start, it fails, an answer
does not parse, it is not done in time) and the parent kills it and does its units
itself: the index is the same either way, only later.

The texts' file: `_MAGIC`, the claims (texts taken from the front and from the back) and
the number of texts (64-bit integers), each text's length in bytes (`array("Q")`), then
the texts in UTF-8 (`surrogatepass`: a lone surrogate goes through as it is). Each unit's
answer: `_UNIT_MAGIC`, its first and end text and the byte lengths of its eight parts
(64-bit each), then the parts: the words it numbered first, joined by newlines (no word
holds one: words are letters and digits); the pairs' runs (word numbers, sizes:
`array("I")`), each pair's paper within its chunk (`array("H")`), the chunks' first pair,
first paper and number of runs (`array("Q")`); and the acronym definitions (`marshal`:
the child is this interpreter; in the order first seen).
"""

from __future__ import annotations

import os
import sys
import time
from array import array
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import accumulate, count, islice
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

_MAGIC = b"reader-tui abstracts 2\n"
#: Where the two claim counters are in the texts' file (after `_MAGIC`).
_CLAIMS = len(_MAGIC)
#: From this many papers on, a whole list's build takes a child process. Measured with two
#: cores free (wall, three runs each): 2,500 papers 0.28-0.31 s against 0.29-0.39 one
#: process alone (the child's 0.22 s of CPU about paid back); 5,000 0.37-0.43 against
#: 0.45-0.51; 8,000 0.55-0.58 against 0.67-0.71.
HELPER_MIN = 5000
#: Cores the 1-minute load average must leave idle for a child where the processes
#: running right now cannot be read (no /proc: macOS): one for this process, most of one
#: for the child. On cores that others keep busy the two processes share what this one
#: alone would get (Linux's autogroup gives a session's processes one share), and the
#: child's start (0.15-0.18 s of CPU) and the merging make the build slower, not faster
#: (with both cores busy: 2.0-2.1 s against 1.4-1.6 s in one process).
IDLE_CORES = 1.5
#: Where they can be read, the processes running right now decide, with the load average
#: only keeping a busy machine out (`IDLE_CORES_NOW`). The average lags by a minute and
#: counts this process's own recent work: on 2 idle cores, just after an import or a
#: benchmark it read 0.5-1.0 and kept the child out, though with it the build took
#: 0.84-1.17 s against 1.17-1.49 s alone; with one other process busy (the average
#: still at 1.1-1.3) the child made it slower, 1.49-1.69 s against 1.32-1.58 s.
IDLE_CORES_NOW = 0.5
LOADAVG = "/proc/loadavg"
#: Abstracts per unit of work at most: about 0.7 MB of text (one of `word_pairs`' chunks);
#: near the end a quarter of what is left, at least `MIN_UNIT` (see `_claim`).
UNIT = 512
MIN_UNIT = 64
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
    POSIX (measured there), and a core to spare besides this process's own right now, on
    a machine not kept busy (`IDLE_CORES_NOW`, `IDLE_CORES`: on busy cores the child only
    adds its start to the build)."""
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
    others = _others_running()  # (threads: a TUI's own other threads count, and keep it out)
    if others is None:
        return cores - load >= IDLE_CORES
    return cores - others >= 2 and cores - load >= IDLE_CORES_NOW


def _others_running() -> int | None:
    """How many threads besides this one are running or ready to run right now
    (/proc/loadavg's fourth field, which counts this one too), or None where it cannot be
    read."""
    try:
        with open(LOADAVG, "rb") as file:
            return max(0, int(file.read().split()[3].split(b"/")[0]) - 1)
    except (OSError, ValueError, IndexError):
        return None


def _claim(fd: int, texts: int, back: bool, patience: float | None = None) -> range | None:
    """The next texts for the front (the parent) or the back (the child), claimed under
    the file's lock; None once the two have met. A claim is `UNIT` texts, fewer near the
    end (a quarter of what is left, at least `MIN_UNIT`), so that neither waits long for
    the other's last one; it never spans a multiple of 65,536 (the postings' segments).
    With `patience`, the lock is waited for that many seconds at most (OSError after)."""
    import fcntl

    if patience is None:
        fcntl.lockf(fd, fcntl.LOCK_EX, 16, _CLAIMS)
    else:  # (the parent: never held up for good by a child stopped with the lock)
        deadline = time.monotonic() + patience
        while True:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 16, _CLAIMS)
                break
            except OSError:  # (held by the child, for a few microseconds as a rule)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.0002)
    try:
        front, rear = array("Q", os.pread(fd, 16, _CLAIMS))
        left = texts - front - rear
        if left <= 0:
            return None
        size = min(UNIT, max(MIN_UNIT, left // 4), left)
        if back:
            end = texts - rear
            start = max(end - size, ((end - 1) >> 16) << 16)
            os.pwrite(fd, array("Q", (rear + end - start,)).tobytes(), _CLAIMS + 8)
        else:
            start = front
            end = min(start + size, ((start >> 16) + 1) << 16)
            os.pwrite(fd, array("Q", (end,)).tobytes(), _CLAIMS)
        return range(start, end)
    finally:
        fcntl.lockf(fd, fcntl.LOCK_UN, 16, _CLAIMS)


#: Each of the child's units in its answer: this, the unit's first and last text, then
#: the byte lengths of its eight parts.
_UNIT_MAGIC = b"rt-unit\n"
_HEAD = len(_UNIT_MAGIC) + 8 * 10


class Helper:
    """A started child (`start`). The parent takes units by `claim` until None, reading
    the child's answers as they come by `absorb`, then `result` adds them; `close` makes
    sure the child is gone."""

    def __init__(self, process: subprocess.Popen, source: IO[bytes], output: IO[bytes], texts: int) -> None:
        self.process = process
        self.texts = texts
        #: the texts the parent took (the first ones); the child's are the rest, from this
        #: one on once `claim` has given None
        self.taken = 0
        self._source = source
        self._output = output
        self._wait = WAIT_S + WAIT_PER_PAPER_S * texts
        self._failed = False
        self._read = 0  # bytes of the answer read
        self._renumbered = array("I")  # the child's word numbers -> the parent's
        self._units: list[tuple[int, int, tuple[array, ...], dict]] = []  # the child's, read

    def claim(self) -> range | None:
        """The parent's next texts, or None once the parent and the child have met (the
        rest, from `taken`, are the child's)."""
        if self._failed:
            return None
        try:
            texts = _claim(self._source.fileno(), self.texts, back=False, patience=self._wait)
        except Exception:  # (no lock to be had, a file cut short: the rest is done here, as if the child had failed)
            texts = None
            self._failed = True
        if texts is not None:
            self.taken = texts.stop
        return texts

    def absorb(self, number: Callable[[str], int]) -> None:
        """Read the units the child has answered since the last look, its new words
        numbered by `number` (between the parent's own units: less to do at the end)."""
        if self._failed:
            return
        try:
            self._absorb(number)
        except Exception:  # a garbled answer: the parent does the child's units
            self._failed = True

    def _absorb(self, number: Callable[[str], int]) -> None:
        import marshal

        from ..process_tuning import load_numpy

        np = load_numpy()
        fd = self._output.fileno()
        size = os.fstat(fd).st_size
        while self._read + _HEAD <= size:
            head = os.pread(fd, _HEAD, self._read)
            if not head.startswith(_UNIT_MAGIC):
                raise ValueError("not the child's answer")
            start, end, *sizes = array("Q", head[len(_UNIT_MAGIC) :])
            total = _HEAD + sum(sizes)
            if self._read + total > size:
                return  # (still being written)
            data = os.pread(fd, total - _HEAD, self._read + _HEAD)
            parts, at = [], 0
            for part in sizes:
                parts.append(data[at : at + part])
                at += part
            words_text, run_words, run_sizes, local, chunk_starts, chunk_firsts, chunk_runs, found = parts
            seen = marshal.loads(found)  # (the same interpreter wrote it)
            child_words = np.frombuffer(run_words, dtype=np.uint32)
            words = words_text.decode("utf-8", "surrogatepass").split("\n") if words_text else []
            if type(seen) is not dict or not 0 <= start < end <= self.texts:
                raise ValueError("not a unit of the child's")
            if len(child_words) and int(child_words.max()) >= len(self._renumbered) + len(words):
                raise ValueError("a word the child did not name")
            # the child's new words numbered here: one lookup each
            self._renumbered.frombytes(np.fromiter(map(number, words), dtype=np.uint32, count=len(words)).tobytes())
            renumbered = np.frombuffer(self._renumbered, dtype=np.uint32)[child_words] if len(child_words) else b""
            self._units.append((start, end, (array("I", bytes(renumbered)), array("I", run_sizes),
                                array("H", local), array("Q", chunk_starts), array("Q", chunk_firsts),
                                array("Q", chunk_runs)), seen))
            self._read += total

    def result(self, number: Callable[[str], int], into: Any) -> dict[tuple[str, tuple[str, ...]], int] | None:
        """Once `claim` has given None: wait for the child, add its pairs (its words
        numbered by `number`) to the `word_pairs.Pairs` `into` (the parent's, of the texts
        before `taken`) and return its acronym definitions (`acronyms.definitions`);
        None, and `into` unchanged, if it failed in any way. The child is gone afterwards."""
        from .acronyms import add

        try:
            if self._failed:
                return None
            if self.taken >= self.texts:
                return {}  # it took nothing: not waited for
            if _waited(self.process, self._wait) != 0:
                return None
            self._absorb(number)
            units = sorted(self._units, key=_first)
            # the child's units must be the texts from `taken` on, end to end
            if [u[0] for u in units] != [self.taken, *(u[1] for u in units[:-1])] or units[-1][1] != self.texts:
                return None
            later = type(into)(into._np)  # (all of them checked before `into` takes any)
            seen: dict = {}
            for _, _, parts, found in units:
                later.extend(*parts)
                add(seen, found)
            into.extend(*later.parts())
            return seen
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


def _first(unit: tuple) -> int:
    return unit[0]


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
        # the texts encoded and written 512 at a time (no copy of them all: the few
        # megabytes freed are reused by the next ones), their lengths then put before them
        head = _MAGIC + array("Q", (0, 0, len(texts))).tobytes() + bytes(8 * len(texts))
        written = os.write(fd, head) - len(head)
        lengths = array("Q")
        for at in range(0, len(texts), 512):
            encoded = [(text or "").encode("utf-8", "surrogatepass") for text in texts[at : at + 512]]
            lengths.extend(map(len, encoded))
            written += os.writev(fd, encoded) - sum(lengths[at:])
        written += os.pwrite(fd, lengths.tobytes(), _CLAIMS + 24) - 8 * len(texts)
        if written:  # (a short write: a full disk)
            raise OSError("the texts were not all written")
        assert process.stdin is not None
        process.stdin.write(b"go\n")  # (a few bytes: the pipe takes them at once)
        process.stdin.flush()
    except Exception:  # (whatever it is, the parent builds alone)
        if process is not None:
            Helper(process, source, output, len(texts)).close()  # type: ignore[arg-type]
        else:
            for file in (source, output):
                if file is not None:
                    file.close()
        return None
    return Helper(process, source, output, len(texts))


def _answer(fd: int) -> None:
    """The child's work, on the texts' file of descriptor `fd`: units claimed from the
    back until the parent and it meet, each answered on stdout as it is done (see
    `Helper._absorb`): its words not named before, its pairs, its acronym definitions."""
    import marshal

    from ..process_tuning import gc_paused, load_numpy
    from .acronyms import definitions
    from .word_pairs import Pairs, distinct_pairs

    np = load_numpy()
    data = os.pread(fd, _CLAIMS + 24, 0)
    if not data.startswith(_MAGIC):
        raise ValueError("not the parent's texts")
    n = array("Q", data[_CLAIMS + 16 : _CLAIMS + 24])[0]
    at = _CLAIMS + 24
    ends = list(accumulate(array("Q", os.pread(fd, 8 * n, at)), initial=0))
    at += 8 * n
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    number = numbers.__getitem__
    named = 0
    pairs = Pairs(np)
    known: dict = {}  # (acronym expansions made, for the next units)
    with gc_paused():
        while (texts := _claim(fd, n, back=True)) is not None:
            a, b = texts.start, texts.stop
            blob = os.pread(fd, ends[b] - ends[a], at + ends[a])
            unit = [str(blob[x - ends[a] : y - ends[a]], "utf-8", "surrogatepass")
                    for x, y in zip(ends[a:b], ends[a + 1 : b + 1])]
            pairs = distinct_pairs(unit, number, a, into=Pairs(np, like=pairs))
            # the words numbered since the last unit: the last ones of the dict
            new = list(islice(reversed(numbers), len(numbers) - named))
            new.reverse()
            named = len(numbers)
            parts = [
                "\n".join(new).encode("utf-8", "surrogatepass"),
                *(part.tobytes() for part in pairs.parts()),
                marshal.dumps(definitions(unit, known)),
            ]
            os.write(1, b"".join([_UNIT_MAGIC, array("Q", [a, b, *map(len, parts)]).tobytes(), *parts]))


def main(argv: Sequence[str] | None = None) -> int:
    """The child: its texts in the file of descriptor `argv[0]` once "go" comes on
    stdin, its answer on stdout."""
    argv = sys.argv[1:] if argv is None else argv
    from ..process_tuning import load_numpy

    load_numpy()  # (while the parent writes the texts)
    from . import acronyms, word_pairs  # noqa: F401

    if sys.stdin.buffer.readline() != b"go\n":
        return 1  # the parent gave up
    _answer(int(argv[0]))
    # Ended at once: the interpreter's own ending frees every object and module one by
    # one, which the parent, waiting for this exit, would wait for too. Nothing is left
    # to flush or close.
    os._exit(0)


if __name__ == "__main__":
    raise SystemExit(main())
