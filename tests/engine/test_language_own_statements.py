"""The language as a learner's own engine needs it, statements and modules: while, assert and
raise, formatting and print as CPython prints, deep recursion, and numpy."""

from __future__ import annotations

import time

from language_programs import NODE, printed, refused

from engine import parse
from engine.limits import MAX_CALL_DEPTH

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
