"""PNG rasterising in a process of its own.

resvg draws a step's PNG in about half a second and holds the GIL all the while, so in the
server's process every other request (a graph takes milliseconds) would wait behind each
PNG. In a small process pool it uses its own core instead; a gate bounds its queue (503 +
Retry-After beyond), and a pool whose process died is replaced, the request answered 503.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.capacity import Gate, Unavailable

PNG_PROCESSES = max(1, (os.cpu_count() or 2) // 2)  # leave the other cores to requests
PNG_QUEUE = 2  # PNGs waiting for a process: under full load a longer queue waited 20 s
RETRY_AFTER_PNG_S = 2
PNG_NICENESS = 10  # a download can wait a little; a student stepping through a graph cannot

_gate = Gate("PNG render", PNG_PROCESSES, PNG_QUEUE, RETRY_AFTER_PNG_S)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def _render(arguments: dict[str, Any]) -> bytes:
    """Runs in the pool's process: imports resvg only, so the process starts quickly."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(**arguments))


def _current_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            spawn = multiprocessing.get_context("spawn")  # never fork a threaded server
            _pool = ProcessPoolExecutor(
                PNG_PROCESSES, mp_context=spawn, initializer=os.nice, initargs=(PNG_NICENESS,)
            )
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def rasterise(**arguments: Any) -> bytes:
    """``resvg_py.svg_to_bytes(**arguments)``, run in the PNG process pool."""
    with _gate.slot():
        pool = _current_pool()
        try:
            return pool.submit(_render, arguments).result()
        except BrokenProcessPool:
            _discard(pool)  # the next PNG starts a fresh process
            raise Unavailable(
                "the PNG renderer failed (its process ended); please try again",
                "render_failed",
                1,
            ) from None


def shutdown() -> None:
    with _lock:
        pool = _pool
    if pool is not None:
        _discard(pool)
