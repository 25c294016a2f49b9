"""DOT from a graph's outline (or its trace), in a compact take on micrograd's look: a record
per value (its op in a cell of it), a cluster per open call, a box per folded call.

Ids and classes follow docs/api.md ("The SVG"). Numbers are not part of the DOT that is laid out:
every value gets the same fixed-width placeholder texts, so the layout depends on the graph's
structure only and can be cached; the real texts are written into the SVG afterwards
(``app.draw.texts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from app.draw.fold import Fold, fold_view
from app.numbers import BOX_CHARS
from engine.errors import GradstepError
from engine.trace import CallInfo, Drawable, Node
from engine.trace.data import CallOutline, NodeOutline

Rankdir = Literal["LR", "TB"]
Direction = Literal["LR", "TB", "auto"]  # auto: the one that shows the graph largest

MAX_DRAWN_VALUES = 2_000  # past this a graph is too big to read, and to lay out promptly
BIG_GRAPH_VALUES = 300  # from here on, network-simplex work is bounded (nslimit, nslimit1)
MAX_LABEL_CHARS = 16  # longer names are cut: the box should fit the graph, not the name
PLACEHOLDER = "0" * BOX_CHARS  # a number's room in a box: digits are the widest characters
FONT = "Helvetica"  # both backends measure it alike; the page draws DejaVu Sans Condensed
# An operand used this many ranks after it is made is drawn from a copy of it beside its use:
# an edge across many ranks is a chain of hidden nodes for Graphviz to place, and a value used
# all along a long sum (b = a+a+…+a) made hundreds of them (300 uses: no layout in 5 s; 499:
# dot crashed). The copy shows the value's name in a dashed box; the edge keeps its id.
LONG_EDGE_RANKS = 8

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


# Sizes in points, for choosing a direction before any layout (measured from Graphviz's
# output): a value's box by direction (its op's cell is on the side its operands come from), a
# constant's, a folded call's (a title row, then one row per value it lists), and the gaps
# between ranks and between nodes.
_VALUE_BOX = {"LR": (90.0, 51.0), "TB": (77.0, 64.0)}
_CONSTANT_BOX = (22.0, 22.0)
_CALL_WIDTH, _CALL_ROW = 181.0, 17.0
_RANKSEP, _NODESEP = 7.2, 8.6
SLIDE_ASPECT = 16 / 9  # the view an image or an export is drawn for
LR_PREFERENCE = 0.9  # left to right unless top to bottom draws the graph this much larger


def choose_rankdir(
    graph: Drawable, aspect: float | None = None, fold: Fold | None = None
) -> Rankdir:
    """The direction in which the graph, fitted to a view of ``aspect`` (width / height), is
    drawn largest: a long chain left to right, a wide tree top to bottom. Estimated from the
    graph's ranks (longest path from the inputs) and the size of what each rank holds, as
    Graphviz will place them."""
    aspect = aspect if aspect and 0.1 < aspect < 10 else SLIDE_ASPECT
    if not graph.nodes:  # a program that made no value to draw
        return "LR"
    units = fold.units if fold else tuple(f"n{n.id}" for n in graph.nodes)
    rank = dict.fromkeys(units, 0)
    constants = {f"n{n.id}" for n in graph.nodes if n.kind == "constant"}
    for e in sorted(graph.edges, key=lambda e: e.target):  # ids are in creation order
        source, target = units[e.source], units[e.target]
        if source != target and source not in constants:
            rank[target] = max(rank[target], rank[source] + 1)
    for e in graph.edges:  # a constant sits just before what uses it, as Graphviz puts it
        if units[e.source] in constants:
            rank[units[e.source]] = max(rank[units[e.target]] - 1, 0)
    by_rank: dict[int, list[str]] = {}
    for unit, r in rank.items():
        by_rank.setdefault(r, []).append(unit)
    fits = {}
    for rankdir in ("LR", "TB"):
        ranks = [[_unit_size(u, graph, fold, rankdir) for u in us] for us in by_rank.values()]
        # left to right, a rank is a column: as wide as its widest, as tall as all of it
        along = sum(max(w for w, _ in boxes) + 2 * _RANKSEP for boxes in ranks)
        across = max(sum(h + _NODESEP for _, h in boxes) for boxes in ranks)
        if rankdir == "TB":
            along = sum(max(h for _, h in boxes) + 2 * _RANKSEP for boxes in ranks)
            across = max(sum(w + _NODESEP for w, _ in boxes) for boxes in ranks)
        width, height = (along, across) if rankdir == "LR" else (across, along)
        fits[rankdir] = min(aspect / width, 1 / height)
    # near a tie, left to right: it reads as the program does, and estimates are rough
    return "LR" if fits["LR"] >= LR_PREFERENCE * fits["TB"] else "TB"


def _unit_size(
    unit: str, graph: Drawable, fold: Fold | None, rankdir: Rankdir
) -> tuple[float, float]:
    if unit.startswith("c"):
        rows = len(fold.listed.get(int(unit[1:]), ())) if fold else 0
        return _CALL_WIDTH, _CALL_ROW * (1 + max(rows, 1))
    node = graph.nodes[int(unit[1:])]
    return _CONSTANT_BOX if node.kind == "constant" else _VALUE_BOX[rankdir]


def dot_source(graph: Drawable, rankdir: Rankdir = "LR", fold: Fold | None = None) -> str:
    """The DOT the server lays out: structure only, numbers as fixed-width placeholders.

    The compact style: a value is one box, its name above its data and its grad, with the op
    that made it in a cell on the side its operands come from (left, or top); a constant is
    just its number. A call is a cluster around its values, or folded, one box listing what it
    hands back. Written directly rather than through ``graphviz.Digraph``: for a 1,000-value
    graph that is milliseconds instead of tens of them. Every label goes through
    ``record_field``, which escapes ``"`` and ``\\`` too, so nothing can leave its string.
    """
    fold = fold or fold_view(graph, frozenset())
    check_drawable(len(set(fold.units)))
    attributes = f"rankdir={rankdir} nodesep=0.12 ranksep=0.1"
    if len(set(fold.units)) > BIG_GRAPH_VALUES:
        # Bound network simplex and crossing minimisation: a 1,500-value graph then lays out in
        # about a second, at the price of a few longer edges.
        attributes += " nslimit=2 nslimit1=2 mclimit=0.2"
    elif graph.calls:
        # Calls stay in the program's order (MLP 1 before MLP 2, the lecture's data points in
        # turn), which full crossing minimisation shuffles to save a crossing or two.
        attributes += " mclimit=0.01"
    head = [
        f"digraph {{\n\tgraph [{attributes}]\n",
        f'\tnode [fontname="{FONT}" fontsize=14 margin="0.03,0.02" shape=record]\n',
        "\tedge [arrowsize=0.6]\n",
    ]
    inside: dict[int | None, list[str]] = {}  # what each open call (None: the top) holds
    for n in graph.nodes:
        if fold.units[n.id] == f"n{n.id}":
            inside.setdefault(n.call, []).append(_value(n, rankdir))
    by_id = {c.id: c for c in graph.calls}
    for call in fold.folded:
        inside.setdefault(by_id[call].parent, []).append(_box(by_id[call], graph, fold, rankdir))
    copies = _copies(graph, fold)
    for _unit, line, within in copies.values():
        inside.setdefault(within, []).append(line)
    body = _clusters(None, inside, graph.calls, set(fold.folded))
    return "".join(head) + body + "".join(_edges(graph, fold, copies)) + "}\n"


def _value(n: Node | NodeOutline, rankdir: Rankdir) -> str:
    name = record_field(short_label(n.name))
    lr = rankdir == "LR"
    if n.kind == "constant":
        label, shape = name, " shape=box width=0.3 height=0.3"
    elif n.op is not None:  # the op's cell on the side the operands come in by
        symbol = record_field(n.symbol or n.op)
        template = "{{<op> {} | {{{} | {} | {}}}}}" if lr else "{{<op> {} | {} | {} | {}}}"
        label, shape = template.format(symbol, name, PLACEHOLDER, PLACEHOLDER), ""
    else:  # a record's fields stack in one column, in either direction
        template = "{} | {} | {}" if lr else "{{{} | {} | {}}}"
        label, shape = template.format(name, PLACEHOLDER, PLACEHOLDER), ""
    classes = f"value kind-{n.kind}" + (f" op-{n.op}" if n.op else "")
    return f'\tn{n.id} [label="{label}" class="{classes}" id=n{n.id}{shape}]\n'


def _box(call: CallInfo | CallOutline, graph: Drawable, fold: Fold, rankdir: Rankdir) -> str:
    """A folded call: its title, then a row for each value it hands back (name, data, grad),
    or how many when they are many."""
    rows = [record_field(short_label(call.title))]
    listed = fold.listed.get(call.id, ())
    for out in listed:
        name = record_field(short_label(graph.nodes[out].name))
        rows.append(f"{{{name} | {PLACEHOLDER} | {PLACEHOLDER}}}")
    if not listed:
        rows.append(record_field(f"{call.last - call.first + 1} values"))
    label = " | ".join(rows) if rankdir == "LR" else "{" + " | ".join(rows) + "}"
    return f'\tc{call.id} [label="{label}" class="call folded" id=c{call.id}]\n'


def _clusters(
    parent: int | None, inside: dict[int | None, list[str]],
    calls: Sequence[CallInfo | CallOutline], folded: set[int],
) -> str:  # fmt: skip
    """The open calls under ``parent`` as nested clusters, each around what it holds."""
    out = "".join(inside.get(parent, ()))
    for call in calls:
        if call.parent == parent and call.id not in folded:
            body = _clusters(call.id, inside, calls, folded)
            if body:
                title = record_field(short_label(call.title)).replace('"', "")
                out += (
                    f'\tsubgraph cluster_k{call.id} {{\n\t\tid=k{call.id} class="call open" '
                    f'label="{title}" fontsize=11 labeljust=l\n{body}\t}}\n'
                )
    return out


def _copies(graph: Drawable, fold: Fold) -> dict[str, tuple[str, str, int | None]]:
    """The operands drawn from a copy beside their use (``LONG_EDGE_RANKS``), by the id of
    their edge: the copy's node, its DOT line and the open call it is drawn in."""
    # each value's rank as Graphviz would find it about: one past its operands', except that a
    # leaf (an input, a constant) floats to just before its first use
    n = len(graph.nodes)
    leaf = [True] * n
    for e in graph.edges:
        leaf[e.target] = False
    depth = [0] * n
    for e in sorted(graph.edges, key=lambda e: e.target):  # operands are made before their uses
        depth[e.target] = max(depth[e.target], 1 if leaf[e.source] else depth[e.source] + 1)
    rank = [n if leaf[i] else d for i, d in enumerate(depth)]
    for e in graph.edges:
        if leaf[e.source]:
            rank[e.source] = min(rank[e.source], depth[e.target] - 1)
    copies: dict[str, tuple[str, str, int | None]] = {}
    for e in graph.edges:
        drawn = fold.edges.get(f"e{e.target}-{e.position}")
        source, target = fold.units[e.source], fold.units[e.target]
        if (
            drawn is None
            or drawn in copies
            or source != f"n{e.source}"
            or depth[e.target] - rank[e.source] <= LONG_EDGE_RANKS
        ):
            continue
        unit = f"u{e.target}_{e.position}"
        name = record_field(short_label(graph.nodes[e.source].name))
        line = (
            f'\t{unit} [label="{name}" class="copy" id="{drawn}-copy" shape=box style=dashed '
            f"width=0.3 height=0.3]\n"
        )
        call = graph.nodes[e.target].call if target == f"n{e.target}" else None
        copies[drawn] = (unit, line, call)
    return copies


def _edges(
    graph: Drawable, fold: Fold, copies: dict[str, tuple[str, str, int | None]]
) -> list[str]:
    """An edge per operand between two values, one for all the operands between a box and
    another element; an operand used far from where it is made, from its copy."""
    lines, done = [], set()
    for e in graph.edges:
        drawn = fold.edges.get(f"e{e.target}-{e.position}")
        if drawn is None or drawn in done:
            continue
        done.add(drawn)
        source, target = fold.units[e.source], fold.units[e.target]
        if drawn in copies:
            source = copies[drawn][0]
        head = ":op" if target.startswith("n") and graph.nodes[e.target].op else ""
        lines.append(f'\t{source} -> {target}{head} [class=operand id="{drawn}"]\n')
    return lines
