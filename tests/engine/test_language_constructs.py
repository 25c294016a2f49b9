"""The language beyond expressions, its constructs: functions and classes, control flow, lists,
tuples and builtins, the modules a program imports (random, math, micrograd, numpy, sklearn,
matplotlib), and the notes on what was skipped."""

from __future__ import annotations

import math
import random

import pytest
from language_programs import out, refused

from engine import GradstepError, Span, parse
from engine.limits import DEFAULT_SEED

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
