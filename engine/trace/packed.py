"""A structure as the API sends it: every line written once as a template.

The lecture's MLP has 1,281 steps whose lines say the same few things of different values
(``w1_15_3.grad += ∂(w1_15_3·h0_3)/∂w1_15_3 · (w1_15_3·h0_3).grad``). Sent as written, their
words are most of the answer. Packed, each distinct line with its names and numbers taken out is
a *template*, written once in ``Structure.templates``, and each line is ``(t, a0, a1, …)``: its
template's index and the arguments that fill its holes. In a template, a string is text, an
integer ``k`` is the line's argument ``k`` and a relation's ``of`` and ``to`` are argument
indices. An argument ``a >= 0`` is a slot (as in an unpacked line); ``a < 0`` is a node's name,
``-1 - 2·id``, or its grad's name, ``-2 - 2·id``. Unpacking is exact: the page
(static/lines.js) fills each template back into the line the engine wrote, character for
character, and needs no words of its own.

A line's names are looked for only among the nodes its step, node or call concerns, as whole
names (not inside a longer name): the search is cheap and a name found is always one a reader
sees as one. Text that is not a name stays in the template.

Looking for names costs, for each name looked for, a Python step and a scan of the text: a
value used by thousands of steps (its grad a sum of thousands of terms, shown at each of them)
would cost minutes. Past ``MAX_SEARCH`` the structure is sent as written (no templates: the page
reads it as it is), as the engine made it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.notation.lines import Relation
from engine.trace.data import Cell, Line, Part, Structure

Template = tuple[object, ...]  # a line's parts with its names and numbers made holes
Names = list[tuple[str, int]]  # names a line may hold, each with its argument, longest first
# The search's cost, counted in characters scanned: a look for one name in a text costs its
# length and STEP more, the Python around the scan (measured: 16 million looks in texts of about
# 100 characters took 10 s, 600 ns each, the scans themselves a tenth of it). At most MAX_SEARCH
# (about a second): the lecture MLP (979 values) costs 82 million and packs in 0.4 s;
# micrograd's demo (3,610 values) and 2,000 products of one value
# (tests/api/test_layout_memory.py, 195 billion: 214 s) would cost minutes: both are sent
# unpacked.
STEP = 500
MAX_SEARCH = 1_000_000_000


class _TooCostly(Exception):
    """Packing would cost more than ``MAX_SEARCH``."""


def packed(structure: Structure) -> Structure:
    """``structure`` with every line (rows, the inspector's sums, a call's lines) packed."""
    if structure.templates or not structure.nodes:
        return structure
    try:
        return _packed(structure, _Packer(structure))
    except _TooCostly:
        return structure


def _packed(structure: Structure, pack: _Packer) -> Structure:
    users: dict[int, list[int]] = {}
    operands: dict[int, list[int]] = {}
    for e in structure.edges:
        users.setdefault(e.source, []).append(e.target)
        operands.setdefault(e.target, []).append(e.source)
    nodes = tuple(
        replace(n, sum=pack.line(n.sum, pack.names([n.id, *users.get(n.id, ())], [n.sum])))
        for n in structure.nodes
    )
    steps = []
    for s in structure.steps:
        near = [c.node for c in s.changes]
        if s.node is not None:
            near += [s.node, *operands.get(s.node, ())]
        near += [u for n in near for u in users.get(n, ())]
        names = pack.names(near, [c.parts for row in s.rows for c in row])
        rows = tuple(tuple(Cell(c.role, pack.line(c.parts, names)) for c in row) for row in s.rows)
        steps.append(replace(s, rows=rows))
    calls = tuple(
        replace(
            c,
            forward=tuple(pack.line(line, pack.names(c.outputs, c.forward)) for line in c.forward),
            backward=tuple(
                pack.line(line, pack.names(c.inputs, c.backward)) for line in c.backward
            ),
        )
        for c in structure.calls
    )
    return replace(
        structure, nodes=nodes, steps=tuple(steps), calls=calls, templates=pack.templates()
    )


class _Packer:
    def __init__(self, structure: Structure) -> None:
        self._nodes = structure.nodes
        self._index: dict[Template, int] = {}
        self.searched = 0  # the search's cost so far (STEP for each look, and the text)

    def _search(self, chars: int) -> None:
        self.searched += chars
        if self.searched > MAX_SEARCH:
            raise _TooCostly

    def templates(self) -> tuple[Line, ...]:
        return tuple(self._index)  # type: ignore[arg-type]

    def line(self, parts: Line, names: Names) -> Line:
        """``parts`` as ``(template, *arguments)``; ``names``: those it may hold (``names``)."""
        args = _Args()
        template: list[object] = []
        for p in parts:
            if isinstance(p, str):
                self._search((len(p) + STEP) * len(names))
                template += _split(p, names, args)
            elif isinstance(p, Relation):
                of = tuple(args.hole(s) for s in p.of)  # type: ignore[arg-type]
                to = args.hole(p.to)  # type: ignore[arg-type]
                template.append(Relation(p.op, of, to, p.exact, p.inexact))
            else:
                template.append(args.hole(p))
        key = tuple(template)
        t = self._index.setdefault(key, len(self._index))
        return (t, *args.values)

    def names(self, near: Iterable[int], lines: Iterable[Line]) -> Names:
        """The names of the nodes ``near`` that ``lines`` hold, each with its argument, longest
        first (a grad's name holds its node's name: ``(a·b).grad`` is one name, not ``a·b``)."""
        text = "\0".join(p for line in lines for p in line if isinstance(p, str))
        found: dict[str, int] = {}
        near = list(dict.fromkeys(near))  # each node once, in the order given
        self._search(2 * (len(text) + STEP) * len(near))
        for i in near:
            node = self._nodes[i]
            for name, arg in ((node.name, -1 - 2 * i), (node.grad_name, -2 - 2 * i)):
                if name not in found and name in text:
                    found[name] = arg
        return sorted(found.items(), key=lambda kv: -len(kv[0]))


class _Args:
    """A line's arguments, in the order its holes are read."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self._at: dict[int, int] = {}

    def hole(self, value: int) -> int:
        """The hole ``value`` fills: the same number or name again is the same hole."""
        at = self._at.get(value)
        if at is None:
            at = self._at[value] = len(self.values)
            self.values.append(value)
        return at


