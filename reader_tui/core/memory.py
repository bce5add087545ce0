"""Giving freed memory back to the operating system after the start-up's bulk work.

Opening a library parses the catalog into one dict per record and then replaces each by a
`Paper`; loading the indexes unpickles and unmarshals their caches. What that frees is
scattered between the strings that stay (the abstracts), so the C allocator keeps it and
the process stays some 15 MB larger at 20,000 papers than what it holds. glibc's
`malloc_trim` returns the free pages in the middle of its heap too; elsewhere (macOS,
Windows, musl) there is nothing to call and this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache


@cache
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system (glibc only); True if it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


__all__ = ["release_free_memory"]
