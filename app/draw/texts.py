"""The texts and classes that fill an ``SvgTemplate`` for one step (docs/graph-contract.md,
"Step states"): the engine's state at that step (``engine.steps``), written with the one
number formatter. The browser writes the same from the same trace fields (static/graph.js).
"""

from __future__ import annotations

from app.draw.dot import short_label
from app.draw.fold import Fold
from app.numbers import BOX_CHARS, DEFAULT_DECIMALS, format_number
from engine.steps import Phase, StepState, finished, state_at, updated
from engine.trace import Trace


def step_state(trace: Trace, phase: Phase | None = None, step: int | None = None) -> StepState:
    """The state at ``step`` of ``phase``; with no phase, the finished picture: the end of the
    walk (after the program's update, when it makes one)."""
    if phase is None or step is None:
        return updated(trace) if trace.updates else finished(trace)
    return state_at(trace, phase, step)


def slot_texts(
    trace: Trace, state: StepState, fold: Fold | None = None, decimals: int = DEFAULT_DECIMALS
) -> dict[str, str]:
    """Every slot of the graph's template (``"n3.data"``, ``"c2.class"``, ...) at ``state``;
    ``fold`` says which element shows each node and edge when calls are folded."""
    drawn = fold.edges if fold else {}
    lit = {drawn.get(k, k) for k in (f"e{t}-{p}" for t, p in state.edges)}
    edge_state = " flow" if state.flow else " current"
    texts: dict[str, str] = {}
    for n, s in zip(trace.nodes, state.nodes, strict=True):
        here = " current" if n.id == state.current else ""
        here += " updated" if n.id in state.updated else ""
        op = f" op-{n.op}" if n.op else ""
        classes = f"node value kind-{n.kind}{op} {'data-known' if s.data_known else 'data-pending'}"
        classes += f" grad-{s.grad_state}"
        if s.grad is not None:
            classes += f" gbin-{s.bin}"
        texts[f"n{n.id}.class"] = classes + here
        texts[f"n{n.id}.label"] = short_label(n.name)
        texts[f"n{n.id}.data"] = format_number(s.data, decimals, BOX_CHARS) if s.data_known else "?"
        if s.grad_state == "none":
            texts[f"n{n.id}.grad"] = "—"
        elif s.grad is None:
            texts[f"n{n.id}.grad"] = "?"
        else:
            texts[f"n{n.id}.grad"] = format_number(s.grad, decimals, BOX_CHARS)
    for e in trace.edges:
        key = drawn.get(f"e{e.target}-{e.position}", f"e{e.target}-{e.position}")
        texts[f"{key}.class"] = "edge operand" + (edge_state if key in lit else "")
    for call in trace.calls if fold else ():
        known = all(state.nodes[v].data_known for v in call.outputs)
        inside = state.current is not None and call.first <= state.current <= call.last
        texts[f"c{call.id}.class"] = (
            f"node call folded {'data-known' if known else 'data-pending'}"
            + (" current" if inside else "")
        )
    return texts
