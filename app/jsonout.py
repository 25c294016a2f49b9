"""Trace dataclasses to JSON, fast: a ~1,000-node trace has tens of thousands of fields, and
``dataclasses.asdict`` (which deep-copies) or pydantic validation would dominate a request."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def plain(obj: Any) -> Any:
    """Dataclasses as dicts and tuples as lists, recursively; everything else as it is."""
    if isinstance(obj, tuple | list):
        return [plain(x) for x in obj]
    if is_dataclass(obj) and not isinstance(obj, type):
        return {name: plain(getattr(obj, name)) for name in _field_names(type(obj))}
    return obj


def dumps(obj: Any) -> bytes:
    """Compact JSON; NaN and infinities are refused (the engine never makes them)."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
