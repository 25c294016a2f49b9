"""DOT from the trace, layout templates and step states, on traces built from engine Values."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

import engine
from app.draw.dot import MAX_DRAWN_VALUES, PLACEHOLDER, choose_rankdir, dot_source, record_field
from app.draw.fold import fold_view, folded_calls, parse_fold
from app.draw.layout import Layout
from app.draw.texts import slot_texts
from app.numbers import BOX_CHARS, format_number
from app.presets import MICROGRAD_README, PRESETS
from engine import GradstepError, Value, trace_value
from engine.steps import position, state_at
from engine.trace import Structure, Trace
from engine.trace.numbers import grad_bin


def texts_at(t: Trace, phase: str | None = None, step: int | None = None) -> dict[str, str]:
    at = None if phase is None or step is None else position(t.structure, phase, step)  # type: ignore[arg-type]
    return slot_texts(t.structure, t.numbers, state_at(t.structure, at))


def draw_svg(layout: Layout, t: Trace, phase: str | None = None, step: int | None = None) -> str:
    return layout.template(dot_source(t.structure)).template.fill(texts_at(t, phase, step))


SVG = "{http://www.w3.org/2000/svg}"


def by_id(svg: str) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in ET.fromstring(svg).iter() if el.get("id")}


def test_readme_graph_has_every_node_op_and_edge_with_contract_ids(layout: Layout) -> None:
    trace = engine.trace(engine.run(MICROGRAD_README))
    svg = draw_svg(layout, trace)
    elements = by_id(svg)
    structure = trace.structure
    for node in structure.nodes:
        assert "node value kind-" + node.kind in elements[f"n{node.id}"].get("class", "")
        assert f"n{node.id}-label" in elements
        # a constant is just its number; every other value shows its data and its grad
        assert (f"n{node.id}-data" in elements) == (node.kind != "constant")
        if node.op:  # the op that made it, in its own cell of the value's box
            assert f"op-{node.op}" in elements[f"n{node.id}"].get("class", "").split()
            assert elements[f"n{node.id}-op"].text == node.symbol
    for edge in structure.edges:
        assert elements[f"e{edge.target}-{edge.position}"].get("class") == "edge operand"
    g = elements[f"n{structure.output}-data"].text
    assert g == "24.7041"
    a = next(n for n in structure.nodes if n.name == "a")
    assert elements[f"n{a.id}-grad"].text == "138.8338"
    assert elements[f"n{a.id}-label"].text == "a"
    assert ET.fromstring(svg).get("class") == "gradstep-graph"


def test_hostile_labels_cannot_break_the_dot_or_the_svg(layout: Layout) -> None:
    labels = ['x{}|<>"', "\\", "a\\nb", "</text><script>", "&amp;", "]; evil [", "\x00\n", ""]
    root = Value(0.0, label="start")
    for label in labels:
        root = root + Value(1.0, label=label)
    trace = trace_value(root)
    svg = draw_svg(layout, trace)
    elements = by_id(svg)  # parses: the SVG is well-formed XML
    drawn = {elements[f"n{n.id}-label"].text or "" for n in trace.structure.nodes}
    assert {'x{}|<>"', "\\", "a\\nb", "</text><script>", "&amp;", "]; evil ["} <= drawn
    assert not any(el.tag == SVG + "script" for el in ET.fromstring(svg).iter())


def test_record_fields_escape_every_special() -> None:
    assert record_field('{a|b}<c>"d\\ e&') == '\\{a\\|b\\}\\<c\\>\\"d\\\\\\ e&amp;'
    assert record_field("") == "\\ "


@pytest.mark.parametrize("decimals", range(7))
def test_numbers_in_a_box_fit_its_placeholder(decimals: int) -> None:
    for x in (0.0, -0.0, 2.0, -4.0, 138.83381, -123456.789, 1e300, -1e-300, 5e-7, -9.99999e8):
        assert len(format_number(x, decimals, BOX_CHARS)) <= len(PLACEHOLDER)


def test_value_only_change_reuses_layout_with_identical_positions(layout: Layout) -> None:
    def graph(x: float) -> Value:
        a, b = Value(x, label="a"), Value(2.0, label="b")
        out = (a * b + b**3).tanh()
        out.label = "out"
        return out

    first, second = trace_value(graph(-4.0)), trace_value(graph(0.25))
    laid = layout.template(dot_source(first.structure))
    again = layout.template(dot_source(second.structure))
    assert again.cached and again.layout_ms == 0 and again.template is laid.template
    svg1 = laid.template.fill(texts_at(first))
    svg2 = again.template.fill(texts_at(second))
    strip = re.compile(r">[^<]*</text>|class=\"[^\"]*\"")
    assert strip.sub("", svg1) == strip.sub("", svg2)  # geometry identical
    assert by_id(svg1)["n0-data"].text == "−4.0000"
    assert by_id(svg2)["n0-data"].text == "0.2500"


def test_rankdir_and_big_graph_settings_reach_the_dot() -> None:
    small = trace_value(Value(1.0) * 2).structure
    assert "rankdir=TB" in dot_source(small, "TB")
    assert "nslimit" not in dot_source(small)
    x = Value(1.0, label="x")
    for _ in range(200):
        x = x * 1.0001
    assert "nslimit=2" in dot_source(trace_value(x).structure)


def _drawn_scale(t: Structure, rankdir: str, aspect: float, fold=None) -> float:
    """How large Graphviz's drawing comes out in a view of ``aspect`` (pixels per point)."""
    svg = subprocess.run(
        ["dot", "-Tsvg"], input=dot_source(t, rankdir, fold), capture_output=True, text=True
    ).stdout
    match = re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ([\d.]+)"', svg)
    assert match
    return min(aspect / float(match[1]), 1 / float(match[2]))


