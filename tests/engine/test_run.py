"""A program run in the sandbox (engine.run): real Python, with the page's conventions written
in as Python (engine/guest/source.py): which numbers are inputs, what the output is, how values
are named, where each was made, the calls that made them, what the program printed."""

from __future__ import annotations

import math

import pytest

from app.lecture import MICROGRAD_README
from engine import GradstepError, Program, Span, run, trace
from engine.limits import MAX_NODES, MAX_SOURCE_CHARS

LECTURE_NEURON = """\
x1 = 2.0; x2 = 0.0; w1 = -3.0; w2 = 1.0; b = 6.8813735870195432
n = x1*w1 + x2*w2 + b
o = n.tanh()
o.backward()
"""


def names(p: Program) -> list[str]:
    return [n.name for n in trace(p).structure.nodes]


def grads(p: Program) -> dict[str, float]:
    """The final grads of the inputs, by name, as the trace computes them."""
    t = trace(p)
    return {i.name: round(t.numbers.grad[i.node], 4) for i in t.structure.inputs}


def output_data(p: Program) -> float:
    return p.graph.data[p.graph.output]


def test_micrograd_readme_pasted_as_is() -> None:
    program = run(MICROGRAD_README)
    assert list(program.graph.inputs) == ["a", "b"]
    assert round(output_data(program), 4) == 24.7041
    assert grads(program) == {"a": 138.8338, "b": 645.5773}
    assert [text for _, text in program.console] == ["24.7041", "138.8338", "645.5773"]


