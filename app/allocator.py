"""How many heaps C's allocator keeps in a worker.

glibc gives each new thread a heap of its own (up to eight per core), and memory freed in one is
kept for that heap's next use, not given back. A worker answers from dozens of threads, each
building and dropping megabytes of text (DOT, SVG, JSON), so the freed memory piles up in heaps
that are seldom used again: under bench/load.py a worker's resident memory grew by 120 MB in five
minutes with 60 MB in use. Two heaps keep it flat (docs/benchmarks.md, "Load figures") at no
measurable cost in speed: the threads take turns with Python's GIL anyway.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

MALLOC_HEAPS = 2
_M_ARENA_MAX = -8  # mallopt's parameter number, from glibc's malloc.h


def limit_heaps(heaps: int = MALLOC_HEAPS) -> bool:
    """Let C's allocator keep at most ``heaps`` heaps from now on (threads made later share
    them); True when it was set. Not on other C libraries (musl, macOS), nor when the process was
    started with ``MALLOC_ARENA_MAX`` (that setting wins)."""
    if os.environ.get("MALLOC_ARENA_MAX"):  # glibc's own variable, not a setting: read here
        return False
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, heaps))
