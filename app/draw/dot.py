"""DOT from a trace, in micrograd's look: a record per value, a small node per op.

Ids and classes follow docs/graph-contract.md. Numbers are not part of the DOT that is laid out:
every value gets the same fixed-width placeholder texts, so the layout depends on the graph's
structure only and can be cached; the real texts are written into the SVG afterwards
(``app.draw.texts``).
"""

from __future__ import annotations

from typing import Literal

from app.numbers import BOX_CHARS
from engine.errors import GradstepError
from engine.trace import Trace

Rankdir = Literal["LR", "TB"]
Direction = Literal["LR", "TB", "auto"]  # auto: the one that shows the graph largest

MAX_DRAWN_VALUES = 2_000  # past this a graph is too big to read, and to lay out promptly
BIG_GRAPH_VALUES = 300  # from here on, network-simplex work is bounded (nslimit, nslimit1)
MAX_LABEL_CHARS = 16  # longer names are cut: the box should fit the graph, not the name
PLACEHOLDER = "0" * BOX_CHARS  # a number's room in a box: digits are the widest characters
FONT = "Helvetica"  # both backends measure it alike; the page draws DejaVu Sans Condensed

_RECORD_SPECIALS = frozenset('{}|<>"\\ ')


def short_label(name: str) -> str:
    """A name as drawn: cut to MAX_LABEL_CHARS, control characters shown as spaces."""
    text = "".join(" " if ch < " " or ch == "\x7f" else ch for ch in name)
    if len(text) > MAX_LABEL_CHARS:
        text = text[: MAX_LABEL_CHARS - 1] + "…"
    return text


def record_field(text: str) -> str:
    """``text`` escaped for a field of a DOT record label: nothing in it can open a field,
    a port or a string, and ``&`` is not read as the start of an entity."""
    out = []
    for ch in text:
        if ch in _RECORD_SPECIALS:
            out.append("\\" + ch)
        elif ch == "&":
            out.append("&amp;")
        else:
            out.append(ch)
    return "".join(out) or "\\ "  # an empty field draws no text element at all


def check_drawable(count: int) -> None:
    if count > MAX_DRAWN_VALUES:
        raise GradstepError(
            f"this graph has {count:,} values; gradstep draws at most {MAX_DRAWN_VALUES:,} "
            "(a drawing that large would be unreadable): make the program smaller",
            kind="limit",
        )


# Sizes of the drawing in points, for choosing a direction before any layout: a value's box
# (three fields) and an op's ellipse, and Graphviz's default gaps between ranks and nodes.
_VALUE_BOX = (72.0, 60.0)
_OP_BOX = (22.0, 18.0)
_RANKSEP, _NODESEP = 11.5, 8.6
SLIDE_ASPECT = 16 / 9  # the view an image or an export is drawn for


def choose_rankdir(trace: Trace, aspect: float | None = None) -> Rankdir:
    """The direction in which the graph, fitted to a view of ``aspect`` (width / height), is
    drawn largest: a long chain left to right, a wide tree top to bottom. Estimated from the
    graph's ranks (longest path from the inputs), as Graphviz will place them."""
    aspect = aspect if aspect and 0.1 < aspect < 10 else SLIDE_ASPECT
    rank: dict[int, int] = {}
    for n in sorted(trace.nodes, key=lambda n: n.topo):
        rank[n.id] = 0
    for e in sorted(trace.edges, key=lambda e: trace.nodes[e.target].topo):
        rank[e.target] = max(rank[e.target], rank[e.source] + 2)  # value → op → value
    width: dict[int, int] = {}
    for n in trace.nodes:
        width[rank[n.id]] = width.get(rank[n.id], 0) + 1
        if n.op is not None:
            width[rank[n.id] - 1] = width.get(rank[n.id] - 1, 0) + 1
    ranks = max(width) + 1
    values, ops = (ranks + 1) // 2, ranks // 2
    breadth = max(width.values())
    along = values * _VALUE_BOX[0] + ops * _OP_BOX[0] + _RANKSEP * (ranks - 1)
    across = breadth * (_VALUE_BOX[1] + _NODESEP)
    lr = min(aspect / along, 1 / across)
    along = values * _VALUE_BOX[1] + ops * _OP_BOX[1] + _RANKSEP * (ranks - 1)
    across = breadth * (_VALUE_BOX[0] + _NODESEP)
    tb = min(aspect / across, 1 / along)
    return "LR" if lr >= tb else "TB"


def dot_source(trace: Trace, rankdir: Rankdir = "LR") -> str:
    """The DOT the server lays out: structure only, numbers as fixed-width placeholders.

    The compact style: a value is its name above its data and its grad (one column, in either
    direction); an op is a small ellipse; a constant is just its number. Written directly rather
    than through ``graphviz.Digraph``: for a 1,000-value graph that is milliseconds instead of
    tens of them. Every label goes through ``record_field``, which escapes ``"`` and ``\\``
    too, so nothing can leave its quoted string.
    """
    check_drawable(len(trace.nodes))
    graph = f"rankdir={rankdir} nodesep=0.12 ranksep=0.16"
    if len(trace.nodes) > BIG_GRAPH_VALUES:
        # Bound network simplex and crossing minimisation: a 1,500-value graph then lays out in
        # about a second, at the price of a few longer edges.
        graph += " nslimit=2 nslimit1=2 mclimit=0.2"
    lines = [
        f"digraph {{\n\tgraph [{graph}]\n",
        f'\tnode [fontname="{FONT}" fontsize=14 margin="0.06,0.02"]\n',
        "\tedge [arrowsize=0.6]\n",
    ]
    column = "{{{}}}" if rankdir == "TB" else "{}"  # a record's fields stacked, either way
    for n in trace.nodes:
        name = record_field(short_label(n.name))
        if n.kind == "constant":
            label, shape = name, "box"
        else:
            label, shape = column.format(f"{name} | {PLACEHOLDER} | {PLACEHOLDER}"), "record"
        lines.append(
            f'\tn{n.id} [label="{label}" class="value kind-{n.kind}" id=n{n.id} shape={shape}]\n'
        )
        if n.op is not None:
            symbol = record_field(n.symbol or n.op)
            lines.append(
                f'\top{n.id} [label="{symbol}" class="op op-{n.op}" id=op{n.id} shape=ellipse'
                " width=0.3 height=0.25 fontsize=12]\n"
            )
            lines.append(f"\top{n.id} -> n{n.id} [class=result id=r{n.id}]\n")
    for e in trace.edges:
        edge_id = f'"e{e.target}-{e.position}"'
        lines.append(f"\tn{e.source} -> op{e.target} [class=operand id={edge_id}]\n")
    lines.append("}\n")
    return "".join(lines)