def test_the_direction_that_fills_the_view_is_chosen() -> None:
    chain = Value(1.0, label="x")
    for _ in range(12):
        chain = chain.tanh()
    leaves = [Value(float(i), label=f"x{i}") for i in range(16)]
    while len(leaves) > 1:  # a balanced tree: 16 inputs side by side, four sums deep
        leaves = [a + b for a, b in zip(leaves[::2], leaves[1::2], strict=True)]
    assert choose_rankdir(trace_value(chain).structure, 16 / 9) == "LR"  # a chain lies down
    assert choose_rankdir(trace_value(chain).structure, 9 / 16) == "TB"  # or stands on a phone
    assert choose_rankdir(trace_value(leaves[0]).structure, 16 / 9) == "TB"


@pytest.mark.parametrize("aspect", [16 / 9, 2.7, 0.6])
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_the_chosen_direction_draws_the_graph_nearly_as_large_as_the_best(preset, aspect) -> None:
    """Against the real layout: the estimate may prefer left to right near a tie, never by much."""
    t = engine.trace(engine.run(preset.source)).structure
    fold = fold_view(t, folded_calls(t, parse_fold(None)))
    scale = {rankdir: _drawn_scale(t, rankdir, aspect, fold) for rankdir in ("LR", "TB")}
    assert scale[choose_rankdir(t, aspect, fold)] >= 0.85 * max(scale.values())


def test_too_many_values_is_refused_by_name() -> None:
    x = Value(1.0, label="x")
    for _ in range(MAX_DRAWN_VALUES // 2 + 1):
        x = x + 1.0
    with pytest.raises(GradstepError, match="draws at most 2,000") as error:
        dot_source(trace_value(x).structure)
    assert error.value.kind == "limit"


def test_forward_step_states() -> None:
    trace = engine.trace(engine.run(MICROGRAD_README))
    texts = texts_at(trace, "forward", 0)
    structure = trace.structure
    first = structure.steps[0].node
    assert "current" in texts[f"n{first}.class"] and "data-known" in texts[f"n{first}.class"]
    assert texts[f"n{structure.output}.data"] == "?"
    assert "data-pending" in texts[f"n{structure.output}.class"]
    assert all(texts[f"n{n.id}.grad"] in ("?", "—") for n in structure.nodes)
    assert texts[f"e{first}-0.class"] == "edge operand current"


def test_backward_step_states_partial_then_final() -> None:
    a = Value(3.0, label="a")
    b = a + a
    trace = trace_value(b)
    assert texts_at(trace, "backward", 0)["n0.grad"] == "?"
    texts = texts_at(trace, "backward", 1)
    assert texts["n0.grad"] == "2.0000" and "grad-final" in texts["n0.class"]
    assert texts["e1-0.class"] == "edge operand flow"
    assert texts["e1-1.class"] == "edge operand flow"
    x = Value(2.0, label="x")
    y = x * x.tanh()  # x gets one contribution from mul's step before tanh's step
    trace = trace_value(y)
    x_id = 0
    mid = texts_at(trace, "backward", 1)
    assert "grad-partial" in mid[f"n{x_id}.class"]
    assert "grad-final" in texts_at(trace, "backward", 2)[f"n{x_id}.class"]


def test_step_out_of_range_is_a_clear_error() -> None:
    trace = trace_value(Value(1.0) * 2)
    with pytest.raises(GradstepError, match=r"forward step 5 does not exist \(steps: 0 to 0\)"):
        texts_at(trace, "forward", 5)


@pytest.mark.parametrize(
    ("grad", "scale", "expected"),
    [
        (0.0, 1.0, 0),
        (1.0, 1.0, 3),
        (-1.0, 1.0, -3),
        (0.2, 1.0, 1),
        (-0.5, 1.0, -2),
        (0.34, 1.0, 2),
        (1e308, 6e307, 3),  # 3·|grad| overflowed a float: it was a 500
        (-1.7e308, 5e-324, -3),
        (1e-300, 1e300, 1),  # nonzero is never drawn as zero
    ],
)
def test_grad_bins(grad: float, scale: float, expected: int) -> None:
    assert grad_bin(grad, scale) == expected
