"""What the language does not run, each with what works instead: the messages of the shape
check (a while loop is refused with "use for i in range(n), which always ends")."""

from __future__ import annotations

import ast

from engine.errors import GradstepError, Span

OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)
REFUSED: dict[type[ast.AST], tuple[str, str]] = {
    ast.While: ("a while loop", "use for i in range(n), which always ends"),
    ast.Lambda: ("a lambda", "define the function with def"),
    ast.Try: ("a try statement", "gradstep stops at the first error and shows where; remove it"),
    ast.TryStar: ("a try statement", "remove it"),
    ast.With: ("a with statement", "gradstep opens no files; remove it"),
    ast.AsyncWith: ("async code", "write plain functions and loops"),
    ast.AsyncFor: ("async code", "write plain functions and loops"),
    ast.AsyncFunctionDef: ("async code", "write plain functions and loops"),
    ast.Await: ("await", "write plain functions and loops"),
    ast.Global: ("global", "pass values in as arguments and return the results"),
    ast.Nonlocal: ("nonlocal", "pass values in as arguments and return the results"),
    ast.Yield: ("yield", "build a list and return it"),
    ast.YieldFrom: ("yield", "build a list and return it"),
    ast.Delete: ("del", "assign the name again instead"),
    ast.Raise: ("raise", "gradstep reports errors itself"),
    ast.Assert: ("assert", "remove it"),
    ast.AnnAssign: ("an annotated assignment", "write x = 2.0 without the annotation"),
    ast.NamedExpr: ("the := operator", "assign on a line of its own"),
    ast.Dict: ("a dict", "use a list or a tuple"),
    ast.DictComp: ("a dict comprehension", "use a list comprehension"),
    ast.Set: ("a set", "use a list"),
    ast.SetComp: ("a set comprehension", "use a list comprehension"),
    ast.Starred: ("a starred argument", "pass the items one by one"),
    ast.JoinedStr: ("an f-string", "strings are for labels, and print(...) is ignored"),
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


def refusal(span: Span, found: str, instead: str) -> GradstepError:
    return GradstepError(
        f"{found} is not supported (line {span.line}): {instead}", kind="unsupported", span=span
    )


PLAIN_STATEMENTS = (
    ast.Expr,
    ast.Return,
    ast.Import,
    ast.ImportFrom,
    ast.Pass,
    ast.Break,
    ast.Continue,
)


def refused_parameters(args: ast.arguments) -> tuple[str, str] | None:
    """What a def's parameters use that the language does not run, and what works instead."""
    if args.posonlyargs:
        return "positional-only parameters (/) in a definition", "remove the /"
    if args.kwonlyargs:
        return "keyword-only parameters (after *) in a definition", "give them defaults, no *"
    if args.vararg:
        return "*args in a definition", "take a list"
    if args.kwarg:
        return "**kwargs in a definition", "list the keyword parameters with defaults"
    return None
