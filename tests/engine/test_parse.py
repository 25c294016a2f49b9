"""The expression language: what it accepts, how it names values, and how values flow in."""

from __future__ import annotations

import pytest

from app.lecture import MICROGRAD_README
from engine import GradstepError, Span, Value, parse
from engine.limits import MAX_NODES, MAX_SOURCE_CHARS

LECTURE_NEURON = """\
x1 = 2.0; x2 = 0.0; w1 = -3.0; w2 = 1.0; b = 6.8813735870195432
n = x1*w1 + x2*w2 + b
o = n.tanh()
o.backward()
"""


def test_micrograd_readme_pasted_as_is() -> None:
    program = parse(MICROGRAD_README)
    assert list(program.inputs) == ["a", "b"]
    assert round(program.output.data, 4) == 24.7041
    program.output.backward()
    assert round(program.inputs["a"].grad, 4) == 138.8338
    assert round(program.inputs["b"].grad, 4) == 645.5773


def test_lecture_neuron() -> None:
    program = parse(LECTURE_NEURON)
    assert list(program.inputs) == ["x1", "x2", "w1", "w2", "b"]
    assert program.output.label == "o"
    assert round(program.output.data, 4) == 0.7071
    program.output.backward()
    grads = {name: round(v.grad, 4) for name, v in program.inputs.items()}
    assert grads == {"x1": -1.5, "x2": 0.5, "w1": 1.0, "w2": 0.0, "b": 0.5}


def test_output_is_the_last_statement_without_backward() -> None:
    assert parse("a = 2.0\nb = a * 3\nb + 1").output.data == 7.0
    assert parse("a = 2.0\nb = a * 3").output.label == "b"


def test_backward_marks_the_output_even_before_later_statements() -> None:
    program = parse("a = 2.0\nb = a * 3\nb.backward()\nc = b * 10")
    assert program.output.label == "b"


def test_rebinding_gets_subscript_labels() -> None:
    program = parse("a = 2.0\nc = a * 2\nc += 1\nc *= a\nc -= 1\nc /= 2")
    labels = [v.label for v in program.labels if v.op is not None and v.label]
    assert labels == ["c", "c₁", "c₂", "c₃", "c₄"]
    assert program.output.label == "c₄"


def test_numbers_become_inputs_and_values_replace_them() -> None:
    program = parse("a = 2.0\nb = Value(3.0)\ny = a * b", {"a": 5.0, "b": -1.0})
    assert program.inputs["a"].data == 5.0
    assert program.inputs["b"].data == -1.0
    assert program.output.data == -5.0


def test_free_names_come_from_values_in_order_of_appearance() -> None:
    program = parse("y = w * x + b", {"b": 1.0, "x": 3.0, "w": 2.0})
    assert list(program.inputs) == ["w", "x", "b"]
    assert program.output.data == 7.0


def test_one_error_lists_every_missing_name() -> None:
    with pytest.raises(GradstepError) as err:
        parse("y = w * x + b\nz = y * q", {"x": 1.0})
    assert err.value.kind == "name"
    assert "w, b, q" in err.value.message
    assert err.value.span == Span(1, 5, 6)


def test_a_text_read_before_runs_again_with_the_new_values_and_names() -> None:
    # the text's first two passes are kept (a slider moves often): the values must still
    # count, and which names are given must still decide whether a free name is missing
    source = "y = w * x + b"
    assert parse(source, {"w": 2.0, "x": 3.0, "b": 1.0}).output.data == 7.0
    assert parse(source, {"w": 2.0, "x": 4.0, "b": 1.0}).output.data == 9.0
    with pytest.raises(GradstepError, match="no value for b"):
        parse(source, {"w": 2.0, "x": 4.0})
    first, again = parse("a = 2.0\ny = a * a"), parse("a = 2.0\ny = a * a")
    assert first.output is not again.output  # a new graph each time, never a shared one


def test_a_module_a_pasted_cell_never_imported_is_named_with_its_import() -> None:
    # a notebook imported it in an earlier cell
    with pytest.raises(GradstepError, match="random was never imported: add import random"):
        parse("w = Value(random.uniform(-1, 1))\ny = w * w")
    with pytest.raises(GradstepError, match="add import numpy as np at the top"):
        parse("x = np.array([1.0, 2.0])\ny = Value(x[0]) * 2")


def test_a_method_assigned_without_its_parentheses_is_named_with_them() -> None:
    # o = n.tanh (the lecture's o = n.tanh() without "()"): the messages say what to write
    forgot = "x = 2.0\nn = x * 3\no = n.tanh\n"
    with pytest.raises(GradstepError, match=r"^n.tanh is a method, not the value it gives: "
                       r"did you mean n.tanh\(\)\?") as set_label:  # fmt: skip
        parse(forgot + "o.label = 'o'\n")
    assert set_label.value.span is not None and set_label.value.span.line == 4
    with pytest.raises(GradstepError, match=r"^o is the method n.tanh, not the value it gives: "
                       r"did you mean n.tanh\(\) where o is assigned\?"):  # fmt: skip
        parse(forgot + "o.backward()\n")
    with pytest.raises(GradstepError, match=r"n.tanh is a method: call it first, as in "
                       r"n.tanh\(\).backward"):  # fmt: skip
        parse("x = 2.0\nn = x * 3\nn.tanh.backward()\n")


