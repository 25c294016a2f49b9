"""DOT building, layout templates and step states, on traces built from engine Values."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from traces import readme_graph, trace_of

from app.layout import Layout
from app.render import (
    DATA_PLACEHOLDER,
    MAX_DRAWN_VALUES,
    draw_dot,
    format_number,
    record_field,
    trace_digraph,
)
from app.stepview import grad_bin, slot_texts
from engine import GradstepError, Value

SVG = "{http://www.w3.org/2000/svg}"


def by_id(svg: str) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in ET.fromstring(svg).iter() if el.get("id")}


def test_readme_graph_has_every_node_op_and_edge_with_contract_ids(layout: Layout) -> None:
    trace = trace_of(readme_graph())
    svg = layout.template(trace_digraph(trace).source).template.fill(slot_texts(trace))
    elements = by_id(svg)
    for node in trace.nodes:
        assert "node value kind-" + node.kind in elements[f"n{node.id}"].get("class", "")
        assert f"n{node.id}-data" in elements
        if node.op:
            assert elements[f"op{node.id}"].get("class", "").startswith(f"node op op-{node.op}")
            assert f"r{node.id}" in elements
    for edge in trace.edges:
        assert elements[f"e{edge.target}-{edge.position}"].get("class") == "edge operand"
    g = elements[f"n{trace.output}-data"].text
    assert g == "data 24.7041"
    a = next(n for n in trace.nodes if n.label == "a")
    assert elements[f"n{a.id}-grad"].text == "grad 138.8338"
    assert ET.fromstring(svg).get("class") == "gradstep-graph"


def test_hostile_labels_cannot_break_the_dot_or_the_svg(layout: Layout) -> None:
    labels = ['x{}|<>"', "\\", "a\\nb", "</text><script>", "&amp;", "]; evil [", "\x00\n", ""]
    root = Value(0.0, label="start")
    for label in labels:
        root = root + Value(1.0, label=label)
    trace = trace_of(root)
    svg = layout.template(trace_digraph(trace).source).template.fill(slot_texts(trace))
    elements = by_id(svg)  # parses: the SVG is well-formed XML
    drawn = {elements[f"n{n.id}-label"].text or "" for n in trace.nodes}
    assert {'x{}|<>"', "\\", "a\\nb", "</text><script>", "&amp;", "]; evil ["} <= drawn
    assert not any(el.tag == SVG + "script" for el in ET.fromstring(svg).iter())


def test_record_fields_escape_every_special() -> None:
    assert record_field('{a|b}<c>"d\\ e&') == '\\{a\\|b\\}\\<c\\>\\"d\\\\\\ e&amp;'
    assert record_field("") == "\\ "


def test_numbers_fit_the_placeholder_width() -> None:
    width = len(DATA_PLACEHOLDER) - len("data ")
    for x in (0.0, -0.0, 2.0, -4.0, 138.83381, -123456.789, 1e300, -1e-300, 5e-7):
        assert len(format_number(x)) <= width + 1
    assert format_number(24.70408163265306) == "24.7041"
    assert format_number(-0.00001) == "0.0000"


def test_value_only_change_reuses_layout_with_identical_positions(layout: Layout) -> None:
    def graph(x: float) -> Value:
        a, b = Value(x, label="a"), Value(2.0, label="b")
        out = (a * b + b**3).tanh()
        out.label = "out"
        return out

    first, second = trace_of(graph(-4.0)), trace_of(graph(0.25))
    laid = layout.template(trace_digraph(first).source)
    again = layout.template(trace_digraph(second).source)
    assert again.cached and again.layout_ms == 0 and again.template is laid.template
    svg1 = laid.template.fill(slot_texts(first))
    svg2 = again.template.fill(slot_texts(second))
    strip = re.compile(r">[^<]*</text>|class=\"[^\"]*\"")
    assert strip.sub("", svg1) == strip.sub("", svg2)  # geometry identical
    assert by_id(svg1)["n0-data"].text == "data -4.0000"
    assert by_id(svg2)["n0-data"].text == "data 0.2500"


def test_rankdir_and_big_graph_settings_reach_the_dot() -> None:
    small = trace_of(Value(1.0) * 2)
    assert "rankdir=TB" in trace_digraph(small, "TB").source
    assert "nslimit" not in trace_digraph(small).source
    x = Value(1.0, label="x")
    for _ in range(200):
        x = x * 1.0001
    assert "nslimit=2" in trace_digraph(trace_of(x)).source


def test_too_many_values_is_refused_by_name() -> None:
    x = Value(1.0, label="x")
    for _ in range(MAX_DRAWN_VALUES // 2 + 1):
        x = x + 1.0
    with pytest.raises(GradstepError, match="draws at most 2,000") as error:
        trace_digraph(trace_of(x))
    assert error.value.kind == "limit"


def test_draw_dot_shows_numbers_in_creation_order() -> None:
    a, b = Value(-4.0, label="a"), Value(2.0, label="b")
    c = a * b
    c.backward()
    source = draw_dot(c).source
    assert "data -4.0000" in source and "grad 2.0000" in source
    assert source.index("n0 ") < source.index("n1 ") < source.index("n2 ")
    assert 'id="e2-1"' in source or "id=e2-1" in source


def test_forward_step_states() -> None:
    trace = trace_of(readme_graph())
    texts = slot_texts(trace, "forward", 0)
    first = trace.forward[0].node
    assert "current" in texts[f"n{first}.class"] and "data-known" in texts[f"n{first}.class"]
    assert texts[f"n{trace.output}.data"] == "data ?"
    assert "data-pending" in texts[f"n{trace.output}.class"]
    assert all(texts[f"n{n.id}.grad"] in ("grad ?", "grad —") for n in trace.nodes)
    assert texts[f"e{first}-0.class"] == "edge operand current"


def test_backward_step_states_partial_then_final() -> None:
    a = Value(3.0, label="a")
    b = a + a
    trace = trace_of(b)
    assert slot_texts(trace, "backward", 0)["n0.grad"] == "grad ?"
    texts = slot_texts(trace, "backward", 1)
    assert texts["n0.grad"] == "grad 2.0000" and "grad-final" in texts["n0.class"]
    assert texts["e1-0.class"] == "edge operand flow"
    assert texts["e1-1.class"] == "edge operand flow"
    x = Value(2.0, label="x")
    y = x * x.tanh()  # x gets one contribution from mul's step before tanh's step
    trace = trace_of(y)
    x_id = 0
    mid = slot_texts(trace, "backward", 1)
    assert "grad-partial" in mid[f"n{x_id}.class"]
    assert "grad-final" in slot_texts(trace, "backward", 2)[f"n{x_id}.class"]


def test_step_out_of_range_is_a_clear_error() -> None:
    trace = trace_of(Value(1.0) * 2)
    with pytest.raises(GradstepError, match=r"forward step 5 does not exist \(steps: 0 to 0\)"):
        slot_texts(trace, "forward", 5)


@pytest.mark.parametrize(
    ("grad", "expected"), [(0.0, 0), (1.0, 3), (-1.0, -3), (0.2, 1), (-0.5, -2), (0.34, 2)]
)
def test_grad_bins(grad: float, expected: int) -> None:
    assert grad_bin(grad, 1.0) == expected


def test_structure_from_the_program_is_the_trace_structure() -> None:
    """Layout starts from the parsed Value graph before the trace exists: the DOT must be the
    one the trace gives, or ids would not match the trace."""
    from programs import mlp_source

    from app.presets import PRESETS
    from app.render import structure_digraph
    from engine import parse, trace

    for source in [p.source for p in PRESETS] + [mlp_source((2, 3, 1))]:
        program = parse(source)
        before = structure_digraph(program.output, "TB").source
        assert before == trace_digraph(trace(program), "TB").source
