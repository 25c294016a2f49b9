"""For the shape check (``shape``): the names a block binds, which are visible where (a
function's, a comprehension's, a class body's, the module's), and which dunder names are
Python's internals rather than the operator methods a program may define and name."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from engine.language.objects.dunders import OPERATOR_METHODS


@dataclass(frozen=True, slots=True)
class Visible:
    """Names bound in a function, comprehension or class body, and the scope around it."""

    names: frozenset[str]
    outer: Visible | None
    is_class: bool = False


@dataclass(frozen=True, slots=True)
class Where:
    visible: Visible | None  # None: the module's top level
    function: bool = False
    loop: bool = False
    top: int | None = None  # the index of a top-level statement run once, in order
    in_class: bool = False


def bound(body: Iterable[ast.stmt]) -> set[str]:
    """Names a block binds, not counting nested functions' and classes' bodies."""
    names: set[str] = set()
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            names.update(a.asname or a.name.split(".")[0] for a in stmt.names)
        else:
            single = getattr(stmt, "target", None)
            targets = list(stmt.targets) if isinstance(stmt, ast.Assign) else [single]
            while targets:  # names and tuples of them; not self.w = ..., nor xs[0] = ...
                target = targets.pop()
                if isinstance(target, ast.Name):
                    names.add(target.id)
                elif isinstance(target, ast.Tuple | ast.List):
                    targets.extend(target.elts)
            stack.extend(getattr(stmt, "body", ()))
            stack.extend(getattr(stmt, "orelse", ()))
    return names


def internal(name: str) -> bool:
    """A dunder name that is Python's internals (__class__, __import__), not one of the
    operator methods a program may define and name (__add__, __repr__)."""
    return name.startswith("__") and name not in OPERATOR_METHODS


def parameters(args: ast.arguments) -> list[str]:
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return names + [a.arg for a in (args.vararg, args.kwarg) if a is not None]
