"""The HTTP API through TestClient, on each Graphviz backend present: the graph answer (its
structure, numbers, SVG, console and plots), the answers a client that holds a layout or a
structure is sent, programs that make no value to draw, CPython's own errors at the learner's
line, and the error shape of every refusal."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from app.presets import MICROGRAD_README, PRESETS
from app.schemas import ErrorResponse, GraphResponse

GEOMETRY_ONLY = re.compile(r">[^<]*</text>|class=\"[^\"]*\"")


def ids_in(svg: str) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in ET.fromstring(svg).iter() if el.get("id")}


def node(body: dict, label: str, structure: dict | None = None) -> dict:
    """A node of an answer, with its data and grad from the answer's numbers (``structure``:
    the one the client holds, when the answer sent none)."""
    nodes = (body["structure"] or structure or {})["nodes"]
    found = next(n for n in nodes if n["name"] == label)
    numbers = body["numbers"]
    return {**found, "data": numbers["data"][found["id"]], "grad": numbers["grad"][found["id"]]}


def test_readme_program_numbers_and_every_node_in_the_svg(client: TestClient) -> None:
    response = client.post("/api/graph", json={"source": MICROGRAD_README})
    assert response.status_code == 200, response.text
    body = response.json()
    GraphResponse.model_validate_json(response.content)  # exactly what /openapi.json promises
    structure = body["structure"]
    output = structure["nodes"][structure["output"]]
    assert round(body["numbers"]["data"][output["id"]], 4) == 24.7041
    assert round(node(body, "a")["grad"], 4) == 138.8338
    assert round(node(body, "b")["grad"], 4) == 645.5773
    elements = ids_in(body["svg"])
    for n in structure["nodes"]:
        assert f"n{n['id']}" in elements and f"n{n['id']}-label" in elements
        assert (f"n{n['id']}-grad" in elements) == (n["kind"] != "constant")
        if n["op"]:
            assert elements[f"n{n['id']}-op"].text == n["symbol"]
    for e in structure["edges"]:
        assert f"e{e['target']}-{e['position']}" in elements
    assert elements[f"n{output['id']}-data"].text == "24.7041"
    assert body["backend"] == client.get("/healthz").json()["backend"]


def test_value_only_change_keeps_the_layout_and_changes_the_numbers(client: TestClient) -> None:
    source = "x = 2.0\nw = -3.0\nb = 6.5\nn = x*w + b\no = n.tanh()\n"
    first = client.post("/api/graph", json={"source": source, "rankdir": "TB"}).json()
    second = client.post(
        "/api/graph", json={"source": source, "values": {"x": 1.0}, "rankdir": "TB"}
    ).json()
    assert second["timings"]["layout_cached"] is True
    assert second["timings"]["layout_ms"] == 0
    assert GEOMETRY_ONLY.sub("", first["svg"]) == GEOMETRY_ONLY.sub("", second["svg"])
    x = node(first, "x")["id"]
    assert ids_in(first["svg"])[f"n{x}-data"].text == "2.0000"
    assert ids_in(second["svg"])[f"n{x}-data"].text == "1.0000"
    assert first["svg"] != second["svg"]


def test_a_client_that_names_the_layout_it_shows_is_not_sent_it_again(
    client: TestClient,
) -> None:
    source = "x = 2.0\nw = -3.0\nb = 6.5\nn = x*w + b\no = n.tanh()\n"
    first = client.post("/api/graph", json={"source": source}).json()
    assert len(first["layout"]) == 16 and first["svg"]
    moved = {"source": source, "values": {"x": 1.0}, "layout": first["layout"]}
    second = client.post("/api/graph", json=moved).json()
    assert second["svg"] is None and second["layout"] == first["layout"]
    assert node(second, "x")["data"] == 1.0  # the numbers are the new ones
    other = client.post("/api/graph", json={**moved, "source": source + "p = o * o\n"}).json()
    assert other["svg"] and other["layout"] != first["layout"]  # drawn otherwise: sent whole
    bad = client.post("/api/graph", json={"source": source, "layout": "<svg>"})
    assert bad.status_code == 422 and bad.json()["error"]["kind"] == "request"


def test_a_client_that_holds_the_structure_is_sent_the_numbers_alone(client: TestClient) -> None:
    source = "x = 2.0\nw = -3.0\nb = 6.5\nn = x*w + b\no = n.tanh()\n"
    first = client.post("/api/graph", json={"source": source}).json()
    assert len(first["digest"]) == 16 and first["structure"]["nodes"]
    moved = {"source": source, "values": {"x": 1.0}, "structure": first["digest"]}
    second = client.post("/api/graph", json=moved).json()
    assert second["structure"] is None and second["digest"] == first["digest"]
    assert node(second, "x", first["structure"])["data"] == 1.0
    assert node(second, "o", first["structure"])["data"] == pytest.approx(math.tanh(3.5))
    assert len(second["numbers"]["slots"]) == len(first["structure"]["slots"])
    # another program (a label changes the words): the whole structure again
    renamed = source.replace("n = x*w + b\no = n.tanh()", "m = x*w + b\no = m.tanh()")
    other = client.post("/api/graph", json={**moved, "source": renamed})
    assert other.json()["structure"] and other.json()["digest"] != first["digest"]
    bad = client.post("/api/graph", json={"source": source, "structure": "not hex"})
    assert bad.status_code == 422 and bad.json()["error"]["kind"] == "request"


def test_steps_that_fail_are_the_answer_and_the_layout_made_meanwhile_is_kept(
    client: TestClient,
) -> None:
    # a new graph's steps are written while Graphviz lays it out (app/pipeline.py): their error,
    # about the program, is the answer; the layout serves the same graph with other numbers
    source = "x = 0.0\ny = x ** 0.5\n"
    failed = client.post("/api/graph", json={"source": source})
    assert failed.status_code == 422
    error = failed.json()["error"]
    assert "the gradient is undefined" in error["message"] and error["line"] == 2
    drawn = client.post("/api/graph", json={"source": source, "values": {"x": 4.0}}).json()
    assert drawn["timings"]["layout_cached"] is True
    assert node(drawn, "y")["data"] == 2.0


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_every_preset_draws(client: TestClient, preset) -> None:
    response = client.post("/api/graph", json={"source": preset.source})
    assert response.status_code == 200, response.text


def test_presets_list(client: TestClient) -> None:
    presets = client.get("/api/presets").json()
    assert [p["id"] for p in presets][:2] == ["micrograd-readme", "lecture-neuron"]
    assert len(presets) == len(PRESETS) and all(p["title"] and p["lesson"] for p in presets)


def test_standalone_svg_of_a_step(client: TestClient) -> None:
    source = quote("a = 3.0\nb = a + a\n")
    response = client.get(f"/api/graph.svg?source={source}&step=1&phase=backward&theme=dark")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    assert root.get("class") == "gradstep-graph theme-dark"
    assert root.find("{http://www.w3.org/2000/svg}style") is not None
    elements = ids_in(response.text)
    assert elements["n0-grad"].text == "2.0000"
    assert "flow" in elements["e1-0"].get("class")


def test_a_records_field_lines_are_one_path_the_stylesheet_colours(client: TestClient) -> None:
    """Graphviz draws a record's field lines as a black <polyline> each: no rule coloured a
    folded call's, black on the dark theme's boxes. Each record's lines are one themed path."""
    lecture_mlp = next(p for p in PRESETS if p.id == "lecture-mlp")  # values and folded calls
    svg = client.post("/api/graph", json={"source": lecture_mlp.source}).json()["svg"]
    assert "<polyline" not in svg
    records = re.findall(r'<g id="([nc])\d+" class="[^"]*">(.*?)</g>', svg, re.DOTALL)
    for _, body in records:
        fields = body.count("<text")  # a constant is one field: no line
        assert body.count('<path class="fields"') == (fields > 1), body
    assert {kind for kind, body in records if "fields" in body} == {"n", "c"}
    dark = client.get("/api/graph.svg", params={"source": lecture_mlp.source, "theme": "dark"})
    assert re.search(r"\.node > path\.fields \{\s*stroke: var\(--g-line\)", dark.text)


