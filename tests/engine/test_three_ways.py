"""The three ways to differentiate (engine.ways) on the seed's examples (seed 002, sections
28.1-28.3 and exercise 28.6, whose printed numbers are golden), each way against PyTorch, the
swell of a chain of tanh in closed form, a learner's own engine, and the budgets that bound the
work of hostile programs."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import sympy

from app.lecture import LECTURE_MLP, LECTURE_NEURON
from app.presets import PRESETS
from engine import GradstepError, run
from engine.ops import OPS
from engine.trace import outline
from engine.ways import MAX_VALUES, Missing, Ways, expressions, three_ways
from engine.ways.numerical import SWEEP, Central
from engine.ways.replay import Replayed, rebuild
from engine.ways.symbolic import MAX_WORK, RULES
from engine.ways.tangents import differential

torch = pytest.importorskip("torch")

LEARNERS = Path(__file__).parent / "learners"
SEED_28_1 = "x = 2.0\nf = x**2 * sin(x)"
SEED_28_3 = "x = 2.0\ny = 3.0\nf = (x + y) * sin(x)"


def replayed(source: str) -> Replayed:
    program = run(source)
    r = rebuild(program, outline(program))
    assert isinstance(r, Replayed)
    return r


def ways(source: str) -> Ways:
    program = run(source)
    found = three_ways(program, outline(program))
    assert isinstance(found, Ways)
    return found


def rendered(line: tuple, numbers: tuple[float, ...]) -> str:
    """A line as the page renders it at 4 decimals (engine.notation's parts, slots filled)."""
    out = ""
    for part in line:
        if isinstance(part, str):
            out += part
        elif isinstance(part, int):
            out += f"{numbers[part]:.4f}".replace("-", "−")
        else:
            out += part.exact
    return out


def test_seed_28_1_symbolic_and_numerical_reproduce_its_printed_numbers() -> None:
    w = ways(SEED_28_1)
    (d,) = w.symbolic.derivatives
    assert f"{d.value:.15f}" == "1.972602361114157"  # Symbolic (exact)
    assert d.text == "sin(x)·2·x + x²·cos(x)"  # d(x²·sin x), each op's rule applied
    assert (d.simplified, d.simplified_ops) == ("x·(2·sin(x) + x·cos(x))", 6)
    r = replayed(SEED_28_1)
    nudges = Central.of(r.root, list(r.values))
    numeric = nudges.central(0, 1e-7)
    assert f"{numeric:.15f}" == "1.972602359234799"  # Numerical (h=1e-7)
    assert f"{abs(d.value - numeric):.2e}" == "1.88e-09"  # Difference
    (row,) = w.numerical
    assert row.value == numeric and row.dominant == "roundoff"
    assert w.numerical_passes == 2  # 2n


def test_seed_28_1_error_curve_has_roundoff_left_and_truncation_right_of_its_sweet_spot() -> None:
    (row,) = ways(SEED_28_1).numerical
    sweep = row.sweep
    assert sweep is not None and len(sweep.error) == len(SWEEP) == 61
    assert SWEEP[0] == 1e-15 and SWEEP[-1] == 1.0 and 1e-7 in SWEEP
    best = SWEEP[sweep.best]
    assert 1e-7 < best < 1e-4  # central differences: about the cube root of the float's epsilon
    assert sweep.dominant(1e-12) == "roundoff" and sweep.dominant(1e-2) == "truncation"
    errors = [e for e in sweep.error if e is not None]
    assert errors[0] > 1e3 * min(errors) and errors[-1] > 1e3 * min(errors)


def test_seed_28_3_forward_mode_steps_reproduce_its_tables() -> None:
    w = ways(SEED_28_3)
    first = w.forward_mode.passes[0]
    assert first.slots is not None
    lines = [
        " | ".join(rendered(cell.parts, first.slots) for cell in row)
        for step in w.forward_mode.steps for row in step.rows
    ]  # fmt: skip
    assert lines == [
        "dx = 1.0000 | the seed: 1 in the pass that differentiates by x, 0 in the others",
        "dy = 0.0000 | the seed: 1 in the pass that differentiates by y, 0 in the others",
        "x+y = x + y = 2.0000 + 3.0000 = 5.0000",
        "d(x+y) = ∂(x+y)/∂x · dx + ∂(x+y)/∂y · dy = 1.0000 + 0.0000 = 1.0000",
        "∂(x+y)/∂x = 1",
        "∂(x+y)/∂x · dx = 1.0000 × 1.0000 = 1.0000",
        "∂(x+y)/∂y = 1",
        "∂(x+y)/∂y · dy = 1.0000 × 0.0000 = 0.0000",
        "sin(x) = sin(2.0000) = 0.9093",
        "d(sin(x)) = ∂sin(x)/∂x · dx = −0.4161",
        "∂sin(x)/∂x = cos(x) | = cos(2.0000) = −0.4161",
        "∂sin(x)/∂x · dx = −0.4161 × 1.0000 = −0.4161",
        "f = (x+y)·sin(x) = 5.0000·0.9093 = 4.5465",
        "df = ∂f/∂(x+y) · d(x+y) + ∂f/∂sin(x) · d(sin(x)) = 0.9093 + −2.0807 = −1.1714",
        "∂f/∂(x+y) = sin(x) | = 0.9093",
        "∂f/∂(x+y) · d(x+y) = 0.9093 × 1.0000 = 0.9093",
        "∂f/∂sin(x) = (x+y) | = 5.0000",
        "∂f/∂sin(x) · d(sin(x)) = 5.0000 × −0.4161 = −2.0807",
    ]
    # the seed's reverse pass: ∂f/∂y = v4 = 0.9093, ∂f/∂x = 0.9093 + 5·cos(2) (it prints
    # −1.1726, a slip: 0.9093 − 2.0807 is −1.1714)
    assert [f"{i.reverse:.4f}" for i in w.inputs] == ["-1.1714", "0.9093"]
    assert [p.result for p in w.forward_mode.passes] == [i.reverse for i in w.inputs]
    assert len(w.forward_mode.passes) == 2 and w.numerical_passes == 4
    # (v, dv) of each step's node in the pass for x: x, y, x+y, sin(x), f
    assert first.tangents == (1.0, 0.0, 1.0, math.cos(2.0), first.result)


def test_the_seeds_examples_are_presets() -> None:
    sources = {p.id: p.source for p in PRESETS}
    assert ways(sources["three-ways"]).symbolic.derivatives[0].value == 1.9726023611141572
    tangent = ways(sources["tangent-passes"])
    assert [i.name for i in tangent.inputs] == ["x", "y"] and tangent.value == 5 * math.sin(2)


def test_exercise_28_6_counts_both_passes_and_checks_the_cheap_gradient_principle() -> None:
    c = ways(SEED_28_3).costs
    # F: +, sin, ·; B: + (1+1 shares: a product and a sum each), sin (cos, a product, a sum),
    # · (two shares)
    assert (c.forward, c.backward) == (3, 2 * 2 + 3 + 2 * 2)
    assert c.ratio == 11 / 3 and c.cheap
    assert c.tangent_pass == c.forward + c.backward and c.forward_mode == 2 * c.tangent_pass
    assert c.reverse_mode == c.tangent_pass and c.numerical == 2 * 2 * c.forward
    assert ways(SEED_28_1).costs.ratio == 12 / 3  # the constant exponent 2 takes no gradient


def test_every_op_of_the_table_has_its_symbolic_rules() -> None:
    assert set(RULES) == set(OPS)
    for name, op in OPS.items():
        assert len(RULES[name].derivatives) == op.arity, name


# Each program once for gradstep and once for PyTorch (float64), every op of the table in one
PROGRAMS = [
    (SEED_28_1, (2.0,), lambda x: x**2 * torch.sin(x)),
    (SEED_28_3, (2.0, 3.0), lambda x, y: (x + y) * torch.sin(x)),
    (
        "a = 0.7\nb = -1.3\nc = 2.1\n"
        "f = (a*b - c/a).tanh() + exp(b).sigmoid() * sqrt(c) - log(c + a**2) / cos(b)"
        " + relu(a - b) ** c + (-a) * a",
        (0.7, -1.3, 2.1),
        lambda a, b, c: (
            torch.tanh(a * b - c / a)
            + torch.sigmoid(torch.exp(b)) * torch.sqrt(c)
            - torch.log(c + a**2) / torch.cos(b)
            + torch.relu(a - b) ** c
            + (-a) * a
        ),
    ),
]


def torch_inputs(xs: tuple[float, ...]) -> tuple:
    return tuple(torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs)


# torch.func.jvp's first use imports decompositions that torch itself scripts with a deprecated call
@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")
@pytest.mark.parametrize(("source", "xs", "f"), PROGRAMS, ids=["28.1", "28.3", "every op"])
def test_each_way_agrees_with_pytorch(source: str, xs: tuple[float, ...], f: object) -> None:
    w = ways(source)
    args = torch_inputs(xs)
    grads = torch.autograd.grad(f(*args), args)  # type: ignore[operator]
    assert [i.value for i in w.inputs] == list(xs)
    for n, g in enumerate(grads):
        truth = g.item()
        # symbolic: the expression's value, computed in 30 digits
        assert math.isclose(w.symbolic.derivatives[n].value, truth, rel_tol=1e-12, abs_tol=1e-14)
        # forward mode: the tangent of one pass, against torch.func.jvp's
        tangent = [torch.tensor(float(k == n), dtype=torch.float64) for k in range(len(xs))]
        _, jvp = torch.func.jvp(f, tuple(a.detach() for a in args), tuple(tangent))
        assert math.isclose(
            w.forward_mode.passes[n].result, jvp.item(), rel_tol=1e-13, abs_tol=1e-15
        )
        # numerical: within the error its sweep reports at the h it uses
        row = w.numerical[n]
        assert row.value is not None and row.error is not None
        assert abs(row.value - truth) <= row.error * (1 + 1e-6) + 1e-15
        assert row.error < 1e-6 * max(1.0, abs(truth))
        assert math.isclose(w.inputs[n].reverse, truth, rel_tol=1e-13, abs_tol=1e-15)


def test_a_chain_of_tanh_swells_quadratically_beside_its_linear_graph() -> None:
    s = ways("x = 0.5\nfor i in range(200):\n    x = tanh(x)").symbolic
    (d,) = s.derivatives
    # d tanh(e) = (1 − tanh²(e))·de at every layer: layer k writes (k + 3) operations of its
    # own rule, and a product joins it to the layers below
    for point in s.swell:
        depth = point.depth
        assert point.nodes == depth + 1 and point.value_ops == depth
        assert point.derivative_ops == depth * (depth + 1) // 2 + 4 * depth - 1
    assert d.written == 200 * 201 // 2 + 4 * 200 - 1 == 20_899
    assert d.shared < 5 * 200  # written once per distinct subexpression: linear
    assert d.cut and len(d.text) == 401 and d.cse is None  # past CSE_MAX_OPS: said in notes
    assert any("cse not tried" in note for note in s.notes)


def test_sizes_are_sympy_count_ops_and_the_walks_need_no_recursion() -> None:
    x = sympy.Symbol("x", real=True)
    e = 2 * x * sympy.sin(x) + x**2 * sympy.cos(x) - x / 3
    assert expressions.written(e, {}) == sympy.count_ops(e)
    deep = x
    for _ in range(5_000):  # deeper than Python's recursion limit
        deep = sympy.tanh(deep, evaluate=False)
    assert expressions.written(deep, {}) == expressions.shared(deep) == 5_000
    iterated = 0.5
    for _ in range(5_000):
        iterated = math.tanh(iterated)
    assert expressions.value(deep, {x: 0.5}) == pytest.approx(iterated, rel=1e-12)
    assert expressions.text(deep, 20) == ("tanh(tanh(tanh(tanh(…", True)


def test_a_symbolic_blow_up_is_measured_without_writing_it_out() -> None:
    source = "x = 0.3\ny = x\nfor i in range(300):\n    y = sin(y) * y + x"
    s = ways(source).symbolic
    again = ways(source).symbolic  # equal deep expressions are never compared (SymPy's cache)
    assert again.derivatives == s.derivatives
    (d,) = s.derivatives
    assert s.function_ops > 10**80 and d.written > 10**90  # counted, never written
    assert d.shared < 10_000 and d.cut and d.cse is None and d.simplified is None


def test_many_inputs_are_each_differentiated_within_the_budget() -> None:
    source = "\n".join(f"x{i} = {0.1 * i:.1f}" for i in range(40))
    w = ways(source + "\ny = " + " + ".join(f"x{i}*x{(i + 1) % 40}" for i in range(40)))
    assert len(w.inputs) == 40 == len(w.symbolic.derivatives) == len(w.forward_mode.passes)
    assert [d.value for d in w.symbolic.derivatives] == pytest.approx([i.reverse for i in w.inputs])
    assert sum(1 for d in w.symbolic.derivatives if d.simplified is not None) <= 2
    assert "not simplified: 38 derivatives" in w.symbolic.notes[-1]
    # past MAX_WORK, the later inputs are left out, and the answer says how many
    long = source + "\ny = " + " + ".join(f"x{i}" for i in range(40)) + "\n"
    long += "for i in range(400):\n    y = y * 0.999\n"  # 800 values after the inputs
    s = ways(long).symbolic
    assert 0 < s.left_out < 40 and len(s.derivatives) + s.left_out == 40
    assert len(s.derivatives) * 800 <= MAX_WORK
    assert "not differentiated symbolically" in s.notes[0]


def test_a_graph_past_max_values_is_refused_before_any_work() -> None:
    program = run(f"x = 0.5\nfor i in range({MAX_VALUES}):\n    x = tanh(x)")
    with pytest.raises(GradstepError, match="at most 1,000") as refused:
        three_ways(program, outline(program))
    assert refused.value.kind == "limit"


def test_a_tanh_is_simplified_without_sympy_simplify_which_takes_seconds_on_it() -> None:
    w = ways(LECTURE_NEURON)
    first = w.symbolic.derivatives[0]
    assert first.simplified_by in ("factor", "factor_terms")  # simplify: 1.4 s on it
    assert first.simplified is not None and "tanh" in first.simplified
    assert first.value == pytest.approx(w.inputs[0].reverse, rel=1e-12)


def test_a_shared_name_is_told_apart_in_the_expressions() -> None:
    r = replayed(LECTURE_MLP)  # every neuron has its w[0] and its b
    assert len(r.inputs) == 41
    assert r.symbols[:5] == ("w[0]₍₁₎", "w[1]₍₁₎", "w[2]₍₁₎", "b₍₁₎", "w[0]₍₂₎")
    assert r.where[0] == "Neuron 1, Layer 1" and r.where[4] == "Neuron 2, Layer 1"


def test_a_learners_own_engine_is_replayed_through_the_op_table() -> None:
    program = run((LEARNERS / "micrograd.py").read_text())
    assert program.graph.engine == "program"
    w = three_ways(program, outline(program))
    assert isinstance(w, Ways)
    by_name = {i.name: n for n, i in enumerate(w.inputs)}
    for name, grad in (("a", "138.8338"), ("b", "645.5773")):
        n = by_name[name]
        assert f"{w.inputs[n].reverse:.4f}" == grad
        assert f"{w.symbolic.derivatives[n].value:.4f}" == grad
        assert f"{w.forward_mode.passes[n].result:.4f}" == grad


def test_a_learners_op_gradstep_does_not_know_is_named_not_guessed() -> None:
    program = run((LEARNERS / "mistakes/order_recursive_right.py").read_text())
    found = three_ways(program, outline(program))
    assert isinstance(found, Missing) and found.why


def test_a_differential_is_bracketed_when_its_name_is_compound() -> None:
    assert [differential(n) for n in ("x", "w[0]", "x1*w1", "Σ₁", "−a")] == [
        "dx", "dw[0]", "d(x1*w1)", "dΣ₁", "d(−a)"
    ]  # fmt: skip
