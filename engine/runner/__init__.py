"""Programs run in real CPython inside a WebAssembly sandbox (docs/language.md): the host's
side. ``run`` hands a program to the sandbox (engine.runner.sandbox) and reads its record
(engine.program); the guest's side, what runs inside, is engine.guest.

A run's record holds every pass of ``backward()`` the program made, so every iteration of a
training loop is answered from one run: the last records are kept (``RECORDS``), by the text,
the values given and the engine asked for.
"""

from __future__ import annotations

import json
import math
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Literal

from engine.errors import GradstepError, Span
from engine.limits import (
    DEFAULT_LIMITS,
    MAX_CONSOLE_CHARS,
    MAX_ITERATIONS,
    MAX_KEPT_NODES,
    MAX_NODES,
    MAX_PARENTS,
    MAX_SOURCE_CHARS,
    RunLimits,
)
from engine.program import EMPTY, NOTHING_DRAWN, Program, Run, read_run
from engine.runner.sandbox import Exhausted, Sandbox

Engine = Literal["auto", "gradstep"]  # auto: the program's own class when it has one
Site = tuple[int, int]  # where a backward() is called: its line and column
# Characters that reorder or hide text ("Trojan Source"): refused even inside comments.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
MAX_NAME_CHARS = 100  # an input's name given in values
FUEL_PER_SECOND = 2.7e9  # measured here: 2.4e9 to 3.2e9 a second (docs/benchmarks.md)
MAX_RECORD_CHARS = 64 * 2**20  # the longest record of a run the host reads
RECORDS_KEPT = 16  # runs kept, so that another iteration of a loop needs no run of its own
PREPARED_KEPT = 64  # programs' prepared code kept (half a run's time, for a 300-line program)
MAX_PREPARED_CHARS = 4 * 2**20  # ...each at most this long


# The sandbox is the process's: compiling its component takes seconds (building it, a minute),
# so it is loaded once and shared by every run, whatever limits each is given. It holds no
# limit of its own: fuel and memory are given to each run (``RunLimits``).
_sandbox: Sandbox | None = None
_sandbox_lock = threading.Lock()
_records: OrderedDict[tuple[str, str, str, str, str], Run] = OrderedDict()
_records_lock = threading.Lock()
# a program's prepared code (engine/guest/source.py), as the guest told it before the program
# ran, by its text and engine: its next runs (another value, iteration or nudge) skip reading it
_prepared: OrderedDict[tuple[str, str], str] = OrderedDict()


def sandbox(folder: Path | None = None) -> Sandbox:
    """The process's sandbox (its component loaded on first use), kept in ``folder`` (None: the
    one in use, else ~/.cache/gradstep). Another folder replaces it, for every run after."""
    global _sandbox
    with _sandbox_lock:
        if _sandbox is None or _sandbox.folder != (folder or _sandbox.folder):
            _sandbox = Sandbox(folder)
        return _sandbox


def run(
    source: str,
    values: Mapping[str, float] | None = None,
    engine: Engine = "auto",
    iteration: int | None = None,
    limits: RunLimits = DEFAULT_LIMITS,
) -> Program:
    """Run ``source`` within ``limits`` and return the graph to draw: the output's, or
    ``iteration`` of its training loop (a loop whose ``backward()`` runs on a new graph each
    time; None: its first). ``values`` sets inputs by name; ``engine`` "gradstep" puts
    gradstep's Value in place of the program's own value class (the page's engine switch)."""
    check_text(source)
    given = check_values(values or {})
    record = run_record(source, given, engine, limits=limits)
    if record.error is not None:
        raise record.error
    picked = pick(source, given, engine, record, iteration, limits)
    program = replace(picked, engine_choice=engine)
    unknown = [name for name in given if name not in program.graph.inputs]
    if unknown and program.graph.parents:
        names = ", ".join(repr(n[:40]) for n in unknown[:5])
        known = ", ".join(program.graph.inputs) or "none"
        raise GradstepError(
            f"values given for {names}, which {'is' if len(unknown) == 1 else 'are'} "
            f"not an input of this program (its inputs: {known[:200]})",
            kind="name",
        )
    return program


