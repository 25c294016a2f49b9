"""The trace's structure and numbers: node ids, kinds and topology, a value used twice, the
README's numbers, a structure that value-only changes leave alone, a call as one run of ids,
which node each step changes and how, the numerical check beside autograd and its budget,
and an update after backward() as a step of its own."""

from __future__ import annotations

import itertools
import re

import pytest
from test_run import LECTURE_NEURON
from traces import node, rows, shown, steps, text

from app.lecture import LECTURE_MLP, MICROGRAD_README
from app.lecture.notebook import LECTURE_MLP_CELL
from engine import GradstepError, run, trace
from engine.limits import MAX_CHECK_EVALUATIONS
from engine.trace import key, outline


def test_a_value_used_twice_gets_two_edges_and_one_step() -> None:
    t = trace(run("a = 3.0; b = a + a"))
    a = node(t, "a")
    assert [(e.source, e.position) for e in t.structure.edges] == [(a.id, 0), (a.id, 1)]
    _seed, step = steps(t, "backward")
    assert [c.node for c in step.changes] == [a.id, a.id]
    assert [c.grad for c in step.changes] == ["final", "final"]  # final by the end of the step
    assert rows(t, step)[1] == "  = 1.0000 × 1.0000 = 1.0000 | a.grad: 0.0000 → 1.0000"[2:]
    assert rows(t, step)[3].endswith("a.grad: 1.0000 → 2.0000, accumulates (a is used twice by b)")
    assert t.numbers.grad[a.id] == 2.0


def test_readme_trace_numbers() -> None:
    t = trace(run(MICROGRAD_README))
    out = t.structure.output
    assert round(t.numbers.data[out], 4) == 24.7041
    assert t.structure.nodes[out].kind == "output" and t.structure.nodes[out].name == "g₁"
    assert round(t.numbers.grad[node(t, "a").id], 4) == 138.8338  # type: ignore[arg-type]
    assert round(t.numbers.grad[node(t, "b").id], 4) == 645.5773  # type: ignore[arg-type]


def test_node_ids_kinds_and_topology() -> None:
    t = trace(run("a = 2.0\nb = a * 3 + a"))
    nodes = t.structure.nodes
    assert [n.id for n in nodes] == list(range(len(nodes)))
    assert [n.kind for n in nodes] == ["input", "constant", "intermediate", "output"]
    assert t.numbers.grad[1] is None and t.numbers.data[1] == 3.0  # the constant
    assert all(c.node != 1 for s in t.structure.steps for c in s.changes)
    for e in t.structure.edges:  # every operand comes before its result: a topological order
        assert e.source < e.target


def test_the_structure_is_the_same_for_value_only_changes() -> None:
    one, two = run(MICROGRAD_README), run(MICROGRAD_README, {"a": 0.5, "b": 1.25})
    assert trace(one).structure == trace(two).structure
    assert key(one, outline(one)) == key(two, outline(two))
    assert trace(one).numbers.data[0] != trace(two).numbers.data[0]
    other = run(MICROGRAD_README.replace("a * b", "a * b * 2"))
    assert key(other, outline(other)) != key(one, outline(one))


def test_a_call_is_one_run_of_ids_with_its_outputs_inputs_and_summaries() -> None:
    source = "def f(x, w):\n    y = x * w\n    return y.tanh()\n\na = 2.0\nb = -0.5\n"
    source += "z = f(a, b) + f(b, a)"
    t = trace(run(source))
    first, second = t.structure.calls
    assert (first.title, second.title) == ("f(a, b)", "f(b, a)")  # as written
    for c in t.structure.calls:
        made = [n for n in t.structure.nodes if n.call == c.id]
        assert [n.id for n in made] == list(range(c.first, c.last + 1))  # one unbroken run
        assert c.inputs == (0, 1) and len(c.outputs) == 1
    (out,) = first.outputs
    # both calls hand back a tanh(y): the line says which
    name, value = t.structure.nodes[out].name, t.numbers.data[out]
    expected = f"{name} = {value:.4f}   (f(a, b))".replace("-", "−")
    assert [text(t, line) for line in first.forward] == [expected]
    # stepped over, its backward run sends gradient to a and to b: one line each
    assert sorted(text(t, line)[:10] for line in first.backward) == ["a.grad += ", "b.grad += "]


def test_numerical_check_beside_autograd_for_every_input() -> None:
    t = trace(run(LECTURE_NEURON))
    inputs = t.structure.inputs
    assert [i.name for i in inputs] == ["x1", "x2", "w1", "w2", "b"]  # as the program has them
    for i, check in zip(inputs, t.numbers.checks, strict=True):
        assert i.checked
        assert check.numeric == pytest.approx(t.numbers.grad[i.node], abs=1e-6)


