"""Graphs built straight from engine Values, for testing rendering without the parser."""

from __future__ import annotations

from engine import Value, trace_value

trace_of = trace_value  # the trace of a graph built in Python, ids in creation order


def readme_graph() -> Value:
    """micrograd's README program."""
    a = Value(-4.0, label="a")
    b = Value(2.0, label="b")
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.label = "g"
    return g