def run_record(
    source: str,
    given: dict[str, float],
    engine: str = "auto",
    watch: tuple[Site, int] | None = None,
    limits: RunLimits = DEFAULT_LIMITS,
) -> Run:
    """The record of one run within ``limits`` (``watch``: a loop's site and an iteration of it
    to keep, besides its first two), kept for the next request that asks for the same."""
    key = (source, json.dumps(given, sort_keys=True), engine, repr(watch),
           f"{limits.fuel}/{limits.memory_mb}")  # fmt: skip
    with _records_lock:
        found = _records.get(key)
        if found is not None:
            _records.move_to_end(key)
            return found
    record = _call(source, given, engine, None, limits, watch)
    with _records_lock:
        _records[key] = record
        while len(_records) > RECORDS_KEPT:
            _records.popitem(last=False)
    return record


def rerun(
    source: str,
    given: dict[str, float],
    engine: str,
    nudge: tuple[int, float],
    limits: RunLimits,
    watch: tuple[Site, int] | None = None,
) -> Run:
    """The program run again within ``limits`` with the ``nudge[0]``-th object of its classes
    moved by ``nudge[1]`` just after it is made (a learner's engine's numerical derivatives)."""
    return _call(source, given, engine, nudge, limits, watch)


def _call(
    source: str,
    given: dict[str, float],
    engine: str,
    nudge: tuple[int, float] | None,
    limits: RunLimits,
    watch: tuple[Site, int] | None = None,
) -> Run:
    key = (source, engine)
    with _records_lock:
        ready = _prepared.get(key)
        if ready is not None:
            _prepared.move_to_end(key)
    budget = limits.fuel
    request = json.dumps(
        {
            "source": source,
            "prepared": ready,
            "values": given,
            "engine": engine,
            "nudge": list(nudge) if nudge else None,
            "watch": {"site": list(watch[0]), "iteration": watch[1]} if watch else None,
            "limits": {
                "max_nodes": MAX_NODES,
                "max_parents": MAX_PARENTS,
                "max_kept_nodes": MAX_KEPT_NODES,
                "max_console_chars": MAX_CONSOLE_CHARS,
                "max_iterations": MAX_ITERATIONS,
                # a run that makes values stops itself when a quarter of its fuel is left,
                # keeping its record (the same place each time); the fuel is the bound that
                # holds whatever runs, and the seconds what it stands for here (for the message)
                "fuel": budget,
                "reserve": budget // 4,
                "seconds": budget / FUEL_PER_SECOND,
            },
        }
    )
    told: list[str] = []
    text, used = sandbox().call(request, budget, limits.memory_mb * 2**20, told)
    if told and len(told[0]) <= MAX_PREPARED_CHARS:
        with _records_lock:
            _prepared[key] = told[0]
            while len(_prepared) > PREPARED_KEPT:
                _prepared.popitem(last=False)
    if len(text) > MAX_RECORD_CHARS:
        raise GradstepError(
            f"the program's record is {len(text) / 2**20:.0f} MB, more than gradstep reads "
            f"({MAX_RECORD_CHARS // 2**20} MB): fewer iterations or a smaller model would fit",
            kind="limit",
        )
    try:  # the record is the sandbox's: the program inside could have changed what it says
        return read_run(json.loads(text), used)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        raise GradstepError("the sandbox's record of this run could not be read",
                            kind="internal") from None  # fmt: skip


