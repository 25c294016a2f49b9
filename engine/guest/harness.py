"""The sandbox's entry: one request in, one record out, both JSON text.

The request: ``source``, ``values`` (inputs given by name), ``engine`` ("auto", or "gradstep":
the engine switch), ``nudge`` ([k, h]: add h to the number of the k-th object of the program's
classes, right after it is made), ``limits``. The record: the program's ``error`` if it
stopped on one (CPython's message at the learner's line), what it printed (``console``) and
plotted (``plots``), ``notes``, the ``spans`` and ``calls`` its graphs refer to, every pass's
graph (``passes``, engine.guest.snapshot) and which graph is the program's output (``drawn``).

Everything the sandbox offers is imported here, when the component is built: at run time
there are no files to import from.
"""

from __future__ import annotations

import builtins
import collections  # noqa: F401  (offered to programs: imported while the component is built)
import copy  # noqa: F401
import dataclasses  # noqa: F401
import decimal  # noqa: F401
import enum  # noqa: F401
import fractions  # noqa: F401
import functools
import heapq  # noqa: F401
import itertools  # noqa: F401
import json
import operator  # noqa: F401
import random
import re  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import sys
import textwrap  # noqa: F401
import time
import traceback  # noqa: F401
import typing  # noqa: F401
from collections.abc import Callable
from typing import Any

from engine import value as value_module
from engine.errors import GradstepError
from engine.guest import imports, learner, snapshot
from engine.guest import source as source_code
from engine.guest.console import Console
from engine.guest.imports import STAND_INS
from engine.guest.places import PROGRAM
from engine.guest.recorder import OutOfTime, Recorder, is_number
from engine.guest.source import ProgramSyntaxError, prepare
from engine.guest.spelling import lookalike
from engine.limits import cut_message
from engine.value import Value, cos, exp, log, relu, sigmoid, sin, sqrt, tanh

_NEVER_FREED: list[object] = []
_KINDS = {
    "ZeroDivisionError": "domain",
    "ValueError": "domain",
    "OverflowError": "overflow",
    "TypeError": "type",
    "AttributeError": "name",
    "NameError": "name",
    "UnboundLocalError": "name",
    "ImportError": "name",
    "ModuleNotFoundError": "name",
    "KeyError": "name",
    "IndexError": "name",
    "AssertionError": "assert",
    "RecursionError": "limit",
    "MemoryError": "limit",
}
_MODULE_HINTS = {"np": "import numpy as np", "plt": "import matplotlib.pyplot as plt",
                 "math": "import math", "random": "import random"}  # fmt: skip


def progress(line: int) -> int:
    """Tells the host the line the program has reached, and answers the fuel left (the
    component sets the real one)."""
    return 2**63


def prepared(code: str) -> None:
    """Tells the host the program's prepared code, before any of it runs (the component sets
    the real one): the host sends it back with the program's next runs."""


WARM_UP = (  # programs like those the page runs most: typed, gradstep's Value, an own engine
    "a = 3.0\nb = -2.0\nc = a * b + a ** 2\nd = c.tanh()\nprint(d)\n",
    "from micrograd.engine import Value\nfrom micrograd.nn import MLP\nimport random\n"
    "x = Value(2.0, label='x')\nn = MLP(2, [3, 1])\nfor k in range(2):\n"
    "    o = n([x, x * 2]); n.zero_grad(); o.backward()\n"
    "    for p in n.parameters():\n        p.data += -0.1 * p.grad\nprint(o)\n",
    "class V:\n    def __init__(self, data, _prev=(), _op=''):\n"
    "        self.data = data; self.grad = 0.0; self._prev = _prev; self._op = _op\n"
    "        self._backward = lambda: None\n"
    "    def __mul__(self, other):\n        out = V(self.data * other.data, (self, other), '*')\n"
    "        def _backward():\n            self.grad += other.data * out.grad\n"
    "            other.grad += self.data * out.grad\n        out._backward = _backward\n"
    "        return out\n    def backward(self):\n        self.grad = 1.0\n"
    "        for v in [self, *self._prev]:\n            v._backward()\n"
    "a = V(2.0)\nb = V(3.0)\nc = a * b\nc.backward()\nprint(a.grad)\n",
)
WARM_UP_LIMITS = {
    "max_nodes": 5000,
    "max_kept_nodes": 200_000,
    "max_console_chars": 50_000,
    "max_iterations": 1000,
}


def warm_up() -> None:
    for _ in range(3):
        for source in WARM_UP:
            run(json.dumps({"source": source, "limits": WARM_UP_LIMITS}))


