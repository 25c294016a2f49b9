"""Each value's one name (docs/notation.md), for a graph of either engine: the user's (a label,
else the name the program bound it to), a constant's number, a partial sum's ``Σ`` and count,
else one made from its op and its operands' names, else ``t`` and its id."""

from __future__ import annotations

import ast
from collections import Counter

from engine import notation
from engine.notation import Operand, Result
from engine.program import Graph


class Names:
    """Names by graph index; ``ids`` gives each graph index its node id (the trace's order)."""

    def __init__(self, graph: Graph, ids: list[int], order: list[int], source: str = "") -> None:
        self.graph = graph
        self.ids = ids
        self.names: list[str] = [""] * len(order)
        lines = source.splitlines()
        terms = _running_sums(graph)
        for i in sorted(order):  # operands first (creation order): made names use theirs
            user = graph.labels[i] or graph.names[i]
            if user:
                name = user  # as engine.program read it: characters not printable written out
            elif graph.constant[i]:
                name = notation.constant_name(graph.data[i])
            elif i in terms:
                name = notation.partial_sum_name(terms[i])
            elif graph.ops[i] is not None and graph.ops[i].op is not None:  # type: ignore[union-attr]
                name = notation.made_name(notation.expression(self.result(i, "")), ids[i])
                if name == notation.numbered_name(ids[i]):  # too long: the code's text, if short
                    name = self._in_code(i, lines) or name
            else:
                name = notation.numbered_name(ids[i])
            self.names[i] = name

    def __call__(self, i: int) -> str:
        return self.names[i]

    def _in_code(self, i: int, lines: list[str]) -> str | None:
        """The code's text of the expression that made node ``i``, as its name when it is
        short and reads only the values ``i`` is made from (docs/notation.md, "Names")."""
        g, span = self.graph, self.graph.spans[i]
        if span is None or not 0 < span.line <= len(lines):
            return None
        text = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        if len("".join(text.split())) > notation.BOX_NAME_CHARS or not _whole(text):
            return None
        made_from: set[str] = set()  # the values it is made from, through the unnamed ones
        stack, seen = list(g.parents[i]), {i}
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            made_from.update(n for n in (self.names[p], g.names[p], g.labels[p]) if n)
            if not (g.labels[p] or g.names[p]):
                stack.extend(g.parents[p])
        return notation.code_name(text, made_from)

    def result(self, i: int, name: str | None = None) -> Result:
        """Node ``i`` as the notation writes a result of a known op: its operands in order of
        position (a set of parents that keeps one ``a`` of ``a + a`` gives it twice), an
        exponent written ``**2`` as a constant operand."""
        g = self.graph
        op = g.ops[i]
        assert op is not None and op.op is not None
        table, parents = op.op, g.parents[i]
        if len(parents) == 1 and op.exponent is None:
            parents = parents * table.arity
        twice = len(parents) == 2 and parents[0] == parents[1]
        markers = notation.position_markers(2) if twice else ("", "")
        gradstep = g.engine == "gradstep"
        operands = [
            Operand(self.names[p], ("data", self.ids[p]), markers[k],
                    g.data[p] if gradstep and g.constant[p] else None)
            for k, p in enumerate(parents)
        ]  # fmt: skip
        if op.exponent is not None:
            constant = notation.constant_name(op.exponent)
            operands.append(Operand(constant, ("data", self.ids[i]), "", op.exponent))
        own = self.names[i] if name is None else name
        return Result(own, ("data", self.ids[i]), table, tuple(operands))


def _running_sums(g: Graph) -> dict[int, int]:
    """How many terms each partial sum of a running total holds (graph index -> count): a run of
    additions made where one expression is written (``sum(...)``'s span), each adding one term
    to the one before (Python's ``sum`` adds each term to the total so far). One addition made
    there, with no other adding to it, is no running total. Only a call (or the top level) that
    makes one running total has them: two would each have a ``Σ₂``."""

    def adds(i: int) -> bool:
        op = g.ops[i]
        return op is not None and op.op is not None and op.op.name == "add"

    terms: dict[int, int] = {}
    first: dict[int, int] = {}  # each partial sum's running total, by its first partial sum
    for i, parents in enumerate(g.parents):
        span = g.spans[i]
        if span is None or not adds(i):
            continue
        total = next((p for p in parents if p != i and adds(p) and g.spans[p] == span), None)
        if total is not None:  # the total so far is made before it (creation order)
            terms[i] = terms.setdefault(total, 1) + 1
            first[i] = first.setdefault(total, total)
    unnamed = {first.get(i, i) for i in terms if not (g.labels[i] or g.names[i])}
    totals = Counter(g.calls[f] for f in unnamed)  # a loop's total = total + x is named
    return {i: n for i, n in terms.items() if totals[g.calls[first.get(i, i)]] == 1}


def _whole(text: str) -> bool:
    """Whether ``text`` is a whole expression: an expression written over several lines has a
    span to the end of its first line (``x1*w1 + x2*w2 +``), no name."""
    try:
        ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return False
    return True
