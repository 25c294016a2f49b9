"""Evaluating expressions. Anything that involves a Value becomes a node of the graph through
the recorder; the rest is plain Python arithmetic on numbers, lists and tuples (``operators``).
Chains of binary and unary operators are walked with a loop, not recursion: a statement may
hold up to MAX_OPERATORS of them."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterator

from engine.errors import GradstepError
from engine.language.array import Array
from engine.language.budget import Budget
from engine.language.builtins import BUILTINS, as_float
from engine.language.members import attribute
from engine.language.names import lookalike, no_value, unknown_function
from engine.language.objects import Ignored, Lazy, NotProvided, Site, describe
from engine.language.operators import BINARY, SYMBOLS, arithmetic, compare, is_number, negate, truth
from engine.language.recorder import Recorder
from engine.language.scopes import MISSING, Frame, Scope
from engine.limits import MAX_LIST_SIZE
from engine.ops import OPS
from engine.value import Value

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

    def eval(self, node: ast.expr, scope: Scope) -> object:
        return _EVALUATE[type(node)](self, node, scope)

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
        self, name: str, operands: tuple[object, ...], scope: Scope, node: ast.AST,
        nodes: tuple[ast.AST, ...],
    ) -> Value:  # fmt: skip
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
        try:
            return OPS[name].eval(as_float(x, name))[0]
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    # Iteration --------------------------------------------------------------------------

    def items(self, obj: object, what: str = "this loop") -> Iterator[object]:
        if isinstance(obj, list | tuple | range | Array):
            return self.budget.loop(obj, what)
        if isinstance(obj, Lazy):
            return self.budget.loop(obj.items, what)
        if isinstance(obj, NotProvided):
            raise obj.error()
        raise GradstepError(f"{what} needs a list, a tuple or a range, not {describe(obj)}", "type")

    def collect(self, obj: object, what: str) -> list[object]:
        out: list[object] = []
        for item in self.items(obj, what):
            out.append(item)
            if len(out) >= MAX_LIST_SIZE:
                self.budget.size(len(out) + 1)
        self.budget.bulk(len(out))
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
        result = self.eval(left, scope)
        for n in reversed(spine):
            right = self.eval(n.right, scope)
            result = self.arith(type(n.op), result, right, scope, n, (n.left, n.right))
        return result

    def _unaryop(self, node: ast.UnaryOp, scope: Scope) -> object:
        chain = []
        operand: ast.expr = node
        while type(operand) is ast.UnaryOp:
            chain.append(operand)
            operand = operand.operand
        x = self.eval(operand, scope)
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
            x = self.eval(operand, scope)
            if self.truth(x, node, scope) == want:
                return x
        return x

    def _compare(self, node: ast.Compare, scope: Scope) -> bool:
        left = self.eval(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.eval(comparator, scope)
            try:
                if not compare(op, left, right):
                    return False
            except GradstepError as e:
                raise e.at(scope.frame.where(node)) from None
            left = right
        return True

    def _ifexp(self, node: ast.IfExp, scope: Scope) -> object:
        branch = node.body if self.truth(self.eval(node.test, scope), node, scope) else node.orelse
        return self.eval(branch, scope)

    def _call(self, node: ast.Call, scope: Scope) -> object:
        f = node.func
        if type(f) is ast.Attribute:
            func = attribute(self.eval(f.value, scope), f.attr, f, scope, node)
        elif type(f) is ast.Name:
            func = self._name(f, scope, called=True)
        else:
            func = self.eval(f, scope)
        if type(func) is Ignored:
            return None  # print(...), plt.plot(...): the arguments are not even evaluated
        args = [self.eval(a, scope) for a in node.args]
        kwargs = (
            {kw.arg or "": self.eval(kw.value, scope) for kw in node.keywords}
            if node.keywords
            else {}
        )
        return self.call(func, args, kwargs, Site(node, scope))

    def _attribute(self, node: ast.Attribute, scope: Scope) -> object:
        return attribute(self.eval(node.value, scope), node.attr, node, scope)

    def _subscript(self, node: ast.Subscript, scope: Scope) -> object:
        obj, key = self.eval(node.value, scope), self.eval(node.slice, scope)
        try:
            return self.index(obj, key)
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    def index(self, obj: object, key: object) -> object:
        if isinstance(obj, Array):
            return obj.index(key)
        if isinstance(obj, Value):
            raise GradstepError(
                "a subscript of a value is not supported: a value holds one number (index a list)",
                kind="unsupported",
            )
        if not isinstance(obj, list | tuple | range):
            raise GradstepError(f"{describe(obj)} cannot be indexed", kind="type")
        if isinstance(key, slice):
            picked = obj[key]
            self.budget.bulk(len(picked))
            return picked
        if isinstance(key, bool) or not isinstance(key, int):
            raise GradstepError(f"an index is a whole number, not {describe(key)}", kind="type")
        if not -len(obj) <= key < len(obj):
            count = f"{len(obj)} item{'s' * (len(obj) != 1)}"
            raise GradstepError(f"index {key} is out of range: {describe(obj)} of {count}")
        return obj[key]

    def _slice(self, node: ast.Slice, scope: Scope) -> slice:
        parts = [
            None if p is None else self.eval(p, scope) for p in (node.lower, node.upper, node.step)
        ]
        if not all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in parts):
            raise GradstepError("a slice takes whole numbers", "type", scope.frame.where(node))
        if parts[2] == 0:
            raise GradstepError("a slice step cannot be zero", "domain", scope.frame.where(node))
        return slice(*parts)

    def _list(self, node: ast.List, scope: Scope) -> list[object]:
        return [self.eval(e, scope) for e in node.elts]

    def _tuple(self, node: ast.Tuple, scope: Scope) -> tuple[object, ...]:
        return tuple(self.eval(e, scope) for e in node.elts)

    def _listcomp(self, node: ast.ListComp, scope: Scope) -> list[object]:
        return self.collect(Lazy("list", self._generate(node, scope)), "this comprehension")

    def _genexp(self, node: ast.GeneratorExp, scope: Scope) -> Lazy:
        return Lazy("generator", self._generate(node, scope))

    def _generate(self, node: ast.ListComp | ast.GeneratorExp, scope: Scope) -> Iterator[object]:
        inner = Scope(scope.frame, {}, scope, scope.globals)
        try:
            yield from self._comprehend(node, 0, scope, inner)
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    def _comprehend(
        self, node: ast.ListComp | ast.GeneratorExp, level: int, outer: Scope, inner: Scope
    ) -> Iterator[object]:
        generator = node.generators[level]
        source = self.eval(generator.iter, outer if level == 0 else inner)
        for item in self.items(source, "this comprehension"):
            self.bind(generator.target, item, inner)
            if all(self.truth(self.eval(c, inner), c, inner) for c in generator.ifs):
                if level + 1 < len(node.generators):
                    yield from self._comprehend(node, level + 1, outer, inner)
                else:
                    yield self.eval(node.elt, inner)

    def bind(self, target: ast.expr, value: object, scope: Scope) -> None:
        """A for or comprehension target: names only get values, they do not label them."""
        if type(target) is ast.Name:
            scope.vars[target.id] = value
            return
        for t, v in zip(target.elts, self.unpack(value, len(target.elts)), strict=True):  # type: ignore[attr-defined]
            self.bind(t, v, scope)

    def unpack(self, value: object, n: int) -> list[object]:
        items = (
            list(self.items(value, "unpacking"))
            if not isinstance(value, tuple | list)
            else list(value)
        )
        if len(items) != n:
            raise GradstepError(f"{n} names to unpack {len(items)} items into", kind="arity")
        return items


_EVALUATE: dict[type[ast.AST], Evaluate] = {
    ast.Constant: Expressions._constant,  # type: ignore[dict-item]
    ast.Name: Expressions._name,  # type: ignore[dict-item]
    ast.BinOp: Expressions._binop,  # type: ignore[dict-item]
    ast.UnaryOp: Expressions._unaryop,  # type: ignore[dict-item]
    ast.BoolOp: Expressions._boolop,  # type: ignore[dict-item]
    ast.Compare: Expressions._compare,  # type: ignore[dict-item]
    ast.IfExp: Expressions._ifexp,  # type: ignore[dict-item]
    ast.Call: Expressions._call,  # type: ignore[dict-item]
    ast.Attribute: Expressions._attribute,  # type: ignore[dict-item]
    ast.Subscript: Expressions._subscript,  # type: ignore[dict-item]
    ast.Slice: Expressions._slice,  # type: ignore[dict-item]
    ast.List: Expressions._list,  # type: ignore[dict-item]
    ast.Tuple: Expressions._tuple,  # type: ignore[dict-item]
    ast.ListComp: Expressions._listcomp,  # type: ignore[dict-item]
    ast.GeneratorExp: Expressions._genexp,  # type: ignore[dict-item]
}
