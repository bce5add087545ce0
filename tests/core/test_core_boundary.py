"""The core is usable without Textual: the CLI and scripts stay fast, and the domain
cannot grow a dependency on the UI by accident."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "reader_tui" / "core"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_never_imports_textual_or_rich() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 5
    offenders = {
        str(path.relative_to(CORE)): sorted(m for m in imported_modules(path) if m.split(".")[0] in {"textual", "rich"})
        for path in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}
