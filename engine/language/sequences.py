"""Lists, tuples and what walks them: displays, indexing and slices, comprehensions and
generator expressions (lazy, as Python's: sum() of one adds each term as it is made), loop
targets and unpacking. Every walk is counted by the budget, every copy charged to it."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from engine.errors import GradstepError
from engine.language.array import Array
from engine.language.expressions import EVALUATE, Expressions
from engine.language.objects import Lazy, NotProvided, Scope, describe
from engine.limits import MAX_LIST_SIZE
from engine.value import Value


class Sequences(Expressions):
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

    def _subscript(self, node: ast.Subscript, scope: Scope) -> object:
        obj, key = self.evaluate(node.value, scope), self.evaluate(node.slice, scope)
        try:
            return self.index(obj, key)
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None

    def index(self, obj: object, key: object) -> object:
        if isinstance(obj, Array):
            if isinstance(key, list | Array):
                self.budget.bulk(len(key))
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
            None if p is None else self.evaluate(p, scope)
            for p in (node.lower, node.upper, node.step)
        ]
        if not all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in parts):
            raise GradstepError("a slice takes whole numbers", "type", scope.frame.where(node))
        if parts[2] == 0:
            raise GradstepError("a slice step cannot be zero", "domain", scope.frame.where(node))
        return slice(*parts)

    def _list(self, node: ast.List, scope: Scope) -> list[object]:
        return [self.evaluate(e, scope) for e in node.elts]

    def _tuple(self, node: ast.Tuple, scope: Scope) -> tuple[object, ...]:
        return tuple(self.evaluate(e, scope) for e in node.elts)

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
        source = self.evaluate(generator.iter, outer if level == 0 else inner)
        for item in self.items(source, "this comprehension"):
            self.bind(generator.target, item, inner)
            if all(self.truth(self.evaluate(c, inner), c, inner) for c in generator.ifs):
                if level + 1 < len(node.generators):
                    yield from self._comprehend(node, level + 1, outer, inner)
                else:
                    yield self.evaluate(node.elt, inner)

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


EVALUATE.update(
    {
        ast.Subscript: Sequences._subscript,  # type: ignore[dict-item]
        ast.Slice: Sequences._slice,  # type: ignore[dict-item]
        ast.List: Sequences._list,  # type: ignore[dict-item]
        ast.Tuple: Sequences._tuple,  # type: ignore[dict-item]
        ast.ListComp: Sequences._listcomp,  # type: ignore[dict-item]
        ast.GeneratorExp: Sequences._genexp,  # type: ignore[dict-item]
    }
)
