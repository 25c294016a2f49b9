"""f-strings: each ``{expression!conversion:spec}`` evaluated, converted and formatted as
Python does (``text.format_value``), the spec itself an f-string (``{x:{width}}``); the parts
joined, charged to the budget before the string is built."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.kinds import Scope, Site
from engine.language.objects.text import format_value, to_repr, to_str

if TYPE_CHECKING:
    from engine.language.run.evaluator import Evaluator


def on_joinedstr(ev: Evaluator, node: ast.JoinedStr, scope: Scope) -> str:
    parts: list[str] = []
    for part in node.values:
        if type(part) is ast.Constant:
            parts.append(str(part.value))
        else:
            parts.append(on_formattedvalue(ev, part, scope))  # type: ignore[arg-type]
    try:
        ev.budget.chars(sum(len(p) for p in parts))
    except GradstepError as e:
        raise e.at(scope.frame.where(node)) from None
    return "".join(parts)


def on_formattedvalue(ev: Evaluator, node: ast.FormattedValue, scope: Scope) -> str:
    x = ev.evaluate(node.value, scope)
    site = Site(node, scope)
    spec = "" if node.format_spec is None else ev.evaluate(node.format_spec, scope)
    assert isinstance(spec, str)
    try:
        if node.conversion == ord("r") or node.conversion == ord("a"):
            x = to_repr(ev, x, site)
        elif node.conversion == ord("s"):
            x = to_str(ev, x, site)
        return format_value(ev, x, spec, site)
    except GradstepError as e:
        raise e.at(scope.frame.where(node)) from None
