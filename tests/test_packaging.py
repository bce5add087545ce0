"""A non-editable install carries the seed list and the stylesheets, and finds them
through package resources rather than paths into a source tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    # the build backend's PEP 517 hook, as `pip wheel --no-build-isolation` calls it (the
    # same wheel, byte for byte), without pip's start-up and copy of the tree: 1.7 s CPU -> 0.5 s
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from hatchling.build import build_wheel; build_wheel(sys.argv[1])", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    (path,) = out.glob("reader_tui-*.whl")
    return path


def test_wheel_carries_seeds_and_styles(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "reader_tui/_bundled/seeds/iclr2026.txt" in names
    assert any(n.startswith("reader_tui/_bundled/styles/") and n.endswith(".tcss") for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "reader-tui = reader_tui.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    # the benchmarks stay in the checkout and the sdist: a user's install does not carry them
    assert not any(n.startswith("benchmarks/") or "/bench" in n for n in names)


def test_installed_wheel_runs_from_outside_the_source_tree(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    env = {**os.environ, "PYTHONPATH": str(target), "HOME": str(tmp_path)}
    env.pop("READER_TUI_DB", None)
    code = "import reader_tui.core.paths as p, sys; print(p.default_seed_path()); print(p.styles_dir())"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    seed, styles = shown.stdout.splitlines()
    assert seed.startswith(str(target)) and styles.startswith(str(target))
    listed = subprocess.run(
        [sys.executable, "-m", "reader_tui", "--db", str(tmp_path / "db"), "list", "--json"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 19
