"""A second process that tokenises part of a whole list's abstracts while the build goes on.

A cold build of 19,630 papers is about 1.3-1.5 s of CPU in one process, and no one thread
of CPython gets it under a second (see the README). The machines it runs on have two
cores or more, so `SearchIndex.build` hands a share of the work to a child process, which
runs beside the parent's own: the acronym mining over every abstract and the distinct
(word, paper) pairs (`word_pairs.distinct_pairs`) of the abstracts from `split` on. The
parent meanwhile takes the titles, the meta fields and the abstracts before `split`,
then reads the child's answer and numbers the child's words in its own vocabulary (one
dict lookup per distinct word of the child's, not per word). The index is the same as
the one-process build's: the pairs are the same pairs, and the acronyms the same mining
over the same texts (tests hold both to it).

The child is `python -S -P -m reader_tui.core.search.helper`, started with
`subprocess` (never a bare fork: the TUI builds in a worker thread), with only what it
needs on its path (this package, numpy's and rapidfuzz's folders: no `site`, whose
`.pth` files cost a fresh interpreter some 0.05 s). The abstracts go to it in an
unlinked temporary file that is its stdin (no pipe to feed from a thread while the
parent works), its answer comes back in another that is its stdout. Anything wrong (it
cannot start, it fails, its answer does not parse, it is not done within its time) and
the parent kills it and does that share itself (`None` from `Helper.result`): the index
is the same either way, only slower.

Input: `_MAGIC`, then `split`, the number of texts and the bytes of text (three 64-bit
integers), each text's length in bytes (`array("Q")`) and the texts in UTF-8
(`surrogatepass`: a lone surrogate goes through as it is). Output: `_MAGIC`, the
lengths of its seven parts (64-bit each), then the parts: the child's words by its
numbers, joined by newlines (no word holds one: words are letters and digits); the
pairs' runs (word numbers, sizes: `array("I")`), each pair's paper within its chunk
(`array("H")`), the chunks' first pair, first paper and number of runs (`array("Q")`);
and the acronyms as JSON (a list of [acronym, words], in their order).
"""

from __future__ import annotations

import os
import sys
from array import array
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import accumulate, count
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

_MAGIC = b"reader-tui abstracts 1\n"
#: From this many papers on, a whole list's build takes a child process (measured: at
#: fewer, the child's start, some 0.25 s of an interpreter and numpy's import, is not
#: paid back).
HELPER_MIN = 8000
#: Cores the load average must leave idle for a child: one for this process, most of one
#: for the child. On cores that others keep busy the two processes share what this one
#: alone would get (Linux schedules a session's processes as one), and the child's start
#: and its answer (0.4 s of CPU) make the build slower, not faster (measured: see README).
IDLE_CORES = 1.5
#: The child's share of the abstracts, chosen by measurement so that both processes end
#: about together (the parent has the titles, the meta fields and the layout besides).
SHARE = 0.7
#: Past 65,536 papers the split falls on a multiple of this: the child's chunks of texts
#: then never span two of the postings' segments (`word_pairs._DOC_BITS`: slabs of 2,048).
ALIGN = 2048
#: Seconds the parent waits for the child once its own share is done, plus this per paper:
#: far above what the child takes (0.5 s at 19,630 papers), so only a stuck child is cut.
WAIT_S = 20.0
WAIT_PER_PAPER_S = 0.0002


def _command(fd: int) -> list[str]:
    return [sys.executable, "-S", "-P", "-m", __name__, str(fd)]


def _path() -> str:
    """PYTHONPATH for the child: this package's root and numpy's and rapidfuzz's folders."""
    from importlib.util import find_spec

    folders = [str(Path(__file__).resolve().parents[3])]
    for name in ("numpy", "rapidfuzz"):
        spec = find_spec(name)
        if spec is None or spec.origin is None:
            raise ImportError(name)
        folders.append(str(Path(spec.origin).parent.parent))
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


def split_at(papers: int) -> int:
    """Where the child's share of `papers` abstracts starts (`SHARE`; on a multiple of
    `ALIGN` past one segment of the postings)."""
    split = round(papers * (1 - SHARE))
    if papers > 1 << 16:
        split = round(split / ALIGN) * ALIGN
    return min(max(split, 0), papers)


