"""gradstep's conventions for pasted lecture code: the lecture's own helpers that are skipped
(gradstep has its own Value and draws the graph itself), and which numbers become inputs."""

from __future__ import annotations

import ast

from engine.ops import FUNCTIONS


def skipped(stmt: ast.stmt, top_level: bool) -> str | None:
    """Why a lecture's helper is skipped (a note for the user), or None to run it."""
    if top_level and isinstance(stmt, ast.ClassDef) and stmt.name == "Value":
        return "your class Value was skipped: gradstep uses its own Value"
    if top_level and isinstance(stmt, ast.FunctionDef) and stmt.name in ("draw_dot", "trace"):
        return (
            f"your def {stmt.name} was skipped: gradstep draws the graph itself "
            "(draw_dot(x) marks x as the output)"
        )
    if not top_level and isinstance(stmt, ast.FunctionDef) and stmt.name in ("__repr__", "__str__"):
        return f"{stmt.name} was skipped: gradstep does not print"
    return None


def is_literal(node: ast.expr) -> bool:
    """Numbers and arithmetic on them (2.0, 1/4, -3, math.pi, exp(1), (0.5).tanh(), tuples of
    them): a name assigned one at the top level is an input (a slider), as it always was."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or not isinstance(n.value, int | float):
                return False
        elif isinstance(n, ast.Call):
            f = n.func
            if n.keywords or not ((isinstance(f, ast.Name) and f.id in FUNCTIONS) or _known(f)):
                return False
        elif isinstance(n, ast.Attribute):
            if not _known(n):
                return False
        elif isinstance(n, ast.Name):
            if n.id not in FUNCTIONS and n.id != "math":  # exp in exp(1); never a variable
                return False
        elif not isinstance(
            n, ast.BinOp | ast.UnaryOp | ast.Tuple | ast.operator | ast.unaryop | ast.Load
        ):
            return False
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return False
    return True


def _known(node: ast.expr) -> bool:
    """math.pi, math.exp, or an op method of what the walk checks next: (0.5).tanh."""
    if not isinstance(node, ast.Attribute):
        return False
    return node.attr in FUNCTIONS or (isinstance(node.value, ast.Name) and node.value.id == "math")
