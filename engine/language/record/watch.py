"""Watching the program's own objects while it runs: every instance of its classes made (and
where), every number written to an attribute of one, and every call of a function kept in an
attribute of one (a ``_backward`` closure). A learner who writes their own ``class Value`` builds
the graph out of such objects; ``engine.own`` reads what was watched to find their graph and
their backward pass, as their code really ran it."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import Span
from engine.language.objects.kinds import CallRecord, Function, Instance


@dataclass(frozen=True, slots=True, eq=False)
class Made:
    """An instance of the program's own class, in the order they were made."""

    instance: Instance
    span: Span  # the call that made it, wherever it is written (inside __add__, say)
    record: CallRecord | None  # the call of the program's it was made in (None: its top level)


@dataclass(frozen=True, slots=True, eq=False)
class Write:
    """A number written to an attribute of an instance (``self.grad += out.grad``)."""

    instance: Instance
    attr: str
    before: object  # what the attribute held (None when it had not been set)
    after: object
    span: Span  # the statement that wrote it
    augmented: bool  # +=, -=, ...: the statement read the attribute and added to it
    call: int | None  # the kept function's call it was written in (Watch.calls), innermost
    record: CallRecord | None = None  # the program's call it was written in (None: top level)


@dataclass(slots=True, eq=False)
class KeptCall:
    """A call of a function kept in an instance's attribute: ``node._backward()``."""

    owner: Instance  # the instance whose attribute held the function
    attr: str  # the attribute: "_backward", "backward_fn", ...
    function: Function  # its ``node`` is where the function is written
    span: Span  # where it was called
    parent: int | None  # the kept call it was made in, if any
    first: int  # the writes made during the call are writes[first:end]
    end: int = -1  # -1 while the call runs


@dataclass(slots=True)
class Watch:
    made: list[Made] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    calls: list[KeptCall] = field(default_factory=list)
    _open: list[int] = field(default_factory=list)  # kept calls running, innermost last

    def instance_made(self, instance: Instance, span: Span, record: CallRecord | None) -> None:
        self.made.append(Made(instance, span, record))

    def wrote(
        self,
        instance: Instance,
        attr: str,
        before: object,
        after: object,
        span: Span,
        augmented: bool,
        record: CallRecord | None = None,
    ) -> None:
        call = self._open[-1] if self._open else None
        self.writes.append(Write(instance, attr, before, after, span, augmented, call, record))

    def call_started(self, owner: Instance, attr: str, function: Function, span: Span) -> int:
        parent = self._open[-1] if self._open else None
        self.calls.append(KeptCall(owner, attr, function, span, parent, len(self.writes)))
        self._open.append(len(self.calls) - 1)
        return len(self.calls) - 1

    def call_ended(self, index: int) -> None:
        self.calls[index].end = len(self.writes)
        self._open.remove(index)
