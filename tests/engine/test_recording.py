"""What the recorder gives of a run (engine.program.Graph): the names values get, which numbers
are inputs and which are constants, the output, each value's place and the calls that made it
(folding), the updates after backward(), and for a learner's own engine its objects, the writes
of its backward pass (graph.writes) and the calls of functions its nodes keep (graph.kept); and
that recording changes nothing the program does (CPython on the host prints the same)."""

from __future__ import annotations

import contextlib
import io
import math
import random

import pytest

from engine import GradstepError, Graph, Program, Span, run, trace
from engine.limits import DEFAULT_LIMITS, DEFAULT_SEED
from engine.runner import pick, rerun

NODE = """
class Node:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0
        self._prev = set(_children)
        self._backward = lambda: None
    def __repr__(self):
        return f"Node({self.data})"
    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __radd__(self, other):
        return self + other
    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def __rmul__(self, other):
        return self * other
    def __neg__(self):
        return self * -1
    def __sub__(self, other):
        return self + (-other)
    def __lt__(self, other):
        return self.data < other.data
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()
"""


def out(program: Program) -> float:
    return program.graph.data[program.graph.output]


def names(program: Program) -> list[str]:
    """Every node's name as the trace shows it (label, name bound, attribute, expression)."""
    return [n.name for n in trace(program).structure.nodes]


def named(g: Graph, name: str) -> int:
    (i,) = [i for i, n in enumerate(g.names) if n == name]
    return i


def leaves(g: Graph) -> list[int]:
    return [i for i, ps in enumerate(g.parents) if not ps]


def printed(source: str) -> list[str]:
    return [text for _, text in run(source).console]


def cpython_printed(source: str) -> list[str]:
    """What CPython itself prints running ``source`` (the tests' own text, no values in it)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(source, {"__name__": "__main__"})
    return buffer.getvalue().splitlines()


# Names --------------------------------------------------------------------------------------


def test_names_as_the_program_wrote_them() -> None:
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
    program = run(source)
    g = program.graph
    shown = [n for n, constant in zip(names(program), g.constant, strict=True) if not constant]
    assert shown == ["x1", "w1", "x1*w1", "c", "c₁", "act", "t"]
    assert g.names[g.output] == "t"
    assert g.labels[named(g, "act")] is None  # named by the assignment, never labelled
    assert [g.labels[i] for i in leaves(g) if not g.constant[i]] == ["x1", "w1"]
    assert all(g.names[i] is None for i in leaves(g) if g.constant[i])  # constants: no name


def test_values_stored_in_attributes_are_named_by_them() -> None:
    source = """
class Unit:
    def __init__(self):
        self.w = [Value(0.5), Value(-0.5)]
        self.b = Value(0.1)
u = Unit()
y = u.w[0] * u.w[1] + u.b
"""
    g = run(source).graph
    assert [g.names[i] for i in leaves(g)] == ["w[0]", "w[1]", "b"]


def test_an_unnamed_value_is_named_by_its_expression() -> None:
    program = run("xs = [Value(1.0), Value(2.0)]\ny = xs[0] * 2\na = xs[1]\nz = y + a")
    assert names(program) == ["t₀", "a", "2", "y", "z"]  # xs[1] is named where it is bound


def test_data_grad_and_a_real_backward_inside_the_program() -> None:
    source = """
a = Value(3.0)
b = a * a
b.backward()
g = a.grad
a.grad = 0.0
c = b * g
print(c.data)
"""
    program = run(source)
    g = program.graph
    assert g.names[g.output] == "b"  # the last backward() picks the output
    assert program.console == ((8, "54.0"),)  # g was 6.0, the real gradient
    assert g.grad == (6.0, 1.0)  # the graph as backward() left it, before a.grad = 0.0
    t = trace(program)
    assert t.numbers.grad == (6.0, 1.0)


# Inputs, constants and the output ----------------------------------------------------------


def test_a_typed_examples_top_level_numbers_are_inputs_and_other_numbers_are_not() -> None:
    source = """
h = 1 / 4
x, y = 2.0, math.pi
k = len([1, 2])
for i in range(2):
    step = 0.5
