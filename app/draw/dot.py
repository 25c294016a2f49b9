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
# (three rows, and the op's cell), and the gaps between ranks and between nodes.
_VALUE_BOX = (82.0, 58.0)
_RANKSEP, _NODESEP = 7.2, 8.6
SLIDE_ASPECT = 16 / 9  # the view an image or an export is drawn for


def choose_rankdir(trace: Trace, aspect: float | None = None) -> Rankdir:
    """The direction in which the graph, fitted to a view of ``aspect`` (width / height), is
    drawn largest: a long chain left to right, a wide tree top to bottom. Estimated from the
    graph's ranks (longest path from the inputs), as Graphviz will place them."""
    aspect = aspect if aspect and 0.1 < aspect < 10 else SLIDE_ASPECT
    rank = dict.fromkeys(range(len(trace.nodes)), 0)
    for e in sorted(trace.edges, key=lambda e: e.target):  # ids are in creation order
        rank[e.target] = max(rank[e.target], rank[e.source] + 1)
    width: dict[int, int] = {}
    for r in rank.values():
        width[r] = width.get(r, 0) + 1
    ranks, breadth = max(width) + 1, max(width.values())
    box_w, box_h = _VALUE_BOX
    lr = min(aspect / (ranks * (box_w + 2 * _RANKSEP)), 1 / (breadth * (box_h + _NODESEP)))
    tb = min(aspect / (breadth * (box_w + _NODESEP)), 1 / (ranks * (box_h + 2 * _RANKSEP)))
    return "LR" if lr >= tb else "TB"


def dot_source(trace: Trace, rankdir: Rankdir = "LR") -> str:
    """The DOT the server lays out: structure only, numbers as fixed-width placeholders.

    The compact style: a value is one box, its name above its data and its grad, with the op
    that made it in a cell on the side its operands come from (left, or top); a constant is
    just its number. Written directly rather than through ``graphviz.Digraph``: for a
    1,000-value graph that is milliseconds instead of tens of them. Every label goes through
    ``record_field``, which escapes ``"`` and ``\\`` too, so nothing can leave its string.
    """
    check_drawable(len(trace.nodes))
    graph = f"rankdir={rankdir} nodesep=0.12 ranksep=0.1"
    if len(trace.nodes) > BIG_GRAPH_VALUES:
        # Bound network simplex and crossing minimisation: a 1,500-value graph then lays out in
        # about a second, at the price of a few longer edges.
        graph += " nslimit=2 nslimit1=2 mclimit=0.2"
    lines = [
        f"digraph {{\n\tgraph [{graph}]\n",
        f'\tnode [fontname="{FONT}" fontsize=14 margin="0.03,0.02" shape=record]\n',
        "\tedge [arrowsize=0.6]\n",
    ]
    # a record's fields stack in one column (and the op sits beside it) in either direction
    stack = "{} | {} | {}" if rankdir == "LR" else "{{{} | {} | {}}}"
    with_op = "{{<op> {} | {{{} | {} | {}}}}}" if rankdir == "LR" else "{{<op> {} | {} | {} | {}}}"
    for n in trace.nodes:
        name = record_field(short_label(n.name))
        if n.kind == "constant":
            label, shape = f"{name}", " shape=box width=0.3 height=0.3"
        elif n.op is not None:
            symbol = record_field(n.symbol or n.op)
            label, shape = with_op.format(symbol, name, PLACEHOLDER, PLACEHOLDER), ""
        else:
            label, shape = stack.format(name, PLACEHOLDER, PLACEHOLDER), ""
        classes = f"value kind-{n.kind}" + (f" op-{n.op}" if n.op else "")
        lines.append(f'\tn{n.id} [label="{label}" class="{classes}" id=n{n.id}{shape}]\n')
    for e in trace.edges:
        edge_id = f'"e{e.target}-{e.position}"'
        lines.append(f"\tn{e.source} -> n{e.target}:op [class=operand id={edge_id}]\n")
    lines.append("}\n")
    return "".join(lines)
