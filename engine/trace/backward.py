"""The backward pass as steps: exactly what ``graph.backward`` does (seed, then
``grad += local · upstream`` in reverse creation order), recorded contribution by contribution,
with its explanation."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine import notation
from engine.errors import GradstepError
from engine.language import Program
from engine.notation import Parts, Result, Use
from engine.steps import grad_bin
from engine.trace.data import BackwardStep, Contribution
from engine.trace.names import Names
from engine.value import Value


@dataclass(slots=True)
class _Line:
    step: int
    node: Value
    operand: Value
    position: int
    local: float
    upstream: float
    before: float
    after: float
    text: notation.ContributionText
    note: str


class BackwardWalk:
    """Exactly what ``graph.backward`` does (seed, then ``grad += local · upstream`` in reverse
    topological order), recorded contribution by contribution, with its explanation."""

    def __init__(
        self,
        order: list[Value],
        root: Value,
        ids: dict[Value, int],
        names: Names,
        results: dict[Value, Result],
        program: Program,
    ) -> None:
        self.ids = ids
        self.names = names
        self.results = results
        self.root = root
        computed = [v for v in reversed(order) if v.op is not None]
        self.users: dict[Value, list[tuple[int, str]]] = {}  # (user's id, name)
        for v in computed:
            for p in v.parents:
                if not p.constant:
                    self.users.setdefault(p, []).append((ids[v], names(v)))
        grad = dict.fromkeys(order, 0.0)
        grad[root] = 1.0
        self.first = {root: 0}
        self.last = {root: 0}
        self.lines: list[_Line] = []
        self.by_operand: dict[Value, list[_Line]] = {}
        self.constants: dict[int, list[Parts]] = {}
        received: dict[Value, int] = {}
        self._uses: dict[Value, str] = {}  # uses_text of a value: one per value, asked many times
        for step, v in enumerate(computed, start=1):
            assert v.op is not None
            upstream = grad[v]
            for i, (p, local) in enumerate(zip(v.parents, v.locals, strict=True)):
                if p.constant:
                    self.constants.setdefault(step, []).append(notation.constant_note(names(p)))
                    continue
                contribution = local * upstream
                before = grad[p]
                grad[p] = after = before + contribution
                if not (math.isfinite(contribution) and math.isfinite(after)):
                    raise _undefined(v, i, local, upstream).at(program.spans.get(v))
                received[p] = received.get(p, 0) + 1
                self.first.setdefault(p, step)
                self.last[p] = step
                text = notation.contribution_text(results[v], i, local, upstream, before, after)
                note = notation.accumulates_note(names(p), self._used(p)) if received[p] > 1 else ""
                line = _Line(step, v, p, i, local, upstream, before, after, text, note)
                self.lines.append(line)
                self.by_operand.setdefault(p, []).append(line)
        self.count = len(computed)

    def steps(self, scale: float, title: Callable[[int, int], str]) -> tuple[BackwardStep, ...]:
        """Every backward step; ``title(step, node)`` writes each one's title."""
        by_step: list[list[Contribution]] = [[] for _ in range(self.count + 1)]
        nodes = [self.root] * (self.count + 1)
        for line in self.lines:
            nodes[line.step] = line.node
            by_step[line.step].append(
                Contribution(
                    operand=self.ids[line.operand],
                    position=line.position,
                    local=line.local,
                    upstream=line.upstream,
                    contribution=line.local * line.upstream,
                    grad_before=line.before,
                    grad_after=line.after,
                    bin=grad_bin(line.after, scale),
                    sum=line.text.sum,
                    rule=line.text.rule,
                    value=line.text.value,
                    product=line.text.product,
                    change=line.text.change,
                    note=line.note,
                )
            )
        seed_text = notation.seed_text(self.names(self.root))
        root = self.ids[self.root]
        steps = [BackwardStep(root, True, (), (seed_text,), title(0, root))]
        for s in range(1, self.count + 1):
            notes = tuple(self.constants.get(s, ()))
            node = self.ids[nodes[s]]
            steps.append(BackwardStep(node, False, tuple(by_step[s]), notes, title(s, node)))
        return tuple(steps)

    def _used(self, v: Value) -> str:
        """``twice by b``: who uses ``v`` (notation.uses_text), written once per value."""
        text = self._uses.get(v)
        if text is None:
            text = self._uses[v] = notation.uses_text(self.users[v])
        return text

    def uses_of(self, v: Value) -> str:
        return f"used {self._used(v)}" if v in self.users else ""

    def grad_sum(self, v: Value) -> Parts:
        name = self.names(v)
        if v.constant:
            return notation.constant_note(name)
        if v is self.root:
            return notation.output_sum(name)
        uses = [
            Use(
                self.names(line.node),
                notation.partial(self.results[line.node], line.position),
                line.local * line.upstream,
            )
            for line in self.by_operand.get(v, ())
        ]
        return notation.grad_sum(name, uses, v.grad)


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
