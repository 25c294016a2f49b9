"""The language as a learner's own engine needs it: operator methods on the program's classes,
closures, lambdas, sets, dicts, while, assert, formatting and print, deep recursion, numpy, the
rule for which top-level numbers are inputs, and the watch's records of the program's objects."""

from __future__ import annotations

import time

import pytest

from engine import GradstepError, Value, parse
from engine.language import OwnProgram, Program, graph_program
from engine.limits import MAX_CALL_DEPTH

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


OUTPUT = "\nfrom micrograd.engine import Value\nout = Value(1.0) * 2"  # something to draw


def printed(source: str, values: dict[str, float] | None = None) -> list[str]:
    return [text for _, text in parse(source + OUTPUT, values).console]


def refused(source: str) -> GradstepError:
    with pytest.raises(GradstepError) as err:
        parse(source)
    return err.value


def own(source: str, **kwargs: object) -> OwnProgram:
    program = parse(source, **kwargs)  # type: ignore[arg-type]
    assert isinstance(program, OwnProgram)
    return program


# 1. Operator methods --------------------------------------------------------------------------


def test_operator_methods_and_their_reflections_dispatch_as_in_python() -> None:
    source = (
        NODE
        + """
a = Node(2.0)
b = Node(-3.0)
c = a * b + 10
d = 2 * c - a
e = 1 + d
f = sum([a, b, c])
print(c, d, e, f, -a, a < b, b < a, [a, b])
e.backward()
print(a.grad, b.grad)
"""
    )
    assert printed(source) == [
        "Node(4.0) Node(6.0) Node(7.0) Node(3.0) Node(-2.0) False True [Node(2.0), Node(-3.0)]",
        "-7.0 4.0",
    ]


def test_not_implemented_falls_back_to_the_reflected_method() -> None:
    source = """
class A:
    def __add__(self, other):
        return NotImplemented
class B:
    def __radd__(self, other):
        return "B.__radd__"
print(A() + B())
x = A()
x == A()
"""
    assert printed(source) == ["B.__radd__"]


def test_methods_patched_onto_a_class_and_class_attributes() -> None:
    source = """
class Node:
    scale = 10
    def __init__(self, v):
        self.v = v
def add(self, other):
    return Node(self.v + other.v)
Node.__add__ = add
Node.unit = 1
n = Node(1) + Node(2)
print(n.v * Node.scale + Node.unit)
"""
    assert printed(source) == ["31"]


def test_missing_operators_and_mixing_engines_are_clear_errors() -> None:
    err = refused("class A:\n    pass\nx = A() + 1")
    assert err.kind == "type" and "A has no __add__" in err.message
    err = refused(NODE + "x = Node(1.0) + Value(2.0)")
    assert err.kind == "type" and "gradstep's values" in err.message and "Node" in err.message


# 2. Functions, closures, lambdas and builtins ---------------------------------------------------


def test_lambdas_closures_nonlocal_and_global() -> None:
    source = """
total = 0
def counter():
    count = 0
    def step(by=1):
        nonlocal count
        count += by
        return count
    return step
def bump():
    global total
    total += 5
tick = counter()
tick(); tick(10)
bump()
scale = lambda x, k=2: x * k
print(tick(), total, scale(3), (lambda: 'ok')())
"""
    assert printed(source) == ["12 5 6 ok"]


def test_star_args_and_keyword_args_in_definitions_and_calls() -> None:
    source = """
def f(a, *rest, scale=1, **options):
    return a * scale + sum(rest) + len(options)
def g(**kwargs):
    return f(1, 2, 3, **kwargs)
print(f(*[1, 2]), g(scale=10, extra=0))
"""
    assert printed(source) == ["3 16"]


def test_builtins_on_the_programs_objects() -> None:
    source = (
        NODE
        + """
a, b = Node(3.0), Node(1.0)
print(isinstance(a, Node), isinstance(2, (int, float)), isinstance('x', (list, dict)))
print(hasattr(a, 'grad'), hasattr(a, 'nope'), getattr(a, 'data'), getattr(a, 'x', 7))
print(id(a) == id(a), id(a) != id(b), str(a), repr('q'), any([0, 1]), all([]))
print(sorted([3, 1, 2], reverse=True), sorted(['bb', 'a'], key=len), min([a, b]), max(a, b))
print(min([4, -5], key=abs), abs(-2), list(reversed((1, 2, 3))), bool([]))
"""
    )
    assert printed(source) == [
        "True True False",
        "True False 3.0 7",
        "True True Node(3.0) 'q' True True",
        "[3, 2, 1] ['a', 'bb'] Node(1.0) Node(3.0)",
        "4 2 [3, 2, 1] False",
    ]


def test_getattr_never_reads_a_dunder() -> None:
    assert refused(NODE + "getattr(Node(1), '__class__')").kind == "unsupported"


# 3. Sets, dicts, lists -------------------------------------------------------------------------


