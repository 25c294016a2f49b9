"""The graph response as JSON bytes, fast: a ~1,000-node trace is about 700 kB of JSON, and
pydantic-core serialises the trace dataclasses directly (~4 ms for that trace, where
``dataclasses.asdict`` plus ``json.dumps`` takes ~40 ms; see bench/api.py)."""

from __future__ import annotations

import json

from pydantic import TypeAdapter

from engine.trace import Trace

_TRACE = TypeAdapter(Trace)


def graph_json(trace: Trace, svg: str, backend: str, timings: dict[str, float | bool]) -> bytes:
    """``GraphResponse`` as JSON, with the trace serialised as the engine made it."""
    rest = json.dumps({"svg": svg, "backend": backend, "timings": timings}, allow_nan=False)
    return b'{"trace":' + _TRACE.dump_json(trace) + b"," + rest[1:].encode()
