"""The numbers of one run of a program: every value's data and grad, and every slot of its
structure (engine.trace.structure), read from arrays computed here: each contribution of the
backward pass exactly as ``graph.backward`` makes it (seed, then ``grad += local · upstream``
in reverse creation order), the gradient check, the colour buckets, the program's updates."""

from __future__ import annotations

import math

from engine.errors import GradstepError
from engine.gradcheck import Nudges
from engine.program import Graph, Program
from engine.trace.data import Check, Numbers
from engine.trace.outline import Outline
from engine.trace.structure import Built


def numbers(program: Program, shape: Outline, built: Built) -> Numbers:
    """``program``'s numbers for ``built``, its structure: the backward pass computed
    contribution by contribution exactly as ``graph.backward`` makes them."""
    g, order = shape.graph, shape.order
    lines = built.walk.lines
    local, product, before, after = [], [], [], []
    grad = [0.0] * len(order)
    grad[shape.ids[g.output]] = 1.0
    for line in lines:  # exactly what graph.backward does, contribution by contribution
        i = order[line.node]
        d = g.locals[i][line.position]
        up = grad[line.node]
        contribution = d * up
        was = grad[line.operand]
        grad[line.operand] = now = was + contribution
        if not (math.isfinite(contribution) and math.isfinite(now)):
            raise _undefined(g, i, line.position, d, up).at(g.spans[i])
        local.append(d)
        product.append(contribution)
        before.append(was)
        after.append(now)
    checks = _checks(shape, built, grad)
    final = tuple(None if g.constant[i] else grad[k] for k, i in enumerate(order))
    scale = max((abs(g) for g in final if g is not None), default=0.0)
    arrays: dict[str, list[float] | tuple[float | None, ...]] = {
        "data": [g.data[i] for i in order],
        "grad": final,
        "nbin": [0 if g is None else grad_bin(g, scale) for g in final],
        "local": local,
        "product": product,
        "before": before,
        "after": after,
        "bin": [grad_bin(x, scale) for x in after],
        "total": [math.fsum(product[k] for k in t) for t in built.totals],
        "update": [u.after for u in g.updates],
    }
    slots = tuple(arrays[a][i] for a, i in built.recipes)
    return Numbers(
        data=tuple(arrays["data"]),  # type: ignore[arg-type]
        grad=final,
        bin=tuple(arrays["nbin"]),  # type: ignore[arg-type]
        slots=slots,  # type: ignore[arg-type]
        checks=checks,
    )


def grad_bin(grad: float, scale: float) -> int:
    """-3..3 by the sign and size of grad / scale (the largest |final grad| of the graph): the
    colour of a gradient. Never overflows: the ratio is capped before it is scaled."""
    if grad == 0 or scale == 0 or not math.isfinite(grad):
        return 0
    size = math.ceil(min(3.0, 3.0 * min(abs(grad) / scale, 1.0)) - 1e-12)
    return int(math.copysign(max(size, 1), grad))


def _checks(shape: Outline, built: Built, grad: list[float]) -> tuple[Check, ...]:
    """Central differences for the inputs the structure checks, beside the backward pass's
    gradients (``grad``, by node id)."""
    g, order, ids = shape.graph, shape.order, shape.ids
    inputs = built.structure.inputs
    checked = [i for i in inputs if i.checked]
    out = []
    if checked:
        steps = [
            (
                k,
                op.op.eval,
                ids[g.parents[i][0]],
                ids[g.parents[i][1]] if len(g.parents[i]) > 1 else -1,
            )
            for k, i in enumerate(order)
            if (op := g.ops[i]) is not None and op.op is not None
        ]
        try:
            nudges = Nudges(ids[g.output], [g.data[i] for i in order], steps)
        except (GradstepError, OverflowError):
            nudges = None
        for i in checked:
            try:
                if nudges is None:
                    raise GradstepError("overflow", kind="overflow")
                numeric = nudges.derivative(i.node)
            except (GradstepError, OverflowError):
                out.append(Check(None, None, None))
                continue
            abs_error = abs(grad[i.node] - numeric)
            scale = max(abs(grad[i.node]), abs(numeric))
            out.append(Check(numeric, abs_error, abs_error / scale if scale else 0.0))
    out += [Check(None, None, None)] * (len(inputs) - len(out))
    return tuple(out)


def _undefined(g: Graph, i: int, position: int, local: float, upstream: float) -> GradstepError:
    op = g.ops[i]
    assert op is not None and op.op is not None
    operands = ", ".join(f"{n} = {g.data[p]:.6g}" for n, p in zip("ab", g.parents[i], strict=False))
    if not math.isfinite(local):
        why = f"{op.op.rule(position)} has no finite value at {operands}"
        return GradstepError(f"the gradient is undefined: {why}", kind="domain")
    return GradstepError(
        f"the gradient overflows at {op.op.name} ({operands}): {local:.6g} · {upstream:.6g}",
        kind="overflow",
    )
