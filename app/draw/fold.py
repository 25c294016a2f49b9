"""Folding: which calls of a program are drawn as one box (TensorBoard's name scopes are the
model), and so what element shows each node and each edge. An open call is a cluster around its
values; a folded one is a box listing the values it hands back. The browser is told the
mapping (``Fold``): it never works it out again.

A fold request is ``auto`` (the deepest level of calls that keeps the drawing readable),
``none``, ``all``, or the ids of the calls to fold (``3,7,12``); ids are stable for a program's
structure, so a fold state can live in a URL.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.numbers import ascii_digits
from engine.errors import GradstepError
from engine.trace import Drawable

MAX_AUTO_UNITS = 40  # auto folding: the most boxes and values one screen shows readably
MAX_LISTED = 4  # a box lists the values it hands back, up to this many; more are counted


@dataclass(frozen=True, slots=True)
class Fold:
    folded: tuple[int, ...]  # the calls drawn as boxes (outermost first in creation order)
    units: tuple[str, ...]  # per node: the element that shows it, "n5" or a box "c3"
    edges: dict[str, str] = field(default_factory=dict)  # "e5-0" → the edge drawn for it
    listed: dict[int, tuple[int, ...]] = field(default_factory=dict)  # box → values it lists

    def as_json(self) -> dict[str, object]:
        """What the browser is told (``FoldOut``)."""
        return {"folded": self.folded, "units": self.units, "edges": self.edges}


def parse_fold(text: str | None) -> str | frozenset[int]:
    """A fold request from a URL or a body (see the module docstring)."""
    text = (text or "auto").strip()
    if text in ("auto", "none", "all"):
        return text
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not all(ascii_digits(p) and len(p) <= 6 for p in parts):
        raise GradstepError(
            f"fold: expected auto, none, all or call ids such as 3,7,12, not {text[:40]!r}",
            "request",
        )
    return frozenset(int(p) for p in parts)


def _depths(graph: Drawable) -> dict[int, int]:
    parent = {c.id: c.parent for c in graph.calls}
    depths: dict[int, int] = {}
    for c in graph.calls:  # a call starts after its parent: the parent's depth is known
        depths[c.id] = 0 if c.parent is None else depths[c.parent] + 1
    assert all(p is None or p in depths for p in parent.values())
    return depths


def folded_calls(graph: Drawable, request: str | frozenset[int]) -> frozenset[int]:
    """The calls to fold: ``auto`` folds the calls at the deepest nesting level at which the
    drawing has at most MAX_AUTO_UNITS boxes and values (nothing when the whole graph is that
    small; the top level when even that is more)."""
    if request == "none" or not graph.calls:
        return frozenset()
    if request == "all":
        return frozenset(c.id for c in graph.calls)
    if isinstance(request, frozenset):
        return request & {c.id for c in graph.calls}
    if len(graph.nodes) <= MAX_AUTO_UNITS:
        return frozenset()
    depths = _depths(graph)
    chosen = frozenset(c for c, d in depths.items() if d == 0)
    for level in range(1, max(depths.values()) + 1):
        deeper = frozenset(c for c, d in depths.items() if d == level)
        if len(set(_units(graph, deeper))) > MAX_AUTO_UNITS:
            break
        chosen = deeper
    return chosen


def _units(graph: Drawable, folded: frozenset[int]) -> list[str]:
    """Per node, the element that shows it: itself, or the box of its outermost folded call."""
    parent = {c.id: c.parent for c in graph.calls}
    units = []
    for n in graph.nodes:
        unit = f"n{n.id}"
        call = n.call
        while call is not None:
            if call in folded:
                unit = f"c{call}"
            call = parent[call]
        units.append(unit)
    return units


def fold_view(graph: Drawable, folded: frozenset[int]) -> Fold:
    """What shows each node and each edge when ``folded`` calls are boxes."""
    by_id = {c.id: c for c in graph.calls}
    units = _units(graph, folded)
    shown = sorted({int(u[1:]) for u in units if u.startswith("c")})
    edges: dict[str, str] = {}
    drawn: dict[tuple[str, str], str] = {}
    for e in graph.edges:
        source, target = units[e.source], units[e.target]
        if source == target:
            continue  # inside one box
        key = f"e{e.target}-{e.position}"
        if target.startswith("n") and source.startswith("n"):
            edges[key] = key  # between two values: the edge itself
        else:
            edges[key] = drawn.setdefault((source, target), f"m{len(drawn)}")
    listed = {c: by_id[c].outputs if len(by_id[c].outputs) <= MAX_LISTED else () for c in shown}
    return Fold(tuple(shown), tuple(units), edges, listed)
