"""The structure of a program's trace: every node's name and formula, the walk's steps with
what each one says and which state each node takes at it, the calls, the inputs. It depends
on the program's text and the shape of its graph, not on its values: built once, it serves
every value change of the same program (``engine.trace.numbers`` makes the numbers)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from engine import notation
from engine.limits import MAX_CHECK_EVALUATIONS
from engine.notation import LineRefs, Parts, Result, Use
from engine.program import Graph, Program
from engine.trace import titles
from engine.trace.data import (
    Cell,
    Change,
    GradState,
    Input,
    Node,
    NodeOutline,
    Row,
    Step,
    Structure,
)
from engine.trace.names import Names
from engine.trace.outline import Outline
from engine.trace.slots import Slots
from engine.trace.walk import Walk, walk, walk_of_nothing


@dataclass(frozen=True, slots=True, eq=False)
class Built:
    """A structure and what its numbers are made from."""

    structure: Structure
    walk: Walk
    recipes: tuple[tuple[str, int], ...]  # each slot's number: (array, index)
    totals: tuple[tuple[int, ...], ...]  # the walk's lines each "total" sums (folded calls)
    updates: tuple[int, ...]  # the program's updates that are drawn (indices in its updates)


def key(program: Program, shape: Outline) -> str:
    """A digest of everything the structure is made from (the text, the graph's shape, its
    constants, names, calls, spans and updates): equal keys, equal structures."""
    g, order, ids = shape.graph, shape.order, shape.ids
    nodes = [
        (n.name, n.kind, n.op, n.call, g.data[i] if g.constant[i] else None, g.spans[i])
        for n, i in zip(shape.nodes, order, strict=True)
    ]
    updates = [(ids[u.node], u.span) for u in g.updates]
    settable = sorted(ids[i] for i in g.inputs.values())
    parts = (program.source, nodes, shape.edges, shape.calls, updates, settable, program.notes)
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def build(program: Program, shape: Outline) -> Built:
    g, order, ids, names = shape.graph, shape.order, shape.ids, shape.names
    slots = Slots()
    the_walk = walk(g, order, ids)
    results = {k: names.result(i) for k, i in enumerate(order) if g.parents[i]}
    computed_at = {node: i for i, node in enumerate(results)}
    uses = _uses(the_walk, shape)
    by_operand: dict[int, list[int]] = {}  # each value's lines, in walk order
    for k, line in enumerate(the_walk.lines):
        by_operand.setdefault(line.operand, []).append(k)
    nodes = tuple(
        Node(
            id=n.id,
            name=n.name,
            grad_name=notation.grad_of(n.name),
            kind=n.kind,
            op=n.op,
            symbol=n.symbol,
            span=g.spans[i],
            formula=notation.formula(results[n.id]) if n.id in results else "",
            computed_at=computed_at.get(n.id, -1),
            call=n.call,
            uses=f"used {uses[n.id]}" if n.id in uses else "",
            sum=slots.line(
                _grad_sum(n, g.constant[i], ids[g.output], the_walk, by_operand, results)
            ),
        )
        for i, n in zip(order, shape.nodes, strict=True)
    )
    start = tuple(
        Change(n.id, data=None if n.id in results else slots("data", n.id),
               grad="none" if n.kind == "constant" else "pending")
        for n in nodes
    )  # fmt: skip
    calls = shape.made_in
    forward = [
        Step("forward", node, titles.step_title("forward", i, i, len(results), calls.inside(node)),
             ((Cell("formula", slots.line(notation.forward_text(r))),),),
             tuple((node, p) for p in range(r.op.arity)), False,
             (Change(node, data=slots("data", node)),))
        for i, (node, r) in enumerate(results.items())
    ]  # fmt: skip
    backward = _backward_steps(the_walk, nodes, results, uses, slots, calls.inside)
    kept = list(range(len(g.updates)))
    update = _update_step(program, g, ids, nodes, calls.where, slots)
    totals: list[tuple[int, ...]] = []
    infos = calls.infos(shape.calls, nodes, the_walk, len(forward), slots, totals)
    structure = Structure(
        engine="gradstep",
        engine_class="",
        output=ids[g.output],
        nodes=nodes,
        edges=shape.edges,
        calls=infos,
        start=start,
        steps=(*forward, *backward, *update),
        slots="".join(slots.kinds),
        inputs=_inputs(g, order, names, len(results)),
        notes=program.notes,
    )
    return Built(structure, the_walk, tuple(slots.recipes), tuple(totals), tuple(kept))


def nothing(program: Program) -> Built:
    """The structure of a program that made no value to draw: its notes alone."""
    structure = Structure("gradstep", "", -1, (), (), (), (), (), "", (), program.notes)
    return Built(structure, walk_of_nothing(), (), (), ())


def _uses(the_walk: Walk, shape: Outline) -> dict[int, str]:
    """``twice by b``: who uses each value (notation.uses_text), written once per value."""
    nodes = shape.nodes
    return {
        v: notation.uses_text([(u, nodes[u].name) for u in users])
        for v, users in the_walk.users.items()
    }


def _grad_sum(
    n: NodeOutline,
    constant: bool,
    root: int,
    the_walk: Walk,
    by_operand: dict[int, list[int]],
    results: dict[int, Result],
) -> Parts:
    """The inspector's line: the value's grad as the sum of what each use sends it."""
    if constant:
        return notation.constant_note(n.name)
    if n.id == root:
        return notation.output_sum(n.name)
    uses = []
    for k in by_operand.get(n.id, ()):
        result = results[the_walk.lines[k].node]
        partial = notation.partial(result, the_walk.lines[k].position)
        uses.append(Use(result.name, partial, ("product", k)))
    return notation.grad_sum(n.name, uses, ("grad", n.id))


def _backward_steps(
    the_walk: Walk,
    nodes: tuple[Node, ...],
    results: dict[int, Result],
    uses: dict[int, str],
    slots: Slots,
    inside: Callable[[int], str],
) -> list[Step]:
    """The seed, then a step per op: a row pair per operand that takes gradient (the rule and
    its value; the product and the grad before → after), a note per constant."""
    count = len(the_walk.step_nodes)
    last = {line.operand: line.step for line in the_walk.lines}
    ends = {line.operand: k for k, line in enumerate(the_walk.lines)}  # each operand's last line
    received: dict[int, int] = {}
    rows: list[list[Row]] = [[] for _ in range(count)]
    changes: list[list[Change]] = [[] for _ in range(count)]
    edges: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    for k, line in enumerate(the_walk.lines):
        operand = line.operand
        # a value's grad is final when its step runs (reverse creation order): the upstream is
        # the node's final grad, and an operand's grad after its last line is its final grad
        final = k == ends[operand]
        after, bin_ = (
            (("grad", operand), ("nbin", operand)) if final else (("after", k), ("bin", k))
        )
        refs = LineRefs(("local", k), ("grad", line.node), ("product", k), ("before", k), after)
        text = notation.contribution_text(results[line.node], line.position, refs)
        received[operand] = received.get(operand, 0) + 1
        change = slots.line(text.change)
        if received[operand] > 1:  # it accumulates: say so, naming who uses it
            note = notation.accumulates_note(nodes[operand].name, uses[operand])
            last_cell = Cell("accumulates", (*change, f", {note}"))
        else:
            last_cell = Cell("change", change)
        rule: Row = (Cell("sum", slots.line(text.sum)), Cell("rule", slots.line(text.rule)))
        if text.value:  # not for a rule without a number (∂c/∂a = 1)
            rule += (Cell("value", slots.line(text.value)),)
        rows[line.step] += [rule, (Cell("product", slots.line(text.product)), last_cell)]
        state: GradState = "final" if last[operand] == line.step else "partial"
        changes[line.step].append(
            Change(operand, grad=state, value=slots(*after), bin=slots(*bin_, "w"))
        )
        edges[line.step].append((line.node, line.position))
    for step, constants in the_walk.constants.items():
        for c in constants:
            rows[step].append((Cell("note", slots.line(notation.constant_note(nodes[c].name))),))
    root = the_walk.step_nodes[0]
    rows[0] = [(Cell("note", slots.line(notation.seed_text(nodes[root].name))),)]
    changes[0] = [
        Change(root, grad="final", value=slots("grad", root), bin=slots("nbin", root, "w"))
    ]
    steps = []
    for j, node in enumerate(the_walk.step_nodes):
        about = nodes[node].formula or nodes[node].name
        title = titles.step_title("backward", j, j, count, about, inside(node))
        steps.append(
            Step("backward", node, title, tuple(rows[j]), tuple(edges[j]), True, tuple(changes[j]))
        )
    return steps


def _update_step(
    program: Program,
    g: Graph,
    ids: list[int],
    nodes: tuple[Node, ...],
    where: dict[int, str],
    slots: Slots,
) -> list[Step]:
    """The values the program changed after its last backward() (a gradient step), as one
    last step: the changed leaves show their new data (their grads stay, as micrograd's)."""
    if not g.updates:
        return []
    changed = []
    for u, update in enumerate(g.updates):
        node = ids[update.node]
        changed.append(
            (nodes[node].name, where.get(node, ""), ("data", node), ("update", u), update.span)
        )
    title, lines = titles.update_text(program.source, changed)
    changes = tuple(
        Change(ids[update.node], data=slots("update", u), updated=True)
        for u, update in enumerate(g.updates)
    )
    rows = tuple((Cell("formula", slots.line(line)),) for line in lines)
    return [Step("update", None, title, rows, (), False, changes)]


def _inputs(g: Graph, order: list[int], names: Names, ops: int) -> tuple[Input, ...]:
    """The graph's inputs, each checked by central differences while MAX_CHECK_EVALUATIONS
    allows: an input costs three re-evaluations of every op."""
    leaves = [(k, i) for k, i in enumerate(order) if not g.parents[i] and not g.constant[i]]
    affordable = MAX_CHECK_EVALUATIONS // max(3 * ops, 1)
    out = []
    for n, (k, i) in enumerate(leaves):
        name = names(i)
        settable = g.inputs.get(name) == i  # a top-level name a request's values can set
        out.append(Input(k, name, settable, n < affordable))
    return tuple(out)