def test_plots_and_graphviz_calls_are_listed_as_skipped() -> None:
    program = parse(
        "import matplotlib.pyplot as plt\nfrom graphviz import Digraph\na = 2.0\nb = a * a\n"
        "for k in range(3):\n    plt.plot([k], [b.data])\ndot = Digraph(format='svg')\n"
        "plt.show()\nb.backward()\n"
    )
    assert program.notes == (  # once per line, however often it ran
        "line 6: plt.plot(...) was skipped: gradstep shows no plots",
        "line 7: Digraph(...) was skipped: gradstep draws the graph itself",
        "line 8: plt.show(...) was skipped: gradstep shows no plots",
    )


def test_unknown_value_keys_are_refused() -> None:
    with pytest.raises(GradstepError) as err:
        parse("a = 2.0\ny = a * a", {"a": 1.0, "zz": 2.0})
    assert err.value.kind == "name"
    assert "'zz'" in err.value.message
    with pytest.raises(GradstepError) as computed:
        parse("a = 2.0\ny = a * a", {"y": 1.0})  # y is computed, not an input
    assert computed.value.kind == "name"
    # a number no value uses is no input, even when a value for it would break the run first
    loop = "k = 3\na = Value(2.0)\nb = a\nfor i in range(k):\n    b = b * a\n"
    with pytest.raises(GradstepError, match="values given for 'k', which is not an input"):
        parse(loop, {"k": 1.5})


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "2", True, None])
def test_bad_values_are_refused(bad: object) -> None:
    with pytest.raises(GradstepError) as err:
        parse("a = 2.0\ny = a * a", {"a": bad})  # type: ignore[dict-item]
    assert "a" in err.value.message
    assert err.value.kind in ("type", "domain")


def test_inline_numbers_are_constants_and_pure_number_expressions_fold() -> None:
    program = parse("a = 2.0\ny = a * (2 * 3) + -1")
    constants = sorted(v.data for v in program.spans if v.constant)
    assert constants == [-1.0, 6.0]  # 2 * 3 and -1 folded, as Python folds them
    assert program.output.data == 11.0
    ops = [v.op.name for v in program.spans if v.op is not None]
    assert ops == ["mul", "add"]


def test_a_name_assigned_a_number_expression_is_an_input() -> None:
    program = parse("h = 1 / 4\ny = h * h")
    assert program.inputs["h"].data == 0.25


def test_functions_and_methods_are_the_same_ops() -> None:
    a = parse("x = 0.3\ny = tanh(x)").output
    b = parse("x = 0.3\ny = x.tanh()").output
    assert a.op is b.op
    assert a.data == b.data


def test_every_function_of_the_op_table_is_callable() -> None:
    for name in ("exp", "log", "tanh", "relu", "sigmoid", "sin", "cos", "sqrt"):
        program = parse(f"x = 0.5\ny = {name}(x) + x.{name}()")
        assert program.output.parents[0].op.name == name  # type: ignore[union-attr]


def test_spans_point_at_the_expression_that_made_each_value() -> None:
    source = "a = 2.0\nd = a * a + a**3"
    program = parse(source)
    by_text = {
        source.splitlines()[s.line - 1][s.column - 1 : s.end_column - 1]: v
        for v, s in program.spans.items()
    }
    assert set(by_text) >= {"a = 2.0", "a * a", "a**3", "3", "a * a + a**3"}
    assert by_text["a * a"].op.name == "mul"  # type: ignore[union-attr]


def test_spans_count_characters_not_bytes() -> None:
    program = parse("α = 2.0\nβ = α * α")
    assert program.spans[program.output] == Span(2, 5, 10)  # α * α, in characters
    mul = program.output
    assert mul.op is not None and mul.label == "β"


def test_micrograd_noise_is_understood() -> None:
    source = (
        "import micrograd\nfrom micrograd.nn import MLP\n"
        "x = Value(2.0, label='x')\nx.label = 'x'\ny = x * x; y.label = 'y'\n"
        "y.zero_grad()\nprint(y)\ny.backward()\n"
    )
    assert parse(source).output.label == "y"


def test_unassigned_value_keeps_its_label_keyword_for_display() -> None:
    program = parse("x = 2.0\ny = x * Value(3.0, label='w')")
    leaf = program.output.parents[1]
    assert program.labels[leaf] == "w"
    assert "w" not in program.inputs  # only named inputs get sliders


def test_program_order_and_aliases() -> None:
    program = parse("a = 2.0\nb = a\nc = b * a")
    assert program.output.parents[0] is program.output.parents[1]


def test_values_do_not_change_the_structure() -> None:
    one = parse(MICROGRAD_README)
    two = parse(MICROGRAD_README, {"a": 1.5, "b": -0.5})
    assert [v.label for v in one.labels] == [v.label for v in two.labels]
    assert list(one.spans.values()) == list(two.spans.values())


def test_node_limit_is_a_clean_error() -> None:
    source = "x = 1.0\n" + "x=x*1-0\n" * (MAX_NODES // 4 + 1)  # four values per line
    assert len(source) < MAX_SOURCE_CHARS
    with pytest.raises(GradstepError) as err:
        parse(source)
    assert err.value.kind == "limit"
    assert f"the graph would have {MAX_NODES + 5:,} values" in err.value.message
    assert err.value.span is not None and err.value.span.line == MAX_NODES // 4 + 2  # the output's


def test_value_class_is_not_confused_with_user_values() -> None:
    program = parse("a = 2.0\ny = a * a")
    assert isinstance(program.output, Value)
    assert program.source == "a = 2.0\ny = a * a"
