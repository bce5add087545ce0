"""A restore of an annotations file cut short says that what lay past the cut cannot be
read, rather than a count of lost annotations that looks exact (issue 12, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.cli.doctor import run_doctor
from reader_tui.core.library.doctor import plan_annotations_restore
from reader_tui.core.library.doctor.salvage import salvage_annotations
from reader_tui.core.library.files import ANNOTATIONS_FILE
from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper


@pytest.fixture
def thirteen(tmp_path: Path) -> Path:
    folder = tmp_path / "lib"
    lib = Library.open(folder)
    lib.import_papers([Paper(id=f"p{i:02}", title=f"Paper {i}") for i in range(13)])
    for i in range(13):
        lib.set_notes(f"p{i:02}", f"note {i}")
    path = folder / ANNOTATIONS_FILE
    assert len(json.loads(path.read_bytes())["annotations"]) == 13
    path.write_bytes(path.read_bytes()[:1900])
    return folder


def test_a_file_cut_short_says_the_rest_cannot_be_read_not_a_count(
    thirteen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = (thirteen / ANNOTATIONS_FILE).read_bytes()
    salvage = salvage_annotations(raw)
    readable = len(salvage.annotations)
    assert readable < 13 and len(salvage.named) - readable == 1  # the count that looked exact
    plan = plan_annotations_restore(thirteen)
    assert plan is not None and plan.cut_at is not None and plan.cut_at <= 1900
    assert raw[: plan.cut_at].rstrip().endswith(b"}")  # the cut follows the last whole record
    assert run_doctor(thirteen, restore=False) == 1
    out = capsys.readouterr().out
    assert f"the part after byte {plan.cut_at} cannot be read, so how many annotations it held is unknown" in out
    assert "annotations named in the damaged file cannot be recovered" not in out
    assert "how many there were is unknown" in out


def test_damage_in_the_middle_still_counts_what_it_names() -> None:
    whole = json.dumps({"annotations": {"1": {"paper_id": "p00", "notes": "x"}, "2": {"paper_id": "p01", "notes": "y"}}})
    broken = whole.replace('"notes": "x"', '"notes": x"').encode()  # readable again after the damage
    salvage = salvage_annotations(broken)
    assert salvage.cut_at is None and set(salvage.annotations) == {"p01"} and salvage.named == {"p00", "p01"}
