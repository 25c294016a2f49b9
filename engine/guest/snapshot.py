"""A graph as plain data, kept when its backward pass runs (or when the run ends): every value
the output depends on, through gradstep's operands or the program's own parent links, in the
order they were made, with what each one is, where the program made it and what it holds.

One shape for both engines (the host's ``engine.program`` reads it): ``parents``, ``ops``,
``data``, ``grad``, ``spans``, ``calls``, ``names``, ``labels``, ``inputs``; gradstep's values
add the op table's local derivatives (``locals``) and which leaves are constants; the program's
own objects add the attributes read (``fields``), the order each was made (``made``), the
leaves their methods lifted from plain numbers (``lifted``), and their backward pass as they ran
it: the gradient writes (``writes``) and the kept functions' calls (``kept``).
"""

from __future__ import annotations

import base64
import bisect
import math
from array import array
from operator import attrgetter
from typing import Any

from engine.errors import GradstepError
from engine.graph import topological_order
from engine.guest.places import PROGRAM, CallRecord
from engine.guest.recorder import (
    AUGMENTED,
    BEFORE_NUMBER,
    DATA,
    GRAD,
    LABEL,
    OP,
    PARENTS,
    Info,
    Pass,
    Recorder,
    field,
    is_number,
)  # fmt: skip
from engine.value import Value, arrays


# The names tutorials give each part of a node, most common first.
class Unreadable(Exception):
    """The output is an object of the program's, but not one gradstep can read as a node."""


def take(
    recorder: Recorder, root: object, done: Pass | None, order: list[Value] | None = None
) -> Pass:
    """The pass of a backward() on ``root`` (``done``: the pass it began, if it ran before;
    ``order``: gradstep's values in topological order, if backward() has it)."""
    p = done or Pass((0, 0), math.nan, root, None, 0)
    if isinstance(root, Value):
        if done is None or math.isnan(p.loss):
            p.loss = root.data
        if done is not None and p.graph is not None:
            return p  # gradstep's values: its numbers are the same each time
        order = order if order is not None else topological_order(root)
        p.size = len(order)
        if _keep(recorder, p.size):
            p.graph, p.data = gradstep_graph(recorder, order)
            p.ids = serials(order)
        return p
    nodes, fields = own_nodes(recorder, root)
    p.size = len(nodes)
    if done is None or math.isnan(p.loss):
        p.loss = _number(getattr(root, fields["data"], math.nan))
    if done is not None and p.graph is not None:
        recorder.kept_nodes -= p.size
    p.graph = own_graph(recorder, root, nodes, fields) if _keep(recorder, p.size) else None
    return p


# A training loop's iterations past the ones watched, of gradstep's values: each is kept as its
# numbers alone (data and grads, in the topological order backward() made), ``like`` the watched
# pass of its site when it has as many values, so that any iteration is answered from the first
# run. The host reads it with the like's structure, and checks it: every op's value computed
# again from its operands' must be its own (engine.program), else the iteration is run again,
# watched. Maps alone here, no Python loop per value: this runs at every iteration.
_DATA, _GRAD = attrgetter("data"), attrgetter("grad")


def serials(order: list[Value]) -> dict[int, int]:
    """Each value's position in ``order``, by its serial number (an update's node)."""
    return dict(zip(map(attrgetter("serial"), order), range(len(order)), strict=True))


def numbers(recorder: Recorder, p: Pass, order: list[Value]) -> None:
    index, size, ids = recorder.shapes[p.site]
    if len(order) != size or not _keep(recorder, size):
        return
    data = list(map(_DATA, order))
    p.graph = {"like": index, "numbers": True, "data": packed(data),
               "grad": packed(list(map(_GRAD, order))), "updates": []}  # fmt: skip
    # its updates' nodes: the watched pass's (a parameter keeps its serial, and its place in a
    # graph shaped alike)
    p.size, p.ids, p.data, p.watched = size, ids, data, True


# what differs between a loop's iterations: their numbers, and their calls, which are new
# calls each time (numbered alike per graph by the host)
OWN = ("data", "grad", "locals", "updates", "calls")


def share_structures(recorder: Recorder, passes: list[dict[str, Any]]) -> None:
    """A training loop's iterations mostly have one structure: a pass of gradstep's values whose
    graph is the last kept one's but for its numbers says so (``like``), with its own parts
    only."""
    last: dict[str, Any] | None = None
    last_calls: list[Any] = []
    at = -1
    for i, p in enumerate(passes):
        g = p["graph"]
        if g is None or "like" in g or g["engine"] != "gradstep":
            continue  # not gradstep's values, or already numbers alone
        calls = _calls_alike(recorder, g["calls"])
        if (
            last is not None
            and calls == last_calls
            and all(g[k] == last[k] for k in g if k not in OWN)
        ):
            p["graph"] = {"like": at, **{k: g[k] for k in OWN}}
        else:
            last, last_calls, at = g, calls, i


