"""The language beyond expressions, its values: how they are named, their data, grad and a
real backward() inside the program, which are inputs and which is the output, what a gradient
step after backward() does, and how calls that made values are recorded."""

from __future__ import annotations

from language_programs import named, refused

from engine import Span, parse

# Values: labels, data, grad, backward ------------------------------------------------------


def test_labels_as_the_user_wrote_them() -> None:
    source = """
x1 = Value(2.0, label='x1')
w1 = Value(-3.0, label='w1')
x1w1 = x1*w1; x1w1.label = 'x1*w1'
c = x1w1 + 1
c += 1
def f(v):
    act = v * 2
    return act.tanh()
t = f(c)
"""
    program = parse(source)
    labels = list(program.labels.values())
    assert labels == ["x1", "w1", "x1*w1", "c", "c₁", "act", "t"]
    assert 1.0 not in [v.data for v in program.labels]  # constants are never named here
    assert program.output.label == "t" and named(program, "act").label is None


def test_values_stored_in_attributes_are_named_by_them() -> None:
    source = """
class Unit:
    def __init__(self):
        self.w = [Value(0.5), Value(-0.5)]
        self.b = Value(0.1)
u = Unit()
y = u.w[0] * u.w[1] + u.b
"""
    program = parse(source)
    assert [program.labels[v] for v in program.spans if v.op is None] == ["w[0]", "w[1]", "b"]


def test_data_grad_and_a_real_backward_inside_the_program() -> None:
    source = """
a = Value(3.0)
b = a * a
b.backward()
g = a.grad
a.grad = 0.0
c = b * g
"""
    program = parse(source)
    assert program.output.label == "b"  # the last backward() picks the output
    assert named(program, "c").data == 9.0 * 6.0  # g was 6.0, the real gradient
    assert all(v.grad == 0.0 for v in program.spans)  # the graph comes back fresh


def test_private_parts_of_micrograd_values_are_refused_clearly() -> None:
    err = refused("x = Value(2.0)\nfor c in x._prev:\n    print(c)")
    assert "._prev is micrograd's inside" in err.message and err.span == Span(2, 10, 17)


# Inputs and the output ---------------------------------------------------------------------


def test_top_level_literals_are_inputs_and_other_numbers_are_not() -> None:
    source = """
h = 1 / 4
x, y = 2.0, math.pi
k = len([1, 2])
for i in range(2):
    step = 0.5
z = (x + y) * h * k * step
"""
    program = parse("import math\n" + source)
    assert list(program.inputs) == ["h", "x", "y"]
    assert [v.constant for v in program.spans if v.op is None] == [False, False, False, True, True]


def test_class_attributes_are_not_inputs() -> None:
    program = parse("class A:\n    rate = 0.1\nx = 2.0\ny = x * A.rate")
    assert list(program.inputs) == ["x"] and program.output.data == 0.2


def test_values_replace_inputs_by_label() -> None:
    program = parse("a = Value(2.0, label='x')\nb = 3.0\ny = a * b", {"x": 5.0, "b": 1.0})
    assert program.output.data == 5.0 and list(program.inputs) == ["x", "b"]


def test_only_fresh_unused_leaves_become_inputs() -> None:
    program = parse("xs = [Value(1.0), Value(2.0)]\ny = xs[0] * 2\na = xs[1]\nz = y + a")
    assert program.inputs == {}


def test_output_is_the_last_draw_dot_or_backward() -> None:
    source = "a = 2.0\nb = a * 3\nc = b + 1\ndraw_dot(b)\nd = c * 2"
    assert parse(source).output.label == "b"
    assert parse(source + "\nd.backward()\ne = d * 5").output.label == "d"


def test_output_falls_back_to_the_first_value_of_the_last_assignment() -> None:
    source = "x = 2.0\ndef loss():\n    return x * x, 0.5\nl, acc = loss()\nprint(l, acc)"
    assert parse(source).output.data == 4.0


# Gradient steps -----------------------------------------------------------------------------


def test_updates_after_the_outputs_last_backward_are_reported_and_undone() -> None:
    source = """
w = Value(1.0)
loss = (w * 3 - 1) ** 2
w.data += 10.0
loss.backward()
for step in range(2):
    w.data -= 0.1 * w.grad
"""
    program = parse(source)
    w = program.inputs["w"]
    assert w.data == 11.0  # changed before backward(): part of the forward pass... as written
    (first, second) = program.updates
    assert (first.before, first.after) == (11.0, 11.0 - 0.1 * 2 * 3 * (3 * 1.0 - 1))
    assert second.before == first.after and first.span.line == 7


def test_data_of_an_op_result_cannot_be_set() -> None:
    err = refused("a = 2.0\nb = a * 2\nb.data = 1.0")
    assert err.kind == "unsupported" and "only a leaf's .data" in err.message


# Calls --------------------------------------------------------------------------------------


def test_calls_that_made_values_are_recorded_with_their_callers() -> None:
    source = """
x = 2.0
def square(v):
    return v * v
def plain(n):
    return n + 1
class Net:
    def __init__(self):
        self.w = Value(0.5)
    def __call__(self, v):
        return square(self.w * v)
    def grow(self):
        return self.w * 2
net = Net()
y = net(x) + net.grow() + plain(1)
"""
    program = parse(source)
    assert [(c.id, c.parent, c.name) for c in program.calls] == [
        (0, None, "Net"),
        (1, None, "Net"),
        (2, 1, "square"),
        (3, None, "Net.grow"),
    ]
    line = source.splitlines()[program.calls[2].span.line - 1]
    assert line[program.calls[2].span.column - 1 : program.calls[2].span.end_column - 1] == (
        "square(self.w * v)"
    )
    w = named(program, "w")
    assert program.call_of[w] == 0
    assert program.call_of[program.output.parents[0].parents[0]] == 2  # v * v
    assert program.output not in program.call_of


def test_prelude_values_point_at_the_users_call() -> None:
    source = "from micrograd.nn import Neuron\nn = Neuron(2)\ny = n([1.0, 2.0])"
    program = parse(source)
    spans = {program.spans[v] for v in program.spans}
    assert spans <= {Span(2, 5, 14), Span(3, 5, 18)}
