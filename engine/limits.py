"""The limits on a program, as named constants the app can show. Each is checked before the
work it protects, so hostile input fails fast with a clear error instead of a crash or a hang."""

from __future__ import annotations

MAX_SOURCE_CHARS = 20_000  # characters of source text, checked before anything else
MAX_DEPTH = 100  # brackets nested inside one another: ((…)), f(g(h(…)))
MAX_OPERATORS = 500  # operators in one statement (a chain of 500 `+` nests 500 deep in the AST)
MAX_NODES = 5_000  # values in the graph: inputs, constants and op results
MAX_CHECK_EVALUATIONS = 100_000  # op re-evaluations the numerical gradient check may spend
