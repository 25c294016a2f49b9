"""The recorder inside the sandbox: it watches the program run in CPython and keeps what the
stepper needs, compactly (docs/design.md, "Running programs").

- **gradstep's values** tell it when each is made (``engine.value.observer``): it notes the
  place that made it and the call of the program it was made in, on the value itself.
- **the program's own classes** (a learner's ``class Value``) are instrumented as they are made
  (``engine.guest.learner``): their objects are numbered as they are made, every number written
  to an attribute of one is logged (the place, before and after, ``=`` or ``+=``), and every call
  of a function an object keeps (``out._backward()``) is bracketed.
- **names** come from the hooks the source rewrite writes after each assignment (``bound``),
  and from attributes stored on the program's objects (``self.w = [...]``).
- **passes**: each ``backward()`` on a new graph begins a pass; the graph is kept then (its
  snapshot, ``engine.guest.snapshot``), so that every iteration of a training loop can be drawn
  without running the program again.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import time
import weakref
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from engine import value as value_module
from engine.guest.places import PROGRAM, TRACKED, CallRecord, Places, getframe
from engine.value import Value

_getframe = sys._getframe
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
AUGMENTED = 1  # a write's flags: its statement was +=, -=, ...
BEFORE_NUMBER = 2  # ... and what the attribute held before was a number

# The attributes of a learner's node, by the names tutorials give them
DATA = ("data", "value", "val", "x", "v")  # its number
GRAD = ("grad", "gradient", "g")  # its gradient
PARENTS = ("_prev", "prev", "_children", "children", "parents", "_parents", "inputs",
           "_inputs", "operands", "_operands", "src", "_src", "args", "_args")  # fmt: skip
OP = ("_op", "op", "operation", "_operation", "kind", "_kind")  # what made it
LABEL = ("label", "name", "_label", "_name")
COLLECTION = (list, tuple, set, frozenset, dict)  # what its parents are kept in


class Inner(str):
    """A name given inside a call (``act`` in a neuron): a top-level name wins over it."""

    __slots__ = ()


def numbered(name: str, n: int) -> str:
    return name if n == 0 else f"{name}{str(n).translate(SUBSCRIPTS)}"


def is_number(x: object) -> bool:
    t = type(x)
    return t is float or t is int or (isinstance(x, int | float) and t is not bool)


def field(obj: object, names: tuple[str, ...], test: Callable[[object], bool]) -> str | None:
    """The first of ``names`` that ``obj`` has as an attribute passing ``test``."""
    for name in names:
        try:
            x = object.__getattribute__(obj, name)
        except AttributeError:
            continue
        if test(x):
            return name
    return None


@dataclass(slots=True)
class Info:
    """One object of the program's classes: when and where it was made, what it is called."""

    ref: Callable[[], object] | None  # a weak reference (None: held, its class has no weakrefs)
    held: object
    index: int  # the order objects were made in: 0, 1, ...
    site: int  # the place that made it (a span id)
    record: CallRecord | None  # the call of the program it was made in
    born: int  # the write log's length when it was made (global position)
    lifted: bool = False  # made inside the engine's own methods (other = Value(other))
    name: str | None = None
    top: bool = False  # named by a top-level statement
    attr: str | None = None  # the attribute it was first stored in (w[0], b)

    def alive(self, obj: object) -> bool:
        return (self.ref() if self.ref is not None else self.held) is obj


class Log:
    """Numbers written to attributes of the program's objects, a column each (a list of tuples
    would be millions of objects for the collector to walk)."""

    def __init__(self) -> None:
        self.base = 0  # the global position of the first entry kept
        self.obj = array("q")  # Info.index
        self.attr = array("i")  # an attribute's id
        self.flags = array("b")
        self.before = array("d")
        self.after = array("d")
        self.span = array("i")  # the statement that wrote it
        self.top = array("i")  # the top-level statement running then
        self.kept = array("i")  # the kept call running (index in KeptCalls), -1: none

    def __len__(self) -> int:
        return self.base + len(self.obj)

    def drop_before(self, position: int) -> None:
        cut = position - self.base
        if cut <= 0:
            return
        for name in ("obj", "attr", "flags", "before", "after", "span", "top", "kept"):
            column = getattr(self, name)
            del column[:cut]
        self.base = position