z = (x + y) * h * k * step
"""
    g = run("import math\n" + source).graph
    assert list(g.inputs) == ["h", "x", "y"]
    assert g.data[g.inputs["h"]] == 0.25 and g.data[g.inputs["y"]] == math.pi
    assert [g.constant[i] for i in leaves(g)] == [False, False, False, True, True]  # k, step


def test_inline_numbers_are_constants_and_pure_number_expressions_fold() -> None:
    g = run("a = 2.0\ny = a * (2 * 3) + -1").graph
    assert sorted(g.data[i] for i in leaves(g) if g.constant[i]) == [-1.0, 6.0]  # as CPython
    assert g.data[g.output] == 11.0
    assert [op.op.name for op in g.ops if op is not None and op.op is not None] == ["mul", "add"]


def test_class_attributes_are_not_inputs() -> None:
    program = run("class A:\n    rate = 0.1\nx = 2.0\ny = x * A.rate")
    assert list(program.graph.inputs) == ["x"] and out(program) == 0.2


def test_in_a_program_that_makes_values_an_input_is_a_leaf_its_statement_made() -> None:
    source = """
from micrograd.engine import Value
x1 = 2.0
n_epochs = 3
lr = 0.05
w1 = Value(-3.0)
n = x1 * w1 + x1 * w1
for _ in range(n_epochs):
    w1.data -= lr * 1.0
"""
    program = run(source)
    g = program.graph
    assert list(g.inputs) == ["w1"]  # x1 is a number where it meets w1, as in CPython
    assert out(program) == -12.0
    assert [g.data[i] for i in leaves(g) if g.constant[i]] == [2.0, 2.0]  # a constant a use
    assert out(run(source, {"w1": 1.0})) == 4.0
    with pytest.raises(GradstepError, match="values given for 'x1', which is not an input"):
        run(source, {"x1": 5.0})


def test_values_set_inputs_by_label_and_only_inputs() -> None:
    source = "a = Value(2.0, label='x')\nb = 3.0\ny = a * b"
    program = run(source, {"x": 5.0})
    assert out(program) == 15.0 and list(program.graph.inputs) == ["x"]
    assert program.given == {"x": 5.0}
    for name in ("a", "b", "y", "zz"):  # its name (it has a label), a number, a result, nothing
        with pytest.raises(GradstepError) as err:
            run(source, {"x": 1.0, name: 2.0})
        assert err.value.kind == "name" and f"'{name}'" in err.value.message


def test_only_leaves_made_by_their_statement_become_inputs() -> None:
    program = run("xs = [Value(1.0), Value(2.0)]\ny = xs[0] * 2\na = xs[1]\nz = y + a")
    assert program.graph.inputs == {}


def test_a_text_run_before_runs_again_with_new_values_and_names() -> None:
    # the runs kept are by text and values: the values must still count, and which names are
    # given must still decide whether a free name is missing
    source = "y = w * x + b"
    assert out(run(source, {"w": 2.0, "x": 3.0, "b": 1.0})) == 7.0
    assert out(run(source, {"w": 2.0, "x": 4.0, "b": 1.0})) == 9.0
    with pytest.raises(GradstepError, match="no value for b"):
        run(source, {"w": 2.0, "x": 4.0})


def test_random_is_seeded_and_deterministic() -> None:
    rng = random.Random(DEFAULT_SEED)  # the program sets no seed: gradstep's documented one
    assert out(run("import random\nw = Value(random.uniform(-1, 1))\ny = w * 1")) == rng.uniform(
        -1, 1
    )
    rng = random.Random(7)
    want = (rng.random(), rng.gauss(0, 1))
    source = "import random\nrandom.seed(7)\na = random.random()\nb = random.gauss(0, 1)\n"
    assert out(run(source + "y = Value(a) * b")) == want[0] * want[1]


def test_output_is_the_last_draw_dot_or_backward() -> None:
    source = "a = 2.0\nb = a * 3\nc = b + 1\ndraw_dot(b)\nd = c * 2"
    assert names(run(source))[-1] == "b"
    assert names(run(source + "\nd.backward()\ne = d * 5"))[-1] == "d"


def test_output_falls_back_to_the_first_value_of_the_last_assignment() -> None:
    source = "x = 2.0\ndef loss():\n    return x * x, 0.5\nl, acc = loss()\nprint(l, acc)"
    program = run(source)
    assert out(program) == 4.0 and program.console == ((5, "4.0 0.5"),)


# Places, calls and the order values are made in ---------------------------------------------


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
    g = run(source).graph
    calls = g.call_list
    assert [(c.id, c.parent, c.name) for c in calls] == [
        (0, None, "Net"),
        (1, None, "Net"),
        (2, 1, "square"),
        (3, None, "Net.grow"),
    ]
    lines = source.splitlines()
    texts = [lines[c.span.line - 1][c.span.column - 1 : c.span.end_column - 1] for c in calls]
    assert texts == ["Net()", "net(x)", "square(self.w * v)", "net.grow()"]
    assert g.calls[named(g, "w")] == 0
    (square,) = [i for i, c in enumerate(g.calls) if c == 2]
    assert g.parents[square][0] == g.parents[square][1]  # v * v
    assert g.calls[g.output] is None


def test_values_made_in_micrograds_classes_point_at_the_programs_call() -> None:
    g = run("from micrograd.nn import Neuron\nn = Neuron(2)\ny = n([1.0, 2.0])").graph
    assert set(g.spans) == {Span(2, 5, 14), Span(3, 5, 18)}  # Neuron(2), n([1.0, 2.0])


@pytest.mark.parametrize(
    "imports",
    [
        "from micrograd.nn import MLP\nnet = MLP(2, [3, 1])",
        "from micrograd import nn\nnet = nn.MLP(2, [3, 1])",
        "import micrograd.nn as nn\nnet = nn.MLP(2, [3, 1])",
        "import micrograd.nn\nnet = micrograd.nn.MLP(2, [3, 1])",
    ],
)
def test_every_way_of_importing_micrograd_nn(imports: str) -> None:
    source = imports + "\ny = net([1.0, -1.0])\nps = net.parameters()\nnet.zero_grad()\n"
    source += "y.backward()"
    g = run(source).graph
    assert len([i for i in leaves(g) if not g.constant[i]]) == 3 * 3 + 4
    assert g.call_list[0].name == "MLP"


def test_generator_expressions_add_as_they_go() -> None:
    g = run("a = 1.0\nb = 2.0\ny = sum((v * v for v in [a, b]), a)").graph
    ops = [op.op.name for op in g.ops if op is not None and op.op is not None]
    assert ops == ["mul", "add", "mul", "add"]  # a + a·a, then + b·b: sum() pulls one at a time


# Gradient steps -----------------------------------------------------------------------------


def test_updates_after_the_outputs_last_backward_are_reported() -> None:
    source = """
