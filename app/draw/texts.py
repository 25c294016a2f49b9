"""The texts and classes that fill an ``SvgTemplate`` for one step (docs/api.md, "Step states"):
the engine's state at that step (``engine.steps`` lays each step's changes over the start),
its numbers written with the one number formatter. The browser does the same with the same
structure and numbers (static/model.js, static/graph.js)."""

from __future__ import annotations

from app.draw.dot import short_label
from app.draw.fold import Fold
from app.numbers import BOX_CHARS, DEFAULT_DECIMALS, format_number
from engine.steps import StepState
from engine.trace import Numbers, Structure


def slot_texts(
    structure: Structure,
    numbers: Numbers,
    state: StepState,
    fold: Fold | None = None,
    decimals: int = DEFAULT_DECIMALS,
) -> dict[str, str]:
    """Every slot of the graph's template (``"n3.data"``, ``"c2.class"``, ...) at ``state``;
    ``fold`` says which element shows each node and edge when calls are folded."""
    slots = numbers.slots
    drawn = fold.edges if fold else {}
    lit = {drawn.get(k, k) for k in (f"e{t}-{p}" for t, p in state.edges)}
    edge_state = " flow" if state.flow else " current"
    wrong = {f.node for f in numbers.findings}  # a learner's engine: grads that differ
    texts: dict[str, str] = {}
    for n, s in zip(structure.nodes, state.nodes, strict=True):
        here = " current" if n.id == state.current else ""
        here += " updated" if s.updated else ""
        here += " wrong" if n.id in wrong and s.grad == "final" else ""
        op = f" op-{n.op}" if n.op else ""
        known = s.data is not None
        classes = f"node value kind-{n.kind}{op} {'data-known' if known else 'data-pending'}"
        classes += f" grad-{s.grad}"
        if s.grad in ("partial", "final") and s.bin is not None:
            classes += f" gbin-{int(slots[s.bin])}"
        texts[f"n{n.id}.class"] = classes + here
        texts[f"n{n.id}.label"] = short_label(n.name)
        texts[f"n{n.id}.data"] = (
            format_number(slots[s.data], decimals, BOX_CHARS) if s.data is not None else "?"
        )
        if s.grad == "none":
            texts[f"n{n.id}.grad"] = "—"
        elif s.grad == "pending" or s.value is None:
            texts[f"n{n.id}.grad"] = "?"
        else:
            texts[f"n{n.id}.grad"] = format_number(slots[s.value], decimals, BOX_CHARS)
    for e in structure.edges:
        key = drawn.get(f"e{e.target}-{e.position}", f"e{e.target}-{e.position}")
        texts[f"{key}.class"] = "edge operand" + (edge_state if key in lit else "")
    for call in structure.calls if fold else ():
        known = all(state.nodes[v].data is not None for v in call.outputs)
        inside = state.current is not None and call.first <= state.current <= call.last
        texts[f"c{call.id}.class"] = (
            f"node call folded {'data-known' if known else 'data-pending'}"
            + (" current" if inside else "")
        )
    return texts
