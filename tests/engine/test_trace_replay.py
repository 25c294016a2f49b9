"""The trace: the data the stepper replays. Replaying its backward steps must give exactly the
grads that ``backward()`` gives (docs/design.md: the steps and backward() never drift apart),
for the presets, chosen programs and random ones."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_run import LECTURE_NEURON
from traces import grads_shown, steps, values

from app.lecture import MICROGRAD_README
from engine import Program, Trace, run, trace
from engine.graph import backward
from engine.trace import outline
from engine.value import Value, apply, constant

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


def backward_grads(program: Program) -> dict[int, float]:
    """Fresh grads from the engine's own backward() on the program's values rebuilt from its
    graph (their numbers and local derivatives as the sandbox recorded them), by the trace's
    node ids."""
    graph = program.graph
    rebuilt = values(graph)
    backward(rebuilt[graph.output])
    order = outline(program).order  # trace id -> graph index
    return {i: rebuilt[g].grad for i, g in enumerate(order) if not graph.constant[g]}


def assert_recorded_as_computed(program: Program) -> None:
    """Each number the sandbox recorded is its op applied on the host to its operands' recorded
    numbers: equal, or a few units in the last place apart where WebAssembly's C library rounds
    tanh, exp, sin or cos the other way; its local derivatives likewise."""
    g = program.graph
    for i, own in enumerate(g.ops):
        if own is None:
            continue
        assert own.op is not None
        operands = tuple(
            constant(g.data[p]) if g.constant[p] else Value(g.data[p]) for p in g.parents[i]
        )
        v = apply(own.op, operands)
        assert v.data == pytest.approx(g.data[i], rel=1e-15, abs=1e-300), (i, own.text)
        computed = (v.da, v.db)[: len(g.locals[i])]
        assert computed == pytest.approx(g.locals[i], rel=1e-12, abs=1e-15), (i, own.text)


def assert_replay_exact(source: str) -> Trace:
    """What the browser does: lay each backward step's changes over the start; at the end of
    the backward pass every node shows backward()'s grad, exactly (==, not approx), and a grad
    changes only at a step that lists it. A long pass (a training loop's preset: thousands of
    steps, each picture laid from the start) is looked at every few steps, the steps between
    listing every grad that changed."""
    program = run(source)
    assert_recorded_as_computed(program)
    t = trace(program)
    backward_steps = steps(t, "backward")
    count = len(backward_steps)
    stride = max(1, count // 200)
    before = grads_shown(t, "backward", 0)
    for j in [*range(stride, count - 1, stride), count - 1]:
        now = grads_shown(t, "backward", j)
        listed = {c.node for s in backward_steps[j - stride + 1 : j + 1] for c in s.changes}
        assert {i for i in now if now[i] != before.get(i)} <= listed
        before = now
    assert before == backward_grads(program)
    assert before == {i: g for i, g in enumerate(t.numbers.grad) if g is not None}
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
        # a method of a value: a number's own ((0.5).tanh()) is CPython's AttributeError
        method = children.filter(lambda c: any(ch.isalpha() for ch in c)).map(
            lambda c: f"({c}).tanh()"
        )
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