w = Value(1.0)
loss = (w * 3 - 1) ** 2
w.data += 10.0
loss.backward()
for step in range(2):
    w.data -= 0.1 * w.grad
"""
    g = run(source).graph
    w = g.inputs["w"]
    assert g.data[w] == 11.0  # changed before backward(): the graph holds it as backward() saw it
    first, second = g.updates
    assert (first.node, second.node) == (w, w)
    assert first.span.line == second.span.line == 7
    assert first.after == 11.0 - 0.1 * 2 * 3 * (3 * 1.0 - 1)
    assert second.before == first.after
    assert second.after == first.after - 0.1 * 2 * 3 * (3 * 1.0 - 1)
    assert first.before == 11.0


# A learner's own engine ----------------------------------------------------------------------

SMALL = (
    NODE
    + """
a = Node(2.0)
b = Node(3.0)
c = a * b
c += a
c.backward()
"""
)


def test_the_programs_own_engine_is_its_graph() -> None:
    program = run(SMALL)
    g = program.graph
    assert (g.engine, g.engine_class) == ("program", "Node")
    assert g.names[g.output] == "c₁"
    assert list(g.inputs) == ["a", "b"] and program.console == ()
    assert g.grad == (4.0, 2.0, 1.0, 1.0)  # what their backward left: ∂c₁/∂a = b + 1
    assert g.fields["data"] == "data" and g.fields["parents"] == "_prev"
    switched = run(SMALL, engine="gradstep")  # the engine switch: gradstep's Value in its place
    assert switched.graph.engine == "gradstep" and out(switched) == out(program) == 8.0
    assert "your class Node was left out" in switched.notes[0]


def test_the_own_engines_objects_writes_and_kept_calls() -> None:
    g = run(SMALL).graph
    a, b = g.inputs["a"], g.inputs["b"]
    assert g.made == (0, 1, 2, 3)  # a, b, a*b, +a: the order their objects were made in
    assert (a, b) == (0, 1)
    lines = SMALL.splitlines()
    assert lines[g.spans[2].line - 1].strip() == "c = a * b"  # type: ignore[union-attr]
    grads = [(w.node, w.before, w.after, w.augmented) for w in g.writes]
    assert (a, 0, 2.0, False) not in grads
    assert (b, 0, 2.0, True) in grads  # b.grad += self.data * out.grad, in a _backward
    seed = next(w for w in g.writes if w.after == 1 and w.node == g.output)
    assert lines[seed.span.line - 1].strip() == "self.grad = 1" and not seed.augmented
    kept = [k for k in g.kept if k.attr == "_backward"]
    assert len(kept) == 4 and all(k.end >= k.first for k in kept)
    assert sorted(k.owner for k in kept) == [0, 1, 2, 3]
    for i, w in enumerate(g.writes):
        if w.kept >= 0:  # written inside a kept call: within its run of writes
            assert g.kept[w.kept].first <= i < g.kept[w.kept].end
    inside = [w for w in g.writes if w.kept >= 0]
    assert len(inside) == 4 and all(w.augmented for w in inside)


def test_given_values_and_the_nudge_set_an_objects_data() -> None:
    program = run(SMALL, {"a": 5.0})
    assert out(program) == 5.0 * 3.0 + 5.0 and program.given == {"a": 5.0}
    record = rerun(SMALL, {}, "auto", (1, 0.5), DEFAULT_LIMITS)  # object 1, b, moved by 0.5
    assert out(pick(SMALL, {}, "auto", record, None)) == 2.0 * 3.5 + 2.0


def test_micrograd_engine_import_names_the_programs_own_value() -> None:
    source = (
        NODE.replace("Node", "Value")
        + "from micrograd.engine import Value\nx = Value(2.0) * 3\nx.backward()"
    )
    program = run(source)
    assert program.graph.engine_class == "Value" and out(program) == 6.0


def test_draw_dot_marks_an_object_as_the_output() -> None:
    program = run(NODE + "a = Node(1.0)\nb = a + 2\nd = b * 3\ndraw_dot(b)\nprint('x')")
    assert program.graph.names[program.graph.output] == "b"


def test_a_deep_recursion_of_the_own_engine_runs_as_in_cpython() -> None:
    source = NODE + "x = Node(1.0)\ny = x\nfor i in range(990):\n    y = y + 1\n"
    source += "y.backward()\nprint(y.data, x.grad)\n"
    assert printed(source) == ["991.0 1"]  # build() recursed 991 deep, as CPython lets it


# Recording changes nothing the program does -------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        """
a = Node(2.0)
b = Node(-3.0)
c = a * b + 10
d = 2 * c - a
e = 1 + d
f = sum([a, b, c])
print(c, d, e, f, -a, a < b, b < a, [a, b])
e.backward()
print(a.grad, b.grad)
""",
        """
