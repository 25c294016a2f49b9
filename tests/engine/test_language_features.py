"""The language beyond expressions: functions, classes, loops, lists, modules; how values are
named, which are inputs, how calls are recorded, and what a gradient step after backward() does."""

from __future__ import annotations

import math
import random

import pytest

from engine import GradstepError, Span, Value, parse
from engine.language import Program
from engine.limits import DEFAULT_SEED


def out(source: str, values: dict[str, float] | None = None) -> float:
    return parse(source, values).output.data


def named(program: Program, label: str) -> Value:
    (v,) = [v for v, name in program.labels.items() if name == label]
    return v


def refused(source: str) -> GradstepError:
    with pytest.raises(GradstepError) as err:
        parse(source)
    return err.value


# Functions and classes ----------------------------------------------------------------------


def test_def_with_defaults_keywords_and_recursion() -> None:
    source = """
x = 2.0
def scale(v, by=3.0, shift=0.0):
    return v * by + shift
def power(v, n):
    return v if n == 1 else v * power(v, n - 1)
y = scale(x, shift=1.0) + scale(x, 0.5) + power(x, 3)
"""
    assert out(source) == 2.0 * 3 + 1 + 2.0 * 0.5 + 8.0


def test_classes_methods_attributes_and_inheritance() -> None:
    source = """
class Base:
    def __init__(self, w):
        self.w = w
    def __call__(self, x):
        return self.w * x + self.offset()
    def offset(self):
        return 0.0
class Shifted(Base):
    def offset(self):
        return 1.0
x = 3.0
y = Shifted(2.0)(x) + Base(4.0)(x)
"""
    assert out(source) == 2.0 * 3 + 1 + 4.0 * 3


def test_closures_read_the_enclosing_function() -> None:
    assert (
        out(
            "x = 2.0\ndef outer(k):\n    def inner(v):\n        return v * k\n"
            "    return inner(x)\ny = outer(5)"
        )
        == 10.0
    )


def test_argument_errors_read_like_pythons() -> None:
    assert "takes one argument (x), not 2" in refused("def f(x): return x\ny = f(1, 2)").message
    assert "needs a value for x" in refused("def f(x): return x\ny = f()").message
    assert "got two values for x" in refused("def f(x): return x\ny = f(1, x=2)").message
    assert "Neuron() takes no arguments" in refused("class Neuron: pass\nn = Neuron(2)").message


# Control flow -------------------------------------------------------------------------------


def test_for_break_continue_else_and_unpacking() -> None:
    source = """
x = 1.0
total = x * 0
for i, (a, b) in enumerate(zip([1, 2, 3, 4], [10, 20, 30, 40])):
    if i == 0:
        continue
    if a > 3:
        break
    total = total + x * (a * b)
else:
    total = total * 100
y = total
"""
    assert out(source) == 2 * 20 + 3 * 30


def test_conditions_on_numbers_and_data() -> None:
    source = """
x = -2.0
y = x.relu() if x.data > 0 else (x * x if 1 < 2 <= 2 and not False else x)
z = y if y is not None else x
"""
    assert out(source) == 4.0


def test_value_truth_and_comparison_are_refused_with_data_suggested() -> None:
    err = refused("x = 2.0\nif x:\n    y = x")
    assert err.kind == "unsupported" and "x.data > 0" in err.message
    assert "compare their .data" in refused("x = 2.0\ny = x * 2 if x > 1 else x").message


# Lists, tuples and builtins ------------------------------------------------------------------


def test_lists_tuples_slices_and_builtins() -> None:
    source = """
x = 2.0
xs = [1, 2, 3] + [4] * 2
xs.append(6)
xs.extend(range(7, 9))
head, *_ = [0],
ys = [v * x for v in xs[1:-1:2] if v % 2 == 0]
pairs = list(zip(xs, ys))
y = sum(ys, x) + len(xs) + max(xs) + min(3, 4) + abs(-1) + sum(map(abs, [-1, -2]))
"""
    with pytest.raises(GradstepError):  # starred unpacking stays out
        parse(source)
    source = source.replace("head, *_ = [0],\n", "")
    assert out(source) == 2.0 + 2 * 2 + 4 * 2 + 6 * 2 + 8 + 8 + 3 + 1 + 3