def test_sets_keep_insertion_order_and_hash_objects_by_identity() -> None:
    source = (
        NODE
        + """
a, b = Node(1), Node(1)
s = set([b, a, b])
s.add(a); s.update([Node(2)]); s.discard(b)
t = {x * 2 for x in [3, 1, 3]}
print(len(s), a in s, b in s, [n.data for n in s], t, set(), {(1, 2), (1, 2)})
"""
    )
    assert printed(source) == ["2 True False [1, 2] {6, 2} set() {(1, 2)}"]


def test_dicts_and_list_methods() -> None:
    source = """
d = {'a': 1, 'b': 2}
d['c'] = 3
d['a'] += 10
e = dict(x=1)
e.setdefault('y', []).append(5)
sq = {k: v * v for k, v in d.items()}
print(d, d.get('z', 0), 'b' in d, len(d), list(d.keys()), sq, e.pop('x'), e)
xs = [3, 1, 2]
xs.insert(0, 9); xs.sort(); first = xs.pop(0); xs.reverse()
print(xs, first, xs.index(2), xs.count(3))
xs.clear()
print(xs)
"""
    assert printed(source) == [
        "{'a': 11, 'b': 2, 'c': 3} 0 True 3 ['a', 'b', 'c'] {'a': 121, 'b': 4, 'c': 9} 1 "
        "{'y': [5]}",
        "[9, 3, 2] 1 2 1",
        "[]",
    ]


def test_a_list_is_not_a_key() -> None:
    err = refused("s = {[1]}")
    assert err.kind == "type" and "use a tuple" in err.message


# 4. while, assert, formatting, strings --------------------------------------------------------


def test_while_loops_with_break_and_else() -> None:
    source = """
queue, seen = [1], []
while queue:
    n = queue.pop(0)
    seen.append(n)
    if n < 4:
        queue.extend([n * 2, n * 2 + 1])
i = 0
while True:
    i += 1
    if i == 3:
        break
while False:
    pass
else:
    print('else')
print(seen, i)
"""
    assert printed(source) == ["else", "[1, 2, 3, 4, 5, 6, 7] 3"]


def test_a_failed_assert_is_the_users_error_at_its_line() -> None:
    err = refused("x = 2\nassert isinstance(x, float), 'only ' + 'floats'")
    assert err.kind == "assert" and "only floats" in err.message and err.span.line == 2  # type: ignore[union-attr]
    assert refused("assert 1 > 2").message == "assertion failed"


def test_a_raise_stops_the_program_where_it_runs_and_a_guard_never_reached_costs_nothing() -> None:
    guard = (
        "def check(d):\n    if d < 0:\n        raise ValueError(f'negative: {d}')\n    return d\n"
    )
    assert parse(guard + "x = Value(check(2.0))\ny = x * x").output.data == 4.0  # type: ignore[union-attr]
    err = refused(guard + "x = Value(check(-1.0))\ny = x * x")
    assert (err.kind, err.message) == ("assert", "the program raised ValueError: negative: -1.0")
    assert err.span is not None and err.span.line == 3


def test_fstrings_percent_and_format() -> None:
    source = """
x, n, name = 3.14159, 42, 'w'
print(f"{x:.4f}|{n:>6}|{x:14.8f}|{x:12.2e}|{name!r}|{'a' if n else 'b'}|\
{[f'{v:.1f}' for v in (1, 2)]}")
print("%.2f and %s and %d%%" % (x, name, n), "%5.1f" % x, "{} {:.1f} {k}".format(1, x, k='K'))
print("-" * 5, ', '.join(str(i) for i in range(3)), 'a' + 'b', 'A b'.lower().split())
print(f"{n:6d}{x:>{n // 7}.1f}")
print(1, 2, sep='-', end='!')
print(' done')
"""
    assert printed(source) == [
        "3.1416|    42|    3.14159000|    3.14e+00|'w'|a|['1.0', '2.0']",
        "3.14 and w and 42%   3.1 1 3.1 K",
        "----- 0, 1, 2 ab ['a', 'b']",
        "    42   3.1",
        "1-2! done",
    ]


def test_printing_values_floats_and_lists_as_cpython_does() -> None:
    source = (
        "from micrograd.engine import Value\nprint(Value(2.0), 0.1 + 0.2, [1e-12, 2.5], (1,), None)"
    )
    assert printed(source) == [
        "Value(data=2.0, grad=0.0) 0.30000000000000004 [1e-12, 2.5] (1,) None"
    ]


def test_format_specs_are_bounded() -> None:
    assert refused("x = 1.0\ny = f'{x:>100000}'").kind == "limit"
    assert refused("x = 1.0\ny = f'{x:.1000f}'").kind == "limit"


# 5. Deep recursion -----------------------------------------------------------------------------


CHAIN = (
    NODE
    + """
x = Node(1.0)
y = x
for i in range(990):
    y = y + 1
y.backward()
print(y.data, x.grad)
"""
)


