"""One program's trace, whichever engine built its graph: gradstep's own values
(engine.trace) or the program's own class (engine.own: a learner's engine, run as they wrote
it). The same four pieces either way: the outline a drawing needs, the key its structure is
kept by, the structure, and the numbers of this run."""

from __future__ import annotations

from typing import TypeAlias

from engine import own
from engine.language import OwnProgram, Program
from engine.own.numbers import numbers as own_numbers
from engine.own.outline import OwnOutline, own_outline
from engine.own.outline import key as own_key
from engine.own.trace import build as own_build
from engine.trace import Built, Numbers, Outline, Structure, Trace
from engine.trace import build as gradstep_build
from engine.trace import key as gradstep_key
from engine.trace import numbers as gradstep_numbers
from engine.trace import outline as gradstep_outline

AnyProgram: TypeAlias = Program | OwnProgram
AnyOutline: TypeAlias = Outline | OwnOutline
Drawable: TypeAlias = Outline | OwnOutline | Structure  # what a drawing reads: fields all share


def outline(program: AnyProgram) -> AnyOutline:
    if isinstance(program, OwnProgram):
        return own_outline(own.study(program))
    return gradstep_outline(program)


def key(program: AnyProgram, shape: AnyOutline) -> str:
    if isinstance(shape, OwnOutline):
        return own_key(shape.study, shape.names)
    assert isinstance(program, Program)
    return gradstep_key(program, shape)


def build(program: AnyProgram, shape: AnyOutline) -> Built:
    if isinstance(shape, OwnOutline):
        return own_build(shape.study, shape.names)
    assert isinstance(program, Program)
    return gradstep_build(program, shape)


def numbers(program: AnyProgram, shape: AnyOutline, built: Built) -> Numbers:
    if isinstance(shape, OwnOutline):
        return own_numbers(shape.study, built, shape.names)
    assert isinstance(program, Program)
    return gradstep_numbers(program, shape, built)


def trace(program: AnyProgram, outlined: AnyOutline | None = None) -> Trace:
    """Both parts of ``program``'s trace (for gradstep's engine, runs ``backward()``)."""
    shape = outlined or outline(program)
    built = build(program, shape)
    return Trace(built.structure, numbers(program, shape, built))