def test_numerical_check_is_none_when_a_nudge_leaves_the_domain() -> None:
    t = trace(run("x = 0.0\ny = sqrt(x + 1) * relu(x) + x"))
    assert t.structure.inputs[0].name == "x"  # still checked; relu's kink gives an estimate
    t = trace(run("x = 1e-300\ny = log(x)"))
    assert t.numbers.checks[0].numeric is None


def test_undefined_gradient_points_at_its_expression() -> None:
    with pytest.raises(GradstepError) as err:
        trace(run("x = 2.0\ny = sqrt(x - 2.0) * x"))
    assert err.value.kind == "domain"
    assert err.value.span is not None and err.value.span.line == 2
    assert err.value.span.column == 5  # sqrt(x - 2.0)


def test_single_input_program() -> None:
    t = trace(run("x = 3.0"))
    assert [n.kind for n in t.structure.nodes] == ["output"]
    (seed,) = t.structure.steps
    assert seed.phase == "backward" and rows(t, seed) == [
        "x.grad = 1 (the output's gradient with respect to itself)"
    ]
    assert t.numbers.grad[0] == 1.0


def test_each_step_says_which_node_changes_and_how() -> None:
    t = trace(run("a = 3.0\nb = a * 2\nc = b + a"))
    a, _two, b, c = t.structure.nodes
    assert (a.computed_at, b.computed_at, c.computed_at) == (-1, 0, 1)
    start = {s.node: (s.data is not None, s.grad) for s in t.structure.start}
    assert start == {0: (True, "pending"), 1: (True, "none"), 2: (False, "pending"),
                     3: (False, "pending")}  # fmt: skip
    changes = [[(ch.node, ch.data is not None, ch.grad) for ch in s.changes] for s in
               t.structure.steps]  # fmt: skip
    assert changes == [
        [(2, True, None)],  # forward: b computed
        [(3, True, None)],  # c
        [(3, False, "final")],  # the seed
        [(2, False, "final"), (0, False, "partial")],  # from c: b, and a's first part
        [(0, False, "final")],  # from b: a's last part (2 is a constant: no change)
    ]
    assert [s.grad for s in shown(t, "backward", 1)] == ["partial", "none", "final", "final"]


def test_numerical_check_stops_at_its_budget() -> None:
    n = 200
    source = "".join(f"a{i} = 1.0\n" for i in range(n)) + "s = a0 * a0\n"
    source += "".join(f"s += a{i}\n" for i in range(1, n))
    t = trace(run(source))
    ops = n
    affordable = MAX_CHECK_EVALUATIONS // (3 * ops)
    assert 0 < affordable < n
    assert [i.checked for i in t.structure.inputs] == [True] * affordable + [False] * (
        n - affordable
    )
    unchecked = [
        c for i, c in zip(t.structure.inputs, t.numbers.checks, strict=True) if not i.checked
    ]
    assert all(c.numeric is None for c in unchecked)
    assert all(t.numbers.grad[i.node] == 1.0 for i in t.structure.inputs[1:])  # still there


def test_an_update_after_backward_is_one_step_with_the_new_data() -> None:
    from app.lecture import LECTURE_MLP
    from engine.steps import check_step

    program = run(LECTURE_MLP)
    t = trace(program)
    (update,) = steps(t, "update")
    assert len(update.changes) == 41  # every parameter of MLP(3, [4, 4, 1])
    assert update.title == "After backward: p.data += -0.1 * p.grad changes 41 values"
    lines = rows(t, update)
    assert lines[0].startswith("w[0].data (Neuron 1, Layer 1): ")  # which w[0] it is
    assert len(lines) == 41  # every one: a clicker pages through them
    end = shown(t, "update", 0)
    for c in update.changes:
        before, after = t.numbers.data[c.node], t.numbers.slots[c.data]  # type: ignore[index]
        assert after == pytest.approx(before - 0.1 * t.numbers.grad[c.node])  # type: ignore[operator]
        assert end[c.node].updated and t.numbers.slots[end[c.node].data] == after  # type: ignore[index]
    assert all(s.grad in ("final", "none") for s in end)
    with pytest.raises(GradstepError, match="update step 1 does not exist"):
        check_step(t.structure, "update", 1)
    plain = trace(run(MICROGRAD_README))
    assert steps(plain, "update") == []
    with pytest.raises(GradstepError, match="none: this graph has no such steps"):
        check_step(plain.structure, "update", 0)


ONE_POINT_MLP = "\n".join(
    ["import random", LECTURE_MLP_CELL, "x = [2.0, 3.0, -1.0]", "n = MLP(3, [4, 4, 1])",
     "y = n(x)", "y.backward()"]
)  # fmt: skip


