"""The layer rules of docs/architecture.md, enforced (Harlequin's way): each
layer's modules are imported in a fresh interpreter and `sys.modules` is checked for what
they pulled in, directly or through anything else. A rule broken at any depth, by an
absolute, relative or lazy-at-import-time import, fails here.

And no import circle between the modules of `reader_tui`: module-level imports must form
no cycle at all; imports deferred into functions or `TYPE_CHECKING` blocks only the known
cycles below, which are being removed."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "reader_tui"

# Run in a fresh interpreter: import the given modules one at a time and report, for each,
# the modules that importing it loaded first.
PROBE = r"""
import importlib, json, sys
loaded = {}
for name in sys.argv[1:]:
    before = set(sys.modules)
    importlib.import_module(name)
    loaded[name] = sorted(set(sys.modules) - before)
print(json.dumps(loaded))
"""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: every module of reader_tui, read from the tree (`__main__` runs the command: not imported)
MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if path.stem != "__main__"}

CORE_OWN = [
    f"reader_tui.core.{path.stem}"
    for path in sorted((PACKAGE / "core").glob("*.py"))
    if path.stem != "__init__"
]


def loaded_by(*packages: str) -> dict[str, list[str]]:
    """For each module of `packages` (and their subpackages, recursively), the modules its
    import loaded first, in a fresh interpreter with nothing of the project imported."""
    names = sorted(name for name in MODULES if under(name, *packages))  # a package before its modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *names], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def breaches(loaded: dict[str, list[str]], allowed) -> dict[str, list[str]]:
    """The modules each importer loaded that `allowed(name)` refuses."""
    found = {importer: [m for m in modules if not allowed(m)] for importer, modules in loaded.items()}
    return {importer: modules for importer, modules in found.items() if modules}


def top(name: str) -> str:
    return name.split(".")[0]


def project(name: str) -> bool:
    return top(name) in {"reader_tui", "benchmarks"}


def under(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


UI = ("textual", "rich")


def test_core_own_modules_load_only_core_text_and_no_ui() -> None:
    loaded = loaded_by(*CORE_OWN)
    assert len(loaded) == len(CORE_OWN) > 3
    own = {"reader_tui", "reader_tui.core", *CORE_OWN}
    assert breaches(loaded, lambda m: top(m) not in UI and (not project(m) or m in own or under(m, "reader_tui.core.text"))) == {}


def test_core_text_imports_nothing_else_of_the_project() -> None:
    loaded = loaded_by("reader_tui.core.text")
    assert len(loaded) > 3
    assert breaches(loaded, lambda m: top(m) not in UI and (not project(m) or m in {"reader_tui", "reader_tui.core"} or under(m, "reader_tui.core.text"))) == {}


@pytest.mark.parametrize("layer", ["formats", "search", "related"])
def test_formats_search_related_use_only_core_and_text_never_the_library(layer: str) -> None:
    package = f"reader_tui.core.{layer}"
    loaded = loaded_by(package)
    assert len(loaded) > 2
    allowed = {"reader_tui", "reader_tui.core", *CORE_OWN}
    assert breaches(
        loaded,
        lambda m: top(m) not in UI
        and (not project(m) or m in allowed or under(m, "reader_tui.core.text", "reader_tui.core.reviews", package)),
    ) == {}


def test_core_reviews_uses_only_core_modules_and_text() -> None:
    # The forum records and scores are read by formats, search and the library alike:
    # they must not reach back into any of them.
    loaded = loaded_by("reader_tui.core.reviews")
    allowed = {"reader_tui", "reader_tui.core", *CORE_OWN}
    assert breaches(
        loaded,
        lambda m: top(m) not in UI
        and (not project(m) or m in allowed or under(m, "reader_tui.core.text", "reader_tui.core.reviews")),
    ) == {}


def test_the_whole_core_never_loads_textual_the_tui_or_the_cli() -> None:
    loaded = loaded_by("reader_tui.core")
    assert "reader_tui.core.library.library" in loaded
    assert breaches(loaded, lambda m: top(m) not in {*UI, "benchmarks"} and not under(m, "reader_tui.tui", "reader_tui.cli")) == {}


def test_the_cli_never_loads_textual_nor_the_tui_until_the_tui_command_runs() -> None:
    loaded = loaded_by("reader_tui.cli")
    assert "reader_tui.cli.main" in loaded and len(loaded) > 5
    assert breaches(loaded, lambda m: top(m) not in {*UI, "benchmarks"} and not under(m, "reader_tui.tui")) == {}


def test_the_tui_uses_core_never_the_cli_and_nothing_imports_the_benchmarks() -> None:
    loaded = loaded_by("reader_tui")
    assert "reader_tui.tui.app" in loaded and "textual" in {top(m) for ms in loaded.values() for m in ms}
    assert breaches(loaded, lambda m: top(m) != "benchmarks") == {}
    tui = {importer: modules for importer, modules in loaded.items() if under(importer, "reader_tui.tui")}
    assert breaches(tui, lambda m: not under(m, "reader_tui.cli")) == {}


# --- import cycles ---------------------------------------------------------------------

#: deferred imports (in a function or under TYPE_CHECKING) that close a cycle today. Each is
#: being removed by the issue 13 refactoring; delete its line here when it goes (the test
#: fails on a line that no longer matches, so this list only shrinks).
KNOWN_DEFERRED_CYCLE_EDGES: set[tuple[str, str]] = set()


def targets(importer: str, node: ast.Import | ast.ImportFrom, is_package: bool) -> list[str]:
    """The project modules an import statement names (`from pkg import mod` names the
    module `pkg.mod`; `from mod import name` names `mod`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = importer.split(".")[: None if is_package else -1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    return [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in MODULES else prefix for alias in node.names]


@functools.cache  # the tree does not change during a run: parsed once for the three tests that read it
def import_edges() -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """(module-level edges, deferred edges) between the modules of reader_tui."""
    eager: set[tuple[str, str]] = set()
    deferred: set[tuple[str, str]] = set()

    for importer, path in MODULES.items():
        is_package = path.name == "__init__.py"

        def visit(node: ast.AST, later: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in targets(importer, child, is_package):
                        if target in MODULES and target != importer:
                            (deferred if later else eager).add((importer, target))
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    visit(child, True)
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    visit(child, True)
                else:
                    visit(child, later)

        visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return frozenset(eager), frozenset(deferred)


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, []):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_import_graph_is_read_from_the_tree() -> None:
    eager, deferred = import_edges()
    assert ("reader_tui.cli", "reader_tui.cli.main") in eager  # `from .main import main`
    assert ("reader_tui.core.search.cache", "reader_tui.core.search.index") in eager  # relative
    assert len(eager) > 100 and deferred
    assert cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]


def test_no_module_level_import_cycle() -> None:
    eager, _ = import_edges()
    assert cycles(eager) == []


def test_no_import_cycle_but_the_known_deferred_ones() -> None:
    eager, deferred = import_edges()
    stale = KNOWN_DEFERRED_CYCLE_EDGES - deferred
    assert stale == set(), "these known cycle edges are gone: delete them from the list"
    assert cycles((eager | deferred) - KNOWN_DEFERRED_CYCLE_EDGES) == []
