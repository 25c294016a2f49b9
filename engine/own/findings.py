"""Where a learner's gradients go wrong. Their backward pass is replayed beside the truth: each
step of theirs adds to the true running gradient what a correct step would add, in their order,
so the first write after which a node's gradient differs from that is the one that made it
wrong; and why, from what the write did: it replaced instead of adding, used a wrong local
derivative, added onto an old pass, or was right for an upstream gradient that was not yet
whole (a step out of topological order) or was itself wrong.

A finding is about a node whose final gradient differs from the true one (relative 1e-6).
Findings that follow from another (a gradient wrong because the one it was sent from was wrong,
a node that never got its seed's share, the other nodes one mistaken line made wrong in the same
step) name it as their ``cause``: a learner fixes the causes; the rest heal with them."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.errors import Span
from engine.own.backward import Pass, Step
from engine.own.truth import Truth

RTOL = 1e-6  # how close a gradient must be to the true one to count as right


def close(x: float, y: float) -> bool:
    return abs(x - y) <= RTOL * max(abs(x), abs(y)) + 1e-12


@dataclass(frozen=True, slots=True)
class Finding:
    node: int
    kind: str  # overwrite, local, order, seed, zero, missing, repeat, upstream, hand, unreached
    step: int | None  # the step of the pass where it went wrong (None: no step made it wrong)
    write: int | None  # that step's write that did it (None: the step did not write it)
    span: Span | None  # the line to look at
    user: int | None = None  # the node whose step it is (a call of its kept function)
    position: int | None = None  # which of the user's operands the write was for
    expected: float = 0.0  # what the gradient should have become there (true running value)
    got: float = 0.0  # what it became
    local: float = 0.0  # the true local derivative of that write's position
    upstream: float = 0.0  # the user's gradient as their step read it
    true_upstream: float = 0.0
    cause: int | None = None  # the index of the finding this one follows from


@dataclass(frozen=True, slots=True)
class Replay:
    findings: tuple[Finding, ...]  # the first wrong write first
    expected: tuple[float | None, ...]  # per write of the pass: what a correct one leaves there


def find(
    walk: Pass,
    final: Sequence[float],
    truth: Truth,
    root: int,
    backward_def: Span | None,
) -> Replay:
    """The findings of ``walk`` (``final``: each gradient as their code left it), the first
    wrong write first, and what each write should have left. Each finding points at the line
    to look at: the write that made the gradient wrong; for a step out of order, the call of
    that step; for a missing seed, the backward that lacks it; for gradients not zeroed, the
    backward() call that added onto them."""
    steps, start = walk.steps, walk.start
    n = len(final)
    true_running = [0.0] * n
    theirs = list(start)
    known = [True] * n  # whether true_running is known (every gradient it was made of is)
    expected: list[float | None] = []
    first: dict[int, Finding] = {}
    called: set[int] = set()  # nodes whose step has run: a correct pass runs each once
    for s, step in enumerate(steps):
        if step.kind == "seed":
            for j, w in enumerate(step.writes):
                theirs[w.node], true_running[w.node], known[w.node] = w.after, 1.0, True
                expected.append(1.0)
                if not close(w.after, 1.0) and w.node not in first:
                    first[w.node] = Finding(w.node, "seed", s, j, w.span, expected=1.0, got=w.after)
            continue
        if step.kind == "direct":  # a gradient set by hand is meant to be the whole of it
            for j, w in enumerate(step.writes):
                true = truth.grad[w.node]
                theirs[w.node] = w.after
                known[w.node] = true is not None
                expected.append(true)
                if true is not None:
                    true_running[w.node] = true
                    if not close(w.after, true) and w.node not in first:
                        first[w.node] = Finding(
                            w.node, "hand", s, j, w.span, expected=true, got=w.after
                        )
            continue
        repeat = step.node in called
        called.add(step.node)
        expected += _call(s, step, truth, theirs, true_running, known, final, root, first, repeat)
    out = []
    for v in range(n):
        true = truth.grad[v]
        if true is None or close(final[v], true):
            continue
        found = first.get(v)
        if found is None:  # no step of the pass made it wrong: the pass never reached it
            kind = "seed" if v == root else "unreached"
            found = Finding(
                v,
                kind,
                0 if kind == "seed" and steps else None,  # a pass without its seed: its start
                None,
                backward_def if v == root else None,
                expected=true,
                got=final[v],
            )
        out.append(_pointed(found, steps, backward_def, walk.began))
    out.sort(key=_order)
    return Replay(_caused(out, root), tuple(expected))


def _order(f: Finding) -> tuple[int, int, int]:
    """The first wrong write first; a missing seed before all (the pass began wrong); what no
    step made wrong last."""
    if f.step is None:
        return (-1, 0, 0) if f.kind == "seed" else (1, 0, 0)
    return (0, f.step, -1 if f.write is None else f.write)


def _caused(found: list[Finding], root: int) -> tuple[Finding, ...]:
    """``found`` with each finding's cause, followed to the first that has none: for one wrong
    because its user's gradient was (an upstream or a seed finding), the user's finding; for a
    node the pass never reached, the output's; for one of the same kind as an earlier finding,
    pointing at the same line, that finding (one mistake made both wrong)."""
    index = {f.node: i for i, f in enumerate(found)}
    direct: list[int | None] = []
    for i, f in enumerate(found):
        if f.kind in ("upstream", "seed") and f.user is not None:
            cause = index.get(f.user)
        elif f.kind == "unreached":
            cause = index.get(root)
        else:
            same = (f.kind, f.span)
            cause = next((k for k in range(i) if (found[k].kind, found[k].span) == same), None)
        direct.append(cause)

    def first(i: int) -> int | None:
        seen = {i}
        cause = direct[i]
        while cause is not None and direct[cause] is not None and cause not in seen:
            seen.add(cause)
            cause = direct[cause]
        return None if cause == i else cause

    return tuple(replace(f, cause=first(i)) for i, f in enumerate(found))


def _pointed(
    f: Finding, steps: Sequence[Step], backward_def: Span | None, began: Span | None
) -> Finding:
    """``f`` pointing at the line a learner should look at for its kind of mistake."""
    span = f.span
    if f.kind in ("order", "repeat") and f.step is not None:
        span = steps[f.step].call_span or span
    elif f.kind == "seed":
        span = backward_def or span
    elif f.kind == "zero":
        span = began or span
    return replace(f, span=span)


def _call(
    s: int,
    step: Step,
    truth: Truth,
    theirs: list[float],
    true_running: list[float],
    known: list[bool],
    final: Sequence[float],
    root: int,
    first: dict[int, Finding],
    repeat: bool,
) -> list[float | None]:
    """A call of node u's kept function: each write checked against what a correct one adds
    (nothing, when u's step ran before: ``repeat``); what each write should have left (None
    where the true gradients are not known)."""
    u = step.node
    upstream, true_up = theirs[u], truth.grad[u]
    if repeat:
        return _again(s, step, theirs, true_running, known, first)
    positions: dict[int, list[tuple[int, float]]] = {}  # parent -> its (position, ∂u/∂parent)
    for k, (p, d) in enumerate(truth.locals[u]):
        positions.setdefault(p, []).append((k, d))
    # A parent written as many times as it has positions gets a position per write; otherwise
    # (x·x's two shares in one line, or one derivative found numerically for two writes) its
    # writes are judged together, at the last of them, against the sum of its shares.
    count = Counter(w.node for w in step.writes)
    pooled = {v for v in count if v in positions and len(positions[v]) != count[v]}
    seen: Counter[int] = Counter()
    pool_start: dict[int, tuple[float, float]] = {}  # theirs and the truth before the first
    expected: list[float | None] = []
    for j, w in enumerate(step.writes):
        v = w.node
        seen[v] += 1
        if v in pooled:
            pool_start.setdefault(v, (w.before, true_running[v]))
            if seen[v] < count[v]:
                theirs[v] = w.after
                expected.append(None)
                continue
            shares = positions.pop(v)
            position = shares[0][0] if len(shares) == 1 else None
            d = math.fsum(share for _, share in shares)
            before, before_true = pool_start[v]
        else:
            left = positions.get(v)
            position, d = left.pop(0) if left else (None, 0.0)
            before, before_true = w.before, true_running[v]
        if true_up is not None:
            true_running[v] = before_true + d * true_up
        known[v] = known[v] and true_up is not None
        expected.append(true_running[v] if known[v] else None)
        theirs[v] = w.after
        if v in first or true_up is None or close(w.after, true_running[v]):
            continue
        kind = _why(
            before, w.after, w.augmented, d, upstream, true_up, before_true, final[u], u == root
        )
        first[v] = Finding(
            v, kind, s, j, w.span, u, position, true_running[v], w.after, d, upstream, true_up
        )
    for p, left in positions.items():  # positions this step never wrote: gradient not sent
        for position, d in left:
            if true_up is None:
                continue
            true_running[p] += d * true_up  # (known[p] stands: the share is known)
            if p not in first and d * true_up != 0 and not close(theirs[p], true_running[p]):
                first[p] = Finding(
                    p,
                    "missing",
                    s,
                    None,
                    step.function_span,
                    u,
                    position,
                    true_running[p],
                    theirs[p],
                    d,
                    upstream,
                    true_up,
                )
    return expected


def _again(
    s: int,
    step: Step,
    theirs: list[float],
    true_running: list[float],
    known: list[bool],
    first: dict[int, Finding],
) -> list[float | None]:
    """A node's step run a second time: a correct pass would not, so every write it makes
    should leave the gradient as it was."""
    expected: list[float | None] = []
    for j, w in enumerate(step.writes):
        v = w.node
        theirs[v] = w.after
        expected.append(true_running[v] if known[v] else None)
        if v not in first and known[v] and not close(w.after, true_running[v]):
            first[v] = Finding(
                v, "repeat", s, j, w.span, step.node, None, true_running[v], w.after,
                upstream=theirs[step.node],
            )  # fmt: skip
    return expected


def _why(
    before: float,
    after: float,
    augmented: bool,
    d: float,
    upstream: float,
    true_up: float,
    before_true: float,
    user_final: float,
    user_is_root: bool,
) -> str:
    """Why a write left a gradient different from the true running one."""
    if not close(upstream, true_up):  # the step read a gradient that was not the true one
        if user_is_root and close(upstream, 0.0):
            return "seed"  # the pass began without the output's gradient set to 1
        if close(user_final, true_up):
            return "order"  # the user's gradient was right in the end: it sent too early
        return "upstream"  # the user's own gradient was wrong
    if not augmented and not close(before, 0.0) and close(after, d * upstream):
        return "overwrite"  # = where += belongs: the earlier contributions are lost
    if not close(after - before, d * upstream):
        if not augmented and close(after, d * upstream):
            return "overwrite"
        return "local"  # it added something else than ∂/∂ · upstream
    if not close(before, before_true):
        return "zero"  # right, but added onto what an earlier pass left
    return "local"