def run(request: str) -> str:
    try:
        record = _run(json.loads(request))
    except BaseException as e:  # a fault of the harness itself: said, never a trap
        record = {"error": {"message": f"gradstep's sandbox failed: {type(e).__name__}: {e}"[:500],
                            "kind": "internal", "span": None}}  # fmt: skip
    return json.dumps(record)


class Hooks:
    """``__gradstep__``, as the rewritten program calls it (engine.guest.source)."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.Value = Value

    def number(self, name: str, x: object) -> object:
        """A typed example's number: an input, one value for all its uses."""
        if isinstance(x, bool) or not isinstance(x, int | float):
            return x
        return Value(x)  # the hook after the statement names it and makes it an input

    def bound(self, *args: Any) -> None:
        self.recorder.bound(*args)

    def top(self, line: int, loop: bool) -> None:
        """A top-level statement begins: a loop run unwatched before it is over, and a loop's
        iterations name their values from here alike."""
        self.recorder.top(line, loop)

    def wrote_data(self, objects: tuple[object, ...], statement: tuple[int, ...]) -> None:
        for v in objects:  # CPython would let it be, but gradstep's Value holds a number
            if isinstance(v, Value) and not is_number(v.data):
                raise TypeError(f"a Value's data must be a number, not {type(v.data).__name__}")
        recorder = self.recorder
        last = recorder.passes[-1] if recorder.passes else None
        if last is None or last.ids is None or last.graph is None or last.data is None:
            return
        line, column, end_line, end = statement
        if end_line != line:
            end = len(recorder.places.lines[line - 1].rstrip()) + 1
        span = recorder.places.span(line, column, max(end, column + 1))
        for v in objects:
            if not isinstance(v, Value) or v.op is not None or v.constant:
                continue
            node = last.ids.get(v.serial)
            if node is None:
                continue
            updates, updated = last.graph["updates"], last.updated
            k = updated.get(node)
            before = last.data[node] if k is None else updates[k][2]
            if v.data != before:
                updated[node] = len(updates)
                updates.append([node, before, v.data, span])

    def shown(self, x: object) -> object:
        if self.recorder.is_node(x):
            self.recorder.shown = x
        return x

    def drawing(self, draw: Callable[..., Any]) -> Callable[..., Any]:
        recorder = self.recorder

        @functools.wraps(draw)
        def draw_dot(*args: Any, **kwargs: Any) -> Any:
            if args:
                recorder.drew(args[0])
            return draw(*args, **kwargs)

        return draw_dot

    def backward_function(self, function: Callable[..., Any]) -> Callable[..., Any]:
        return learner.backward_function(self.recorder, function)


def draw_dot(root: object, *args: Any, **kwargs: Any) -> Any:
    """micrograd's draw_dot, for a program that calls it without defining it: gradstep draws
    the graph itself (the call marks what is drawn)."""
    from engine.guest.modules.graphviz import Digraph

    return Digraph(format="svg", graph_attr={"rankdir": "LR"})


def trace(root: Any) -> tuple[set[Any], set[Any]]:
    """micrograd's trace: the nodes and edges of ``root``'s graph."""
    nodes: set[Any] = set()
    edges: set[Any] = set()
    stack = [root]
    while stack:
        v = stack.pop()
        if v not in nodes:
            nodes.add(v)
            for child in getattr(v, "_prev", ()):
                edges.add((child, v))
                stack.append(child)
    return nodes, edges


_NUMBERLIKE = {
    "__repr__": lambda self: repr(self.data),
    "__str__": lambda self: str(self.data),
    "__format__": lambda self, spec: format(self.data, spec),
    "__float__": lambda self: float(self.data),
    "__int__": lambda self: int(self.data),
    "__bool__": lambda self: bool(self.data),
    "__round__": lambda self, n=None: round(self.data, n),
    "__lt__": lambda self, o: self.data < getattr(o, "data", o),
    "__le__": lambda self, o: self.data <= getattr(o, "data", o),
    "__gt__": lambda self, o: self.data > getattr(o, "data", o),
    "__ge__": lambda self, o: self.data >= getattr(o, "data", o),
}


