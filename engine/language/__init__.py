"""The language: a safe Python subset, read with the ``ast`` module and run by gradstep's own
interpreter, building a Value graph through the op table. User text is never evaluated,
compiled, executed or imported by Python. ``parse`` below runs a program through three passes,
each before the more expensive one; its parts, in reading order:

- ``source``: pass 0, limits on the raw text and ``ast.parse``, and the text as the later passes
  see it (a ``Unit``: its lines and the spans of its nodes);
- ``check/``: pass 1, the shape of every statement and the names nothing assigns (``shape``,
  ``visible``), and what the language says of what it refuses (``messages``);
- ``run/``: pass 2, the evaluator under its budget, its handler of each kind of node, its
  operators, attributes and calls;
- ``objects/``: what the running program holds (its functions, classes, instances, frames and
  scopes) and what works on it: operators, its own operator methods, lists, dicts and sets,
  strings, the tiny numpy array, arguments bound to parameters;
- ``library/``: what it can call or import without defining it: the builtins and the modules,
  micrograd.nn and numpy among them;
- ``record/``: what the run leaves behind: the graph of gradstep's values (``recorder``, a
  ``Program``), or what the program's own objects did (``watch``, ``learner``: a learner's own
  class Value, an ``OwnProgram``);
- ``budget``: the limits on a run's work, which every part charges before the work it guards.

The parts import one way: ``run`` uses ``check``, which uses ``library``, which uses
``record``, which uses ``objects``; each may also use any part below it, and ``source`` and
``budget``, at the bottom, import none of them. Only annotations point back: the methods in
``objects`` are builtins, and name the ``Machine`` they receive from ``library.machine``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from typing import Literal

from engine.errors import GradstepError, Span
from engine.graph import topological_order
from engine.language.budget import OutOfTime, time_limit
from engine.language.check.shape import Checker
from engine.language.objects.kinds import Instance, describe
from engine.language.record.learner import OwnProgram, value_makers
from engine.language.record.recorder import Call, DataChange, Program
from engine.language.run.evaluator import NOTHING, Evaluator
from engine.language.source import LINE_BREAK, Unit, check_text, check_values, read_program, spanner
from engine.value import Value

__all__ = [
    "Call",
    "DataChange",
    "Engine",
    "OutOfTime",
    "OwnProgram",
    "Program",
    "engines",
    "graph_program",
    "parse",
    "time_limit",
]

Engine = Literal["auto", "gradstep"]  # auto: the program's own class Value when it has one


def parse(
    source: str,
    values: Mapping[str, float] | None = None,
    nudge: tuple[int, float] | None = None,
    engine: Engine = "auto",
    iteration: int | None = None,
) -> Program | OwnProgram:
    """Run ``source`` and return its graph: a ``Program`` of gradstep's values, or an
    ``OwnProgram`` when the graph is made of the program's own objects (its own class Value).
    ``values`` replaces or supplies input values by name; ``nudge`` = (k, delta) adds delta to
    the data of the k-th object of the program's classes made, right after its __init__;
    ``engine`` "gradstep" runs the program with gradstep's Value in place of its own class
    Value (the page's engine switch); ``iteration`` picks which iteration of a training loop
    (a loop that calls backward() on a new graph each time) is drawn, None the last."""
    if not isinstance(source, str):
        raise GradstepError(f"the source must be text, not {type(source).__name__}", kind="type")
    given = check_values(values or {})
    tree, notes, unit, checker, mode = _read(source)
    checker.require(given)
    if engine == "gradstep" and _own_value_statements(tree):
        tree, notes, mode = *_without_own_value(source), (True, False)
    machine = Evaluator(unit, given, mode[0], nudge, iteration)
    try:
        machine.run(tree)
    except (RecursionError, MemoryError):
        raise GradstepError(
            "the program nests too deeply to run (calls within calls, or a very long expression)",
            kind="limit",
            span=_running(machine),
        ) from None
    except OutOfTime:
        raise  # a run without the given values would be out of time as well
    except GradstepError:
        if given:  # a value given for a name that is no input may be what broke the run
            _blame_given(source, given, engine)
        raise
    except Exception as e:  # a gap in the interpreter must still never be a traceback
        raise GradstepError(
            f"gradstep cannot run this statement ({type(e).__name__})",
            kind="unsupported",
            span=_running(machine),
        ) from None
    own = _own_output(machine, mode[1])
    if own is not None:
        if iteration is not None:
            raise GradstepError(
                "iterations of a training loop are drawn with gradstep's Value: this program's "
                "graph is made of its own objects",
                kind="name",
            )
        return _own_program(source, machine, given, notes, own, bool(_own_value_statements(tree)))
    return _program(source, machine, given, notes)


def engines(source: str, own: bool) -> tuple[str, ...]:
    """Which engines can build ``source``'s graph, ``own`` telling whether its run built it of
    its own objects: "program" then, and "gradstep" when its own class is named Value (gradstep's
    Value can stand in for it: the page's engine switch) or when it did not build its own."""
    tree = _read(source)[0]
    if not (own or _own_value_statements(tree)):
        return ("gradstep",)
    return ("program", "gradstep") if _own_value_statements(tree) else ("program",)


@functools.lru_cache(maxsize=8)
def _without_own_value(source: str) -> tuple[ast.Module, tuple[str, ...]]:
    """The program with its own class Value left out (and the top-level statements that add
    methods to it), so that ``Value`` is gradstep's; and the note that says so."""
    tree, notes, _, _, _ = _read(source)
    left_out = _own_value_statements(tree)
    kept = [stmt for stmt in tree.body if id(stmt) not in left_out]
    note = "your class Value was left out: gradstep's own Value built this graph"
    return ast.Module(body=kept, type_ignores=[]), (*notes, note)


def _own_value_statements(tree: ast.Module) -> set[int]:
    """The top-level ``class Value`` and ``Value.__add__ = ...`` statements (by id)."""
    out = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == "Value":
            out.add(id(stmt))
        elif isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "Value"
            for t in stmt.targets
        ):
            out.add(id(stmt))
    return out if any(isinstance(s, ast.ClassDef) for s in tree.body if id(s) in out) else set()


def graph_program(program: Program | OwnProgram) -> Program:
    """``program`` if its graph is made of gradstep's values; else the error that says this
    needs them (the training lab's programs, for one)."""
    if isinstance(program, Program):
        return program
    raise GradstepError(
        f"this program's graph is made of its own class {program.output.cls.name}: this needs "
        "gradstep's Value (from micrograd.engine import Value)",
        kind="unsupported",
    )


@functools.lru_cache(maxsize=32)
def _read(
    source: str,
) -> tuple[ast.Module, tuple[str, ...], Unit, Checker, tuple[bool, bool]]:
    """The first two passes, which depend on the text alone: kept for a few texts, so that
    moving a slider only runs the program again (the MLP: 64 ms to 12). Nothing writes to the
    tree or the checker after this; the unit's span cache only ever gains the same spans."""
    check_text(source)
    tree, notes = read_program(source)
    lines = LINE_BREAK.split(source)  # Python's line breaks only, not str.splitlines()'s
    unit = Unit("<program>", lines, spanner(lines))
    checker = Checker(unit)
    checker.check(tree)
    return tree, tuple(notes), unit, checker, value_makers(tree)


def _running(machine: Evaluator) -> Span | None:
    if machine.at is None:
        return None
    stmt, scope = machine.at
    return scope.frame.where(stmt)


def _program(
    source: str, machine: Evaluator, given: dict[str, float], notes: tuple[str, ...]
) -> Program:
    recorder = machine.recorder
    output = recorder.output() or _last_value(machine)
    graph = topological_order(output)
    try:
        machine.budget.graph(len(graph))
    except GradstepError as e:
        raise e.at(recorder.spans.get(output)) from None
    updates = recorder.updates(output)
    losses, iteration = recorder.losses(output)
    for v in recorder.spans:  # a fresh graph, as the trace expects: it runs backward itself
        v.grad = 0.0
    _check_given(given, recorder.inputs)
    calls, call_of = tuple(recorder.calls), recorder.call_of
    if losses:  # each iteration's calls numbered alike: one structure, one layout for all
        calls, call_of = _calls_of(graph, calls, call_of)
    return Program(
        console=machine.console.close(),
        source=source,
        output=output,
        inputs=recorder.inputs,
        spans=recorder.spans,
        labels=recorder.labels(),
        calls=calls,
        call_of=call_of,
        updates=updates,
        notes=(*notes, *machine.notes),
        losses=losses,
        iteration=iteration,
    )


def _calls_of(
    graph: list[Value], calls: tuple[Call, ...], call_of: dict[Value, int]
) -> tuple[tuple[Call, ...], dict[Value, int]]:
    """The calls that made ``graph`` (and the calls around them), numbered 0.. in order: the
    same numbers in every iteration of a training loop (folding names calls by number)."""
    used: set[int] = set()
    for v in graph:
        c = call_of.get(v)
        while c is not None and c not in used:
            used.add(c)
            c = calls[c].parent
    new = {old: i for i, old in enumerate(sorted(used))}
    kept = tuple(
        Call(new[c.id], None if c.parent is None else new[c.parent], c.name, c.span)
        for c in calls
        if c.id in new
    )
    return kept, {v: new[call_of[v]] for v in graph if v in call_of}


def _own_output(machine: Evaluator, own: bool) -> Instance | None:
    """The output, when it is an object of the program: the last .backward()'s (before any of
    gradstep's), else the last draw_dot()'s, else the last top-level value of a program that
    defines its own operators."""
    learner = machine.learner
    if learner.backwards:
        return learner.backwards[-1]
    if machine.recorder.current is not None:
        return None
    if learner.draws:
        return learner.draws[-1]
    last = machine.last
    if isinstance(last, tuple | list):
        last = next((x for x in last if isinstance(x, Value | Instance)), last)
    if own and type(last) is Instance and last.cls.own:
        return last
    return None


def _own_program(
    source: str,
    machine: Evaluator,
    given: dict[str, float],
    notes: tuple[str, ...],
    output: Instance,
    switch: bool,
) -> OwnProgram:
    learner = machine.learner
    _check_given(given, learner.inputs)
    graphs = len({id(x) for x in learner.backwards})
    if graphs > 1:  # a training loop of its own engine: only its last graph is drawn
        how = "; gradstep's Value (the engine switch) steps through each" if switch else ""
        notes = (*notes, f"backward() ran on {graphs} graphs: this is the last one{how}")
    return OwnProgram(
        source=source,
        output=output,
        watch=machine.watch,
        names=learner.all_names(),
        inputs=learner.inputs,
        console=machine.console.close(),
        notes=(*notes, *machine.notes),
        given=given,
    )


def _blame_given(source: str, given: dict[str, float], engine: Engine) -> None:
    """Raise the error that names a value given for a name that is not an input, when the run
    with ``given`` failed: the run without them tells the inputs (a number becomes one only
    when a value uses it, so the run that failed may not have got that far)."""
    try:
        program = parse(source, engine=engine)
    except GradstepError:
        return  # it fails without them too: the run's own error stands
    _check_given(given, program.inputs)


def _check_given(given: dict[str, float], inputs: Mapping[str, object]) -> None:
    unknown = [name for name in given if name not in inputs]
    if unknown:
        names = ", ".join(repr(n) for n in unknown)
        known = ", ".join(inputs) or "none"
        raise GradstepError(
            f"values given for {names}, which {'is' if len(unknown) == 1 else 'are'} "
            f"not an input of this program (its inputs: {known})",
            kind="name",
        )


def _last_value(machine: Evaluator) -> Value:
    """With no backward() and no draw_dot(), the output is the last top-level expression or
    assignment (the first value of it, for a tuple such as total_loss, acc = loss())."""
    last = machine.last
    if last is NOTHING:
        raise GradstepError(
            "the program computes nothing: write an expression such as y = a * b + c",
            kind="syntax",
            span=Span(1, 1, 2),
        )
    if isinstance(last, tuple | list):
        last = next((x for x in last if isinstance(x, Value)), last)
    if isinstance(last, Value):
        return last
    span = machine.top.where(machine.last_node) if machine.last_node is not None else None
    if isinstance(last, str):
        raise GradstepError(
            "a string is not a value: strings are for labels, as in Value(2.0, label='x')",
            kind="unsupported",
            span=span,
        )
    if _is_builtin_value(machine.last_node):
        raise GradstepError("Value is called, as in Value(2.0)", kind="type", span=span)
    raise GradstepError(
        f"the program's last value is {describe(last)}, not a value computed from inputs: "
        "assign numbers to names (x = 2.0) so that there is something to differentiate",
        kind="type",
        span=span,
    )


def _is_builtin_value(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Name) and node.id == "Value"