@pytest.mark.parametrize("values", ["a=5", '{"a": 5}', " a = 5 "])
def test_standalone_svg_values_in_both_formats(client: TestClient, values: str) -> None:
    url = f"/api/graph.svg?source={quote('a = 3.0; b = a * 2')}&values={quote(values)}"
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert ids_in(response.text)["n0-data"].text == "5.0000"


def test_forward_step_hides_later_data(client: TestClient) -> None:
    url = f"/api/graph.svg?source={quote('a = 3.0; b = a * 2; c = b + 1')}&step=0&phase=forward"
    elements = ids_in(client.get(url).text)
    texts = {el.text for key, el in elements.items() if key.endswith("-data")}
    assert "?" in texts and "6.0000" in texts


def test_openapi_describes_requests_and_responses(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    post = schema["paths"]["/api/graph"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "GraphRequest"
    )
    ok = post["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ok.endswith("GraphResponse")
    assert post["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ErrorResponse"
    )
    assert "Node" in schema["components"]["schemas"]


BAD_POSTS = [
    ("malformed JSON", b'{"source": "a = 1"', "json"),
    ("not an object", b"[1, 2]", "request"),
    ("no source", b"{}", "request"),
    ("source not a string", b'{"source": 3}', "request"),
    ("unknown field", b'{"source": "a = 1", "extra": 1}', "request"),
    ("bad rankdir", b'{"source": "a = 1", "rankdir": "RL"}', "request"),
    ("value not a number", b'{"source": "a = 1", "values": {"a": "x"}}', "request"),
    ("NaN value", b'{"source": "a = 1", "values": {"a": NaN}}', "request"),
    ("syntax error", b'{"source": "a = (1 +"}', "syntax"),
    ("unknown name", b'{"source": "b = a * 2"}', "name"),
    ("domain error", b'{"source": "x = -1.0\\ny = log(x)"}', "domain"),
    ("module the sandbox lacks", b'{"source": "import socket"}', "name"),
    ("not UTF-8", b'{"source": "\xff"}', "json"),
]


@pytest.mark.parametrize(("why", "body", "kind"), BAD_POSTS, ids=[b[0] for b in BAD_POSTS])
def test_bad_posts_get_422_with_the_error_shape(
    client: TestClient, why: str, body: bytes, kind: str
) -> None:
    response = client.post("/api/graph", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, (why, response.text)
    error = response.json()["error"]
    assert set(error) == {"message", "kind", "line", "column", "end_column"}
    assert error["kind"] == kind and error["message"]


def test_source_errors_carry_their_span(client: TestClient) -> None:
    error = client.post("/api/graph", json={"source": "x = -1.0\ny = log(x)"}).json()["error"]
    assert (error["line"], error["column"]) == (2, 5)
    assert error["end_column"] > error["column"]


BAD_GETS = [
    ("no source", "/api/graph.svg", "request"),
    ("step too far", f"/api/graph.svg?source={quote('a = 1.0; b = a * 2')}&step=9", "request"),
    ("negative step", f"/api/graph.svg?source={quote('b = 2.0 * 3')}&step=-1", "request"),
    ("bad phase", f"/api/graph.svg?source={quote('b = 2.0 * 3')}&step=0&phase=up", "request"),
    ("bad theme", f"/api/graph.svg?source={quote('b = 2.0 * 3')}&theme=blue", "request"),
    ("bad values", f"/api/graph.svg?source={quote('a = 1.0')}&values=a%3Dx", "request"),
    ("bad JSON values", f"/api/graph.svg?source={quote('a = 1.0')}&values=%7Ba", "request"),
    ("NaN in values", f"/api/graph.svg?source={quote('a = 1.0')}&values=a%3Dnan", "request"),
    ("syntax error", f"/api/graph.svg?source={quote('a = = 1')}", "syntax"),
    ("unknown path", "/api/nothing", "http"),
]


@pytest.mark.parametrize(("why", "url", "kind"), BAD_GETS, ids=[b[0] for b in BAD_GETS])
def test_bad_gets_get_the_error_shape(client: TestClient, why: str, url: str, kind: str) -> None:
    response = client.get(url)
    assert response.status_code == (404 if kind == "http" else 422), (why, response.text)
    assert response.json()["error"]["kind"] == kind


def test_oversized_body_is_refused_by_its_length(client: TestClient) -> None:
    body = b'{"source": "' + b"1+" * 200_000 + b'1"}'
    response = client.post("/api/graph", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"]["kind"] == "limit"


def test_oversized_streamed_body_is_refused_while_it_streams(client: TestClient) -> None:
    sent = []

    def chunks():  # no Content-Length: the limit must count bytes as they arrive
        for _ in range(1_000):
            sent.append(1)
            yield b" " * 4096

    response = client.post(
        "/api/graph", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["kind"] == "limit"


def test_too_many_values_to_draw_is_refused_by_name(client: TestClient) -> None:
    source = "x = 1.0\n" + "".join(f"x = x * 1.0001 + {i}\n" for i in range(700))
    error = client.post("/api/graph", json={"source": source}).json()["error"]
    assert error["kind"] == "limit" and "draws at most 2,000" in error["message"]


NOTHING_DRAWN = "the program made no value to draw"


@pytest.mark.parametrize(
    "source",
    ["import os\nprint(sorted(os.environ))", "x = [1, 2, 3]\nprint(sum(x))", "# only a comment"],
)
def test_a_program_with_no_value_to_draw_answers_an_empty_graph(
    client: TestClient, source: str
) -> None:
    """It ran: what it printed is the answer's console, and the notes say why there is no
    graph (it was a 422 when the interpreter refused the program)."""
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text
    GraphResponse.model_validate_json(response.content)
    body = response.json()
    structure = body["structure"]
    assert structure["nodes"] == [] and structure["edges"] == [] and structure["steps"] == []
    assert any(note.startswith(NOTHING_DRAWN) for note in structure["notes"]), structure["notes"]
    assert body["numbers"]["data"] == [] and body["training"] is None and body["plots"] == []
    printed = {"import os": [[2, "[]"]], "x = [1, 2": [[2, "6"]], "# only a ": []}
    assert body["console"] == printed[source[:9]]


def test_what_a_program_plotted_is_the_answers_plots(client: TestClient) -> None:
    source = (
        "a = Value(2.0)\nb = a * a\nb.backward()\n"
        "import matplotlib.pyplot as plt\n"
        "plt.plot([1, 2, 3], [4.0, 5.0, 6.0], label='loss')\n"
        "plt.title('training')\n"
        "plt.contourf([[1, 2], [3, 4]])\n"
        "plt.show()\n"
    )
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text
    GraphResponse.model_validate_json(response.content)
    body = response.json()
    (figure,) = body["plots"]
    (axes,) = figure["axes"]
    assert axes["title"] == "training"
    (series,) = axes["series"]
    assert (series["kind"], series["x"], series["y"], series["label"]) == (
        "line",
        [1.0, 2.0, 3.0],
        [4.0, 5.0, 6.0],
        "loss",
    )
    assert figure["skipped"] == ["contourf was not drawn"]
    assert any("contourf was not drawn" in note for note in body["structure"]["notes"])
    assert node(body, "b")["data"] == 4.0  # the graph is drawn beside them
    plain = client.post("/api/graph", json={"source": "a = 2.0\nb = a * a"}).json()
    assert plain["plots"] == []


# (source, message, kind, line, column): CPython's own words, at the learner's line
CPYTHON_ERRORS = [
    ("a = Value(2.0)\nb = a * x", "NameError: name 'x' is not defined", "name", 2, 9),
    ("a = Value(2.0)\nc = 1.0 / 0.0\nb = a * c", "ZeroDivisionError: ", "domain", 2, 5),
    ("a = Value(2.0)\nb = a + 'x'", "TypeError: ", "type", 2, 5),
    ("a = Value(2.0)\nb = [a][3]", "IndexError: list index out of range", "name", 2, 5),
    ("a = Value(2.0)\nb = {'k': a}['j']", "KeyError: 'j'", "name", 2, 5),
    ("a = Value(2.0)\nassert a.data < 0, 'too big'", "AssertionError: too big", "assert", 2, 8),
    (
        "import math\na = Value(math.exp(1000))",
        "OverflowError: math range error",
        "overflow",
        2,
        11,
    ),
    ("a = Value(2.0)\nraise RuntimeError('stop')", "RuntimeError: stop", "error", 2, 1),
]


@pytest.mark.parametrize(("source", "message", "kind", "line", "column"), CPYTHON_ERRORS)
def test_errors_are_cpythons_own_at_the_learners_line(
    client: TestClient, source: str, message: str, kind: str, line: int, column: int
) -> None:
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["message"].startswith(message), error
    assert (error["kind"], error["line"], error["column"]) == (kind, line, column), error
    assert "Traceback" not in error["message"] and 'File "' not in error["message"]


@pytest.mark.parametrize(
    ("name", "use", "hint"),
    [
        ("np", "np.array([1.0])", "import numpy as np"),
        ("plt", "plt.plot([1.0])", "import matplotlib.pyplot as plt"),
        ("math", "math.pi", "import math"),
    ],
)
def test_a_name_a_module_would_give_says_which_import_is_missing(
    client: TestClient, name: str, use: str, hint: str
) -> None:
    source = f"a = Value(2.0)\nx = {use}\nb = a * a"
    error = client.post("/api/graph", json={"source": source}).json()["error"]
    assert error["message"] == f"NameError: name '{name}' is not defined (add {hint} at the top)"
    assert (error["kind"], error["line"], error["column"]) == ("name", 2, 5)


CONSTRUCTS = [  # each refused by the old interpreter; CPython runs them all
    "import os\ntry:\n    a = Value(1 / 0)\nexcept ZeroDivisionError:\n    a = Value(2.0)\n"
    "b = a * a",
    "from contextlib import nullcontext\nwith nullcontext(Value(2.0)) as a:\n    b = a * a",
    "def gen():\n    yield Value(1.0)\n    yield Value(1.0)\na = sum(gen(), Value(0.0))\nb = a * a",
    "a = Value(2.0)\nmatch 3:\n    case 3:\n        b = (c := a * 1.0) * c",
    "class V(Value):\n    def __init__(self, x):\n        super().__init__(x)\na = V(2.0)\n"
    "b = a * a",
    "a = Value(2.0)\nexec('b = a * a')\nb = globals()['b']",
]


@pytest.mark.parametrize("source", CONSTRUCTS, ids=["try", "with", "yield", "match", "super",
                                                    "exec"])  # fmt: skip
def test_programs_are_never_refused_for_the_python_they_use(
    client: TestClient, source: str
) -> None:
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text
    body = response.json()
    structure = body["structure"]
    assert body["numbers"]["data"][structure["output"]] == 4.0, source
    assert structure["nodes"][structure["output"]]["op"] == "mul"


def test_an_error_carries_what_the_program_printed_before_it(client: TestClient) -> None:
    source = "print('before', 1 + 1)\na = Value(2.0)\nprint(a)\nb = a * x"
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 422
    ErrorResponse.model_validate_json(response.content)
    error = response.json()["error"]
    assert error["message"] == "NameError: name 'x' is not defined" and error["line"] == 4
    assert error["console"] == [[1, "before 2"], [3, "Value(data=2.0, grad=0)"]]
    silent = client.post("/api/graph", json={"source": "a = Value(2.0)\nb = a * x"}).json()
    assert "console" not in silent["error"]  # the shape is the same as every other refusal's


@pytest.mark.parametrize("terms", [300, 499])
def test_a_value_used_hundreds_of_times_is_drawn(client: TestClient, terms: int) -> None:
    """``b = a+a+…+a``: each use of ``a`` far from where it is made is drawn from a copy of it
    beside the use (its edge keeping its id), so Graphviz has no chain of hidden nodes to place
    (300 uses did not lay out in 5 s; 499 crashed dot)."""
    source = "a = 1.0\nb = " + "+".join(["a"] * terms) + "\n"
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text[:300]
    svg = response.json()["svg"]
    assert svg.count('class="node copy"') > terms - 20
    assert f'id="e{terms - 1}-1"' in svg  # the last use's edge, from a copy, as the page knows it
    a = next(n for n in response.json()["structure"]["nodes"] if n["name"] == "a")
    assert response.json()["numbers"]["grad"][a["id"]] == terms


@pytest.mark.parametrize("preset", ["micrograd-readme", "lecture-mlp"])
def test_the_presets_are_drawn_without_copies(client: TestClient, preset: str) -> None:
    svg = client.post("/api/graph", json={"preset": preset}).json()["svg"]
    assert "copy" not in svg