class KeptCalls:
    """Calls of functions kept in an object's attribute (``node._backward()``)."""

    def __init__(self) -> None:
        self.base = 0
        self.owner = array("q")  # Info.index of the object that kept it
        self.attr = array("i")
        self.function = array("i")  # where the function is written (a span id)
        self.span = array("i")  # where it was called
        self.parent = array("q")  # the kept call it ran in (global index), -1: none
        self.first = array("q")  # the log's length (global) when it began ...
        self.end = array("q")  # ... and when it ended (-1: it did not return)

    def __len__(self) -> int:
        return self.base + len(self.owner)

    def drop_before(self, log_position: int) -> None:
        cut = 0
        while cut < len(self.first) and self.first[cut] < log_position:
            cut += 1
        if cut:
            for name in ("owner", "attr", "function", "span", "parent", "first", "end"):
                del getattr(self, name)[:cut]
            self.base += cut


@dataclass(slots=True)
class Pass:
    """The backward() calls on one graph: a training loop's iteration, or a single pass."""

    site: tuple[int, int]  # where its backward() is called (line, column)
    loss: float  # the output's number when its first backward() ran
    root: object  # the output, while it may be backward()'s again (then dropped)
    graph: dict[str, Any] | None  # its snapshot (None: too large to keep, or not watched)
    size: int  # values in its graph (-1: not counted, the pass was not watched)
    ids: dict[int, int] | None = None  # gradstep's values: serial -> node, for updates
    data: list[float] | None = None  # and their data when it ran (an update's before)
    updated: dict[int, int] = dataclasses.field(default_factory=dict)  # node -> its last update
    watched: bool = True  # False: an iteration of a loop run unwatched (its loss alone kept)


FIRST_ITERATIONS = frozenset({0, 1})  # a training loop's iterations watched in every run


class OutOfTime(BaseException):
    """The run has used its fuel but the reserve: stopped where it was, its record kept (a
    BaseException: the program's own ``except Exception`` does not catch it)."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class Paused:
    """The value observer while the run is not watched: values are made as the engine makes
    them; a backward() still ends a pass (its loss is kept)."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.made_count = 0

    def made(self, v: Value, depth: int, operand: int = -1) -> None:
        self.made_count += 1
        if not self.made_count & 0xFFFF:  # the fuel is still watched
            line = _getframe(depth).f_lineno
            if self.recorder.progress(line) < self.recorder.reserve:
                raise OutOfTime(line)

    def backward(self, v: Value, order: list[Value]) -> None:
        self.recorder.backward(v, order)


