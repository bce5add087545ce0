"""numpy is imported with its OpenBLAS held to one thread (its threads spin at import for
nothing: no BLAS is called), by the search build's first numpy import in a fresh
process; a user's own OPENBLAS_NUM_THREADS is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

BUILD = """
import json, os, sys
from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search import index
assert "numpy" not in sys.modules
index.BULK_MIN = 1  # a whole list's build: numpy
papers = [PaperView(Paper(id=f"p{i}", title=f"Paper {i}", abstract="large language models (LLMs) and more"),
                    Annotation()) for i in range(5)]
index.SearchIndex.build(papers)
assert "numpy" in sys.modules
threads = None
try:
    from threadpoolctl import threadpool_info
    threads = [i["num_threads"] for i in threadpool_info() if i.get("internal_api") == "openblas"]
except ImportError:
    pass
print(json.dumps({"env": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": threads}))
"""


def _run(env_value: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if env_value is not None:
        env["OPENBLAS_NUM_THREADS"] = env_value
    env["PYTHONPATH"] = str(REPO)
    result = subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_search_build_imports_numpy_with_one_blas_thread():
    found = _run(None)
    assert found["env"] == "1"
    if found["threads"]:  # (threadpoolctl, when installed, reads it from OpenBLAS itself)
        assert set(found["threads"]) == {1}


def test_a_users_own_setting_is_kept():
    assert _run("2")["env"] == "2"