def test_generator_expressions_add_as_they_go() -> None:
    program = parse("a = 1.0\nb = 2.0\ny = sum((v * v for v in [a, b]), a)")
    ops = [v.op.name for v in program.spans if v.op is not None]
    assert ops == ["mul", "add", "mul", "add"]  # a + a·a, then + b·b: sum() pulls one at a time


def test_list_sizes_are_checked_before_the_list_is_made() -> None:
    err = refused("xs = [0] * 10**9")
    assert err.kind == "limit" and "1,000,000,000 items; the limit is 100,000" in err.message


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


# Modules ------------------------------------------------------------------------------------


def test_random_is_seeded_and_deterministic() -> None:
    rng = random.Random(DEFAULT_SEED)
    assert out("import random\nw = Value(random.uniform(-1, 1))\ny = w * 1") == rng.uniform(-1, 1)
    rng = random.Random(7)
    want = (rng.random(), rng.gauss(0, 1))
    source = "import random\nrandom.seed(7)\na = random.random()\nb = random.gauss(0, 1)\n"
    source += "y = Value(a) * b"
    assert out(source) == want[0] * want[1]


def test_math_on_plain_numbers() -> None:
    source = "import math\nx = 2.0\ny = x * math.exp(1) + math.tanh(0.5) + math.sqrt(4)"
    source += " + math.log(math.e) * math.pi"
    assert out(source) == 2.0 * math.e + math.tanh(0.5) + 2.0 + math.pi
    assert "for a value write x.exp()" in refused("import math\nx = 2.0\ny = math.exp(x)").message


@pytest.mark.parametrize(
    "imports",
    [
        "from micrograd.nn import MLP\nnet = MLP(2, [3, 1])",
        "from micrograd import nn\nnet = nn.MLP(2, [3, 1])",
        "import micrograd.nn as nn\nnet = nn.MLP(2, [3, 1])",
        "import micrograd\nnet = micrograd.nn.MLP(2, [3, 1])",
    ],
)
def test_every_way_of_importing_micrograd_nn(imports: str) -> None:
    program = parse(imports + "\ny = net([1.0, -1.0])\nps = net.parameters()\nnet.zero_grad()")
    assert len([v for v in program.spans if v.op is None and not v.constant]) == 3 * 3 + 4
    assert program.calls[0].name == "MLP"


def test_numpy_sklearn_and_matplotlib_as_the_demo_uses_them() -> None:
    source = """
import numpy as np
import matplotlib.pyplot as plt
from sklearn.datasets import make_moons
np.random.seed(3)
X, y = make_moons(n_samples=6, noise=0.1)
y = y*2 - 1
plt.figure(figsize=(5,5)); plt.scatter(X[:,0], X[:,1], c=y, s=20, cmap='jet')
n, d = X.shape
rows = [list(map(Value, xrow)) for xrow in X]
first = X[0]
z = rows[0][0] * y[0] + first[1] * len(X) + X[1, 0] + n * d
"""
    program = parse(source)
    assert len([v for v in program.spans if v.op is None and not v.constant]) == 12


def test_numpy_functions_not_provided_are_named() -> None:
    err = refused("import numpy as np\nxs = np.linspace(-5, 5, 40)")
    assert "numpy.linspace is not provided" in err.message and err.span == Span(2, 6, 28)


def test_plt_arguments_are_never_evaluated_and_print_shows_its_line() -> None:
    source = "import matplotlib.pyplot as plt\nx = 2.0\nplt.plot(undefined(), 1/0)\nprint(x * 2)"
    program = parse(source)
    assert program.console == ((4, "Value(data=4.0, grad=0.0)"),)
    assert refused("x = 2.0\nprint(undefined())").kind == "name"


# Notes --------------------------------------------------------------------------------------


def test_notes_say_what_was_skipped() -> None:
    source = """\
%matplotlib inline
def draw_dot(root):
    return root._prev
class Net:
    def __repr__(self):
        return f"Net({self.w})"
    def __init__(self):
        self.w = Value(1.0)
y = Net().w * 2
"""
    program = parse(source)
    assert program.notes == (
        "line 1: %matplotlib inline is a notebook command: skipped",
        "line 2: your def draw_dot was skipped: gradstep draws the graph itself "
        "(draw_dot(x) marks x as the output)",
    )