class Recorder:
    """What the run is watched for. A training loop's iterations past its first two are run
    unwatched, at the program's own speed, keeping only their losses (``watching``): the host
    asks for another iteration by running the program again with that one watched
    (``wanted``)."""

    def __init__(self, source: str, given: dict[str, float], limits: dict[str, int]) -> None:
        self.places = Places(source)
        self.given = given
        self.limits = limits
        self.inputs: dict[str, object] = {}  # the sliders: a name -> its value or object
        self.counters: dict[str, int] = {}  # names bound at the top level, for c, c₁, c₂
        self.counters_before: dict[str, int] = {}  # ... as the top-level statement running began
        self.classes: set[type] = set()  # the program's classes (engine.guest.learner)
        self.node_classes: set[type] = set()  # ...those whose objects were seen to be nodes
        self.nameable: set[type] = {Value}  # what a name can be given to
        self.objects: dict[int, Info] = {}  # id(object) -> Info
        self.made_count = 0
        self.sweep_at = 4096
        self.attributes: dict[str, int] = {}  # attribute name -> id
        self.log = Log()
        self.kept = KeptCalls()
        self.open: list[int] = []  # kept calls running (global indices)
        self.depth = 0  # backward() calls of the program's objects running
        self.hooking = True  # writes are watched (engine.guest.learner.set_hooks)
        self.hooks: list[tuple[type, Any, Any]] = []  # (class, its own __setattr__, the hook)
        self.write_sites: dict[int, dict[int, tuple[int, bool]]] = {}  # id(code) -> lasti -> ...
        self.passes: list[Pass] = []
        self.current: tuple[str, object] | None = None  # the last backward() or draw_dot()
        self.shown: object = None  # the last top-level expression's or assignment's value
        self.kept_nodes = 0  # values kept in snapshots so far
        self.calls_used: dict[int, CallRecord] = {}  # the calls snapshots refer to, by id
        self.nudge: tuple[int, float] | None = None
        self.on_made: Callable[[object, Info], None] | None = None  # learner: nudges
        # engine.guest.snapshot's, set by the harness: a pass's graph taken; a pass of
        # gradstep's values taken as numbers alone, like the last watched pass of its site
        self.snapshot: Callable[[Recorder, object, Pass | None, list[Value] | None], Pass] | None
        self.snapshot = None
        self.numbers: Callable[[Recorder, Pass, list[Value]], None] = lambda r, p, order: None
        # a site's last watched pass of gradstep's values: its index, size and updates' nodes
        self.shapes: dict[tuple[int, int], tuple[int, int, dict[int, int]]] = {}
        self.module: FrameType | None = None  # the top level of the piece running
        self.ticks = 0  # values and objects made while watched
        self.ticks_at_pass = 0  # ... when the last pass ended
        # the fuel kept for the record: the run stops itself when no more than this is left
        self.reserve = int(limits.get("reserve", 0))
        self.told = 0.0  # when the host was last told the line reached
        self.watching = True
        self.paused = Paused(self)
        self.wanted: dict[tuple[int, int], frozenset[int]] = {}  # a loop's site -> iterations
        self.at_site: dict[tuple[int, int], int] = {}  # passes made at each site so far
        self.progress: Callable[[int], int] = lambda line: 2**63  # tells the line, gets the fuel
        # the statements that write attributes, by the place of the target they write:
        # (line, column) -> (the statement's span, augmented) (engine.guest.source)
        self.statements: dict[tuple[int, int], tuple[tuple[int, int, int], bool]] = {}
        # each operation's span -> the spans of its operands written as plain numbers
        self.operands: dict[tuple[int, int, int], tuple[Any, ...]] = {}

    # gradstep's values (engine.value.observer) -------------------------------------------

    def made(self, v: Value, depth: int, operand: int = -1) -> None:
        """Every value made: its place and call. The hottest code of a run: the frame is
        taken at the depth the engine says (no frame between is made an object), and the place
        and call are the ones seen last when the frame is the same."""
        places = self.places
        frame = _getframe(depth)  # the code that asked for it
        if frame is places.frame:
            v.call = places.record
        else:
            if frame.f_code.co_filename not in TRACKED:
                found = places.innermost(frame)  # made by a helper the program called
                if found is None:
                    return  # made by gradstep itself (a free name's input)
                frame = found
            v.call = places.enter(frame)
        by_code = places.sites.get(id(frame.f_code))
        site = by_code.get(frame.f_lasti) if by_code is not None else None
        v.site = site if site is not None else places.site(frame)
        if operand >= 0:  # a plain number an op lifted into a constant: where it is written
            written = self.operands.get(places.spans[v.site])
            if written is not None and written[operand] is not None:
                v.site = places.span(*written[operand])
        self.ticks += 1
        if not self.ticks & 0xFFF:
            self.now_and_then(places.spans[v.site][0])

    def top(self, line: int, loop: bool) -> None:
        """A top-level statement begins (engine.guest.source): what comes next is watched, and a
        loop's iterations name their values alike. The host is told the line at every loop, and
        otherwise at most every 50 ms (its calls cost more than a statement)."""
        if not self.watching:
            self.watch(True)
        self.ticks_at_pass = self.ticks
        self.module = None
        if loop:
            self.counters_before = dict(self.counters)
        now = time.monotonic()
        if loop or now - self.told > 0.05:
            self.told = now
            self.progress(line)

    def now_and_then(self, line: int) -> None:
        """Every few thousand values made: tell the host the line reached (for a run its fuel
        ends), stop while fuel is left (so that what the program printed and the graphs it made
        are kept: at the same place in every run), and stop watching a program that goes on
        making values long past its last backward() (a decision boundary's grid): none of them
        can be drawn."""
        if self.progress(line) < self.reserve:
            raise OutOfTime(line)
        if self.ticks - self.ticks_at_pass > self.limits["max_kept_nodes"] // 4:
            self.watch(False)

    def backward(self, v: Value, order: list[Value]) -> None:
        if self.depth == 0:  # not inside a backward() of the program's own objects
            self.pass_ended(v, getframe(1), order)

    # the passes ----------------------------------------------------------------------------

    def pass_ended(self, root: object, caller: FrameType, order: list[Value] | None = None) -> None:
        """A backward() on ``root`` returned: a new pass, or the last one's again (``order``:
        gradstep's values, in the topological order backward() used)."""
        self.current = ("backward", root)
        last = self.passes[-1] if self.passes else None
        assert self.snapshot is not None
        if last is not None and last.root is root:
            if last.watched and self.watching:
                self.passes[-1] = self.snapshot(self, root, last, order)
            return
        if last is not None:
            last.root = None
            last.ids = None
        if len(self.passes) >= self.limits["max_iterations"]:
            return
        # a new graph: a training loop's next iteration names its values as this one did
        self.counters = dict(self.counters_before)
        self.ticks_at_pass = self.ticks
        frame = self.places.innermost(caller) or caller
        line, column, _ = self.places.spans[self.places.site(frame)]
        site = (line, column)
        n = self.at_site.get(site, 0)
        self.at_site[site] = n + 1
        if not self.watching:
            p = Pass(site, _loss(root), root, None, -1, watched=False)
            if order is not None and site in self.shapes:  # its numbers, if shaped alike
                self.numbers(self, p, order)
            self.passes.append(p)
        else:
            info = None if isinstance(root, Value) else self.info(root)
            if info is not None:  # what was written before this graph's output was made is past
                self.log.drop_before(info.born)
                self.kept.drop_before(info.born)
            p = self.snapshot(self, root, Pass(site, math.nan, root, None, 0), order)
            self.passes.append(p)
            if order is not None and p.graph is not None and p.ids is not None:
                self.shapes[site] = (len(self.passes) - 1, p.size, p.ids)
        # the next pass here is watched if it is wanted; else the run goes on unwatched until
        # one is, or until this top-level statement ends (the loop is over)
        self.watch((n + 1) in self.wanted.get(site, FIRST_ITERATIONS))

    def watch(self, on: bool) -> None:
        if on == self.watching:
            return
        self.watching = on
        value_module.observer = self if on else self.paused

    def drew(self, x: object) -> None:
        self.current = ("draw", x)

    def is_node(self, x: object) -> bool:
        """Whether ``x`` can be a graph's output: gradstep's value, or an object of one of the
        program's classes that is an engine's node (operator methods, a ``backward()``, or a
        number and parents: free functions ``mul(a, b)`` make the graph)."""
        kind = type(x)
        if kind is Value or isinstance(x, Value) or kind in self.node_classes:
            return True
        if kind not in self.classes:
            return False
        node = any(hasattr(kind, name) for name in ("__add__", "__mul__", "backward")) or (
            field(x, DATA, is_number) is not None
            and field(x, PARENTS, lambda c: isinstance(c, COLLECTION)) is not None
        )
        if node:
            self.node_classes.add(kind)
        return node

    # names ---------------------------------------------------------------------------------

    def bound(
        self,
        names: tuple[str, ...],
        values: tuple[object, ...],
        top: bool,
        loop: bool,
        statement: tuple[int, int, int, int],
    ) -> None:
        """``names`` now hold ``values``, after a statement at ``statement`` (line, column, end
        line, end column); ``top``: at the program's top level; ``loop``: inside a loop there."""
        if not self.watching:
            return
        if len(values) == 1:  # the common case, fast: a number or a list bound to one name
            kind = type(values[0])
            if kind not in self.nameable and kind is not list and kind is not tuple:
                return
        first = None
        for name, x in zip(names, values, strict=True):
            kind = type(x)
            if kind not in self.nameable:
                if kind is list or kind is tuple:
                    items: list[object] | tuple[object, ...] = x  # type: ignore[assignment]
                    first = (
                        first
                        if first is not None
                        else next((y for y in items[:100] if self.is_node(y)), None)
                    )
                continue
            if first is None and self.is_node(x):
                first = x
            if isinstance(x, Value):
                self._name_value(x, name, top, loop, statement)
            elif top:  # the program's own objects: named by its top level (and attributes)
                self._name_object(x, name, top, loop, statement)
        if top and first is not None:
            self.shown = first

    def _counters(self, top: bool) -> dict[str, int]:
        if top:
            return self.counters
        frame = self.places.innermost(_getframe(3))  # _counters <- _name_* <- bound <- the program
        record = self.places.enter(frame) if frame is not None else None
        if record is None:
            return self.counters
        if record.counters is None:
            record.counters = {}
        return record.counters

    def _name_value(
        self, v: Value, name: str, top: bool, loop: bool, statement: tuple[int, int, int, int]
    ) -> None:
        if v.constant or (v.name is not None and (not top or type(v.name) is not Inner)):
            return
        counters = self._counters(top)
        n = counters.get(name, 0)
        counters[name] = n + 1
        label = numbered(name, n)
        v.name = label if top else Inner(label)
        call: CallRecord | None = v.call  # type: ignore[assignment]
        if top and not loop and v.op is None and self._made_in(v.site, call, statement):
            self.add_input(v.label or label, v, "data")

    def _name_object(
        self, x: object, name: str, top: bool, loop: bool, statement: tuple[int, int, int, int]
    ) -> None:
        info = self.objects.get(id(x))
        if info is None or not info.alive(x):
            return
        if info.name is not None and (not top or info.top):
            return
        counters = self._counters(top)
        n = counters.get(name, 0)
        counters[name] = n + 1
        info.name, info.top = numbered(name, n), top
        if top and not loop and self._made_in(info.site, info.record, statement):
            self.add_input(info.name, x, None)

    def _made_in(
        self, site: int | None, record: CallRecord | None, statement: tuple[int, int, int, int]
    ) -> bool:
        """Whether a value made at ``site`` in ``record`` was made by the top-level statement
        at ``statement``: its place, or the outermost call's, lies in it."""
        if site is None:
            return False
        while record is not None:
            site = record.span
            record = record.parent
        line, column, _ = self.places.spans[site]
        first, first_col, last, last_col = statement
        return (first, first_col) <= (line, column) and (line, column) <= (last, last_col)

    def add_input(self, key: str, x: object, attr: str | None) -> None:
        base, n = key, 0
        while key in self.inputs:
            n += 1
            key = numbered(base, n)
        self.inputs[key] = x
        if key in self.given:
            if attr is not None:
                setattr(x, attr, self.given[key])
            else:
                from engine.guest.learner import set_data

                set_data(x, self.given[key])

    def name_attribute(self, stored: object, attr: str) -> None:
        """``obj.attr = stored``: a value or object, or those in a list (w[0], w[1], ...)."""
        kind = type(stored)
        if kind in self.nameable:
            if isinstance(stored, Value):
                if stored.name is None and not stored.constant:
                    stored.name = Inner(attr)
            else:
                info = self.objects.get(id(stored))
                if info is not None and info.attr is None and info.alive(stored):
                    info.attr = attr
        elif (kind is list or kind is tuple) and attr.count("[") < 2:
            for i, item in enumerate(stored[:10_000]):  # type: ignore[index]
                if type(item) in self.nameable or type(item) in (list, tuple):
                    self.name_attribute(item, f"{attr}[{i}]")

    # the program's objects (engine.guest.learner calls these) --------------------------------

    def register(self, obj: object) -> Info:
        """``obj`` of the program's classes is being made: number it, note where."""
        places = self.places
        frame = places.innermost(_getframe(2))  # register <- __init__ or __setattr__ <- the maker
        lifted = frame is not None and id(frame.f_code) in places.engine
        if frame is not None:  # where the program made it: the line that called the engine
            frame = places.outside_engine(frame)
        record = places.enter(frame) if frame is not None else None
        site = places.site(frame) if frame is not None else places.span(1, 1, 2)
        try:
            ref: Callable[[], object] | None = weakref.ref(obj)
            held = None
        except TypeError:  # __slots__ without __weakref__: kept alive instead
            ref, held = None, obj
        info = Info(ref, held, self.made_count, site, record, len(self.log), lifted)
        self.made_count += 1
        self.ticks += 1
        if not self.ticks & 0xFFF:
            self.now_and_then(places.spans[site][0])
        self.objects[id(obj)] = info
        if len(self.objects) >= self.sweep_at:
            self._sweep()
        return info

    def _sweep(self) -> None:
        self.objects = {
            k: i for k, i in self.objects.items() if i.ref is None or i.ref() is not None
        }
        self.sweep_at = max(4096, 2 * len(self.objects))

    def info(self, obj: object) -> Info | None:
        info = self.objects.get(id(obj))
        return info if info is not None and info.alive(obj) else None

    def attribute(self, name: str) -> int:
        found = self.attributes.get(name)
        if found is None:
            found = self.attributes[name] = len(self.attributes)
        return found

    def wrote(self, info: Info, name: str, before: object, after: object, frame: FrameType) -> None:
        """A number written to an attribute of one of the program's objects."""
        log = self.log
        code = frame.f_code
        by_code = self.write_sites.get(id(code))
        found = by_code.get(frame.f_lasti) if by_code is not None else None
        if found is None:
            user = self.places.innermost(frame)
            found = (
                self.statement_of(user) if user is not None else (self.places.span(1, 1, 2), False)
            )
            if by_code is None:
                by_code = self.write_sites[id(code)] = {}
                self.places.codes.append(code)
            by_code[frame.f_lasti] = found
        span, augmented = found
        log.obj.append(info.index)
        log.attr.append(self.attribute(name))
        number = is_number(before)
        log.flags.append((AUGMENTED if augmented else 0) | (BEFORE_NUMBER if number else 0))
        log.before.append(_float(before) if number else math.nan)
        log.after.append(_float(after))
        log.span.append(span)
        log.top.append(self.top_statement())
        log.kept.append(self.open[-1] if self.open else -1)

    def top_statement(self) -> int:
        """The span of the top-level statement running (its instruction)."""
        module = self.module
        if module is None:
            f = getframe(1)
            while f is not None and not (
                f.f_code.co_filename == PROGRAM and f.f_code.co_name == "<module>"
            ):
                f = f.f_back  # type: ignore[assignment]
            if f is None:
                return self.places.span(1, 1, 2)
            self.module = module = f
        return self.places.site(module)

    def call_began(self, owner: Info | None, attr: str, function: object, caller: FrameType) -> int:
        kept = self.kept
        code = getattr(function, "__code__", None)
        line = code.co_firstlineno if code is not None and code.co_filename == PROGRAM else 0
        user = self.places.innermost(caller)
        kept.owner.append(owner.index if owner is not None else -1)
        kept.attr.append(self.attribute(attr))
        kept.function.append(self.places.line_span(line) if line else -1)
        kept.span.append(self.places.site(user) if user is not None else -1)
        kept.parent.append(self.open[-1] if self.open else -1)
        kept.first.append(len(self.log))
        kept.end.append(-1)
        index = len(kept) - 1
        self.open.append(index)
        return index

    def call_ended(self, index: int) -> None:
        kept = self.kept
        if index >= kept.base:
            kept.end[index - kept.base] = len(self.log)
        if self.open and self.open[-1] == index:
            self.open.pop()
        elif index in self.open:
            self.open.remove(index)

    def statement_of(self, frame: FrameType) -> tuple[int, bool]:
        """The span id of the statement ``frame`` runs, and whether it is augmented (+=)."""
        places = self.places
        site = places.site(frame)
        line, column, _ = places.spans[site]
        found = self.statements.get((line, column))
        if found is None:
            return site, False
        span, augmented = found
        return places.span(*span), augmented


def _loss(root: object) -> float:
    """An unwatched pass's output's number."""
    if isinstance(root, Value):
        return root.data
    from engine.guest.learner import data_attribute

    attr = data_attribute(root)
    return _float(getattr(root, attr)) if attr is not None else math.nan


def _float(x: object) -> float:
    try:
        return float(x)  # type: ignore[arg-type]
    except (OverflowError, TypeError, ValueError):
        return math.nan