def _run(request: dict[str, Any]) -> dict[str, Any]:
    source: str = request["source"]
    given: dict[str, float] = dict(request.get("values") or {})
    limits: dict[str, int] = request["limits"]
    recorder = Recorder(source, given, limits)
    recorder.snapshot = snapshot.take
    recorder.numbers = snapshot.numbers
    recorder.progress = lambda line: progress(line)
    plain = bool(request.get("plain"))  # run as written, nothing recorded (bench/sandbox.py)
    nudge = request.get("nudge")
    recorder.nudge = (int(nudge[0]), float(nudge[1])) if nudge else None
    wanted = request.get("watch")  # {"site": [line, column], "iteration": k}: watch that one
    if wanted:
        site = (int(wanted["site"][0]), int(wanted["site"][1]))
        recorder.wanted[site] = frozenset({0, 1, int(wanted["iteration"])})
    notes: list[str] = []
    try:
        if request.get("prepared"):  # made by an earlier run of this text, before it ran
            ready = source_code.loads(request["prepared"])
        else:
            ready = prepare(source, request.get("engine", "auto"), plain)
            prepared(source_code.dumps(ready))
    except ProgramSyntaxError as e:
        span = recorder.places.span(e.line, e.column, max(e.end, e.column + 1))
        return _record(recorder, [], notes, _error(e.message, "syntax", span), None)
    notes.extend(ready.notes)
    recorder.statements = ready.statements
    recorder.operands = ready.operands
    names: dict[str, Any] = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "__gradstep__": Hooks(recorder),
        "Value": Value,
        "draw_dot": draw_dot,
        "trace": trace,
        **{f.__name__: f for f in (exp, log, tanh, relu, sigmoid, sin, cos, sqrt)},
    }
    random.seed(int(request.get("seed", 0)))
    STAND_INS["numpy.random"].reset(int(request.get("seed", 0)))
    STAND_INS["matplotlib.pyplot"].reset()
    missing = [f for f in ready.free if f[0] not in given]
    if missing:
        listed = ", ".join(name + lookalike(name, ready.stored) for name, *_ in missing)
        name, line, column, end = missing[0]
        span = recorder.places.span(line, recorder.places.chars(line, column) + 1,
                                    recorder.places.chars(line, end) + 1)  # fmt: skip
        have = "s have" if len(missing) > 1 else " has"
        message = (f"no value for {listed}: the name{have} never been assigned (assign a "
                   "number, as in x = 2.0, or give a value)")  # fmt: skip
        return _record(recorder, [], notes, _error(message, "name", span), ready)
    for name, line, column, end in ready.free:
        v = Value(given[name])
        chars = recorder.places.chars
        v.site = recorder.places.span(line, chars(line, column) + 1, chars(line, end) + 1)
        v.name = name
        names[name] = v
        recorder.add_input(name, v, None)
    saved = {k: Value.__dict__.get(k) for k in _NUMBERLIKE} if ready.typed else {}
    for k in saved:  # a typed example's values print, format and compare as its numbers
        setattr(Value, k, _NUMBERLIKE[k])
    out, err = sys.stdout, sys.stderr
    console = Console(limits["max_console_chars"])
    finder = imports.install(names, recorder.classes)
    if not plain:
        learner.install(recorder)
        value_module.observer = recorder
    if ready.typed:  # its import math is TYPED_MATH (exp(x) of its value is drawn): builtins
        # as they are now, with the hooks just installed, but for __import__
        names["__builtins__"] = {**builtins.__dict__, "__import__": imports.typed_import}
    sys.stdout = sys.stderr = console
    sleep = time.sleep
    time.sleep = _no_sleep
    error = None
    torch: set[str] = set()  # names bound by pieces skipped for torch: what needs them is too
    try:
        for line, code, bound in ready.pieces:
            recorder.places.forget()
            recorder.module = None
            try:
                exec(code, names)  # the learner's program, inside the sandbox
            except imports.TorchMissing as e:
                torch |= bound
                notes.append(f"line {_line_of(e) or line}: this needs {e}, and gradstep has no "
                             "torch: skipped")  # fmt: skip
            except NameError as e:
                if getattr(e, "name", None) not in torch:
                    error = _describe(recorder, e)
                    break
                torch |= bound
                notes.append(f"line {_line_of(e) or line}: this needs {e.name}, which needed "
                             "torch: skipped")  # fmt: skip
            except OutOfTime as e:
                span = recorder.places.line_span(e.line)
                fuel, seconds = limits.get("fuel", 0), limits.get("seconds", 0)
                error = _error(f"the program ran out of time: it reached gradstep's limit for one "
                               f"run ({fuel:,} units of work, about {seconds:.2g} s here): fewer "
                               "steps, points or epochs would fit", "limit", span)  # fmt: skip
                break
            except SystemExit:
                notes.append(f"the program called exit() (line {line}): it stopped there")
                break
            except BaseException as e:
                error = _describe(recorder, e)
                break
    finally:
        sys.stdout, sys.stderr = out, err
        time.sleep = sleep
        value_module.observer = None
        learner.uninstall()
        imports.uninstall(finder)
        for k, f in saved.items():
            if f is None:
                delattr(Value, k)
            else:
                setattr(Value, k, f)
    recorder.places.forget()
    record = _record(recorder, console.close_lines(), notes, error, ready)
    # Never freed: the instance is thrown away after this run, and freeing a chain of 100,000
    # values would recurse deeper than the sandbox's stack (CPython's guard against that does
    # not see the WebAssembly stack's size).
    _NEVER_FREED.append((names, recorder, error))
    return record