a, b = Node(1), Node(1)
s = set([b, a, b])
s.add(a); s.update([Node(2)]); s.discard(b)
print(len(s), a in s, b in s, sorted(n.data for n in s), {x * 2 for x in [3, 1, 3]})
print(isinstance(a, Node), hasattr(a, 'grad'), getattr(a, 'x', 7), min([a, b]), max(a, b))
""",
        """
class A:
    def __add__(self, other):
        return NotImplemented
class B:
    def __radd__(self, other):
        return "B.__radd__"
print(A() + B())
class P:
    scale = 10
    def __init__(self, v):
        self.v = v
def add(self, other):
    return P(self.v + other.v)
P.__add__ = add
P.unit = 1
n = P(1) + P(2)
print(n.v * P.scale + P.unit)
""",
        """
class Q:
    __slots__ = ("data", "grad")
    def __init__(self, data):
        self.data, self.grad = data, 0.0
    def __mul__(self, other):
        return Q(self.data * other.data)
    def __setattr__(self, name, value):
        object.__setattr__(self, name, value * 2 if name == "grad" else value)
q = Q(2.0) * Q(3.0)
q.grad = 1.5
print(q.data, q.grad, Q.__slots__)
""",
    ],
    ids=["operators", "sets-and-builtins", "fallbacks-and-patches", "slots-and-setattr"],
)
def test_the_recorder_changes_nothing_the_program_does(body: str) -> None:
    source = NODE + body + "out = Node(1.0) * 2\n"  # the output: one of Node's, with a grad
    assert printed(source) == cpython_printed(source)
