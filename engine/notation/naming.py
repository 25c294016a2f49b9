"""How values are named in what a student reads: a name inside a formula (bracketed when
compound), a grad's name, the name made for a value the program did not name (its expression,
the code's text of it, a partial sum's count), a constant's number, the markers of an operand
used twice, and who uses a value."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
BOX_NAME_CHARS = 12  # a made name, or the code's text, that fits on its box; longer: t₁₂
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_POSITIONS = ("⁽¹⁾", "⁽²⁾")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_COMPOUND = frozenset("+-*/−· ^⁰¹²³⁴⁵⁶⁷⁸⁹⁻")  # an op at depth 0: the name is not one term


@functools.lru_cache(maxsize=8192)  # a big graph asks for each name a dozen times
def ref(name: str) -> str:
    """``name`` as it stands inside a formula: bracketed when it is compound (``(x1*w1)``) or a
    negative number, so that ``(x1*w1).grad`` and ``∂(a * b)/∂a`` read one way only. A power
    or a root is compound too: ``(a²)²`` not ``a²²``, ``∂d/∂(b³)``, ``(a^0.5).grad``, ``(√a)²``."""
    if name.startswith(("−", "-", "√")):
        return f"({name})"
    depth = 0
    for i, ch in enumerate(name):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and i > 0 and ch in _COMPOUND:  # "t₄+t₆" too: made of two numbered names
            return f"({name})"
    return name


def grad_of(name: str) -> str:
    return f"{ref(name)}.grad"


def superscript(x: float) -> str:
    return str(int(x)).translate(_SUPERSCRIPTS)


def small_whole(x: float) -> bool:
    return x.is_integer() and -9 <= x <= 9


def constant_text(x: float) -> str:
    return f"{x:.6g}".replace("-", "−")


def uses_text(users: Sequence[tuple[int, str]]) -> str:
    """``twice by b``, ``by e and c``, ``by b (twice) and e``: who sends a value its gradient,
    in the order they do, each user given as (its node id, its name). A node that uses it twice
    is named once; different nodes of one name are counted as such (``by w[0]·x (16 values of
    that name)``), never as one node that uses it 16 times."""
    counts: dict[int, int] = {}
    names: dict[int, str] = {}
    for node, name in users:
        counts[node] = counts.get(node, 0) + 1
        names[node] = name
    times = {1: "", 2: "twice", 3: "three times"}
    if len(counts) == 1:
        ((node, n),) = counts.items()
        how = times.get(n, f"{n} times")
        return f"{how} by {names[node]}".strip() if n > 1 else f"by {names[node]}"
    by_name: dict[str, list[int]] = {}
    for node, n in counts.items():
        by_name.setdefault(names[node], []).append(n)
    named: list[str] = []
    for u, ns in by_name.items():
        if len(ns) > 1 and len(set(ns)) == 1:
            each = f", each {times.get(ns[0], f'{ns[0]} times')}" if ns[0] > 1 else ""
            named.append(f"{u} ({len(ns)} values of that name{each})")
        else:
            named += [u if n == 1 else f"{u} ({times.get(n, f'{n} times')})" for n in ns]
    if len(named) == 1:
        return f"by {named[0]}"
    return "by " + (", ".join(named[:-1]) + " and " + named[-1])


def made_name(expr: str, node_id: int) -> str:
    """The name of a value the user did not name: its expression, written tight, when short
    (``a·b``, ``b³``, ``1+c₁``), else ``numbered_name``. Short, because it is printed on the
    node."""
    tight = expr.replace(" ", "")
    return tight if len(tight) <= BOX_NAME_CHARS else numbered_name(node_id)


def code_name(text: str, made_from: Collection[str]) -> str | None:
    """The code's own text of the expression that made a value (``x1*w1 + x2*w2``), written
    tight, as its name when it is short and reads only the values it was made from: each name
    in it (a function's or a method's aside) one of ``made_from``. ``1 + c`` made from ``c₁``
    says another value than the one it made, and ``(yout - ygt)**2`` in a loop names no value
    at all: None."""
    tight = "".join(text.split())
    if not tight or len(tight) > BOX_NAME_CHARS:
        return None
    for m in _IDENTIFIER.finditer(tight):
        called = tight[m.end() : m.end() + 1] == "(" or tight[m.start() - 1 : m.start()] == "."
        if not called and m.group() not in made_from:
            return None
    return tight


def partial_sum_name(terms: int) -> str:
    """``Σ`` and how many terms a running total holds (``Σ₂``): a partial sum of ``sum(...)``
    that nobody named. A Python name cannot hold a subscript digit either."""
    return f"Σ{str(terms).translate(SUBSCRIPTS)}"


def numbered_name(node_id: int) -> str:
    """``t`` and the node's id as a subscript (``t₂₅``): a name a student can write in their
    notes, where ``#25`` would start a comment. A Python name cannot hold a subscript digit, so
    it is never taken for a variable of the program."""
    return f"t{str(node_id).translate(SUBSCRIPTS)}"


def constant_name(x: float) -> str:
    return constant_text(x)


def position_markers(count: int) -> tuple[str, ...]:
    return _POSITIONS[:count]
