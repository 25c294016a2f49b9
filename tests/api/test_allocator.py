"""A worker's threads share two of C's heaps, not one each (app/allocator.py)."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

from app.allocator import MALLOC_HEAPS

# eight threads each allocate at once; then glibc's malloc_stats lists its heaps ("Arena n:")
THREADS = """
import ctypes, ctypes.util, sys, threading
from app.allocator import limit_heaps
limited = limit_heaps() if sys.argv[1] == "limited" else None
barrier = threading.Barrier(8)
kept = []
def allocate():
    barrier.wait()
    kept.append(b"x" * 40_000)  # past Python's small-object allocator: C's malloc
threads = [threading.Thread(target=allocate) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()
"""


def heaps(mode: str) -> int:
    env = {"PATH": "/usr/bin:/bin"}  # no MALLOC_ARENA_MAX of the caller's
    command = [sys.executable, "-c", THREADS, mode]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return sum(line.startswith("Arena ") for line in done.stderr.splitlines())


@pytest.mark.skipif(
    not hasattr(ctypes.CDLL(ctypes.util.find_library("c")), "malloc_stats"), reason="not glibc"
)
def test_threads_share_two_heaps() -> None:
    assert heaps("unlimited") > MALLOC_HEAPS  # each thread would get its own
    assert heaps("limited") == MALLOC_HEAPS
