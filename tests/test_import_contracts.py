"""The layer rules as import-linter contracts (`[tool.importlinter]` in pyproject.toml):
`lint-imports` reads every import statement of the package, those inside functions and
under TYPE_CHECKING too, which the run-time probe of tests/test_layers.py cannot see (an
import of the library inside a search function loads nothing until that function runs)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def lint_imports() -> str:
    """The `lint-imports` of this interpreter's environment (the test extra installs it)."""
    beside = Path(sys.executable).with_name("lint-imports")
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    assert found, 'lint-imports is missing: python -m pip install -e ".[test]"'
    return found


def test_every_import_keeps_the_layer_contracts() -> None:
    # This checkout's package, whatever an editable install elsewhere points at; no cache
    # left in the checkout.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [lint_imports(), "--no-cache", "--no-logo"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and "Analyzed" in done.stdout
