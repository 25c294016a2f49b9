"""The API's structure (engine.trace.packed): each distinct line written once as a template,
each line its template and the names and slots that fill it. Filled back in as the page does
(static/lines.js), every line reads exactly as the engine wrote it."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from traces import text

from app.presets import PRESETS
from engine import run, trace
from engine.notation.lines import Relation
from engine.trace import Cell, Line, Row, Structure, Trace
from engine.trace.packed import packed

sys.path.insert(0, str(Path(__file__).parent.parent / "api"))
from programs import mlp_source

LEARNERS = Path(__file__).parent / "learners"


def filled(structure: Structure, line: Line) -> Line:
    """A packed line as the page fills it in: a name is text, a slot a slot."""
    t, *args = line
    template = structure.templates[t]  # type: ignore[index]
    nodes = structure.nodes

    def arg(a: int) -> str | int:
        if a >= 0:
            return a
        return nodes[(-1 - a) // 2].name if a % 2 else nodes[(-2 - a) // 2].grad_name

    out: list[str | int | Relation] = []
    for p in template:
        if isinstance(p, Relation):
            of = tuple(args[k] for k in p.of)  # type: ignore[index]
            out.append(Relation(p.op, of, args[p.to], p.exact, p.inexact))  # type: ignore[index, arg-type]
        elif isinstance(p, int):
            out.append(arg(args[p]))
        else:
            out.append(p)
    return tuple(out)


def every_line(s: Structure) -> list[Line]:
    return [
        *(n.sum for n in s.nodes),
        *(c.parts for step in s.steps for row in step.rows for c in row),
        *(line for call in s.calls for line in (*call.forward, *call.backward)),
    ]


def filled_row(s: Structure, row: Row) -> Row:
    return tuple(Cell(c.role, filled(s, c.parts)) for c in row)


def unpacked(s: Structure) -> Structure:
    """``s`` with its lines filled back in (one without templates, as it is: static/lines.js)."""
    if not s.templates:
        return s
    return replace(
        s,
        templates=(),
        nodes=tuple(replace(n, sum=filled(s, n.sum)) for n in s.nodes),
        steps=tuple(
            replace(st, rows=tuple(filled_row(s, row) for row in st.rows)) for st in s.steps
        ),
        calls=tuple(
            replace(
                c,
                forward=tuple(filled(s, line) for line in c.forward),
                backward=tuple(filled(s, line) for line in c.backward),
            )
            for c in s.calls
        ),
    )


def texts(t: Trace) -> list[str]:
    return [text(t, line) for line in every_line(t.structure)]


SOURCES = {
    **{p.id: p.source for p in PRESETS},
    "mlp": mlp_source(),
    "own engine": (LEARNERS / "micrograd.py").read_text(),
    "own engine, a mistake": next((LEARNERS / "mistakes").glob("*.py")).read_text(),
}


# searching their lines for names would take seconds (packed.MAX_SEARCH): sent as written
PAST_SEARCH = {"micrograd-demo"}


@pytest.mark.parametrize("name", SOURCES)
def test_every_line_filled_in_reads_as_the_engine_wrote_it(name: str) -> None:
    t = trace(run(SOURCES[name]))
    sent = packed(t.structure)
    assert sent.templates or not t.structure.nodes or name in PAST_SEARCH
    again = Trace(unpacked(sent), t.numbers)
    assert texts(again) == texts(t)
    assert replace(again.structure, nodes=(), steps=(), calls=()) == replace(
        t.structure, nodes=(), steps=(), calls=()
    )  # nothing but the lines is packed
    assert [n.name for n in sent.nodes] == [n.name for n in t.structure.nodes]


def test_the_mlps_steps_say_a_few_things_of_many_values() -> None:
    s = packed(trace(run(mlp_source())).structure)
    assert len(every_line(s)) > 7000 and len(s.templates) < 100
    words = "".join(p for template in s.templates for p in template if isinstance(p, str))
    assert "w1_15_3" not in words and "h0_3" not in words  # names are filled in, not templated
    assert "∂" in words and "accumulates" in words


def test_a_value_used_by_thousands_of_steps_is_sent_as_written() -> None:
    """Its grad's sum of 2,000 terms, shown at each of 2,000 steps: finding every name in every
    line would cost 195 billion (minutes of a server's thread, once per new
    structure); past MAX_SEARCH the structure is sent unpacked, which the page reads as it is."""
    source = "x = Value(0.5)\nh = x * 1.0\ny = h\nfor i in range(2000):\n    y = y * h\n"
    structure = trace(run(source)).structure
    assert packed(structure) is structure
    assert packed(trace(run(SOURCES["micrograd-demo"])).structure).templates == ()
