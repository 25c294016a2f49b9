"""docs/notation.md's worked examples, as golden tests of what the engine writes (the browser
renders the same parts: tests/browser/test_notation_page.py)."""

from __future__ import annotations

from traces import rows, steps, text

import engine
from app.lecture import LECTURE_NEURON_CELL as LECTURE_NEURON
from engine.trace import Node, Trace


def traced(source: str) -> Trace:
    return engine.trace(engine.run(source))


def node(trace: Trace, name: str) -> Node:
    return next(n for n in trace.structure.nodes if n.name == name)


def backward_step(trace: Trace, name: str):  # type: ignore[no-untyped-def]
    return next(s for s in steps(trace, "backward")[1:] if s.node == node(trace, name).id)


def lines(trace: Trace, name: str) -> list[str]:
    """Each contribution of the backward step at ``name`` as one line of text, 4 decimals:
    sum | rule | value | product | change (| note)."""
    out = []
    for row in backward_step(trace, name).rows:
        cells = {c.role: text(trace, c.parts) for c in row}
        if "sum" in cells:
            out.append([cells["sum"], cells["rule"], cells.get("value", "")])
        elif "product" in cells:
            change = cells.get("change") or cells["accumulates"].replace(
                ", accumulates", " | accumulates"
            )
            out[-1] += [cells["product"], change]
    return [" | ".join(parts) for parts in out]


def test_1_a_value_used_twice_gives_two_contributions_that_sum() -> None:
    t = traced("a = 3.0\nb = a*a\n")
    first, second = lines(t, "b")
    assert first == (
        "a.grad += ∂b/∂a⁽¹⁾ · b.grad | ∂b/∂a⁽¹⁾ = ∂(a·a)/∂a⁽¹⁾ = a⁽²⁾ | = 3.0000"
        " | = 3.0000 × 1.0000 = 3.0000 | a.grad: 0.0000 → 3.0000"
    )
    assert second == (
        "a.grad += ∂b/∂a⁽²⁾ · b.grad | ∂b/∂a⁽²⁾ = ∂(a·a)/∂a⁽²⁾ = a⁽¹⁾ | = 3.0000"
        " | = 3.0000 × 1.0000 = 3.0000 | a.grad: 3.0000 → 6.0000"
        " | accumulates (a is used twice by b)"
    )
    a = node(t, "a")
    assert text(t, a.sum) == (
        "a.grad = ∂b/∂a⁽¹⁾·b.grad + ∂b/∂a⁽²⁾·b.grad = 3.0000 + 3.0000 = 6.0000"
    )
    assert a.uses == "used twice by b"
    assert "∂b/∂a =" not in " ".join(lines(t, "b"))  # never the false ∂b/∂a = a


def test_2_the_lecture_neuron() -> None:
    t = traced(LECTURE_NEURON)
    assert lines(t, "o") == [
        "n.grad += ∂o/∂n · o.grad | ∂o/∂n = (1 − o²) | = (1 − 0.7071²) = 0.5000"
        " | = 0.5000 × 1.0000 = 0.5000 | n.grad: 0.0000 → 0.5000"
    ]
    x1_line = lines(t, "x1*w1")[0]
    assert x1_line.startswith("x1.grad += ∂(x1*w1)/∂x1 · (x1*w1).grad | ∂(x1*w1)/∂x1 = w1")
    assert "= (−3.0000) | = (−3.0000) × 0.5000 = −1.5000" in x1_line
    grads = {n.name: round(t.numbers.grad[n.id], 4) for n in t.structure.nodes if n.kind == "input"}
    assert grads == {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}


def test_3_a_value_reached_twice_names_both_users() -> None:
    t = traced("a = -4.0\nb = 2.0\nc = a + b\nd = c * c\ne = d + a\n")
    notes = [
        line.split(" | ")[-1] for s in ("e", "c") for line in lines(t, s) if "a.grad +=" in line
    ]
    assert notes[-1] == "accumulates (a is used by e and c)"


