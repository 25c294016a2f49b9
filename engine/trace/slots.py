"""Slots: the numbers a structure's lines refer to, numbered. A line's ``Num`` (engine.notation:
which number, and how it is written) becomes a slot, an index into ``Numbers.slots``; the
structure keeps each slot's kind, and its recipe, the (array, index) its number is read from
when the numbers of a run are made (engine.trace.numbers)."""

from __future__ import annotations

from engine.notation import Num, Parts, Ref, Relation
from engine.trace.data import Line


class Slots:
    def __init__(self) -> None:
        self._index: dict[Num, int] = {}
        self.kinds: list[str] = []
        self.recipes: list[Ref] = []

    def __call__(self, array: str, index: int, kind: str = "n") -> int:
        """The slot of one number (the same number written the same way shares one)."""
        return self.of((array, index, kind))  # type: ignore[arg-type]

    def of(self, num: Num) -> int:
        slot = self._index.get(num)
        if slot is None:
            slot = self._index[num] = len(self.recipes)
            self.recipes.append((num[0], num[1]))
            self.kinds.append(num[2])
        return slot

    def line(self, parts: Parts) -> Line:
        """``parts`` with each number replaced by its slot (a relation's numbers too)."""
        return tuple(
            p if isinstance(p, str) else self.relation(p) if isinstance(p, Relation) else self.of(p)
            for p in parts
        )

    def relation(self, r: Relation) -> Relation:
        of = tuple(self.of(n) for n in r.of)  # type: ignore[arg-type]
        return Relation(r.op, of, self.of(r.to), r.exact, r.inexact)  # type: ignore[arg-type]
