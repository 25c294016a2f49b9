"""Settings of the layout stage, read from the environment once per app."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from app.numbers import ascii_digits
from engine.errors import GradstepError

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_CACHE_ENTRIES = 256
COLLECT_S = 0.5  # past the limit, time to read a drawing finished meanwhile (on a loaded machine)


def seconds_left(handed: float, timeout: float) -> float:
    """How long more to wait for a graph handed to Graphviz at ``handed`` (``time.monotonic()``):
    the time limit counts from the handover, whatever ran beside the layout meanwhile (the
    steps being written), but a drawing finished by then is still read."""
    return max(handed + timeout - time.monotonic(), COLLECT_S)


def too_complex(timeout: float) -> GradstepError:
    return GradstepError(
        f"this graph is too complex to draw: Graphviz did not finish within {timeout:g} s",
        kind="layout",
    )


def _positive_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not value > 0:
        raise ValueError(f"{name} must be positive, not {raw!r}")
    return value


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    backend: str | None = None  # "dot", "wasm", or None to choose (dot when on PATH)
    timeout: float = DEFAULT_TIMEOUT_S
    cache_entries: int = DEFAULT_CACHE_ENTRIES

    @classmethod
    def from_env(cls) -> LayoutSettings:
        """GRADSTEP_LAYOUT=dot|wasm, GRADSTEP_LAYOUT_TIMEOUT=seconds,
        GRADSTEP_LAYOUT_CACHE=entries."""
        backend = os.environ.get("GRADSTEP_LAYOUT") or None
        if backend not in (None, "dot", "wasm"):
            raise ValueError(f"GRADSTEP_LAYOUT must be dot or wasm, not {backend!r}")
        raw_entries = os.environ.get("GRADSTEP_LAYOUT_CACHE", str(DEFAULT_CACHE_ENTRIES))
        if not ascii_digits(raw_entries):
            raise ValueError(f"GRADSTEP_LAYOUT_CACHE must be a count, not {raw_entries!r}")
        entries = int(raw_entries)
        timeout = _positive_float("GRADSTEP_LAYOUT_TIMEOUT", DEFAULT_TIMEOUT_S)
        return cls(backend, timeout, max(entries, 1))