def test_4_a_constant_takes_no_gradient_and_the_step_says_so() -> None:
    t = traced("x = 2.0\ny = 2 * x\n")
    assert [line.split(" | ")[0] for line in lines(t, "y")] == ["x.grad += ∂y/∂x · y.grad"]
    assert rows(t, backward_step(t, "y"))[-1] == "the constant 2 takes no gradient"


def test_5_a_power() -> None:
    assert lines(traced("a = 2.0\nb = a ** 3\n"), "b")[0].split(" | ")[1:3] == [
        "∂b/∂a = 3·a²",
        "= 3·(2.0000)² = 12.0000",
    ]


def test_6_a_quotient() -> None:
    first, second = lines(traced("a = 1.0\nb = -2.0\nc = a / b\n"), "c")
    assert first.split(" | ")[1:3] == ["∂c/∂a = 1/b", "= 1/(−2.0000) = −0.5000"]
    assert second.split(" | ")[1:3] == ["∂c/∂b = −a/b²", "= −1.0000/(−2.0000)² = −0.2500"]


def test_7_relu_at_zero() -> None:
    rule_and_value = lines(traced("a = 0.0\nb = a.relu()\n"), "b")[0].split(" | ")[1:3]
    assert " ".join(rule_and_value) == "∂b/∂a = (1 if a > 0 else 0) = 0"


def test_a_made_name_of_two_numbered_values_is_bracketed_as_a_whole() -> None:
    # the long products are named t₄ and t₆; their sum is made from those names, "t₄+t₆",
    # which is compound like any other sum: "t₄+t₆·gamma" would read as t₄ + (t₆·gamma)
    source = "alpha = 1.5\nbeta = 2.0\ngamma = -0.5\n"
    t = traced(source + "out = (alpha*beta*gamma + beta*gamma*alpha) * gamma")
    assert node(t, "t₄+t₆").grad_name == "(t₄+t₆).grad"
    assert node(t, "out").formula == "out = (t₄+t₆)·gamma"
    first, _ = lines(t, "out")
    assert first.startswith("(t₄+t₆).grad += ∂out/∂(t₄+t₆) · out.grad | ∂out/∂(t₄+t₆) = gamma")


def test_a_made_name_that_is_a_power_or_a_root_is_bracketed_as_a_whole() -> None:
    # a power is compound: "a²²" would read as a to the 22nd, "a^0.5²" as a^0.25, "∂b/∂a²" as
    # a second derivative and "a^0.5.grad" as a to the 0.5.grad; "√a·a" would read as √(a·a)
    t = traced("a = 2.0\nb = (a ** 2) ** 2\nc = (a ** 0.5) ** 2\nd = a.sqrt() * a\no = b + c + d\n")
    assert node(t, "b").formula == "b = (a²)²"
    assert node(t, "c").formula == "c = (a^0.5)²"
    assert node(t, "d").formula == "d = (√a)·a"
    assert node(t, "a^0.5").grad_name == "(a^0.5).grad"
    assert lines(t, "b")[0].startswith("(a²).grad += ∂b/∂(a²) · b.grad | ∂b/∂(a²) = 2·(a²)")


def test_a_running_total_of_sum_is_named_by_its_partial_sums() -> None:
    # sum(...) adds one term at a time: its totals are Σ₁, Σ₂ (how many terms each holds), not
    # b+(w·1) and t₇, a number the code does not show
    t = traced("w = 0.5\nb = 1.0\ny = sum((w * x for x in [1.0, 2.0, 3.0]), b)\n")
    assert [n.name for n in t.structure.nodes if n.kind == "intermediate"] == [
        "w·1", "Σ₁", "w·2", "Σ₂", "w·3"
    ]  # fmt: skip
    assert node(t, "Σ₁").formula == "Σ₁ = b + (w·1)"
    assert node(t, "Σ₂").formula == "Σ₂ = Σ₁ + (w·2)"
    assert node(t, "y").formula == "y = Σ₂ + (w·3)"
    assert lines(t, "y")[0].startswith("Σ₂.grad += ∂y/∂Σ₂ · y.grad | ∂y/∂Σ₂ = 1")
    # one addition written where a sum is (a + b) is no running total: it keeps its made name
    assert node(traced("a = 1.0\nb = 2.0\nc = a + b + a\n"), "a+b").formula == "a+b = a + b"


