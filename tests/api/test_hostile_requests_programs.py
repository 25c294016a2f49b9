"""A hostile corpus against the whole app (the expression language's own is in tests/engine),
programs: code execution attempts, DOT and SVG injection through every string that reaches a
label, hostile values, and graphs too slow to lay out. Each gets a clear 4xx in the one error
shape, nothing runs on the server, and ``/healthz`` answers after every batch."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient
from hostile_client import (
    CANARY,
    NEEDS_DOT,
    assert_healthy,
    assert_refused,
    hostile_client,  # noqa: F401  (the fixture client)
)
from programs import dense_source, slow_source

pytestmark = NEEDS_DOT


TOUCH = f"open('{CANARY}', 'w').write('x')"
CODE_EXECUTION = [
    f"__import__('os').system('touch {CANARY}')",
    f"import os\nos.system('touch {CANARY}')",
    f"from os import system\nsystem('touch {CANARY}')",
    TOUCH,
    f"a = {TOUCH}",
    f'exec("{TOUCH}")',
    f'eval("{TOUCH}")',
    f"a = (lambda: {TOUCH})()",
    "a = ().__class__.__bases__[0].__subclasses__()",
    "a = Value(2.0)\nb = a.__class__.__init__.__globals__",
    "a = Value(2.0)\nb = a._backward()",
    "a = globals()['__builtins__']",
    "a = [x for x in ().__class__.__mro__]",
    f"a = f'{{{TOUCH}}}'",
    "@__import__('os').system\ndef f(): pass",
    f"with open('{CANARY}', 'w') as f: f.write('x')",
    "while True: pass",
    "for i in range(10**12): a = i",
    "def f(): return f()\nf()",
    "class A: pass",
    "a = 2.0\nb = a ** (10 ** 10 ** 10)",
    "a = 9" * 4000,
    "a = " + "(" * 5000 + "1" + ")" * 5000,
    "a = " + "-" * 10000 + "1",
    "a = " + " + ".join(["1.0"] * 3000),
    "breakpoint()",
    "a = Value(2.0)\na.data = __import__('os').getcwd()",
    "import micrograd.engine as m\nm.Value.__add__ = print",
]


@pytest.mark.parametrize("source", CODE_EXECUTION, ids=range(len(CODE_EXECUTION)))
def test_code_execution_attempts_are_refused(client: TestClient, source: str) -> None:
    assert_refused(client.post("/api/graph", json={"source": source}))
    assert_refused(client.get("/api/graph.svg", params={"source": source}))
    assert not CANARY.exists()


def test_health_after_code_execution_batch(client: TestClient) -> None:
    assert_healthy(client)


# Strings that reach a label: names (any Unicode identifier), Value(..., label=...) strings,
# comments and numbers written oddly; each stuffed with DOT, HTML-like-label and SVG syntax.
INJECT = '"];evil[label=<<b>x</b>>];}digraph{<script>alert(1)</script>\\"\\l|{<f0>}&amp;'
LABEL_PROGRAMS = [
    f"a = Value(2.0, label='{INJECT}')\nb = a * a",
    f"a = 2.0  # {INJECT}\nb = a.tanh()",
    "ā̸̢ = 2.0\nᚠ = ā̸̢ * 3.0\nb = ᚠ.relu()",  # combining marks, runes
    "\u202ea = 2.0\nb = a * a",  # a right-to-left override before a name
    "a\u00a0= 2.0\nb = a + 1",
    "a = 2.0\nb = a * 1_0.0e0_0\nc = b / 0x10",
    "a = 2.0\nb = a * 1e308 * 10",
    "𝔞 = 2.0\n𝔟 = 𝔞 * 𝔞",  # mathematical letters, normalised by Python to a and b
    "a" * 300 + " = 2.0\nb = " + "a" * 300 + " * 2",
]


def assert_safe_svg(svg: str) -> None:
    """Well-formed, and nothing in it that can run, load or restyle outside the drawing."""
    root = ET.fromstring(svg)
    allowed = {"svg", "g", "title", "text", "polygon", "path", "ellipse", "polyline", "style"}
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        assert tag in allowed, tag
        for name, value in element.attrib.items():
            assert not name.rsplit("}", 1)[-1].lower().startswith("on"), name
            assert "javascript:" not in value.lower()
    assert "<script" not in svg.lower() and "digraph{" not in svg


@pytest.mark.parametrize("source", LABEL_PROGRAMS, ids=range(len(LABEL_PROGRAMS)))
def test_labels_cannot_inject_dot_or_svg(client: TestClient, source: str) -> None:
    response = client.post("/api/graph", json={"source": source})
    if response.status_code != 200:
        assert_refused(response)
        return
    body = response.json()
    assert_safe_svg(body["svg"])
    # every node drawn once, with its own texts: the label did not split the record
    nodes = body["structure"]["nodes"]
    assert len(re.findall(r'<g id="n\d+" class="', body["svg"])) == len(nodes)
    for node in nodes:
        assert len(re.findall(rf'<text id="n{node["id"]}-label"', body["svg"])) == 1
    standalone = client.get("/api/graph.svg", params={"source": source, "step": 1})
    assert standalone.status_code == 200
    assert_safe_svg(standalone.text)
    page = client.get("/api/graph.html", params={"source": source})  # a download with script
    assert page.status_code == 200
    assert page.headers["content-disposition"].startswith("attachment")
    assert "<script>alert(1)" not in page.text


def test_values_names_and_numbers_are_checked(client: TestClient) -> None:
    source = "a = 2.0\nb = a * a"
    for values in [f"{INJECT}=1", "a=1e999", "a=nan", "a=", '{"a": [1]}', '{"a": ', "a=1,,"]:
        assert_refused(client.get("/api/graph.svg", params={"source": source, "values": values}))
    for values in [{INJECT: 1}, {"a": "1; drop"}, {"a": None}, {"a": {"b": 1}}]:
        assert_refused(client.post("/api/graph", json={"source": source, "values": values}))
    for raw in [b'{"a": NaN}', b'{"a": Infinity}', b'{"a": 1e999}', b'{"a": -1e999}']:
        body = b'{"source": "a = 2.0", "values": ' + raw + b"}"
        headers = {"content-type": "application/json"}
        assert_refused(client.post("/api/graph", content=body, headers=headers))
    assert_healthy(client)


def test_graphs_too_slow_to_lay_out_are_refused(client: TestClient) -> None:
    error = assert_refused(client.post("/api/graph", json={"source": slow_source()}), {"layout"})
    assert "too complex to draw" in str(error["message"])
    bigger = client.post("/api/graph", json={"source": dense_source(24, 10)})
    assert_refused(bigger)  # too long a program, or too complex: refused either way
    assert_refused(client.get("/api/graph.svg", params={"source": slow_source()}))
    assert client.post("/api/graph", json={"source": "a = 2.0\nb = a * a"}).status_code == 200
    assert_healthy(client)


def test_any_label_string_is_drawn_as_text(client: TestClient) -> None:
    """The language only makes labels from names, but a notebook using the engine can set any
    string (micrograd's ``e.label = ...``): every character reaches the drawing as text."""
    import engine
    from app.draw.dot import dot_source, short_label
    from app.draw.texts import slot_texts
    from engine.steps import state_at

    layout = client.app.state.layout  # type: ignore[attr-defined]
    for hostile in [INJECT, "</text></g><script>alert(1)</script>", "a\x00b\x1b[31m\u202e", "&lt;"]:
        program = engine.parse("a = 2.0\nb = a * a\n")
        for value in program.labels:
            value.label = hostile
        t = engine.trace(program)
        texts = slot_texts(t.structure, t.numbers, state_at(t.structure))
        svg = layout.template(dot_source(t.structure)).template.fill(texts)
        assert_safe_svg(svg)
        root = ET.fromstring(svg)
        labels = [
            t.text
            for t in root.iter("{http://www.w3.org/2000/svg}text")
            if t.get("id", "").endswith("-label")
        ]
        assert labels and set(labels) == {short_label(hostile)}
