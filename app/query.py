"""A graph in a URL: the query parameters shared by ``/api/graph.svg``, the exports and the CLI,
and the one grammar of ``values`` (the page sends its URL's ``values`` as it is; only this module
reads it).

``values`` is a JSON object, ``{"a": 1, "b": -2.5}``, or comma-separated pairs, ``a=1,b=-2.5``
(spaces allowed around names and numbers). Numbers must be finite; in JSON they must be numbers
(not ``true`` nor ``"1"``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query

from app.draw.dot import Direction
from app.draw.svg import Theme
from app.presets import preset_source
from engine.errors import GradstepError
from engine.limits import MAX_SOURCE_CHARS

MAX_VALUES = 1_000  # input values in one request
MAX_VALUES_CHARS = 60_000


def _refuse(message: str) -> GradstepError:
    return GradstepError(f"values: {message}", "request")


def parse_values(text: str | None) -> dict[str, float] | None:
    """``values`` as the URL writes it (see the module's docstring); None when empty."""
    if text is None or not text.strip():
        return None
    if len(text) > MAX_VALUES_CHARS:
        raise _refuse(f"{len(text):,} characters is more than the {MAX_VALUES_CHARS:,} allowed")
    if text.lstrip().startswith(("{", "[")):
        pairs = _json_pairs(text)
    else:
        pairs = [(name, raw) for name, _, raw in (p.partition("=") for p in text.split(","))]
    if len(pairs) > MAX_VALUES:
        raise _refuse(f"{len(pairs):,} values is more than the {MAX_VALUES:,} allowed")
    values: dict[str, float] = {}
    for name, raw in pairs:
        name = name.strip()
        number = _number(raw)
        if not name or number is None:
            shown = raw if isinstance(raw, str) else json.dumps(raw)[:40]
            raise _refuse(
                f"expected name=number (as in a=1,b=-2.5) or a JSON object of numbers, "
                f"not {name or '(no name)'}={shown.strip() or '(nothing)'}"
            )
        values[name] = number
    return values


def _json_pairs(text: str) -> list[tuple[str, object]]:
    try:
        parsed = json.loads(text)
    except RecursionError:
        raise _refuse('the JSON nests too deeply; write a flat object, as in {"a": 1}') from None
    except ValueError as error:  # not JSON, or an integer with more digits than Python reads
        if "digits" in str(error):
            raise _refuse("a number has too many digits to be read") from None
        raise _refuse('not a valid JSON object; write {"a": 1, "b": -2.5} or a=1,b=-2.5') from None
    if not isinstance(parsed, dict):
        found = type(parsed).__name__.replace("dict", "object").replace("list", "array")
        raise _refuse(f'a JSON {found} is not an object; write {{"a": 1}} or a=1,b=-2.5')
    return [(str(k), v) for k, v in parsed.items()]


def _number(raw: object) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        return None
    if isinstance(raw, str) and len(raw.strip()) > 40:
        return None  # no number a person types is longer: refuse before converting it
    try:
        number = float(raw)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True, slots=True)
class GraphQuery:
    """The parameters every graph image and export shares."""

    source: str
    values: dict[str, float] | None
    theme: Theme
    rankdir: Direction
    fold: str | None


def graph_query(
    source: Annotated[str | None, Query(max_length=MAX_SOURCE_CHARS)] = None,
    preset: Annotated[str | None, Query(max_length=100, description="a preset's id")] = None,
    values: Annotated[
        str | None, Query(max_length=MAX_VALUES_CHARS, description='{"a": 1} or a=1,b=2')
    ] = None,
    theme: Theme = "light",
    rankdir: Direction = "auto",
    fold: Annotated[
        str | None, Query(max_length=2_000, description="auto, none, all or call ids 3,7,12")
    ] = None,
) -> GraphQuery:
    source = preset_source(source, preset)
    return GraphQuery(source, parse_values(values), theme, rankdir, fold)


Graph = Annotated[GraphQuery, Depends(graph_query)]
