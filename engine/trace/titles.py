"""The words around the chain rule: each step's title (where the walk is, what the step
computes, the calls it is in), a folded call's run of steps as one, and the program's update
after backward(). The chain rule's own notation is ``engine.notation``."""

from __future__ import annotations

from collections.abc import Sequence

from engine import notation
from engine.errors import Span
from engine.notation import Parts, Ref

# a gradient step's explanation lists this many changed values: every parameter of the demo's
# MLP (337); a clicker pages through them (static/stepper.js), a screenful a press
MAX_LISTED_UPDATES = 400


def update_text(
    source: str, changed: Sequence[tuple[str, str, Ref, Ref, Span]]
) -> tuple[str, tuple[Parts, ...]]:
    """A gradient step after backward(), in the program's own words: a title naming the
    statement that made it, then ``w[0].data (Neuron 1, Layer 1): 0.2300 → 0.2245`` for each
    value (``changed``: name, where it was made when others share the name, data
    before and after, the statement's span)."""
    if not changed:
        return "", ()
    lines = source.splitlines()
    written = sorted(
        {lines[s.line - 1][s.column - 1 : s.end_column - 1].strip() for *_, s in changed}
    )
    values = "1 value" if len(changed) == 1 else f"{len(changed)} values"
    title = f"After backward: {' and '.join(written)} changes {values}"
    out: list[Parts] = []
    for name, where, before, after, _ in changed[:MAX_LISTED_UPDATES]:
        out.append(notation.update_text(name, where, before, after))
    if len(changed) > MAX_LISTED_UPDATES:
        out.append((f"… and {len(changed) - MAX_LISTED_UPDATES} more",))
    return title, tuple(out)


def step_title(phase: str, first: int, last: int, count: int, *about: str) -> str:
    """``Backward step 3 of 10 · o = tanh(n) · in Neuron 3, Layer 1``; a run of steps (a folded
    call stepped over): ``Forward steps 4–9 of 40 · Neuron 3, folded``."""
    where = f"step {first + 1}" if first == last else f"steps {first + 1}–{last + 1}"
    return " · ".join([f"{phase.capitalize()} {where} of {count}", *(a for a in about if a)])
