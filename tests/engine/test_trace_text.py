"""The trace's words: forward rows with their numbers, backward rows that write the rule in the
user's names, the names of unnamed values and of rebound ones, compound names bracketed inside
formulas, and each step's title with the calls around it."""

from __future__ import annotations

import math

from traces import rows, steps, text

from engine import run, trace


def test_forward_steps_in_topological_order_with_readable_text() -> None:
    t = trace(run("a = -4.0\nb = 2.0\nc = a * b"))
    (step,) = steps(t, "forward")
    assert step.node == t.structure.output
    assert rows(t, step) == ["c = a·b = (−4.0000)·2.0000 = −8.0000"]
    assert [(c.node, t.numbers.slots[c.data]) for c in step.changes] == [(2, -8.0)]  # type: ignore[index]
    made = [s.node for s in steps(t, "forward")]
    assert made == sorted(made)  # type: ignore[type-var]  # in creation order


def test_backward_rows_write_the_rule_in_the_users_names() -> None:
    t = trace(run("x = 0.5\nw = 2.0\nh = x * w\ny = h.tanh()"))
    tanh_step, mul_step = steps(t, "backward")[1:3]
    assert rows(t, tanh_step)[0] == (
        f"h.grad += ∂y/∂h · y.grad | ∂y/∂h = (1 − y²) = (1 − {math.tanh(1):.4f}²) = "
        f"{1 - math.tanh(1) ** 2:.4f}"
    )  # y's own name, never a template letter
    assert [r.split(" | ")[1] for r in rows(t, mul_step)[::2]] == [
        "∂h/∂x = w = 2.0000",
        "∂h/∂w = x = 0.5000",
    ]


def test_names_of_unnamed_values_are_their_expressions() -> None:
    t = trace(run("a = 2.0\nb = 3.0\ny = (a + b) * (a - b)"))
    assert [n.name for n in t.structure.nodes] == ["a", "b", "a+b", "a−b", "y"]  # on the node
    mul = steps(t, "backward")[1]
    assert [r.split(" | ")[1] for r in rows(t, mul)[::2]] == [
        "∂y/∂(a+b) = (a−b) = (−1.0000)",
        "∂y/∂(a−b) = (a+b) = 5.0000",
    ]


def test_names_after_a_rebinding_are_the_graphs_not_the_sources() -> None:
    """The source says ``c`` on line 3, where the graph has ``c₁``: names follow the graph."""
    t = trace(run("c = 2.0\nc += 1\nd = 1 + c"))
    nodes = t.structure.nodes
    assert [n.name for n in nodes if n.kind != "constant"] == ["c", "c₁", "d"]
    assert nodes[t.structure.output].formula == "d = 1 + c₁"


def test_compound_names_are_bracketed_inside_formulas() -> None:
    t = trace(run("x = 2.0\ny = tanh(x * x) * (x - 1) * -3"))
    rules = [text(t, c.parts) for s in t.structure.steps for r in s.rows for c in r]
    assert "∂y/∂t₅ = (−3)" in rules  # a negative constant is bracketed
    assert "∂(x·x)/∂x⁽¹⁾ = x⁽²⁾" in rules  # named by its expression: said once
    assert any(r.startswith("∂tanh(x·x)/∂(x·x) = (1 − tanh(x·x)²)") for r in rules)
    assert "∂(x−1)/∂x = 1" in rules


def test_every_step_has_the_engines_title_with_the_calls_around_it() -> None:
    source = "def f(x, w):\n    y = x * w\n    return y.tanh()\n\na = 2.0\nb = -0.5\n"
    source += "z = f(a, b) + f(b, a)"
    t = trace(run(source))
    forward, backward = steps(t, "forward"), steps(t, "backward")
    assert forward[0].title == "Forward step 1 of 5 · in f(a, b)"
    assert forward[-1].title == "Forward step 5 of 5"
    out = t.structure.nodes[t.structure.output]
    assert backward[0].title == f"Backward step 1 of 6 · {out.formula}"
    calls = t.structure.calls
    inner = next(s for s in backward if s.node == calls[1].last)
    assert inner.title.endswith(" · in f(b, a)") and "tanh" in inner.title
    # a call stepped over: its runs of steps, in the same words
    assert calls[0].forward_title == "Forward steps 1–2 of 5 · f(a, b), folded"
    assert calls[0].backward_title == "Backward steps 5–6 of 6 · f(a, b), folded"


def test_a_label_no_utf_8_text_can_hold_is_written_as_python_writes_it() -> None:
    """Issue 30, item 15: Value(2.0, label="\\ud800x") raised UnicodeEncodeError in the
    notebook's drawing (a lone surrogate cannot be encoded); now it is drawn as Python writes
    it in a string, as every character that is not printable is."""
    from app.notebook.drawing import draw_dot
    from engine.value import Value

    a = Value(2.0, label="\ud800x")
    drawn = draw_dot(a * a)
    assert drawn.trace.structure.nodes[0].name == "\\ud800x"  # as Python writes it
    assert "\\ud800x" in drawn.svg
