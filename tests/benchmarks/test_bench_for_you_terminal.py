"""bench_for_you_terminal end to end on a small store (a smoke test: the figures are read
by people on a quiet machine, never asserted here beyond their order): the copy gets its
decisions and leaves the store as it was; triage's first `f` and the retraining after a
decision are timed from their keys."""

from __future__ import annotations

from pathlib import Path

from benchmarks import bench_for_you_terminal as bench
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

TOPICS = {
    "orl": "offline reinforcement learning from logged data with conservative critics",
    "wm": "world model of the environment imagined rollouts for planning",
    "mab": "multi-armed bandits regret bounds for exploration",
}
OTHER = ("protein folding residues", "compiler passes registers", "galaxy spectra telescopes",
         "soil moisture crops", "music chords melody", "traffic lanes vehicles")


def _store(folder: Path) -> Path:
    papers = [Paper(id=f"{topic}{i}", title=f"{words.split()[0].title()} study {i}", abstract=f"{words} {i}.")
              for topic, words in TOPICS.items() for i in range(10)]
    papers += [Paper(id=f"o{i}", title=f"On {OTHER[i % 6]} {i}", abstract=f"We look at {OTHER[i % 6]} closely.")
               for i in range(30)]
    library = Library.open(folder)
    library.import_papers(papers)
    library.close()
    return folder


def test_the_first_for_you_in_triage_is_timed_from_the_key(tmp_path: Path) -> None:
    store = _store(tmp_path / "store")
    def files() -> dict[str, bytes]:
        return {path.name: path.read_bytes() for path in store.iterdir() if path.is_file()}

    before = files()
    figures = bench.measure(store, runs=1, kind="pty")
    assert files() == before  # the store itself never decided on
    assert 0 < figures["learning_s"] <= figures["learned_s"] < bench.LEARN_TIMEOUT_S
    assert 0 < figures["decision_s"] < bench.LEARN_TIMEOUT_S
    assert figures["peak_rss_mb"] > 0 and figures["runs"] == 1 and figures["reviews"] is True


def test_the_copy_keeps_papers_of_each_search_and_skips_papers_of_none(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    copy, kept_count, skipped_count = bench.decided_copy(_store(tmp_path / "store"), tmp_path / "work", reviews=False)
    library = Library.open(copy)
    try:
        statuses = {pid: library.annotation(pid).status.value for pid in library.annotations}
    finally:
        library.close()
    kept = {pid for pid, status in statuses.items() if status == "to-read"}
    skipped = {pid for pid, status in statuses.items() if status == "skipped"}
    assert {pid.rstrip("0123456789") for pid in kept} == set(TOPICS)
    assert len(skipped) == bench.SKIPPED and all(pid.startswith("o") for pid in skipped)
    assert (kept_count, skipped_count) == (len(kept), len(skipped))
