"""Numerical differentiation: central differences through the program's forward pass on
floats (engine.gradcheck's ``Nudges``: only the ops downstream of the nudged input are run
again), for each input, with h swept over 1e-15 … 1 to show where the error comes from: left
of the sweet spot the difference of two nearly equal outputs loses its digits (roundoff), right
of it the parabola through f(x ± h) is not the curve (truncation)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from engine.errors import GradstepError
from engine.gradcheck import Nudges, _Step
from engine.graph import topological_order
from engine.ways.replay import Replayed

H = 1e-7  # the textbook's step (seed 002, section 28.1): the value the method reports
SWEEP = tuple(10.0 ** (k / 4) for k in range(-60, 1))  # 1e-15 … 1, four steps a decade
MAX_EVALUATIONS = 300_000  # op evaluations all inputs' differences may spend: each input's at H
# first, then the sweeps while they fit

Dominant = Literal["roundoff", "truncation", "balanced"]


class Central(Nudges):
    """Nudges with the step given as it is: h, not eps scaled by the input's size; the ops
    downstream of each leaf found once for all its steps."""

    def __init__(self, root: int, values: list[float], steps: list[_Step]) -> None:
        super().__init__(root, values, steps)
        self._downstream: dict[int, list[_Step]] = {}

    def central(self, leaf: int, h: float) -> float:
        """(f(x + h) − f(x − h)) / 2h for the value in slot ``leaf``."""
        x = self.values[leaf]
        after = self.downstream(leaf)
        return (self._output(leaf, x + h, after) - self._output(leaf, x - h, after)) / (2.0 * h)

    def downstream(self, leaf: int) -> list[_Step]:
        """The ops a nudge of ``leaf`` runs again, in order."""
        if leaf not in self._downstream:
            self._downstream[leaf] = self._after(leaf)
        return self._downstream[leaf]


@dataclass(frozen=True, slots=True)
class Sweep:
    """One input's central differences over ``SWEEP``: None where a nudge leaves an op's
    domain (log near 0) or overflows."""

    numeric: tuple[float | None, ...]
    error: tuple[float | None, ...]  # |numeric − exact|
    best: int  # the sweet spot: the index of the smallest error

    def dominant(self, h: float) -> Dominant:
        """Which error dominates at ``h``: roundoff left of the sweet spot, truncation right."""
        best = SWEEP[self.best]
        if math.isclose(h, best, rel_tol=1e-9):
            return "balanced"
        return "roundoff" if h < best else "truncation"


@dataclass(frozen=True, slots=True)
class Numerical:
    input: int  # an index into Replayed.inputs
    value: float | None  # at H; None when a nudge leaves the domain, or past MAX_EVALUATIONS
    error: float | None  # |value − exact|
    dominant: Dominant | None  # at H, when swept
    sweep: Sweep | None  # None: past MAX_SWEEP_EVALUATIONS


def differences(r: Replayed, exact: tuple[float, ...]) -> tuple[tuple[Numerical, ...], int]:
    """Each input's central difference at H and its sweep, beside ``exact`` (reverse mode's
    gradient, per input), and the forward passes the method used at one h: 2 per input."""
    order = topological_order(r.root)
    nudges = Central.of(r.root, order)
    assert isinstance(nudges, Central)
    slot = {id(v): k for k, v in enumerate(order)}
    leaves = [slot[id(r.values[k])] for k in r.inputs]
    spent = 0
    values: list[float | None] = []
    for leaf in leaves:
        spent += 2 * len(nudges.downstream(leaf))
        values.append(_central(nudges, leaf, H) if spent <= MAX_EVALUATIONS else None)
    rows = []
    for n, leaf in enumerate(leaves):
        sweep = None
        cost = 2 * len(SWEEP) * len(nudges.downstream(leaf))
        if spent + cost <= MAX_EVALUATIONS:
            spent += cost
            sweep = _sweep(nudges, leaf, exact[n])
        value = values[n]
        error = None if value is None else abs(value - exact[n])
        rows.append(Numerical(n, value, error, sweep.dominant(H) if sweep else None, sweep))
    return tuple(rows), 2 * len(r.inputs)


def _central(nudges: Central, leaf: int, h: float) -> float | None:
    try:
        value = nudges.central(leaf, h)
    except (GradstepError, OverflowError, ZeroDivisionError):
        return None
    return value if math.isfinite(value) else None


def _sweep(nudges: Central, leaf: int, exact: float) -> Sweep:
    numeric = tuple(_central(nudges, leaf, h) for h in SWEEP)
    error = tuple(None if v is None else abs(v - exact) for v in numeric)
    known = [(e, k) for k, e in enumerate(error) if e is not None]
    best = min(known)[1] if known else 0
    return Sweep(numeric, error, best)
