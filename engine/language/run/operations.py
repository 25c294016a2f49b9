"""The evaluator's operators, one base class of ``Evaluator``: every binary operator goes
through ``arith`` (unary ones: ``expressions.on_unaryop``). With one of gradstep's values among
the operands it is a node of the graph (``graph``, ``unary``; a top-level number tagged by the
recorder becomes the input it stands for), with an object of the program its operator method
(``dunders``), with a string ``text``'s, and else plain Python (``operators``). ``truth`` and
``less`` are what builtins such as sorted() and any() ask of the program's objects."""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, cast

from engine.errors import GradstepError
from engine.language.budget import Budget
from engine.language.objects import dunders
from engine.language.objects.kinds import Instance, Scope, Site, describe
from engine.language.objects.operators import (
    BINARY,
    SYMBOLS,
    arithmetic,
    as_float,
    is_number,
    truth,
)
from engine.language.objects.text import string_op
from engine.language.record.recorder import Recorder, Tagged
from engine.ops import OPS
from engine.value import Value, overflow

if TYPE_CHECKING:
    from engine.language.library.machine import Machine


class Operations:
    budget: Budget
    recorder: Recorder

    @property
    def machine(self) -> Machine:
        """This evaluator as builtins see it (it is one: mypy checks it where Modules is made)."""
        return cast("Machine", self)

    def truth(self, x: object, site: Site) -> bool:
        try:
            return truth(x)
        except GradstepError as e:
            raise e.at(site.span) from None

    def less(self, a: object, b: object, site: Site) -> bool:
        """``a < b`` as the program means it (an instance's ``__lt__``)."""
        if type(a) is Instance or type(b) is Instance:
            return self.truth(dunders.compare(self.machine, ast.Lt, a, b, site), site)
        if isinstance(a, int | float) and isinstance(b, int | float):
            return a < b
        if (isinstance(a, str) and isinstance(b, str)) or (
            isinstance(a, tuple) and isinstance(b, tuple)
        ):
            return a < b  # type: ignore[operator]
        raise GradstepError(f"< cannot order {describe(a)} and {describe(b)}", "type", site.span)

    def arith(
        self,
        op: type[ast.operator],
        a: object,
        b: object,
        scope: Scope,
        node: ast.AST,
        operands: tuple[ast.AST, ast.AST] | None = None,
    ) -> object:
        """``a op b``: with a Value among them a node of the graph, else plain Python on numbers,
        lists and arrays; ``operands`` locate the constants a plain number becomes (else
        ``node``)."""
        if type(a) is Value or type(b) is Value:
            if type(a) is Instance or type(b) is Instance:
                raise dunders.mixes(a, b, SYMBOLS.get(op, "?")).at(scope.frame.where(node))
            name = BINARY.get(op)
            if name is None:
                raise GradstepError(
                    f"{SYMBOLS.get(op, '?')} with a value is not supported: it has no gradient "
                    "(use .data for the plain number)",
                    kind="unsupported",
                    span=scope.frame.where(node),
                )
            return self.graph(name, (a, b), scope, node, operands or (node, node))
        if type(a) is Instance or type(b) is Instance:
            return dunders.binary(self.machine, op, a, b, Site(node, scope))
        try:
            if type(a) is str or type(b) is str:
                return string_op(self.machine, op, a, b, Site(node, scope))
            return arithmetic(op, a, b, self.budget)
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    def graph(
        self,
        name: str,
        operands: tuple[object, ...],
        scope: Scope,
        node: ast.AST,
        nodes: tuple[ast.AST, ...],
    ) -> Value:
        """The op ``name`` as a node of the graph; a plain number among the ``operands``
        becomes a constant, located at its own node in ``nodes``."""
        frame = scope.frame
        values = []
        for x, where in zip(operands, nodes, strict=True):
            if type(x) is not Value:
                if isinstance(x, Tagged):  # a top-level number meets a value: an input
                    values.append(self.recorder.tagged(x))
                    continue
                if not is_number(x):
                    raise GradstepError(
                        f"{OPS[name].symbol} cannot combine a value with {describe(x)}",
                        kind="type",
                        span=frame.where(node),
                    )
                x = self.recorder.constant(as_float(x, name), frame.where(where), frame.record)
            values.append(x)
        return self.recorder.op(name, tuple(values), frame.where(node), frame.record)

    def unary(self, name: str, x: object, node: ast.AST, scope: Scope) -> object:
        """An op of the table on one operand: a node for a value, a number for a number."""
        if isinstance(x, Value):
            return self.recorder.op(name, (x,), scope.frame.where(node), scope.frame.record)
        if not is_number(x):
            raise GradstepError(f"{name}() takes a number or a value, not {describe(x)}", "type")
        a = as_float(x, name)
        try:
            out: float = OPS[name].eval(a)[0]
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None
        except OverflowError:
            out = math.inf
        if not math.isfinite(out):
            raise overflow(OPS[name], (a,)).at(scope.frame.where(node))
        return out
