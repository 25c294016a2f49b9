"""A graph in a URL: the query parameters shared by ``/api/graph.svg``, the exports and the CLI
(the program, its values and look; the step shown),
and the one grammar of ``values`` (the page sends its URL's ``values`` as it is; only this module
reads it).

``values`` is a JSON object, ``{"a": 1, "b": -2.5}``, or comma-separated pairs, ``a=1,b=-2.5``
(spaces allowed around names and numbers). Numbers are decimal numerals (``-2.5``, ``1e-3``) and
must be finite; in JSON they must be numbers (not ``true`` nor ``"1"``). A refusal names the value
and what is wrong with it, and quotes at most a few characters of what was sent.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query

from app.draw.dot import Direction
from app.draw.svg import Theme
from app.presets import preset_of, preset_source
from engine.errors import GradstepError
from engine.limits import MAX_ITERATIONS, MAX_SOURCE_CHARS
from engine.runner import Engine
from engine.steps import Phase, check_step
from engine.trace import Structure

MAX_VALUES = 1_000  # input values in one request
MAX_VALUES_CHARS = 60_000


def _refuse(message: str) -> GradstepError:
    return GradstepError(f"values: {message}", "request")


class _Numeral(str):
    """A number's text: a JSON number as written, or a pair's right-hand side. Read as a float
    here, so 5,000 digits are a number too large, not an integer Python refuses to convert."""


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_HOW = 'write name=number pairs (a=1,b=-2.5) or a JSON object of numbers ({"a": 1})'


def parse_values(text: str | None) -> dict[str, float] | None:
    """``values`` as the URL writes it (see the module's docstring); None when empty."""
    if text is None or not text.strip():
        return None
    if len(text) > MAX_VALUES_CHARS:
        raise _refuse(f"{len(text):,} characters is more than the {MAX_VALUES_CHARS:,} allowed")
    if text.lstrip().startswith(("{", "[")):
        pairs = _json_pairs(text)
    else:
        pairs = _text_pairs(text)
    if len(pairs) > MAX_VALUES:
        raise _refuse(f"{len(pairs):,} values is more than the {MAX_VALUES:,} allowed")
    values: dict[str, float] = {}
    for name, raw in pairs:
        name = name.strip()
        if not name:
            raise _refuse(f"a value has no name: {_HOW}")
        values[name] = _number(_shown(name), raw)
    return values


def _text_pairs(text: str) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = []
    for part in text.split(","):
        name, equals, raw = part.partition("=")
        if not equals:
            raise _refuse(f"{_shown(part.strip()) or 'an empty pair'} is not name=number: {_HOW}")
        pairs.append((name, _Numeral(raw)))
    return pairs


def _json_pairs(text: str) -> list[tuple[str, object]]:
    try:
        parsed = json.loads(text, parse_int=_Numeral, parse_float=_Numeral, parse_constant=_Numeral)
    except RecursionError:
        raise _refuse('the JSON nests too deeply; write a flat object, as in {"a": 1}') from None
    except ValueError as error:
        raise _refuse(f"not valid JSON ({error}); {_HOW}") from None
    if not isinstance(parsed, dict):
        raise _refuse(f"the JSON is {_json_type(parsed)}, not an object; {_HOW}")
    return list(parsed.items())


def _number(name: str, raw: object) -> float:
    """A numeral of any length, finite; a JSON string, boolean or array is not a number."""
    if not isinstance(raw, _Numeral):
        shown = f" ({_shown(json.dumps(raw))})" if isinstance(raw, str) else ""
        raise _refuse(f"{name} is {_json_type(raw)}{shown}, not a number: {_HOW}")
    text = raw.strip()
    if _DECIMAL.fullmatch(text):
        number = float(text)
        if math.isfinite(number):
            return number
        raise _refuse(f"{name}={_shown(text)} is too large for a float (at most about 1.8e308)")
    if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise _refuse(f"{name}={text} is not a finite number")
    raise _refuse(f"{name}={_shown(text) or '(nothing)'} is not a number: {_HOW}")


def _json_type(raw: object) -> str:
    if isinstance(raw, _Numeral):
        return "a number"
    kinds = {bool: "a boolean", str: "a string", list: "an array", dict: "an object"}
    return kinds.get(type(raw), "null")


def _shown(text: str, room: int = 24) -> str:
    """``text`` as the user wrote it, cut short: a refusal never echoes 60,000 characters."""
    if len(text) <= room:
        return text
    return f"{text[: room // 2]}…{text[-4:]} ({len(text):,} characters)"


@dataclass(frozen=True, slots=True)
class GraphQuery:
    """The parameters every graph image and export shares."""

    source: str
    values: dict[str, float] | None
    theme: Theme
    rankdir: Direction
    fold: str | None
    engine: Engine = "auto"
    iteration: int | None = None  # a training loop's (None: the first)


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
    engine: Annotated[
        Engine, Query(description="auto: the program's own class Value if it has one; gradstep")
    ] = "auto",
    iteration: Annotated[
        int | None,
        Query(ge=0, le=MAX_ITERATIONS, description="a training loop's; omit: the first"),
    ] = None,
) -> GraphQuery:
    source = preset_source(source, preset)
    return GraphQuery(source, parse_values(values), theme, rankdir, fold, engine, iteration)


Graph = Annotated[GraphQuery, Depends(graph_query)]


@dataclass(frozen=True, slots=True)
class StepQuery:
    """The step a picture or a page shows: ``step`` of ``phase``, or None for the finished graph."""

    phase: Phase
    step: int | None

    def check(self, structure: Structure) -> None:
        """The one bounds check of every route that takes a step: 422 for a step that the
        program does not have, before anything is drawn."""
        if self.step is not None:
            check_step(structure, self.phase, self.step)


def step_query(
    step: Annotated[int | None, Query(ge=0, description="omit for the finished graph")] = None,
    phase: Phase = "backward",
) -> StepQuery:
    return StepQuery(phase, step)


StepAt = Annotated[StepQuery, Depends(step_query)]


def download_name(
    graph: GraphQuery, suffix: str, phase: Phase | None = None, step: int | None = None
) -> str:
    """What the file is: ``gradstep-lecture-neuron-backward-07.png`` (a preset's id, else the
    program's first real line), ``gradstep-a-value-4-0.zip``."""
    preset = preset_of(graph.source)
    name = preset.id if preset else "program"
    if preset is None:
        for line in graph.source.splitlines():
            words = re.findall(r"[A-Za-z0-9]+", line.split("#", 1)[0])
            if words and not line.lstrip().startswith(("import", "from")):
                name = "-".join(words)[:40].lower()
                break
    at = f"-{phase}-{step + 1:02d}" if phase and step is not None else ""
    if graph.iteration is not None:
        at = f"-iteration-{graph.iteration:02d}{at}"
    return f"gradstep-{name}{at}{suffix}"
