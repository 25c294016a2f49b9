"""The trace: the data the stepper replays. Replaying its backward steps must give exactly the
grads that ``backward()`` gives (DESIGN.md: the steps and backward() never drift apart)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parse import LECTURE_NEURON

from app.lecture import MICROGRAD_README
from engine import GradstepError, Program, Trace, parse, trace
from engine.graph import topological_order
from engine.limits import MAX_CHECK_EVALUATIONS

try:
    from app.presets import PRESETS

    PRESET_SOURCES = [p.source for p in PRESETS]
except ImportError:  # the app layer is optional for the engine's tests
    PRESET_SOURCES = []

PROGRAMS = [
    MICROGRAD_README,
    LECTURE_NEURON,
    "a = 3.0; b = a + a",
    "x = 0.5\ny = sigmoid(x) * exp(x) - log(x + 2) / sqrt(x)",
    "x = 1.5; w = -0.7\nh = relu(x * w + 1) + sin(x) * cos(w)\nh **= 2\nh -= x",
    "x = 2.0\ny = x ** 3 + 2 ** x + x ** x\ny /= 7",
    "a = 0.3\nb = -a\nc = b * b * b\nc += c\nc *= a",
    "p = 2.0\nq = p.tanh().exp().relu()",
    *PRESET_SOURCES,
]


def replay(t: Trace) -> dict[int, float]:
    """What the browser does: seed the output, then apply every contribution in order."""
    grads = {n.id: 0.0 for n in t.nodes if n.kind != "constant"}
    for step in t.backward:
        if step.seed:
            grads[step.node] = 1.0
        for c in step.contributions:
            assert grads[c.operand] == c.grad_before
            assert c.contribution == c.local * c.upstream
            assert c.grad_after == c.grad_before + c.contribution
            assert c.upstream == grads[step.node]
            grads[c.operand] = c.grad_after
    return grads


def backward_grads(program: Program, t: Trace) -> dict[int, float]:
    """Fresh grads from the engine's own backward(), by the trace's node ids."""
    root = program.output
    root.zero_grad()
    root.backward()
    ordered = sorted(topological_order(root), key=lambda v: v.serial)
    return {i: v.grad for i, v in enumerate(ordered) if not v.constant}


def assert_replay_exact(source: str) -> Trace:
    program = parse(source)
    t = trace(program)
    replayed = replay(t)
    assert replayed == backward_grads(program, t)  # exactly: ==, not approx
    assert replayed == {n.id: n.grad for n in t.nodes if n.grad is not None}
    return t


@pytest.mark.parametrize("source", PROGRAMS)
def test_replaying_steps_gives_backward_grads_exactly(source: str) -> None:
    assert_replay_exact(source)


def test_presets_are_covered() -> None:
    assert len(PRESET_SOURCES) >= 5


def _names(i: int) -> str:
    return f"x{i}"


@st.composite
def programs(draw: st.DrawFn) -> str:
    """Random straight-line programs: inputs, then statements mixing every construct."""
    n_inputs = draw(st.integers(1, 4))
    lines = [f"x{i} = {draw(st.floats(0.2, 2.0)):.3f}" for i in range(n_inputs)]
    names = [_names(i) for i in range(n_inputs)]
    leaf = st.one_of(st.sampled_from(names), st.sampled_from(["0.5", "2", "1.5"]))

    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        )
        unary = st.tuples(st.sampled_from(["tanh", "sigmoid", "sin", "cos"]), children).map(
            lambda t: f"{t[0]}({t[1]})"
        )
        method = children.map(lambda c: f"({c}).tanh()")
        return st.one_of(binary, unary, method, children.map(lambda c: f"-{c}"))

    for j in range(draw(st.integers(1, 5))):
        expr = draw(st.recursive(leaf, extend, max_leaves=6))
        target = draw(st.sampled_from([*names, f"t{j}"]))
        op = draw(st.sampled_from(["=", "+=", "*=", "-="])) if target in names else "="
        lines.append(f"{target} {op} {expr}")
        if target not in names:
            names.append(target)
    lines.append(f"out = {' + '.join(names)}")
    return "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_replay_is_exact_for_random_programs(source: str) -> None:
    assert_replay_exact(source)


def test_a_value_used_twice_gets_two_edges_and_one_step() -> None:
    t = trace(parse("a = 3.0; b = a + a"))
    a = next(n for n in t.nodes if n.name == "a")
    assert [(e.source, e.position) for e in t.edges] == [(a.id, 0), (a.id, 1)]
    steps = [s for s in t.backward if not s.seed]
    assert len(steps) == 1
    contributions = steps[0].contributions
    assert [c.operand for c in contributions] == [a.id, a.id]
    assert sum(c.contribution for c in contributions) == 2.0
    assert contributions[1].grad_before == 1.0 and contributions[1].grad_after == 2.0
    assert a.grad == 2.0


def test_readme_trace_numbers() -> None:
    t = trace(parse(MICROGRAD_README))
    by_label = {n.name: n for n in t.nodes}
    assert round(t.nodes[t.output].data, 4) == 24.7041
    assert t.nodes[t.output].kind == "output" and t.nodes[t.output].name == "g₁"
    assert round(by_label["a"].grad, 4) == 138.8338  # type: ignore[arg-type]
    assert round(by_label["b"].grad, 4) == 645.5773  # type: ignore[arg-type]


def test_node_ids_kinds_and_topology() -> None:
    t = trace(parse("a = 2.0\nb = a * 3 + a"))
    assert [n.id for n in t.nodes] == list(range(len(t.nodes)))
    assert [n.kind for n in t.nodes] == ["input", "constant", "intermediate", "output"]
    constant = t.nodes[1]
    assert constant.grad is None and constant.data == 3.0
    assert all(c.operand != constant.id for s in t.backward for c in s.contributions)
    for e in t.edges:  # every operand comes before its result: ids are a topological order
        assert e.source < e.target


def test_ids_are_stable_for_value_only_changes() -> None:
    one = trace(parse(MICROGRAD_README))
    two = trace(parse(MICROGRAD_README, {"a": 0.5, "b": 1.25}))
    assert [(n.id, n.name, n.kind, n.op, n.span, n.formula) for n in one.nodes] == [
        (n.id, n.name, n.kind, n.op, n.span, n.formula) for n in two.nodes
    ]
    assert one.edges == two.edges
    assert one.nodes[0].data != two.nodes[0].data


def test_forward_steps_in_topological_order_with_readable_text() -> None:
    t = trace(parse("a = -4.0\nb = 2.0\nc = a * b"))
    (step,) = t.forward
    assert step.node == t.output
    assert step.text == ("c = a·b = ", (-4.0,), "·", (2.0,), " = ", -8.0)
    made = [s.node for s in t.forward]
    assert made == sorted(made)  # in creation order


def test_a_call_is_one_run_of_ids_with_its_outputs_inputs_and_summaries() -> None:
    source = "def f(x, w):\n    y = x * w\n    return y.tanh()\n\na = 2.0\nb = -0.5\n"
    source += "z = f(a, b) + f(b, a)"
    t = trace(parse(source))
    first, second = t.calls
    assert (first.title, second.title) == ("f(a, b)", "f(b, a)")  # as written
    for c in t.calls:
        made = [n for n in t.nodes if n.call == c.id]
        assert [n.id for n in made] == list(range(c.first, c.last + 1))  # one unbroken run
        assert c.inputs == (0, 1) and len(c.outputs) == 1
    (out,) = first.outputs
    # both calls hand back a tanh(y): the line says which
    assert first.forward == ((f"{t.nodes[out].name} = ", t.nodes[out].data, "   (f(a, b))"),)
    # stepped over, its backward run sends gradient to a and to b: one line each
    assert sorted(line[0] for line in first.backward) == ["a.grad += ", "b.grad += "]


def test_backward_contribution_writes_the_rule_in_the_users_names() -> None:
    t = trace(parse("x = 0.5\nw = 2.0\nh = x * w\ny = h.tanh()"))
    tanh_step, mul_step = t.backward[1], t.backward[2]
    (tanh_c,) = tanh_step.contributions
    assert tanh_c.rule == ("∂y/∂h = (1 − y²)",)  # y's own name, never a template letter
    assert tanh_c.local == pytest.approx(1 - math.tanh(1.0) ** 2)
    x_c, w_c = mul_step.contributions
    assert (x_c.rule, w_c.rule) == (("∂h/∂x = w",), ("∂h/∂w = x",))
    assert (x_c.local, w_c.local) == (2.0, 0.5)


def test_names_of_unnamed_values_are_their_expressions() -> None:
    t = trace(parse("a = 2.0\nb = 3.0\ny = (a + b) * (a - b)"))
    assert [n.name for n in t.nodes] == ["a", "b", "a+b", "a−b", "y"]  # tight: on the node
    mul = t.backward[1]
    assert [c.rule for c in mul.contributions] == [
        ("∂y/∂(a+b) = (a−b)",),
        ("∂y/∂(a−b) = (a+b)",),
    ]


def test_names_after_a_rebinding_are_the_graphs_not_the_sources() -> None:
    """The source says ``c`` on line 3, where the graph has ``c₁``: names follow the graph."""
    t = trace(parse("c = 2.0\nc += 1\nd = 1 + c"))
    assert [n.name for n in t.nodes if n.kind != "constant"] == ["c", "c₁", "d"]
    assert t.nodes[t.output].formula == "d = 1 + c₁"


def test_numerical_check_beside_autograd_for_every_input() -> None:
    t = trace(parse(LECTURE_NEURON))
    assert [c.name for c in t.inputs] == ["x1", "x2", "w1", "w2", "b"]  # as the program has them
    for check in t.inputs:
        assert not check.skipped
        assert check.numeric == pytest.approx(check.grad, abs=1e-6)
        assert check.grad == t.nodes[check.node].grad


def test_numerical_check_is_none_when_a_nudge_leaves_the_domain() -> None:
    t = trace(parse("x = 0.0\ny = sqrt(x + 1) * relu(x) + x"))
    assert t.inputs[0].name == "x"  # still checked; relu's kink gives a finite estimate
    t = trace(parse("x = 1e-300\ny = log(x)"))
    assert t.inputs[0].numeric is None


def test_undefined_gradient_points_at_its_expression() -> None:
    with pytest.raises(GradstepError) as err:
        trace(parse("x = 2.0\ny = sqrt(x - 2.0) * x"))
    assert err.value.kind == "domain"
    assert err.value.span is not None and err.value.span.line == 2
    assert err.value.span.column == 5  # sqrt(x - 2.0)


def test_single_input_program() -> None:
    t = trace(parse("x = 3.0"))
    assert [n.kind for n in t.nodes] == ["output"]
    assert t.backward[0].seed and t.nodes[0].grad == 1.0
    assert t.forward == ()


def test_compound_names_are_bracketed_inside_formulas() -> None:
    t = trace(parse("x = 2.0\ny = tanh(x * x) * (x - 1) * -3"))
    rules = [c.rule[0] for s in t.backward for c in s.contributions]
    assert "∂y/∂#5 = (−3)" in rules  # a negative constant is bracketed
    assert "∂(x·x)/∂x⁽¹⁾ = x⁽²⁾" in rules  # named by its expression: said once
    assert any(r.startswith("∂tanh(x·x)/∂(x·x) = (1 − tanh(x·x)²)") for r in rules)
    assert "∂(x−1)/∂x = 1" in rules


def test_each_step_state_field_says_when_a_node_changes() -> None:
    t = trace(parse("a = 3.0\nb = a * 2\nc = b + a"))
    a, two, b, c = t.nodes
    assert (a.computed_at, b.computed_at, c.computed_at) == (-1, 0, 1)
    assert (c.grad_from, c.grad_final) == (0, 0)  # the seed
    assert (b.grad_from, b.grad_final) == (1, 1)
    assert (a.grad_from, a.grad_final) == (1, 2)  # from c, then from b
    assert (two.grad_from, two.grad_final, two.grad) == (-1, -1, None)


def test_numerical_check_stops_at_its_budget() -> None:
    n = 200
    source = "".join(f"a{i} = 1.0\n" for i in range(n)) + "s = a0 * a0\n"
    source += "".join(f"s += a{i}\n" for i in range(1, n))
    t = trace(parse(source))
    ops = n
    affordable = MAX_CHECK_EVALUATIONS // (3 * ops)
    assert 0 < affordable < n
    assert [c.skipped for c in t.inputs] == [False] * affordable + [True] * (n - affordable)
    assert all(c.numeric is None for c in t.inputs if c.skipped)
    assert all(c.grad == 1.0 for c in t.inputs[1:])  # autograd is still there for every input


def test_every_step_has_the_engines_title_with_the_calls_around_it() -> None:
    source = "def f(x, w):\n    y = x * w\n    return y.tanh()\n\na = 2.0\nb = -0.5\n"
    source += "z = f(a, b) + f(b, a)"
    t = trace(parse(source))
    assert t.forward[0].title == "Forward step 1 of 5 · in f(a, b)"
    assert t.forward[-1].title == "Forward step 5 of 5"
    assert t.backward[0].title == f"Backward step 1 of 6 · {t.nodes[t.output].formula}"
    inner = next(s for s in t.backward if s.node == t.calls[1].last)
    assert inner.title.endswith(" · in f(b, a)") and "tanh" in inner.title
    # a call stepped over: its runs of steps, in the same words
    first = t.calls[0]
    assert first.forward_title == "Forward steps 1–2 of 5 · f(a, b), folded"
    assert first.backward_title == "Backward steps 5–6 of 6 · f(a, b), folded"


def test_an_update_after_backward_is_one_step_with_the_new_data() -> None:
    from app.lecture import LECTURE_MLP
    from engine.steps import check_step, state_at

    t = trace(parse(LECTURE_MLP))
    assert len(t.updates) == 41  # every parameter of MLP(3, [4, 4, 1])
    assert t.update_title == "After backward: p.data += -0.1 * p.grad changes 41 values"
    assert t.update_text[0][0] == "w[0].data (Neuron 1, Layer 1): "  # which w[0] it is
    assert len(t.update_text) == 7  # 6 values and "… and 35 more"
    for u in t.updates:
        assert t.nodes[u.node].data == u.before  # the graph keeps its forward pass's numbers
        assert u.after == pytest.approx(u.before - 0.1 * t.nodes[u.node].grad)
    state = state_at(t, "update", 0)
    assert state.updated == {u.node for u in t.updates}
    assert [state.nodes[u.node].data for u in t.updates] == [u.after for u in t.updates]
    assert all(s.grad_state in ("final", "none") for s in state.nodes)
    with pytest.raises(GradstepError, match="update step 1 does not exist"):
        check_step(t, "update", 1)
    plain = trace(parse(MICROGRAD_README))
    assert plain.updates == () and plain.update_title == ""
    with pytest.raises(GradstepError, match="none: this graph has no such steps"):
        check_step(plain, "update", 0)
