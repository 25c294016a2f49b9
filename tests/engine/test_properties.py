"""Random programs with functions, a class, loops, conditions and comprehensions. The same body
of text runs twice: in gradstep (CPython in its sandbox, the numbers typed at the top its
inputs), and in the tests' own Python with PyTorch tensors as the inputs (the tests' own
generated text). Values and grads must agree, and agree with central differences taken through
``values``; the same text always builds the same graph."""

from __future__ import annotations

from typing import Any

import pytest
from engine_oracles import central_difference, close, rounding_error, step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Program, run, trace

torch = pytest.importorskip("torch")

INPUTS = ("x0", "x1", "x2")
UNARY = ("tanh", "sigmoid", "sin", "cos")


def expressions(names: list[str], depth: int) -> st.SearchStrategy[str]:
    """Smooth expressions over ``names`` (always at least one) and small constants: + − * and
    bounded functions, each applied to something Python's floats would also have as a tensor."""
    named = st.sampled_from(names)
    if depth == 0:
        return named
    inner = expressions(names, depth - 1)
    operand = st.one_of(inner, st.sampled_from(["0.5", "2", "-1.5"]))
    binary = st.tuples(inner, st.sampled_from(["+", "-", "*"]), operand).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    )
    unary = st.tuples(inner, st.sampled_from(UNARY)).map(lambda t: f"({t[0]}).{t[1]}()")
    return st.one_of(named, binary, unary)


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[float], str]:
    xs = [draw(st.floats(-1.5, 1.5, allow_nan=False)) for _ in INPUTS]
    pick = st.sampled_from(INPUTS)
    body = [
        "def f(u, v=x2):",
        f"    return {draw(expressions(['u', 'v'], 2))} + u",
        "class Unit:",
        "    def __init__(self, w):",
        "        self.w = w",
        "    def __call__(self, v):",
        f"        h = {draw(expressions(['self.w', 'v'], 2))}",
        "        return h.tanh()",
        f"unit = Unit({draw(pick)})",
        f"acc = {draw(pick)}",
        f"for k in range({draw(st.integers(1, 3))}):",
        f"    acc = {draw(expressions(['acc', 'f(acc)', 'unit(acc)', draw(pick)], 2))}",
        "    if k % 2 == 0:",
        "        acc = acc.tanh()",
        "    else:",
        f"        acc = f(acc, v={draw(pick)})",
        f"ys = [f(v, acc) for v in [x0, x1, x2] if {draw(st.sampled_from(['True', 'k > 0']))}]",
        "pairs = list(zip(ys, [x2, x1, x0]))",
        "out = sum((a * b for a, b in pairs), acc)",
    ]
    return xs, "\n".join(body) + "\n"


def gradstep(xs: list[float], body: str) -> tuple[float, list[float]]:
    header = "".join(f"{name} = {x!r}\n" for name, x in zip(INPUTS, xs, strict=True))
    program = run(header + body)
    inputs = list(program.graph.inputs)  # those the output uses (ys may leave some out)
    assert inputs == [name for name in INPUTS if name in inputs] and inputs
    t = trace(program)
    grads = {i.name: t.numbers.grad[i.node] for i in t.structure.inputs}
    return output(program), [grads.get(name, 0.0) for name in INPUTS]  # type: ignore[misc]


def output(program: Program) -> float:
    return program.graph.data[program.graph.output]


def python_with_torch(xs: list[float], body: str) -> tuple[float, list[float]]:
    tensors = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    namespace: dict[str, Any] = dict(zip(INPUTS, tensors, strict=True))
    exec(body, namespace)  # the test's own generated text, with tensors for the inputs
    out = namespace["out"]
    grads = torch.autograd.grad(out, tensors, allow_unused=True)
    return out.item(), [0.0 if g is None else g.item() for g in grads]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_random_programs_agree_with_python_running_pytorch(case: tuple[list[float], str]) -> None:
    xs, body = case
    value, grads = gradstep(xs, body)
    want, want_grads = python_with_torch(xs, body)
    assert close(value, want, 1e-9, 1e-12)
    for got, expected in zip(grads, want_grads, strict=True):
        assert close(got, expected, 1e-9, 1e-12), (got, expected)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_random_programs_agree_with_central_differences(case: tuple[list[float], str]) -> None:
    xs, body = case
    value, grads = gradstep(xs, body)

    source = "".join(f"{n} = 0.0\n" for n in INPUTS) + body
    used = run(source).graph.inputs

    def at(point: list[float]) -> float:
        values = {n: x for n, x in zip(INPUTS, point, strict=True) if n in used}
        return output(run(source, values))

    for i, grad in enumerate(grads):
        if INPUTS[i] not in used:
            assert grad == 0.0  # the output does not use it
            continue
        numeric = central_difference(at, xs, i)
        floor = 1e-6 + rounding_error(value, step(xs[i]))
        assert close(grad, numeric, 1e-5, floor), (i, grad, numeric)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_the_same_program_builds_the_same_graph(case: tuple[list[float], str]) -> None:
    xs, body = case
    source = "".join(f"{n} = {x!r}\n" for n, x in zip(INPUTS, xs, strict=True)) + body
    one, two = run(source).graph, run(source + "\n").graph  # afresh: runs are kept by text
    assert one.data == two.data and one.ops == two.ops and one.constant == two.constant
    assert one.parents == two.parents and one.spans == two.spans
    assert any(one.names) and one.names == two.names
    assert one.call_list == two.call_list and one.calls == two.calls
