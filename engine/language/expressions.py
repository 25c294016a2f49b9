"""Evaluating expressions. Anything that involves a Value becomes a node of the graph through
the recorder; the rest is plain Python arithmetic on numbers, lists and tuples (``operators``).
Chains of binary and unary operators are walked with a loop, not recursion: a statement may
hold up to MAX_OPERATORS of them."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable

from engine.errors import GradstepError
from engine.language.attributes import attribute
from engine.language.budget import Budget
from engine.language.builtins import BUILTINS
from engine.language.messages import REFUSED, lookalike, no_value, refusal, unknown_function
from engine.language.objects import MISSING, Frame, Ignored, Scope, Site, describe
from engine.language.operators import (
    BINARY,
    SYMBOLS,
    arithmetic,
    as_float,
    compare,
    is_number,
    negate,
    truth,
)
from engine.language.recorder import Recorder
from engine.ops import OPS
from engine.value import Value, overflow

Evaluate = Callable[["Expressions", ast.expr, Scope], object]


class Expressions:
    budget: Budget
    recorder: Recorder
    given: dict[str, float]
    top: Frame  # the user's top level, where a name with a given value is bound

    def call(
        self, func: object, args: list[object], kwargs: dict[str, object], site: Site
    ) -> object:
        raise NotImplementedError

    def evaluate(self, node: ast.expr, scope: Scope) -> object:
        return EVALUATE.get(type(node), Expressions._refuse)(self, node, scope)

    def _refuse(self, node: ast.AST, scope: Scope) -> object:
        """What the shape check refuses never runs; this is the same refusal, in case."""
        raise refusal(scope.frame.where(node), *REFUSED.get(type(node), ("this", "remove it")))

    # Values in the graph ----------------------------------------------------------------

    def arith(
        self,
        op: type[ast.operator],
        a: object,
        b: object,
        scope: Scope,
        node: ast.AST,
        operands: tuple[ast.AST, ast.AST] | None = None,
    ) -> object:
        """``a op b``; ``operands`` locate the constants a plain number becomes (else ``node``)."""
        if type(a) is Value or type(b) is Value:
            name = BINARY.get(op)
            if name is None:
                raise GradstepError(
                    f"{SYMBOLS.get(op, '?')} with a value is not supported: it has no gradient "
                    "(use .data for the plain number)",
                    kind="unsupported",
                    span=scope.frame.where(node),
                )
            return self.graph(name, (a, b), scope, node, operands or (node, node))
        try:
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

    # Expressions ------------------------------------------------------------------------

    def _constant(self, node: ast.Constant, scope: Scope) -> object:
        x = node.value
        if isinstance(x, float) and not math.isfinite(x):  # 1e999
            raise GradstepError(
                "this number is too large for a float", "overflow", scope.frame.where(node)
            )
        if x is None or isinstance(x, int | float | str):
            return x
        found = "a complex number" if isinstance(x, complex) else repr(x)
        kind = "type" if isinstance(x, complex) else "unsupported"
        raise GradstepError(f"{found} is not supported here", kind, scope.frame.where(node))

    def _name(self, node: ast.Name, scope: Scope, called: bool = False) -> object:
        found = scope.lookup(node.id)
        if found is MISSING:
            found = BUILTINS.get(node.id, MISSING)
            if found is MISSING:
                return self.missing(node, scope, called)
        return found

    def missing(self, node: ast.Name, scope: Scope, called: bool) -> object:
        """A name with no value: given one (``values``), it is bound as an input; ``called``:
        it is the function of a call, and the error lists the functions."""
        name = node.id
        if name in self.given and name not in scope.globals:
            v = self.recorder.leaf(self.given[name], scope.frame.where(node), None)
            self.recorder.name(v, name, self.top)
            scope.globals[name] = v
            return v
        text = no_value([name], scope.globals)
        if called:
            text = unknown_function(name, BUILTINS) + lookalike(name, scope.globals)
        raise GradstepError(text, kind="name", span=scope.frame.where(node))

    def _binop(self, node: ast.BinOp, scope: Scope) -> object:
        spine = []
        left: ast.expr = node
        while type(left) is ast.BinOp:  # a + b + c nests to the left: walk down, then up
            spine.append(left)
            left = left.left
        result = self.evaluate(left, scope)
        for n in reversed(spine):
            right = self.evaluate(n.right, scope)
            result = self.arith(type(n.op), result, right, scope, n, (n.left, n.right))
        return result

    def _unaryop(self, node: ast.UnaryOp, scope: Scope) -> object:
        chain = []
        operand: ast.expr = node
        while type(operand) is ast.UnaryOp:
            chain.append(operand)
            operand = operand.operand
        x = self.evaluate(operand, scope)
        for n in reversed(chain):
            if isinstance(n.op, ast.Not):
                x = not self.truth(x, n, scope)
            elif isinstance(n.op, ast.USub):
                x = (
                    self.unary("neg", x, n, scope)
                    if isinstance(x, Value)
                    else self._plain(negate, x, n, scope)
                )
            elif not (isinstance(x, Value) or is_number(x)):
                raise GradstepError(
                    f"+ takes a number or a value, not {describe(x)}", "type", scope.frame.where(n)
                )
        return x

    def _plain(
        self, f: Callable[[object], object], x: object, node: ast.AST, scope: Scope
    ) -> object:
        try:
            return f(x)
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    def truth(self, x: object, node: ast.AST, scope: Scope) -> bool:
        return self._plain(truth, x, node, scope)  # type: ignore[return-value]

    def _boolop(self, node: ast.BoolOp, scope: Scope) -> object:
        want = isinstance(node.op, ast.Or)  # `or` stops at the first true operand
        x: object = None
        for operand in node.values:
            x = self.evaluate(operand, scope)
            if self.truth(x, node, scope) == want:
                return x
        return x

    def _compare(self, node: ast.Compare, scope: Scope) -> bool:
        left = self.evaluate(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.evaluate(comparator, scope)
            try:
                if not compare(op, left, right, self.budget):
                    return False
            except GradstepError as e:
                raise e.at(scope.frame.where(node)) from None
            left = right
        return True

    def _ifexp(self, node: ast.IfExp, scope: Scope) -> object:
        branch = (
            node.body if self.truth(self.evaluate(node.test, scope), node, scope) else node.orelse
        )
        return self.evaluate(branch, scope)

    def _call(self, node: ast.Call, scope: Scope) -> object:
        f = node.func
        if type(f) is ast.Attribute:
            func = attribute(self.evaluate(f.value, scope), f.attr, f, scope, node)
        elif type(f) is ast.Name:
            func = self._name(f, scope, called=True)
        else:
            func = self.evaluate(f, scope)
        return self.call_node(func, node, scope)

    def call_node(self, func: object, node: ast.Call, scope: Scope) -> object:
        """``func`` called with the arguments written in ``node``."""
        if type(func) is Ignored:
            return None  # print(...), plt.plot(...): the arguments are not even evaluated
        args = [self.evaluate(a, scope) for a in node.args]
        kwargs = (
            {kw.arg or "": self.evaluate(kw.value, scope) for kw in node.keywords}
            if node.keywords
            else {}
        )
        return self.call(func, args, kwargs, Site(node, scope))

    def _attribute(self, node: ast.Attribute, scope: Scope) -> object:
        return attribute(self.evaluate(node.value, scope), node.attr, node, scope)


# The expressions of this module; sequences.py adds lists, tuples, subscripts and comprehensions.
EVALUATE: dict[type[ast.AST], Evaluate] = {
    ast.Constant: Expressions._constant,  # type: ignore[dict-item]
    ast.Name: Expressions._name,  # type: ignore[dict-item]
    ast.BinOp: Expressions._binop,  # type: ignore[dict-item]
    ast.UnaryOp: Expressions._unaryop,  # type: ignore[dict-item]
    ast.BoolOp: Expressions._boolop,  # type: ignore[dict-item]
    ast.Compare: Expressions._compare,  # type: ignore[dict-item]
    ast.IfExp: Expressions._ifexp,  # type: ignore[dict-item]
    ast.Call: Expressions._call,  # type: ignore[dict-item]
    ast.Attribute: Expressions._attribute,  # type: ignore[dict-item]
}