def pick(
    source: str,
    given: dict[str, float],
    engine: str,
    record: Run,
    iteration: int | None,
    limits: RunLimits = DEFAULT_LIMITS,
) -> Program:
    """The graph of ``record`` to draw: ``iteration`` of its training loop (None: the first),
    or the output's. An iteration the run did not watch is asked of a run that watches it
    (within ``limits``, those of ``record``'s run)."""
    loop = loop_of(record)
    chosen = record.drawn
    index = None
    if iteration is not None:
        if not 0 <= iteration < len(loop) or len(loop) < 2:
            count = len(loop)
            raise GradstepError(
                f"this program has no iteration {iteration}: "
                + (f"its loop ran {count} (0 to {count - 1})" if count > 1 else
                   "it has no training loop (a loop that calls backward() on a new graph)"),
                kind="name",
            )  # fmt: skip
        index = iteration
    elif record.drawn_pass is not None and record.drawn_pass in loop and len(loop) > 1:
        index = 0  # a training loop opens on its first iteration
    if index is not None:
        chosen = record.passes[loop[index]]
        if not chosen.watched:
            again = run_record(source, given, engine, (chosen.site, index), limits)
            if again.error is not None:
                raise again.error
            chosen = again.passes[loop_of(again)[index]]
    if chosen is None:  # it ran: what it printed and plotted is shown, with a note
        return Program(source, EMPTY, given, record.console, (*record.notes, NOTHING_DRAWN),
                       record.plots, engines=record.engines, own_class=record.own_class,
                       fuel=record.fuel, limits=limits)  # fmt: skip
    if chosen.graph is None:
        raise GradstepError(
            f"this graph has {chosen.size:,} values; gradstep keeps at most {MAX_NODES:,} "
            "(a smaller model, or fewer points in a batch, would fit)",
            kind="limit",
        )
    losses = tuple(record.passes[i].loss for i in loop) if index is not None else ()
    watched = (chosen.site, index) if index is not None else None
    return Program(
        source=source,
        graph=chosen.graph,
        given=given,
        console=record.console,
        notes=record.notes,
        plots=record.plots,
        losses=losses,
        iteration=index,
        engines=record.engines,
        own_class=record.own_class,
        fuel=record.fuel,
        watched=watched,
        limits=limits,
    )


def loop_of(record: Run) -> list[int]:
    """The passes made where the last one's backward() is called: the training loop's."""
    if not record.passes:
        return []
    site = record.passes[-1].site
    return [i for i, p in enumerate(record.passes) if p.site == site]


def check_values(values: Mapping[str, float]) -> dict[str, float]:
    if not isinstance(values, Mapping):
        raise GradstepError("values must map input names to numbers", kind="type")
    checked: dict[str, float] = {}
    for name, x in values.items():
        if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
            shown = repr(name)[:40]
            raise GradstepError(f"an input's name is text of 1 to {MAX_NAME_CHARS} characters, "
                                f"not {shown}", kind="type")  # fmt: skip
        if isinstance(x, bool) or not isinstance(x, int | float):
            raise GradstepError(f"the value of {name} must be a number, not {x!r:.40}", kind="type")
        try:
            f = float(x)
        except OverflowError:
            raise GradstepError(f"the value of {name} is too large", kind="overflow") from None
        if not math.isfinite(f):
            raise GradstepError(f"the value of {name} must be a finite number, not {f}")
        checked[name] = f
    return checked


def check_text(source: str) -> None:
    """Refusals of the text itself, before it is run: its length, and characters that hide or
    reorder what the editor shows."""
    if not isinstance(source, str):
        raise GradstepError(f"the source must be text, not {type(source).__name__}", kind="type")
    if len(source) > MAX_SOURCE_CHARS:
        raise GradstepError(
            f"the program has {len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,}",
            kind="limit",
            span=_position(source, MAX_SOURCE_CHARS),
        )
    for i, ch in enumerate(source):
        if ch == "\x00" or ch in _INVISIBLE or "\ud800" <= ch <= "\udfff":
            name = unicodedata.name(ch, "a control character")
            span = _position(source, i)
            raise GradstepError(
                f"invisible character U+{ord(ch):04X} ({name}) at line {span.line}, "
                f"column {span.column}: delete it",
                kind="syntax",
                span=Span(span.line, span.column, span.column + 1),
            )


def _position(source: str, index: int) -> Span:
    """The span from character ``index`` to the end of its line."""
    line = source.count("\n", 0, index) + 1
    start = source.rfind("\n", 0, index) + 1
    end = source.find("\n", index)
    end = len(source) if end < 0 else end
    return Span(line, index - start + 1, max(end - start, index - start + 1) + 1)


__all__ = ["Engine", "Exhausted", "RunLimits", "check_text", "rerun", "run", "run_record",
           "sandbox"]  # fmt: skip
