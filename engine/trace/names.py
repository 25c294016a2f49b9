"""Each value's one name (docs/notation.md), for a graph of either engine: the user's (a label,
else the name the program bound it to), a constant's number, else one made from its op and its
operands' names, else ``t`` and its id."""

from __future__ import annotations

from engine import notation
from engine.notation import Operand, Result
from engine.program import Graph


class Names:
    """Names by graph index; ``ids`` gives each graph index its node id (the trace's order)."""

    def __init__(self, graph: Graph, ids: list[int], order: list[int]) -> None:
        self.graph = graph
        self.ids = ids
        self.names: list[str] = [""] * len(order)
        for i in sorted(order):  # operands first (creation order): made names use theirs
            user = graph.labels[i] or graph.names[i]
            if user:
                name = user  # as engine.program read it: characters not printable written out
            elif graph.constant[i]:
                name = notation.constant_name(graph.data[i])
            elif graph.ops[i] is not None and graph.ops[i].op is not None:  # type: ignore[union-attr]
                name = notation.made_name(notation.expression(self.result(i, "")), ids[i])
            else:
                name = notation.numbered_name(ids[i])
            self.names[i] = name

    def __call__(self, i: int) -> str:
        return self.names[i]

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
