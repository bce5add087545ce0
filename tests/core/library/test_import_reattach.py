"""A lost catalog rebuilt from another list: annotations left under the ids of the
bundled seed papers follow them onto the papers they merge into (issue 12, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader_tui.cli import main
from reader_tui.core.library.library import Library, _merge_annotations
from reader_tui.core.model import Annotation, Status

DUMP = Path(__file__).resolve().parents[2] / "fixtures" / "import_openreview" / "two_seed_papers.jsonl"


def test_seed_annotations_reattach_after_the_catalog_is_lost(
    tmp_path: Path, seed_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("READER_TUI_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "db"
    library = Library.open(folder, seed=seed_path)
    seed_ids = list(library.papers)[:2]  # the two papers the dump fixture holds
    library.set_status(seed_ids, Status.READ)
    library.set_notes(seed_ids[1], "seed note")
    (folder / "catalog.json").unlink()

    assert main(["--db", str(folder), "--no-seed", "import", str(DUMP)]) == 0
    library = Library.open(folder)
    assert len(library) == 2 and not any(library.annotation(pid).status is Status.READ for pid in library.papers)
    library.set_notes("KrOtOvHp02", "dump note")  # the dump's paper has a note of its own

    assert main(["--db", str(folder), "--no-seed", "import", str(seed_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert out.endswith("; annotations of 2 papers reattached")
    library = Library.open(folder)
    assert library.annotation("AcTiVeRd01").status is Status.READ
    assert library.annotation("KrOtOvHp02").status is Status.READ
    assert library.annotation("KrOtOvHp02").notes == "dump note\n\nseed note"
    assert not set(seed_ids) & set(library.annotations)  # no orphan left behind
    assert len(library) == 19


def test_merging_two_annotations_later_change_wins_tags_joined_notes_both() -> None:
    ours = Annotation(status=Status.READING, tags=("a",), notes="mine", changed={"status": "2025-01-02", "tags": "2025-01-01"})
    theirs = Annotation(status=Status.READ, tags=("b", "A"), notes="theirs", changed={"status": "2025-01-01", "notes": "2025-01-03"},
                        history=[["2025-01-01", "read"]])
    merged = _merge_annotations(ours, theirs)
    assert merged.status is Status.READING  # ours changed later
    assert merged.tags == ("a", "b") and merged.notes == "mine\n\ntheirs"
    assert merged.history == [["2025-01-01", "read"]] and merged.changed["notes"] == "2025-01-03"
    assert _merge_annotations(Annotation(notes="same"), Annotation(notes="same")).notes == "same"