def _calls_alike(recorder: Recorder, innermost: list[int | None]) -> list[Any]:
    """A graph's calls as two graphs made alike have them: numbered in order, with names,
    places and parents."""
    used = sorted({c for c in innermost if c is not None})
    rank = {c: k for k, c in enumerate(used)}
    records = recorder.calls_used
    table = [
        (records[c].name, records[c].span, rank.get(p.id, -1) if (p := records[c].parent) else None)
        for c in used
    ]  # fmt: skip
    return [[rank.get(c) if c is not None else None for c in innermost], table]


def packed(xs: list[float]) -> str:
    """Numbers as the host reads them fastest: IEEE doubles, base64 (engine.program.unpacked)."""
    return base64.b64encode(array("d", xs).tobytes()).decode("ascii")


def _keep(recorder: Recorder, size: int) -> bool:
    if size > recorder.limits["max_nodes"]:
        return False
    if recorder.kept_nodes + size > recorder.limits["max_kept_nodes"]:
        return False
    recorder.kept_nodes += size
    return True


def _number(x: object) -> float:
    return float(x) if is_number(x) and math.isfinite(float(x)) else math.nan  # type: ignore[arg-type]


# gradstep's values -----------------------------------------------------------------------------


def gradstep_graph(recorder: Recorder, order: list[Value]) -> tuple[dict[str, Any], list[float]]:
    ids = {id(v): i for i, v in enumerate(order)}
    inputs = {k: ids[id(v)] for k, v in recorder.inputs.items() if id(v) in ids}
    plain = arrays(order)
    return (
        {
            "engine": "gradstep",
            "class": "",
            **plain,
            "data": packed(plain["data"]),
            "grad": packed(plain["grad"]),
            "locals": packed(plain["locals"]),
            "spans": [v.site for v in order],
            "calls": [_call(recorder, v.call) for v in order],  # type: ignore[arg-type]
            "inputs": inputs,
            "updates": [],
        },
        plain["data"],
    )


def _call(recorder: Recorder, record: CallRecord | None) -> int | None:
    """The record's id, and the records around it noted for the answer."""
    if record is None:
        return None
    calls = recorder.calls_used
    r: CallRecord | None = record
    while r is not None and r.id not in calls:
        calls[r.id] = r
        r = r.parent
    return record.id


# the program's own objects ---------------------------------------------------------------------


def find_fields(recorder: Recorder, root: object) -> dict[str, str | None]:
    """The attributes of the output's class by the names tutorials use, checked on it."""
    name = type(root).__name__
    what = f"an instance of your class {name}"
    data = field(root, DATA, is_number)
    if data is None:
        raise Unreadable(
            f"the program's output is {what}, but gradstep cannot find its number: name the "
            f"attribute one of {', '.join(DATA)}"
        )
    grad = field(root, GRAD, is_number)
    if grad is None:
        raise Unreadable(
            f"the program's output is {what}, but it has no gradient: an attribute named "
            f"{' or '.join(GRAD)} holding a number, set to 0 when the node is made "
            "(self.grad = 0.0 in __init__)"
        )
    parents = field(root, PARENTS, lambda x: isinstance(x, list | tuple | set | frozenset))
    parents = parents or field(root, PARENTS, lambda x: isinstance(x, dict))
    op = field(root, OP, lambda x: isinstance(x, str))
    label = field(root, LABEL, lambda x: isinstance(x, str))
    return {"data": data, "grad": grad, "parents": parents, "op": op, "label": label}


def members(collection: object) -> list[object]:
    if isinstance(collection, list | tuple):
        return list(collection)
    if isinstance(collection, set | frozenset | dict):
        return list(collection)
    return []


def own_nodes(recorder: Recorder, root: object) -> tuple[list[tuple[object, Info]], dict[str, Any]]:
    """Every object of the program's the output is computed from, through the parent links, in
    the order they were made."""
    fields = find_fields(recorder, root)
    parents = fields["parents"]
    info = recorder.info(root)
    if info is None:
        raise Unreadable(f"gradstep did not see your {type(root).__name__} made")
    seen = {id(root): (root, info)}
    stack = [root]
    limit = recorder.limits["max_nodes"] * 4
    most = recorder.limits.get("max_parents", 1_000)
    while stack and len(seen) <= limit:
        node = stack.pop()
        ps = members(_get(node, parents)) if parents else []
        if len(ps) > most:  # read before it is walked or sent (the host checks it again)
            raise GradstepError(
                f"a value has {len(ps):,} operands in its parents; gradstep draws a value of "
                f"at most {most:,}",
                kind="limit",
            )
        for p in ps:
            if id(p) not in seen:
                found = recorder.info(p)
                if found is not None:
                    seen[id(p)] = (p, found)
                    stack.append(p)
    return sorted(seen.values(), key=lambda pair: pair[1].index), fields