class Helper:
    """A started child (`start`): `result` reads its answer, `close` makes sure it is gone."""

    def __init__(self, process: subprocess.Popen, output: IO[bytes], split: int, texts: int) -> None:
        self.process = process
        self.split = split
        self._output = output
        self._wait = WAIT_S + WAIT_PER_PAPER_S * texts

    def result(self, number: Callable[[str], int], into: Any) -> dict[tuple[str, tuple[str, ...]], int] | None:
        """Wait for the child, add its pairs (its texts' words numbered by `number`) to the
        `word_pairs.Pairs` `into` and return its texts' acronym definitions
        (`acronyms.definitions`); None, and `into` unchanged, if it failed in any way. The
        child is gone afterwards."""
        try:
            if self.process.wait(timeout=self._wait) != 0:
                return None
            self._output.seek(0)
            return _merged(self._output.read(), number, into)
        except Exception:  # a stuck child, a short or garbled answer: the parent does it
            return None
        finally:
            self.close()

    def close(self) -> None:
        """Kill the child if it still runs (idempotent) and drop its answer."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()
        self._output.close()


def start(texts: Sequence[str | None], split: int) -> Helper | None:
    """A child that tokenises `texts[split:]` and reads their acronym definitions, or
    None when it cannot start. It is started first, so that its interpreter and imports
    run while its texts are written for it."""
    import subprocess
    import tempfile

    source = output = process = None
    try:
        env = dict(os.environ, PYTHONPATH=_path())
        source = tempfile.TemporaryFile()
        output = tempfile.TemporaryFile()
        process = subprocess.Popen(_command(source.fileno()), stdin=subprocess.PIPE, stdout=output,
                                   stderr=subprocess.DEVNULL, env=env, pass_fds=(source.fileno(),))
        encoded = [(text or "").encode("utf-8", "surrogatepass") for text in texts[split:]]
        source.write(_MAGIC)
        source.write(array("Q", (split, len(encoded))).tobytes())
        source.write(array("Q", map(len, encoded)).tobytes())
        source.flush()
        fd = source.fileno()
        for at in range(0, len(encoded), 1024):  # (written as they are: no copy of them all joined)
            os.writev(fd, encoded[at : at + 1024])
        assert process.stdin is not None
        process.stdin.write(b"go\n")  # (a few bytes: the pipe takes them at once)
        process.stdin.flush()
    except (OSError, ImportError, ValueError):
        if process is not None:
            Helper(process, output, split, 0).close()  # type: ignore[arg-type]
        elif output is not None:
            output.close()
        return None
    finally:
        if source is not None:
            source.close()  # (the child has its own descriptor of it)
    return Helper(process, output, split, len(texts))


_PARTS = 8


def _merged(data: bytes, number: Callable[[str], int], into: Any) -> dict[tuple[str, tuple[str, ...]], int]:
    """Parse the child's answer (see the module docstring), add its pairs to `into` and
    return its acronym definitions; ValueError (`into` unchanged) if it does not parse."""
    import json

    np = into._np
    if not data.startswith(_MAGIC):
        raise ValueError("not the child's answer")
    at = len(_MAGIC)
    sizes = array("Q", data[at : at + 8 * _PARTS])
    at += 8 * _PARTS
    if len(sizes) != _PARTS or at + sum(sizes) != len(data):
        raise ValueError("a short answer")
    parts = []
    for size in sizes:
        parts.append(data[at : at + size])
        at += size
    words_text, run_words, run_sizes, local, chunk_starts, chunk_firsts, chunk_runs, acronyms = parts
    words = words_text.decode("utf-8", "surrogatepass").split("\n") if words_text else []
    child_words = np.frombuffer(run_words, dtype=np.uint32)
    if len(child_words) and int(child_words.max()) >= len(words):
        raise ValueError("a word the child did not name")
    seen = {(acronym, tuple(expansion)): n for acronym, expansion, n in json.loads(acronyms.decode("utf-8"))}
    # every distinct word of the child's numbered here: one lookup each
    renumbered = np.fromiter(map(number, words), dtype=np.uint32, count=len(words))
    into.extend(array("I", renumbered[child_words].tobytes()), array("I", run_sizes), array("H", local),
                array("Q", chunk_starts), array("Q", chunk_firsts), array("Q", chunk_runs))
    return seen


def _answer(data: bytes) -> bytes:
    """The child's work: what `_merged` reads, from what `start` wrote."""
    import json

    from ..gc_pause import gc_paused
    from ..memory import bulk_allocations
    from .acronyms import definitions
    from .word_pairs import distinct_pairs

    if not data.startswith(_MAGIC):
        raise ValueError("not the parent's texts")
    at = len(_MAGIC)
    split, n = array("Q", data[at : at + 16])
    at += 16
    bounds = list(accumulate(array("Q", data[at : at + 8 * n]), initial=at + 8 * n))
    if len(bounds) != n + 1 or bounds[-1] != len(data):
        raise ValueError("short texts")
    view = memoryview(data)
    with gc_paused(), bulk_allocations():
        texts = [str(view[a:b], "utf-8", "surrogatepass") for a, b in zip(bounds, bounds[1:])]
        del view
        numbers: defaultdict[str, int] = defaultdict(count().__next__)
        pairs = distinct_pairs(texts, numbers.__getitem__, split)
        seen = definitions(texts)
    parts = [
        "\n".join(numbers).encode("utf-8", "surrogatepass"),
        *(part.tobytes() for part in pairs.parts()),
        json.dumps([[acronym, words, n] for (acronym, words), n in seen.items()]).encode("utf-8"),
    ]
    return b"".join([_MAGIC, array("Q", map(len, parts)).tobytes(), *parts])


def main(argv: Sequence[str] | None = None) -> int:
    """The child: its texts in the file of descriptor `argv[0]` once "go" comes on
    stdin, its answer on stdout."""
    argv = sys.argv[1:] if argv is None else argv
    from ..numeric import load_numpy

    load_numpy()  # (while the parent writes the texts)
    from . import acronyms, word_pairs  # noqa: F401

    if sys.stdin.buffer.readline() != b"go\n":
        return 1  # the parent gave up
    with open(int(argv[0]), "rb") as source:
        source.seek(0)
        data = source.read()
    sys.stdout.buffer.write(_answer(data))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
