"""What the language says to the user about the program itself, before and while it runs: each
construct it does not run with what works instead (a try statement is refused with "gradstep
stops at the first error and shows where"), how names read in errors (look-alike letters
spelled out, a hint for a typo, what to say for a name with no value); and gradstep's
conventions for pasted lecture code (the lecture's graphviz helpers that are skipped, with a
note saying so, and which numbers become inputs). One place for these, so that the shape check
and the evaluator say the same."""

from __future__ import annotations

import ast
import builtins
import unicodedata
from collections.abc import Iterable

from engine.errors import GradstepError, Span
from engine.ops import FUNCTIONS

# Refusals -------------------------------------------------------------------------------------
# What the language does not run, each with what works instead.

OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)
REFUSED: dict[type[ast.AST], tuple[str, str]] = {
    ast.Try: ("a try statement", "gradstep stops at the first error and shows where; remove it"),
    ast.TryStar: ("a try statement", "remove it"),
    ast.With: ("a with statement", "gradstep opens no files; remove it"),
    ast.AsyncWith: ("async code", "write plain functions and loops"),
    ast.AsyncFor: ("async code", "write plain functions and loops"),
    ast.AsyncFunctionDef: ("async code", "write plain functions and loops"),
    ast.Await: ("await", "write plain functions and loops"),
    ast.Yield: ("yield", "build a list and return it"),
    ast.YieldFrom: ("yield", "build a list and return it"),
    ast.Delete: ("del", "assign the name again, or d.pop(key) for a dict's item"),
    ast.AnnAssign: ("an annotated assignment", "write x = 2.0 without the annotation"),
    ast.NamedExpr: ("the := operator", "assign on a line of its own"),
    ast.Match: ("match", "use if/elif/else"),
}
REFUSED_SYMBOLS: dict[type[ast.AST], str] = {
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Invert: "~",
}


def raised(node: ast.Raise) -> tuple[str, list[ast.expr]]:
    """What a raise statement raises: the exception's name (gradstep has no exception classes:
    the name is only told) and the arguments of its message. ``raise`` stops the program where
    it runs, so a guard a program never reaches costs nothing."""
    exc = node.exc
    if isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and not exc.keywords:
        return exc.func.id, list(exc.args)
    if isinstance(exc, ast.Name):
        return exc.id, []
    return "an exception", []


def refusal(span: Span, found: str, instead: str) -> GradstepError:
    return GradstepError(
        f"{found} is not supported (line {span.line}): {instead}", kind="unsupported", span=span
    )


PLAIN_STATEMENTS = (
    ast.Expr,
    ast.Assert,
    ast.Global,
    ast.Nonlocal,
    ast.Return,
    ast.Import,
    ast.ImportFrom,
    ast.Pass,
    ast.Break,
    ast.Continue,
)


def declared(fn: ast.FunctionDef) -> dict[str, str] | None:
    """The names ``fn``'s body declares ``global`` or ``nonlocal`` (not its nested defs')."""
    found: dict[str, str] = {}
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            how = "global" if isinstance(node, ast.Global) else "nonlocal"
            found.update(dict.fromkeys(node.names, how))
        elif not isinstance(node, ast.FunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))
    return found or None


# Names ----------------------------------------------------------------------------------------

# Cyrillic and Greek letters drawn like Latin ones: a small stand-in for Unicode's confusables.
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁАВЕКМНОРСТХІЈЅοαικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdABEKMHOPCTXIJSoaikvptuxABEZHIKMNOPTYX",
)
# Python's own builtins (their names only): a program calling one gets a precise refusal.
PYTHON_BUILTINS = frozenset(dir(builtins))
_RUNS_CODE = frozenset(
    "eval exec compile open input breakpoint globals locals vars setattr delattr "
    "__import__ exit quit help dir type object memoryview".split()
)


def spelled(name: str) -> str:
    """A name as the user should see it: non-ASCII look-alikes are spelled out."""
    odd = [ch for ch in name if not ch.isascii()]
    if not odd:
        return name
    listed = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])
    return f"{name} (with {listed})"


class LookAlikes:
    """The assigned names indexed by their skeleton (look-alike letters read as Latin), so the
    hint for a name is one lookup: a program with thousands of unknown and assigned names is
    refused in linear time, not after comparing every pair."""

    def __init__(self, assigned: Iterable[str]) -> None:
        self._by_skeleton: dict[str, list[str]] = {}
        for name in assigned:
            self._by_skeleton.setdefault(name.translate(_HOMOGLYPHS), []).append(name)

    def hint(self, name: str) -> str:
        """A hint when an assigned name looks the same as ``name`` (Cyrillic а for Latin a)."""
        for other in self._by_skeleton.get(name.translate(_HOMOGLYPHS), ()):
            if other != name:  # the first other name: at most one step past ``name`` itself
                return f" (did you mean {spelled(other)}, which looks the same?)"
        return ""


def lookalike(name: str, assigned: Iterable[str]) -> str:
    """The hint for one name (see ``LookAlikes``)."""
    return LookAlikes(assigned).hint(name)


MAX_LISTED = 10  # unknown names written out in one refusal; the rest are counted
# The names a pasted cell uses for a module its notebook imported in an earlier cell.
_IMPORTED_AS = {
    "random": "import random",
    "math": "import math",
    "np": "import numpy as np",
    "numpy": "import numpy",
    "plt": "import matplotlib.pyplot as plt",
}


def no_value(names: list[str], assigned: Iterable[str]) -> str:
    if len(names) == 1 and names[0] in _IMPORTED_AS:
        name = names[0]
        return f"{name} was never imported: add {_IMPORTED_AS[name]} at the top of the program"
    hints = LookAlikes(assigned)
    listed = ", ".join(spelled(n) + hints.hint(n) for n in names[:MAX_LISTED])
    if len(names) > MAX_LISTED:
        listed += f" and {len(names) - MAX_LISTED:,} more"
    plural = "s have" if len(names) > 1 else " has"
    return (
        f"no value for {listed}: the name{plural} never been assigned "
        "(assign a number, as in x = 2.0, or give a value)"
    )


def unknown_function(name: str, functions: Iterable[str]) -> str:
    listed = ", ".join(functions)
    if name in _RUNS_CODE:
        return (
            f"{name} is not available: gradstep interprets the program itself and runs no "
            f"Python code, files or modules of its own; the functions are {listed}"
        )
    if name == "super":
        return "super() is not supported: inherited methods are found without it (self.method())"
    if name in PYTHON_BUILTINS:
        return f"{name}() is not one of gradstep's functions; they are {listed}"
    return f"unknown function {spelled(name)}; the functions are {listed}"


# Conventions ----------------------------------------------------------------------------------
# gradstep's conventions for pasted lecture code: the lecture's graphviz helpers are skipped
# (gradstep draws the graph itself), with a note for the user; and which numbers become inputs.


def skipped(stmt: ast.stmt, top_level: bool) -> str | None:
    """Why a lecture's helper is skipped (a note for the user), or None to run it."""
    if top_level and isinstance(stmt, ast.FunctionDef) and stmt.name in ("draw_dot", "trace"):
        return (
            f"your def {stmt.name} was skipped: gradstep draws the graph itself "
            "(draw_dot(x) marks x as the output)"
        )
    return None


def ignored_call(text: str, module: str) -> str:
    """Why ``text(...)``, a call of matplotlib or graphviz, did nothing (a note for the user)."""
    why = "draws the graph itself" if module.startswith("graphviz") else "shows no plots"
    return f"{text}(...) was skipped: gradstep {why}"


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