def _split(text: str, names: Names, args: _Args) -> list[Part]:
    """``text`` as template parts: its whole names made holes (their arguments appended to
    ``args``, in the order they are read), the rest text."""
    taken: list[tuple[int, int, int]] = []  # (start, end, argument) of each name found
    covered = bytearray(len(text))  # 1 where a name found lies
    for name, arg in names:  # longest first: a shorter name inside one found is not another
        at = text.find(name)
        while at >= 0:
            end = at + len(name)
            if _whole(text, at, end) and not any(covered[at:end]):
                taken.append((at, end, arg))
                covered[at:end] = b"\1" * (end - at)
            at = text.find(name, end)
    if not taken:
        return [text]
    out: list[Part] = []
    start = 0
    for at, end, arg in sorted(taken):
        if at > start:
            out.append(text[start:at])
        out.append(args.hole(arg))
        start = end
    if start < len(text):
        out.append(text[start:])
    return out


def _whole(text: str, start: int, end: int) -> bool:
    """The name at ``start:end`` is not a piece of a longer name (``x1`` in ``x10``)."""
    return not ((start > 0 and _word(text[start - 1])) or (end < len(text) and _word(text[end])))


def _word(c: str) -> bool:
    """A character a name goes on with (a power's ``²`` ends it: ``(1 − h²)``)."""
    return c == "_" or (c.isalnum() and c not in "⁰¹²³⁴⁵⁶⁷⁸⁹")
