"""numpy, imported with its OpenBLAS held to one thread.

Importing numpy loads OpenBLAS, which starts a thread per core that spins a while
waiting for work: 0.04-0.08 s of CPU at every start of a process that imports numpy (the
`reader-tui index` child, the cold search build), taken on a 2-core machine from the
build itself. Nothing here calls BLAS: the search build sorts and counts, "for you"
multiplies scipy sparse matrices (scipy's own code) and trains liblinear (its own), the
related papers use no numpy. So one thread loses nothing (scipy's OpenBLAS, loaded
after, reads the same variable). Only the first import of numpy in a process can
set it (OpenBLAS reads the variable as it loads), and a user's own OPENBLAS_NUM_THREADS
is kept.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType


def load_numpy() -> ModuleType:
    """numpy, imported (the first time) with OPENBLAS_NUM_THREADS=1 unless set already."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import numpy

    return numpy


__all__ = ["load_numpy"]