def test_a_long_made_name_is_the_codes_own_text_when_that_reads_the_same_values() -> None:
    # (x1·w1)+(x2·w2) is too long for a box; the code writes it x1*w1 + x2*w2, in the names of
    # the values it is made from
    t = traced("x1 = 1.0\nx2 = -2.0\nw1 = 0.5\nw2 = -1.5\nbias = 0.1\nact = x1*w1 + x2*w2 + bias\n")
    assert node(t, "x1*w1+x2*w2").formula == "x1*w1+x2*w2 = (x1·w1) + (x2·w2)"
    assert node(t, "act").formula == "act = (x1*w1+x2*w2) + bias"
    # but here the code's c is the value named c₁: "1+c+(-a)+b" would name another value
    t = traced("a = 2.0\nb = -3.0\nc = a + b\nc = c * 2\ne = (1 + c + (-a) + b) * b\n")
    assert [n.name for n in t.structure.nodes if n.kind != "constant"] == [
        "a", "b", "c", "c₁", "1+c₁", "−a", "(1+c₁)+(−a)", "t₉", "e"
    ]  # fmt: skip
    # an expression over two lines is placed to the end of its first line: "x1*w1+x2*w2+" is
    # no expression, no name
    t = traced("x1, w1, x2, w2, x3, w3 = 1.0, 0.5, -2.0, -1.5, 2.0, 1.0\n"
               "out = (x1*w1 + x2*w2 +\n       x3*w3).tanh()\n")  # fmt: skip
    assert "x1*w1+x2*w2+" not in [n.name for n in t.structure.nodes]


def test_two_values_of_one_name_are_not_one_value_that_uses_it_twice() -> None:
    # the two a+b are different values, each using b once: "used twice by a+b" would say one
    # value uses b twice (docs/notation.md's example 1), as the demo's "used 16 times by
    # w[0]·#337" did
    t = traced("a = 2.0\nb = -3.0\no = (a + b).exp() + (a + b)\n")
    assert node(t, "b").uses == "used by a+b (2 values of that name)"
    changes = [r for s in steps(t, "backward") for r in rows(t, s) if "b.grad:" in r]
    assert [r.partition(", ")[2] for r in changes] == [
        "",
        "accumulates (b is used by a+b (2 values of that name))",
    ]


def test_a_power_zero_has_the_derivative_zero_not_zero_times_an_inverse() -> None:
    # "0·a⁻¹ = 0·(0.0000)⁻¹" divides by zero: a⁰ is flat, its derivative is 0 everywhere
    rule_and_value = lines(traced("a = 0.0\nb = a ** 0\n"), "b")[0].split(" | ")[1:3]
    assert rule_and_value == ["∂b/∂a = 0", ""]


def test_a_tiny_value_squared_keeps_its_exponent_inside_the_brackets() -> None:
    # written with an exponent, o = 1.000e−6 squared must not read "1.000e−6²" (10^−36)
    (first,) = lines(traced("a = 0.000001\no = a.tanh()\n"), "o")
    assert "∂o/∂a = (1 − o²) | = (1 − (1.000e−6)²) = 1.0000 |" in first


def test_the_seed_step() -> None:
    t = traced("a = 2.0\no = a.tanh()\n")
    assert rows(t, steps(t, "backward")[0]) == [
        "o.grad = 1 (the output's gradient with respect to itself)"
    ]
