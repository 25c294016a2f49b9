"""The numbers of one run of a program: every value's data and grad, and every slot of its
structure (engine.trace.structure), read from arrays computed here: each contribution of the
backward pass exactly as ``graph.backward`` makes it (seed, then ``grad += local · upstream``
in reverse creation order), the gradient check, the colour buckets, the program's updates."""

from __future__ import annotations

import math

from engine.errors import GradstepError
from engine.gradcheck import check_graph
from engine.language import Program
from engine.trace.data import Check, Numbers
from engine.trace.outline import Outline
from engine.trace.structure import Built
from engine.value import Value


def numbers(program: Program, shape: Outline, built: Built) -> Numbers:
    """``program``'s numbers for ``built``, its structure (runs ``backward()`` on its graph)."""
    order, root = shape.order, program.output
    lines = built.walk.lines
    local, product, before, after = [], [], [], []
    grad = [0.0] * len(order)
    grad[shape.ids[root]] = 1.0
    for line in lines:  # exactly what graph.backward does, contribution by contribution
        node = order[line.node]
        d = node.da if line.position == 0 else node.db
        up = grad[line.node]
        contribution = d * up
        was = grad[line.operand]
        grad[line.operand] = now = was + contribution
        if not (math.isfinite(contribution) and math.isfinite(now)):
            raise _undefined(node, line.position, d, up).at(program.spans.get(node))
        local.append(d)
        product.append(contribution)
        before.append(was)
        after.append(now)
    checks = _checks(order, root, built)  # runs backward(): the grads below are its
    final = tuple(None if v.constant else v.grad for v in order)
    scale = max((abs(g) for g in final if g is not None), default=0.0)
    arrays: dict[str, list[float] | tuple[float | None, ...]] = {
        "data": [v.data for v in order],
        "grad": final,
        "nbin": [0 if g is None else grad_bin(g, scale) for g in final],
        "local": local,
        "product": product,
        "before": before,
        "after": after,
        "bin": [grad_bin(x, scale) for x in after],
        "total": [math.fsum(product[k] for k in t) for t in built.totals],
        "update": [u.after for u in program.updates],
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


def _checks(order: list[Value], root: Value, built: Built) -> tuple[Check, ...]:
    """Central differences for the inputs the structure checks (zero grads, backward(), then
    the nudges)."""
    inputs = built.structure.inputs
    checked = [order[i.node] for i in inputs if i.checked]
    rows = check_graph(root, checked)
    out = [Check(r.numeric, r.abs_error, r.rel_error) for r in rows]
    out += [Check(None, None, None)] * (len(inputs) - len(out))
    return tuple(out)


def _undefined(v: Value, i: int, local: float, upstream: float) -> GradstepError:
    assert v.op is not None
    operands = ", ".join(f"{n} = {p.data:.6g}" for n, p in zip("ab", v.parents, strict=False))
    if not math.isfinite(local):
        why = f"{v.op.rule(i)} has no finite value at {operands}"
        return GradstepError(f"the gradient is undefined: {why}", kind="domain")
    return GradstepError(
        f"the gradient overflows at {v.op.name} ({operands}): {local:.6g} · {upstream:.6g}",
        kind="overflow",
    )
