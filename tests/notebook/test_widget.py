"""The widget and draw_dot in this process (no kernel): what they are made of."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from notebook_env import NUMBER_IN_GRAPH, require

from app.draw.offline import offline_html
from app.notebook.css import SCOPE, scope_css
from engine import Value


def neuron() -> Value:
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    return (x1 * w1 + x2 * w2 + b).tanh()


@pytest.fixture
def widget():
    require("anywidget")
    from app.notebook import show

    return show(neuron(), phase="backward", step=3)


def test_save_writes_the_offline_file_at_the_widgets_step(widget, tmp_path: Path) -> None:
    assert (widget.phase, widget.step) == ("backward", 3)
    widget.step = 5  # as the browser (or the user) moves it
    path = widget.save(tmp_path / "neuron.html")
    expected = offline_html(widget.drawn, "auto", "backward", 5)
    assert path.read_text(encoding="utf-8") == expected
    assert '"start": {"phase": "backward", "step": 5}' in expected


def test_the_widget_carries_the_page_modules_bundled_and_no_url(widget) -> None:
    esm, css = widget._esm, widget._css
    for module in ("notebook.js", "player.js", "stepper.js", "graph.js", "explain.js", "keys.js"):
        assert f"// ---- {module}" in esm
    assert esm.rstrip().endswith("export default __gradstep_notebook;")
    urls = set(re.findall(r"""https?://[^\s"')]+""", esm + css))
    assert urls <= {"http://www.w3.org/2000/svg"}  # a namespace; nothing from a CDN
    assert "import(" not in esm and not re.search(r"^\s*import\b", esm, re.M)
    assert 'data-part="explanation"' in widget._player_html


def test_the_page_css_is_scoped_to_the_widget() -> None:
    css = scope_css(":root { --a: 1; }\nbody, button:is(.x, .y) { margin: 0; }\n"
                    "@media (max-width: 9px) { kbd { color: red; } }\n"
                    "@keyframes k { to { opacity: 0; } }")  # fmt: skip
    assert f"{SCOPE} {{ --a: 1; }}" in css
    assert f"{SCOPE}, {SCOPE} button:is(.x, .y) {{ margin: 0; }}" in css
    assert f"{SCOPE} kbd {{ color: red; }}" in css
    assert "@keyframes k { to { opacity: 0; } }" in css


def test_every_rule_of_the_widget_css_is_inside_the_widget(widget) -> None:
    css = re.sub(r"/\*.*?\*/", "", widget._css, flags=re.S)
    rules = re.findall(r"(?:^|[{}])\s*([^{}@]+?)\s*\{", css)
    selectors = [s.strip() for rule in rules for s in rule.split(",")]
    outside = [s for s in selectors if not s.startswith(SCOPE) and not s.endswith("%")]
    assert selectors and set(outside) <= {"to", "from"}, outside  # @keyframes' own


def test_draw_dot_svg_and_digraph() -> None:
    from app.notebook import draw_dot

    drawing = draw_dot(neuron())
    svg = drawing._repr_svg_()
    assert svg.startswith("<?xml") and NUMBER_IN_GRAPH in svg
    digraph = drawing.to_digraph()
    source = digraph.source
    assert "x1 | data\\ 2.0000 | grad\\ −1.5000" in source
    assert re.search(r"n5op -> n5\b", source) and "n0 -> n5op" in source
    digraph.attr(bgcolor="lightyellow")  # restyled as any graphviz.Digraph
    assert "bgcolor=lightyellow" in digraph.source


def test_draw_dot_refuses_what_it_cannot_draw() -> None:
    from app.notebook import draw_dot

    with pytest.raises(TypeError):
        draw_dot(3.0)  # type: ignore[arg-type]


def test_refold_lays_the_same_trace_out_with_other_calls_folded() -> None:
    require("anywidget")
    from app.notebook import show

    source = (
        "def neuron(x, w, b):\n    return (x*w + b).tanh()\n\nx = 2.0\no = neuron(x, -3.0, 1.0)"
    )
    w = show(source, folded="all", phase="forward", step=1)
    assert w.fold["folded"] == [0] and 'id="c0"' in w.svg
    trace = w.trace
    w._on_message(w, {"fold": "none"}, [])  # as the front end sends it when the box is clicked
    assert w.fold["folded"] == [] and 'id="c0"' not in w.svg and 'id="n3"' in w.svg
    assert w.trace == trace and (w.phase, w.step) == ("forward", 1)
    assert w.drawn.source == source  # the offline file still shows the program