def test_a_neuron_called_once_holds_the_weights_and_bias_it_was_made_with() -> None:
    t = trace(run(ONE_POINT_MLP))
    calls = {c.id: c for c in t.structure.calls}
    for n in t.structure.nodes:
        if n.kind == "input":  # w[0..2] and b of a neuron: inside its call, at its run's start
            call = calls[n.call]
            assert call.title.startswith("Neuron") and call.first <= n.id <= call.last
    assert "MLP(3, [4, 4, 1])" not in {c.title for c in calls.values()}  # nothing left in it
    runs = sorted((c.first, c.last) for c in calls.values() if c.title.startswith("Neuron"))
    assert all(a[1] < b[0] for a, b in itertools.pairwise(runs))  # runs stay whole
    # folded, its backward step says the grads it gave them
    first = next(c for c in calls.values() if c.title == "Neuron 1")
    said = [text(t, line) for line in first.backward]
    assert [s.split(" += ")[0] for s in said] == ["w[0].grad", "w[1].grad", "w[2].grad", "b.grad"]


def test_weights_several_calls_use_stay_with_the_constructor() -> None:
    t = trace(run(LECTURE_MLP))  # four points through one model: each weight used four times
    calls = {c.id: c for c in t.structure.calls}
    inputs = [n for n in t.structure.nodes if n.name in ("w[0]", "b")]
    assert inputs and all(calls[n.call].title.startswith("Neuron") for n in inputs)
    made_in = {calls[calls[calls[n.call].parent].parent].title for n in inputs}  # type: ignore[index]
    assert made_in == {"MLP(3, [4, 4, 1])"}


def test_the_lecture_mlp_names_its_calls_and_partial_sums_as_its_code_makes_them() -> None:
    # four points through one model are four calls of n(x), not four MLPs; each neuron's
    # running total of sum(...) and the loss's are partial sums Σ₁, Σ₂, ..., not t₄₆ or
    # t₃₈₆+t₃₉₀ (docs/notation.md, "Names")
    t = trace(run(LECTURE_MLP))
    calls = t.structure.calls
    top = [c.title for c in calls if c.parent is None]
    assert top == ["MLP(3, [4, 4, 1])", "n(x) #1", "n(x) #2", "n(x) #3", "n(x) #4"]
    first = next(c for c in calls if c.title == "n(x) #1")
    inner = [c for c in calls if c.parent == first.id]
    assert [c.title for c in inner] == ["Layer 1", "Layer 2", "Layer 3"]  # three layers
    neurons = [c.title for c in calls if c.parent == inner[0].id]
    assert neurons == ["Neuron 1", "Neuron 2", "Neuron 3", "Neuron 4"]  # four neurons
    steps_in = next(s for s in steps(t, "forward") if "in Neuron 1, Layer 1" in s.title)
    assert steps_in.title.endswith("in Neuron 1, Layer 1, n(x) #1")
    numbered = [n.name for n in t.structure.nodes if re.fullmatch("t[₀-₉]+", n.name)]
    assert numbered == []  # (out−(−1))² fits on its box: nothing on the projector is t₃₉₀
    loss = node(t, "loss")
    assert loss.formula == "loss = Σ₃ + ((out−1)²)"
    last = [n for n in t.structure.nodes if n.call is None and n.name.startswith("Σ")]
    assert [n.name for n in last] == ["Σ₁", "Σ₂", "Σ₃"]
    assert [n.formula for n in last] == [
        "Σ₁ = 0 + ((out−1)²)",
        "Σ₂ = Σ₁ + ((out−(−1))²)",
        "Σ₃ = Σ₂ + ((out−(−1))²)",
    ]
    first_neuron = [n for n in t.structure.nodes if n.call == 15 and n.kind == "intermediate"]
    assert [n.name for n in first_neuron] == [
        "w[0]·2", "Σ₁", "w[1]·3", "Σ₂", "w[2]·(−1)", "act", "out"
    ]  # fmt: skip
    assert node(t, "act").formula == "act = Σ₂ + (w[2]·(−1))"


CALLS_OF_ONE_OBJECT = """\
class Scale:
  def __init__(self):
    self.w = Value(0.5)
  def __call__(self, x):
    return self.w * x
s = Scale()
ys = [s(x) for x in [1.0, 2.0]]
loss = ys[0] + ys[1]
loss.backward()
"""


def test_calls_of_one_object_are_named_by_the_call_as_written_and_its_run() -> None:
    titles = [c.title for c in trace(run(CALLS_OF_ONE_OBJECT)).structure.calls]
    assert titles == ["Scale()", "s(x) #1", "s(x) #2"]