def test_lecture_neuron() -> None:
    program = run(LECTURE_NEURON)
    assert list(program.graph.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert names(program)[-1] == "o"
    assert round(output_data(program), 4) == 0.7071
    assert grads(program) == {"x1": -1.5, "x2": 0.5, "w1": 1.0, "w2": 0.0, "b": 0.5}


def test_output_is_the_last_statement_without_backward() -> None:
    assert output_data(run("a = 2.0\nb = a * 3\nb + 1")) == 7.0
    assert names(run("a = 2.0\nb = a * 3"))[-1] == "b"


def test_backward_marks_the_output_even_before_later_statements() -> None:
    assert names(run("a = 2.0\nb = a * 3\nb.backward()\nc = b * 10"))[-1] == "b"


def test_rebinding_gets_subscript_names() -> None:
    program = run("a = 2.0\nc = a * 2\nc += 1\nc *= a\nc -= 1\nc /= 2")
    ops = [n.name for n in trace(program).structure.nodes if n.op is not None]
    assert ops == ["c", "c₁", "c₂", "c₃", "c₄"]


def test_a_typed_examples_numbers_are_inputs_and_values_replace_them() -> None:
    program = run("a = 2.0\nb = 3.0\ny = a * b", {"a": 5.0, "b": -1.0})
    assert output_data(program) == -5.0
    assert grads(program) == {"a": -1.0, "b": 5.0}


def test_a_typed_examples_values_print_as_the_numbers_they_hold() -> None:
    # CPython prints 4.0: the convention that makes a and b inputs does not change what is shown
    program = run("a = 2.0; b = -3.0; d = a*b + 10; print(d)\nprint(f'{d:.2f}', d > 0)")
    assert [text for _, text in program.console] == ["4.0", "4.00 True"]


def test_in_a_program_that_makes_values_plain_numbers_stay_plain() -> None:
    # an input is one leaf for all its uses, or it is no input: x is a number, as in CPython
    program = run("x = 2.0\ny = Value(3.0)\nz = x*y + x**2\nz.backward()\nprint(y.grad)")
    assert list(program.graph.inputs) == ["y"]
    assert program.console == ((5, "2.0"),)
    with pytest.raises(GradstepError, match="values given for 'x', which is not an input"):
        run("x = 2.0\ny = Value(3.0)\nz = x*y + x**2\nz.backward()", {"x": 1.0})


def test_free_names_come_from_values_in_order_of_appearance() -> None:
    program = run("y = w * x + b", {"b": 1.0, "x": 3.0, "w": 2.0})
    assert list(program.graph.inputs) == ["w", "x", "b"]
    assert output_data(program) == 7.0


def test_one_error_lists_every_missing_name() -> None:
    with pytest.raises(GradstepError) as err:
        run("y = w * x + b\nz = y * q", {"x": 1.0})
    assert err.value.kind == "name"
    assert "w, b, q" in err.value.message
    assert err.value.span == Span(1, 5, 6)


def test_cpythons_errors_at_the_learners_line() -> None:
    with pytest.raises(GradstepError) as err:
        run("a = Value(2.0)\nb = a * 2\nc = b / 0.0\n")
    assert err.value.span is not None and err.value.span.line == 3
    with pytest.raises(GradstepError) as err:
        run("import math\n\ndef f(x):\n    return math.log(x)\n\nf(-1.0)\n")
    assert err.value.message.startswith("ValueError: ")  # CPython 3.14's words for log(-1)
    assert err.value.span == Span(4, 12, 23)  # math.log(x), inside f
    with pytest.raises(GradstepError, match=r"^NameError: name 'random' is not defined") as err:
        run("w = Value(random.uniform(-1, 1))\ny = w * w")
    assert "add import random" in err.value.message


def test_syntax_errors_are_cpythons_at_their_place() -> None:
    with pytest.raises(GradstepError) as err:
        run("a = 2.0\nb = a *\n")
    assert err.value.kind == "syntax"
    assert err.value.message.startswith("SyntaxError: ")
    assert err.value.span is not None and err.value.span.line == 2


def test_every_construct_is_python() -> None:
    source = """\
import math
from dataclasses import dataclass

@dataclass
class P:
    x: float

def gen(n):
    yield from range(n)

try:
    1 / 0
except ZeroDivisionError as e:
    print("caught", e)
import contextlib
with contextlib.nullcontext():
    pass
match P(2.0):
    case P(x=x) if (y := x * 2) > 3:
        print(y)
total = sum(gen(4)) ^ 1
print(total, [*range(3)], f"{math.pi:.3f}")
"""
    program = run(source)
    assert [t for _, t in program.console] == [
        "caught division by zero",
        "4.0",
        "7 [0, 1, 2] 3.142",
    ]


def test_a_program_with_no_value_to_draw_runs_and_says_so() -> None:
    program = run("class A:\n    pass\nprint('hello')\n")
    assert program.console == ((3, "hello"),)
    t = trace(program)
    assert t.structure.nodes == ()
    assert "made no value to draw" in t.structure.notes[-1]


def test_plots_are_recorded_not_refused() -> None:
    program = run(
        "import matplotlib.pyplot as plt\nfrom graphviz import Digraph\na = 2.0\nb = a * a\n"
        "for k in range(3):\n    plt.plot([k, k + 1], [b.data, 1.0], label=f'k={k}')\n"
        "dot = Digraph(format='svg')\nplt.title('t')\nplt.show()\nb.backward()\n"
    )
    (figure,) = program.plots
    (axes,) = figure["axes"]
    assert axes["title"] == "t"
    assert [s["y"] for s in axes["series"]] == [[4.0, 1.0]] * 3


def test_functions_and_methods_are_the_same_ops() -> None:
    a, b = run("x = 0.3\ny = tanh(x)"), run("x = 0.3\ny = x.tanh()")
    assert a.graph.ops[-1] == b.graph.ops[-1]
    assert output_data(a) == output_data(b)


def test_every_function_of_the_op_table_is_callable() -> None:
    for name in ("exp", "log", "tanh", "relu", "sigmoid", "sin", "cos", "sqrt"):
        g = run(f"x = 0.5\ny = {name}(x) + x.{name}()").graph
        assert g.ops[g.parents[-1][0]].op.name == name  # type: ignore[union-attr]


def test_spans_point_at_the_expression_that_made_each_value() -> None:
    source = "a = 2.0\nd = a * a + a**3"
    g = run(source).graph
    lines = source.splitlines()
    by_text = {
        lines[s.line - 1][s.column - 1 : s.end_column - 1]: i
        for i, s in enumerate(g.spans)
        if s is not None
    }
    assert set(by_text) >= {"2.0", "a * a", "a**3", "3", "a * a + a**3"}
    assert g.ops[by_text["a * a"]].op.name == "mul"  # type: ignore[union-attr]


def test_spans_count_characters_not_bytes() -> None:
    g = run("α = 2.0\nβ = α * α").graph
    assert g.spans[-1] == Span(2, 5, 10)  # α * α, in characters


def test_micrograd_noise_is_understood() -> None:
    source = (
        "import micrograd\nfrom micrograd.nn import MLP\nfrom micrograd.engine import Value\n"
        "x = Value(2.0)\nx.label = 'x'\ny = x * x; y.label = 'y'\n"
        "y.zero_grad()\nprint(y)\ny.backward()\n"
    )
    program = run(source)
    assert names(program)[-1] == "y"
    assert program.console == ((8, "Value(data=4.0, grad=0)"),)  # micrograd's repr, its int 0


def test_an_unassigned_value_keeps_its_label() -> None:
    program = run("x = Value(2.0)\ny = x * Value(3.0, label='w')")
    assert "w" in names(program)
    assert list(program.graph.inputs) == ["x"]  # only named leaves get sliders


def test_aliases_are_one_value() -> None:
    g = run("a = 2.0\nb = a\nc = b * a").graph
    assert g.parents[-1][0] == g.parents[-1][1]


def test_values_do_not_change_the_structure() -> None:
    one, two = trace(run(MICROGRAD_README)), trace(run(MICROGRAD_README, {"a": 1.5, "b": -0.5}))
    assert [n.name for n in one.structure.nodes] == [n.name for n in two.structure.nodes]
    assert [n.span for n in one.structure.nodes] == [n.span for n in two.structure.nodes]


def test_a_graph_too_large_to_keep_is_a_clean_error() -> None:
    times = MAX_NODES // 4 + 1
    source = f"x = Value(1.0)\nfor i in range({times}):\n    x = x * 1 - 0\nx.backward()\n"
    with pytest.raises(GradstepError) as err:
        run(source)
    assert err.value.kind == "limit"
    assert f"gradstep keeps at most {MAX_NODES:,}" in err.value.message


def test_a_program_longer_than_the_limit_is_refused_before_it_runs() -> None:
    with pytest.raises(GradstepError) as err:
        run("a = 1.0\n" * (MAX_SOURCE_CHARS // 8 + 1))
    assert err.value.kind == "limit"


def test_a_value_is_gradsteps() -> None:
    program = run("a = 2.0\ny = a * a")
    assert program.graph.engine == "gradstep"
    assert program.source == "a = 2.0\ny = a * a"


@pytest.mark.parametrize(
    "source",
    ["import math\nx = 2.0\ny = math.exp(x)\n", "from math import exp\nx = 2.0\ny = exp(x)\n"],
)
def test_a_typed_examples_math_functions_are_drawn(source: str) -> None:
    # math works on floats: a typed example's math.exp(x) of its value x is gradstep's exp
    program = run(source)
    ops = program.graph.ops
    assert ops[0] is None and ops[1] is not None and ops[1].text == "exp"
    assert program.graph.inputs == {"x": 0}
    assert trace(program).numbers.grad == (math.exp(2.0), 1.0)


def test_a_program_with_values_keeps_pythons_math() -> None:
    with pytest.raises(GradstepError, match=r"^TypeError: must be real number, not Value"):
        run("import math\nx = Value(2.0)\ny = math.exp(x)\n")
