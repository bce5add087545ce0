"""The README and docs/ kept navigable: every relative link points at a file that exists,
and the README stays a user's page (the developer material lives in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "benchmarks" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_relative_links_point_at_files_that_exist() -> None:
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert broken == []


def test_the_readme_and_the_map_stay_short() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 300
    assert len((REPO / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()) <= 150
