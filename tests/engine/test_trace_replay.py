"""The trace: the data the stepper replays. Replaying its backward steps must give exactly the
grads that ``backward()`` gives (docs/design.md: the steps and backward() never drift apart),
for the presets, chosen programs and random ones."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parse import LECTURE_NEURON
from traces import grads_shown, steps

from app.lecture import MICROGRAD_README
from engine import Program, Trace, run, trace
from engine.graph import topological_order

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
    """Fresh grads from the engine's own backward(), by the trace's node ids."""
    root = program.output
    root.zero_grad()
    root.backward()
    ordered = sorted(topological_order(root), key=lambda v: v.serial)
    return {i: v.grad for i, v in enumerate(ordered) if not v.constant}


def assert_replay_exact(source: str) -> Trace:
    """What the browser does: lay each backward step's changes over the start; at the end of
    the backward pass every node shows backward()'s grad, exactly (==, not approx), and a grad
    changes only at a step that lists it."""
    program = run(source)
    t = trace(program)
    count = len(steps(t, "backward"))
    before = grads_shown(t, "backward", 0)
    for j in range(1, count):
        now = grads_shown(t, "backward", j)
        listed = {c.node for c in steps(t, "backward")[j].changes}
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