def test_recursion_990_deep_runs_as_in_cpython() -> None:
    assert printed(CHAIN) == ["991.0 1"]  # build() recursed 991 deep


def test_a_recursion_bomb_is_a_located_limit_error_fast() -> None:
    start = time.perf_counter()
    err = refused("def f(n):\n    return f(n + 1)\nf(0)")
    assert time.perf_counter() - start < 1.0
    assert err.kind == "limit" and err.span is not None and err.span.line == 2
    assert f"calls nest {MAX_CALL_DEPTH + 1} deep" in err.message
    assert "does a function call itself without end?" in err.message


# 6. numpy -------------------------------------------------------------------------------------


def test_numpy_on_numbers_and_arrays_as_numpy_draws_them() -> None:
    source = """
import numpy as np
np.random.seed(0)
u = np.random.uniform(-1, 1)
g = np.random.randn()
r = np.random.rand(2)
print(u, g, r.shape, np.log(np.exp(2.0)), np.tanh(0.0), np.sqrt(4.0), np.abs(-3))
print(np.arange(3), np.zeros(2), np.mean([1, 2, 3]), np.sum(np.array([1.0, 2.0])))
"""
    assert printed(source) == [
        "0.0976270078546495 0.7415917408091613 (2,) 2.0 0.0 2.0 3",
        "array([0, 1, 2]) array([0.0, 0.0]) 2.0 3.0",
    ]


# 7. Which top-level numbers are inputs ----------------------------------------------------------


def test_in_a_program_that_makes_values_numbers_become_inputs_only_when_used_with_one() -> None:
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
    program = graph_program(parse(source))
    assert list(program.inputs) == ["w1", "x1"]  # x1 when it meets w1
    assert program.output.data == -12.0
    x1 = program.inputs["x1"]
    assert program.labels[x1] == "x1" and x1.data == 2.0
    assert len([v for v in program.spans if v is x1]) == 1  # one leaf, used twice
    again = graph_program(parse(source, {"x1": 5.0}))
    assert again.output.data == -30.0


def test_a_program_that_makes_no_values_keeps_every_number_an_input() -> None:
    program = graph_program(parse("a = -4.0\nb = 2.0\nc = a + b"))
    assert list(program.inputs) == ["a", "b"] and program.output.data == -2.0
    assert isinstance(program.inputs["a"], Value)


# 9., 10., 11. The program's own engine: OwnProgram and the watch --------------------------------


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


def test_own_program_fields() -> None:
    program = own(SMALL)
    assert isinstance(program, OwnProgram) and not isinstance(program, Program)
    assert program.names[program.output] == "c₁"
    assert list(program.inputs) == ["a", "b"]
    assert program.names[program.inputs["a"]] == "a" and program.console == ()
    with pytest.raises(GradstepError) as err:
        graph_program(program)
    assert err.value.kind == "unsupported" and "its own class Node" in err.value.message


def test_the_watch_records_instances_writes_and_kept_calls() -> None:
    program = own(SMALL)
    watch = program.watch
    made = [m.instance for m in watch.made]
    a, b = program.inputs["a"], program.inputs["b"]
    assert made[:2] == [a, b] and len(made) == 4  # a, b, a*b, +a
    assert watch.made[0].record is None and watch.made[2].record is not None  # in __mul__
    grads = [(w.instance, w.before, w.after, w.augmented) for w in watch.writes if w.attr == "grad"]
    assert (a, 0, 2.0, False) not in grads
    assert (b, 0, 2.0, True) in grads  # b.grad += a.data * out.grad, in a _backward
    kept = [c for c in watch.calls if c.attr == "_backward"]
    assert len(kept) == 4 and all(c.end >= c.first for c in kept)
    inside = [w for w in watch.writes if w.call is not None]
    assert inside and all(watch.calls[w.call].first <= watch.writes.index(w) for w in inside)
    init = [w for w in watch.writes if w.instance is a and w.attr == "data"]
    assert init[0].before is None and init[0].after == 2.0 and not init[0].augmented


def test_given_values_and_the_nudge_set_an_objects_data() -> None:
    program = own(SMALL, values={"a": 5.0})
    assert program.output.attrs["data"] == 5.0 * 3.0 + 5.0 and program.given == {"a": 5.0}
    nudged = own(SMALL, nudge=(1, 0.5))
    assert nudged.output.attrs["data"] == 2.0 * 3.5 + 2.0


def test_micrograd_engine_import_names_the_programs_own_value() -> None:
    source = (
        NODE.replace("Node", "Value")
        + "from micrograd.engine import Value\nx = Value(2.0) * 3\nx.backward()"
    )
    program = own(source)
    assert program.output.cls.name == "Value" and program.output.attrs["data"] == 6.0


def test_draw_dot_marks_an_object_as_the_output() -> None:
    source = NODE + "a = Node(1.0)\nb = a + 2\nd = b * 3\ndraw_dot(b)\nprint('x')"
    program = own(source)
    assert program.names[program.output] == "b"