def _get(obj: object, attr: str | None) -> object:
    if attr is None:
        return None
    try:
        return object.__getattribute__(obj, attr)
    except AttributeError:
        return None


def own_graph(
    recorder: Recorder, root: object, nodes: list[tuple[object, Info]], fields: dict[str, Any]
) -> dict[str, Any]:
    cls = type(root)
    objects = [o for o, _ in nodes]
    infos = [i for _, i in nodes]
    ids = {id(o): k for k, o in enumerate(objects)}
    by_index = {info.index: k for k, info in enumerate(infos)}
    parents = [
        [ids[id(p)] for p in members(_get(o, fields["parents"])) if id(p) in ids]
        if fields["parents"]
        else []
        for o in objects
    ]
    ops = [
        str(_get(o, fields["op"]) or "") if fields["op"] and parents[k] else None
        for k, o in enumerate(objects)
    ]
    label_attr = fields["label"]
    labels = [_get(o, label_attr) if label_attr else None for o in objects]
    root_info = recorder.info(root)
    assert root_info is not None
    writes, kept, data_before = _pass_writes(recorder, root_info, by_index, fields)
    data = []
    for k, o in enumerate(objects):
        x = data_before.get(k, _get(o, fields["data"]))
        data.append(_number(x))
    spans = [info.site for info in infos]
    calls = [_call(recorder, info.record) for info in infos]
    lifted = [not parents[k] and info.lifted for k, info in enumerate(infos)]
    inputs: dict[str, int] = {}
    for key, x in recorder.inputs.items():
        node = ids.get(id(x))
        if node is not None and not parents[node]:
            inputs[key] = node
    return {
        "engine": "program",
        "class": cls.__name__,
        "fields": fields,
        "parents": parents,
        "ops": ops,
        "data": packed(data),
        "grad": packed([_number(_get(o, fields["grad"])) for o in objects]),
        "spans": spans,
        "calls": calls,
        "names": [info.name or info.attr for info in infos],
        "labels": [x if isinstance(x, str) and x else None for x in labels],
        "inputs": inputs,
        "made": [info.index for info in infos],
        "lifted": [k for k, x in enumerate(lifted) if x],
        "writes": writes,
        "kept": kept,
        "backward": _backward_def(recorder, cls),
    }


def _backward_def(recorder: Recorder, cls: type) -> int | None:
    """Where the engine class's backward is written: a missing seed belongs there."""
    method = getattr(cls, "backward", None)
    code = getattr(getattr(method, "__wrapped__", method), "__code__", None)
    if code is None or code.co_filename != PROGRAM:
        return None
    return recorder.places.line_span(code.co_firstlineno)


def _pass_writes(
    recorder: Recorder, root: Info, by_index: dict[int, int], fields: dict[str, Any]
) -> tuple[list[list[Any]], list[list[int]], dict[int, float]]:
    """The gradient writes to the graph's nodes since the output was made, the kept calls in that
    time, and each node's number before the first later change of it (its forward number)."""
    log, kept_calls = recorder.log, recorder.kept
    grad = recorder.attributes.get(fields["grad"], -1)
    data = recorder.attributes.get(fields["data"], -1)
    start = max(root.born, log.base)
    writes: list[list[Any]] = []
    at: dict[int, int] = {}  # global log position -> index in writes
    data_before: dict[int, float] = {}
    for g in range(start, len(log)):
        k = g - log.base
        node = by_index.get(log.obj[k])
        if node is None:
            continue
        attr = log.attr[k]
        if attr == data and node not in data_before and log.flags[k] & BEFORE_NUMBER:
            data_before[node] = log.before[k]
        if attr != grad:
            continue
        at[g] = len(writes)
        flags = log.flags[k]
        before = log.before[k] if flags & BEFORE_NUMBER else None
        writes.append([node, before, log.after[k], log.span[k], bool(flags & AUGMENTED),
                       log.kept[k], log.top[k]])  # fmt: skip
    positions = list(at)  # increasing: the writes' log positions, write i at positions[i]
    kept: list[list[int]] = []
    number: dict[int, int] = {}
    for g in range(kept_calls.base, len(kept_calls)):
        k = g - kept_calls.base
        first = kept_calls.first[k]
        if first < start:
            continue
        end = kept_calls.end[k]
        number[g] = len(kept)
        owner = by_index.get(kept_calls.owner[k], -1)
        parent = number.get(kept_calls.parent[k], -1)
        first_write = bisect.bisect_left(positions, first)
        end_write = bisect.bisect_left(positions, end) if end >= 0 else -1
        kept.append([owner, kept_calls.attr[k], kept_calls.function[k], kept_calls.span[k],
                     parent, first_write, end_write])  # fmt: skip
    for w in writes:  # the kept call each write ran in, renumbered
        w[5] = number.get(w[5], -1)
    return writes, kept, data_before
