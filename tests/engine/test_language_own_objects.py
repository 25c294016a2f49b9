"""The language as a learner's own engine needs it, the program's objects: operator methods on
the program's classes and their reflections, functions, closures, lambdas and builtins on the
program's objects, and sets, dicts and lists."""

from __future__ import annotations

from language_programs import NODE, printed, refused

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