def _no_sleep(seconds: object) -> None:
    """time.sleep does not wait in the sandbox: a run's time is its work."""


def _error(message: str, kind: str, span: int | None) -> dict[str, Any]:
    return {"message": cut_message(message), "kind": kind, "span": span}


def _line_of(e: BaseException) -> int | None:
    tb = e.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == PROGRAM:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _describe(recorder: Recorder, e: BaseException) -> dict[str, Any]:
    """The error as the learner's notebook shows it: CPython's type and message, at the line
    of their program where it happened."""
    tb = e.__traceback__
    place = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == PROGRAM:
            place = tb
        tb = tb.tb_next
    span = None
    if place is not None:
        span = recorder.places._site(place.tb_frame.f_code, place.tb_lasti, place.tb_lineno)
    name = type(e).__name__
    if isinstance(e, GradstepError):
        return _error(e.message, e.kind, span)
    if isinstance(e, snapshot.Unreadable):
        return _error(str(e), "unsupported", span)
    message = f"{name}: {e}" if str(e) else name
    missing = getattr(e, "name", None) if isinstance(e, NameError) else None
    if missing in _MODULE_HINTS:
        message += f" (add {_MODULE_HINTS[missing]} at the top)"
    elif isinstance(missing, str) and place is not None:
        frame = place.tb_frame
        message += lookalike(missing, [*frame.f_locals, *frame.f_globals])
    if isinstance(e, RecursionError):
        message = f"{message} (calls nested too deeply, or an endless recursion)"
    if isinstance(e, MemoryError):
        message = "MemoryError: the program used more memory than gradstep's limit allows"
    kind = next((_KINDS[c.__name__] for c in type(e).__mro__ if c.__name__ in _KINDS), "error")
    return _error(message, kind, span)


def _record(
    recorder: Recorder,
    console: list[tuple[int, str]],
    notes: list[str],
    error: dict[str, Any] | None,
    prepared: Any,
) -> dict[str, Any]:
    drawn = None
    if error is None:
        try:
            drawn = _drawn(recorder)
        except snapshot.Unreadable as e:
            error = _error(str(e), "unsupported", None)
        except GradstepError as e:  # a limit of what is drawn
            error = _error(e.message, e.kind, None)
        except (TypeError, OverflowError) as e:  # a grad set to text, by the program
            error = _error(f"TypeError: a Value's data and grad must be numbers ({e})", "type",
                           None)  # fmt: skip
    figures = STAND_INS["matplotlib.pyplot"].record()
    for figure in figures:
        for skipped in figure.get("skipped", ()):
            notes.append(f"line {figure.get('line') or '?'}: {skipped}")
    passes = [
        {
            "site": list(p.site),
            "loss": p.loss,
            "size": p.size,
            "graph": p.graph,
            "watched": p.watched,
        }
        for p in recorder.passes
    ]
    snapshot.share_structures(recorder, passes)
    calls = recorder.calls_used
    return {
        "error": error,
        "console": console,
        "notes": notes,
        "plots": figures,
        "spans": recorder.places.spans,
        "calls": {
            str(k): [r.parent.id if r.parent else None, r.name, r.span]
            for k, r in sorted(calls.items())
        },
        "attributes": sorted(recorder.attributes, key=recorder.attributes.__getitem__),
        "passes": passes,
        "drawn": drawn,
        "inputs": list(recorder.inputs),
        "engines": _engines(prepared, recorder),
        "own_class": prepared.engine_classes[0] if prepared and prepared.engine_classes else "",
    }


def _engines(prepared: Any, recorder: Recorder) -> list[str]:
    """Which engines can build the program's graph: its own class (when it defines one) and
    gradstep's Value (which can stand in for that class)."""
    if prepared is None:
        return ["gradstep"]
    if prepared.switched is not None:
        return ["program", "gradstep"]
    return ["program", "gradstep"] if prepared.engine_classes else ["gradstep"]


def _drawn(recorder: Recorder) -> dict[str, Any] | None:
    """The program's output: the graph the last backward() or draw_dot() was about, else the
    last value a top-level statement made or showed."""
    current = recorder.current
    target = current[1] if current is not None else recorder.shown
    if target is None:
        return None
    if not recorder.is_node(target):
        return None
    for i in range(len(recorder.passes) - 1, -1, -1):
        if recorder.passes[i].root is target:
            return {"pass": i}
    taken = snapshot.take(recorder, target, None)
    return {"graph": taken.graph, "size": taken.size, "loss": taken.loss}
