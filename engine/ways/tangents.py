"""Forward mode, as steps: one tangent pass per input, node by node, each node's value and its
tangent (v, dv) with the dual-number rule of its op written out as docs/notation.md writes the
chain rule, in the differentials' notation: ``dc = ∂c/∂a · da + ∂c/∂b · db``, each ∂ by the op
table's rule (``∂c/∂a = b``) with its value, each product, and their sum.

The words depend on the program's structure alone and are written once; each pass fills their
numbers (slots, as a trace's lines have: engine.trace.slots), so a page steps any pass with the
same lines. The tangents themselves are engine.forward_mode's."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import notation
from engine.forward_mode import tangents
from engine.notation import LineRefs, Num, Part, Parts, Relation, joined
from engine.trace.data import Cell, Row
from engine.trace.slots import Slots
from engine.ways.replay import Replayed

MAX_TANGENTS = 50_000  # tangents computed, over all passes: later inputs' passes are not run
MAX_PASS_NUMBERS = 12_000  # the numbers of the passes sent step by step; later ones: results
_IDENTIFIER = re.compile(r"[^\W\d][\w\[\]]*")


def differential(name: str) -> str:
    """``dx``, ``dw[0]``, ``d(x1*w1)``: the tangent of the value ``name``."""
    return f"d{name}" if _IDENTIFIER.fullmatch(name) else f"d({name})"


@dataclass(frozen=True, slots=True)
class TangentStep:
    """One node of a tangent pass: its position in the replayed graph, its node id in the
    trace, and its explanation (lines of text and slots)."""

    position: int
    node: int
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    input: int  # an index into Replayed.inputs
    result: float  # d output / d input
    slots: tuple[float, ...] | None  # the numbers of the steps' slots (None: past the cap)
    tangents: tuple[float, ...] | None  # each step's node's tangent, (v, dv)'s dv (None: past
    # the cap too)


@dataclass(frozen=True, slots=True)
class ForwardMode:
    steps: tuple[TangentStep, ...]
    kinds: str  # a letter per slot: n number, f factor, w whole number
    passes: tuple[Pass, ...]  # the first inputs' (MAX_TANGENTS)
    left_out: int  # inputs whose pass was not run


def forward_mode(r: Replayed) -> ForwardMode:
    """A tangent pass per input of ``r`` and the steps that explain each."""
    slots = Slots()
    contributions: list[tuple[int, int]] = []  # (position, operand) per ∂ written
    steps = []
    for k, node in enumerate(r.nodes):
        if node is not None:
            steps.append(TangentStep(k, node, _rows(r, k, slots, contributions)))
    values = r.values
    slot = {id(v): k for k, v in enumerate(values)}
    operand_at = [tuple(slot[id(p)] for p in v.parents) for v in values]
    local = [values[k].locals[i] for k, i in contributions]
    passes = []
    room = MAX_PASS_NUMBERS
    runs = max(1, MAX_TANGENTS // len(values))
    for n, k in enumerate(r.inputs[:runs]):
        dot = tangents(r.root, {values[k]: 1.0})
        tangent = [dot[v] for v in values]
        numbers = dvs = None
        if room >= len(slots.recipes):
            room -= len(slots.recipes)
            share = [local[j] * tangent[operand_at[p][i]] for j, (p, i) in enumerate(contributions)]
            arrays = {"data": [v.data for v in values], "local": local, "tangent": tangent,
                      "share": share}  # fmt: skip
            numbers = tuple(float(arrays[a][i]) for a, i in slots.recipes)
            dvs = tuple(tangent[step.position] for step in steps)
        passes.append(Pass(n, tangent[-1], numbers, dvs))
    left_out = len(r.inputs) - len(passes)
    return ForwardMode(tuple(steps), "".join(slots.kinds), tuple(passes), left_out)


def _rows(
    r: Replayed, k: int, slots: Slots, contributions: list[tuple[int, int]]
) -> tuple[Row, ...]:
    name = r.names[k]
    v = r.values[k]
    d = differential(name)
    if v.op is None:
        if v.constant:
            still = f"{d} = 0 (the constant {name} does not change with any input)"
            return ((Cell("note", (still,)),),)
        seeded = slots.line((f"{d} = ", ("tangent", k, "w")))
        seed = f"the seed: 1 in the pass that differentiates by {name}, 0 in the others"
        return ((Cell("tangent", seeded), Cell("note", (seed,))),)
    result = r.results[k]
    rows: list[Row] = [(Cell("formula", slots.line(notation.forward_text(result))),)]
    terms: list[str] = []
    shares: list[Num] = []
    for i, operand in enumerate(result.operands):
        position = operand.data[1]
        if operand.constant is not None:
            continue  # a constant's tangent is 0: its term is left out
        j = len(contributions)
        contributions.append((k, i))
        dp = differential(operand.name)
        partial = notation.partial(result, i)
        terms.append(f"{partial} · {dp}")
        refs = LineRefs(
            ("local", j), ("tangent", position), ("share", j), ("share", j), ("share", j)
        )
        text = notation.contribution_text(result, i, refs)  # its rule and value cells
        local: Num = ("local", j, "f")
        tangent: Num = ("tangent", position, "f")
        share: Num = ("share", j, "n")
        times = Relation("mul", (local, tangent), share)
        product = joined([f"{partial} · {dp} = ", local, " × ", tangent, times, share])
        row = [Cell("rule", slots.line(text.rule))]
        if text.value:
            row.append(Cell("value", slots.line(text.value)))
        rows.append(tuple(row))
        rows.append((Cell("product", slots.line(product)),))
        shares.append(("share", j, "f"))
    total: Num = ("tangent", k, "n")
    if not terms:
        line: Parts = (f"{d} = 0 (made of constants alone)",)
    elif len(shares) == 1:
        line = (f"{d} = {terms[0]} = ", total)
    else:
        parts: list[Part] = [f"{d} = {' + '.join(terms)} = "]
        for n, s in enumerate(shares):
            parts += [" + " if n else "", s]
        parts += [Relation("add", tuple(shares), total), total]
        line = joined(parts)
    rows.insert(1, (Cell("tangent", slots.line(line)),))
    return tuple(rows)
