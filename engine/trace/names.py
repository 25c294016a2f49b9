"""Each value's one name (docs/notation.md): the user's, a constant's number, else one made from
its op and its operands' names."""

from __future__ import annotations

import re

from engine import notation
from engine.language import Program
from engine.notation import Operand, Result
from engine.value import Value

_SURROGATE = re.compile("[\ud800-\udfff]")


class Names:
    """Each value's one name: the user's (a label, or the name it was assigned to), a constant's
    number, else one made from its op and its operands' names (``notation.made_name``): not
    from the source text, which says ``c`` where the graph, after ``c += 1``, has ``c₁``."""

    def __init__(self, program: Program, ids: dict[Value, int], order: list[Value]) -> None:
        self.ids = ids
        self.names: dict[Value, str] = {}
        for v in order:  # operands first: a made name is written in its operands' names
            user = v.label or program.labels.get(v)
            if user:
                self.names[v] = _writable(user)
            elif v.constant:
                self.names[v] = notation.constant_name(v.data)
            elif v.op is None:
                self.names[v] = notation.numbered_name(ids[v])
            else:
                self.names[v] = notation.made_name(notation.expression(self._result(v, "")), ids[v])

    def __call__(self, v: Value) -> str:
        return self.names[v]

    def result(self, v: Value) -> Result:
        return self._result(v, self.names[v])

    def _result(self, v: Value, name: str) -> Result:
        assert v.op is not None
        twice = len(v.parents) == 2 and v.parents[0] is v.parents[1]
        markers = notation.position_markers(2) if twice else ("", "")
        operands = tuple(
            Operand(self(p), ("data", self.ids[p]), markers[i], p.data if p.constant else None)
            for i, p in enumerate(v.parents)
        )
        return Result(name, ("data", self.ids[v]), v.op, operands)


def _writable(text: str) -> str:
    """A name with any lone surrogate (``Value(2.0, label="\\ud800")``, which no UTF-8 text can
    hold) replaced by U+FFFD, so that the drawing and the page can be written at all."""
    return _SURROGATE.sub("\ufffd", text)
