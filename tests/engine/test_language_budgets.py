"""Every budget of the interpreter, overrun on purpose: a ``limit`` error (``overflow`` for a
whole number past the float range) at the line that did it, naming the limit, and stopped
right at it: the count in the message is the limit plus one, so no work went on past it."""

from __future__ import annotations

import pytest

from engine import GradstepError, parse
from engine.limits import (
    MAX_BULK_ITEMS,
    MAX_CALL_DEPTH,
    MAX_INT_BITS,
    MAX_LIST_SIZE,
    MAX_LOOP_ITERATIONS,
    MAX_NODES,
    MAX_STATEMENTS,
    MAX_TOTAL_ITERATIONS,
    MAX_VALUES_MADE,
)

BIG_GRAPH = "x = Value(1.0)\ny = x\nfor i in range(999):\n    y = y * 1.0\n"
# (name, source, kind, line, the words the message must hold)
OVERRUNS = [
    (
        "statements",
        "def f():\n    a = 1\n    b = 2\n    return a\nfor i in range(10**9):\n    f()",
        "limit",
        None,
        f"ran {MAX_STATEMENTS + 1:,} statements; the limit is {MAX_STATEMENTS:,}",
    ),
    (
        "one loop",
        "s = sum(1 for i in range(10**12))",
        "limit",
        1,
        f"ran {MAX_LOOP_ITERATIONS + 1:,} times; the limit is {MAX_LOOP_ITERATIONS:,}",
    ),
    (
        "a builtin's loop",
        "s = sum(range(10**12))",
        "limit",
        1,
        f"sum() ran {MAX_LOOP_ITERATIONS + 1:,} times; the limit is {MAX_LOOP_ITERATIONS:,}",
    ),
    (
        "all loops",
        "xs = [[j for j in range(1000)] for i in range(1000)]",
        "limit",
        1,
        f"loops ran {MAX_TOTAL_ITERATIONS + 1:,} times in all; the limit is "
        f"{MAX_TOTAL_ITERATIONS:,}",
    ),
    (
        "recursion",
        "def f(n):\n    return f(n + 1)\ny = f(0)",
        "limit",
        2,
        f"calls nest {MAX_CALL_DEPTH + 1} deep here; the limit is {MAX_CALL_DEPTH}",
    ),
    (
        "values",
        "x = Value(1.0)\nfor i in range(10**6):\n    x = x * 1.01",
        "limit",
        3,
        f"made {MAX_VALUES_MADE + 1:,} values before a backward(); the limit is "
        f"{MAX_VALUES_MADE:,}, and a graph may have {MAX_NODES:,}",
    ),
    (
        "a graph too big to draw, made one value at a time",
        "x = Value(1.0)\nfor i in range(3000):\n    x = x * 1.01\ny = x + 1",
        "limit",
        4,
        f"the graph would have 6,003 values; the limit is {MAX_NODES:,}",
    ),
    (
        "a graph too big, walked by backward()",
        "x = Value(1.0)\nfor i in range(3000):\n    x = x * 1.01\nx.backward()\ny = x + 1",
        "limit",
        4,
        f"the graph would have 6,001 values; the limit is {MAX_NODES:,}",
    ),
    (
        "a list made at once",
        "xs = [0.0] * 10**9",
        "limit",
        1,
        f"would have 1,000,000,000 items; the limit is {MAX_LIST_SIZE:,}",
    ),
    (
        "a list grown",
        f"xs = [0] * {MAX_LIST_SIZE - 1}\nxs.append(1)\nxs.append(2)",
        "limit",
        3,
        f"would have {MAX_LIST_SIZE + 1:,} items; the limit is {MAX_LIST_SIZE:,}",
    ),
    (
        "list copies",
        "xs = [0] * 50000\nfor i in range(100):\n    ys = xs + xs",
        "limit",
        3,
        f"; the limit is {MAX_BULK_ITEMS:,}",
    ),
    (
        "backward passes",
        BIG_GRAPH + "for i in range(10**6):\n    y.backward()",
        "limit",
        6,
        "walked graph nodes 1,00",  # 1,000,000 and up to one graph past it, checked after each pass
    ),
    (
        "backward passes, the limit",
        BIG_GRAPH + "for i in range(10**6):\n    y.backward()",
        "limit",
        6,
        f"; the limit is {MAX_BULK_ITEMS:,}",
    ),
    (
        "a power tower",
        "x = 10**10**10",
        "overflow",
        1,
        f"about 33,219,280,949 bits; the limit is {MAX_INT_BITS:,} bits",
    ),
    (
        "a big power",
        "x = 2**100000",
        "overflow",
        1,
        f"about 100,000 bits; the limit is {MAX_INT_BITS:,} bits",
    ),
    (
        "repeated squaring",
        "x = [2]\nfor i in range(20):\n    x = [x[0] * x[0]]",
        "overflow",
        3,
        f"the limit is {MAX_INT_BITS:,} bits",
    ),
]


@pytest.mark.parametrize(
    ("source", "kind", "line", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in OVERRUNS],
)
def test_each_budget_stops_the_program_where_it_is_overrun(
    source: str, kind: str, line: int | None, words: str
) -> None:
    with pytest.raises(GradstepError) as err:
        parse(source)
    assert err.value.kind == kind, err.value.message
    assert words in err.value.message, err.value.message
    assert err.value.span is not None
    if line is not None:
        assert err.value.span.line == line


def test_statement_budget_points_into_the_function_that_ran_last() -> None:
    with pytest.raises(GradstepError) as err:
        parse(OVERRUNS[0][1])
    assert err.value.span is not None and err.value.span.line in (2, 3, 4, 6)


def test_every_budget_is_exercised() -> None:
    import engine.limits as limits

    budgets = [name for name in dir(limits) if name.startswith("MAX_")]
    used = " ".join(words for *_, words in OVERRUNS)
    for name in ("MAX_STATEMENTS", "MAX_LOOP_ITERATIONS", "MAX_TOTAL_ITERATIONS"):
        assert f"{getattr(limits, name):,}" in used, name
    assert len(budgets) >= 11  # the text limits, the check budget and the running budgets


def test_within_every_budget_the_program_runs() -> None:
    source = "def f(n):\n    return Value(1.0) if n == 0 else f(n - 1) * 1.0\ny = f(30)"
    assert parse(source).output.data == 1.0
    assert parse("xs = [0] * 100000\ny = Value(len(xs))").output.data == 100_000
