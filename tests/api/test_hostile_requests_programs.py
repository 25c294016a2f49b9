"""A hostile corpus against the whole app, programs (the sandbox's own walls are tried in
tests/engine/test_sandbox.py): attempts to reach the server's files, processes, network, threads
and environment, programs that would run or grow forever, parsers and interpreters pushed past
their depth, DOT and SVG injection through every string that reaches a label, hostile values,
and graphs too slow to lay out.

A program runs in CPython inside the sandbox, so nothing is refused for the Python it uses: what
it tries fails there with CPython's own error (a 422 in the one error shape, at its line, never
kind internal) or runs harmlessly inside; a run past the sandbox's fuel is a 422 naming the limit,
one past its memory a MemoryError. Every request is answered (within ``ANSWER_WITHIN_S``), never
a 5xx, nothing reaches the server (the canary file), and ``/healthz`` answers after every batch.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient
from hostile_client import (
    CANARY,
    HOSTILE_FUEL,
    NEEDS_DOT,
    answered,
    assert_healthy,
    assert_refused,
    hostile_client,  # noqa: F401  (the fixture client)
)
from programs import dense_source, slow_source

from app.draw.dot import short_label

pytestmark = NEEDS_DOT


def post(client: TestClient, source: str) -> object:
    """The answer to POST /api/graph, waited for ``ANSWER_WITHIN_S`` at most."""
    return answered(lambda: client.post("/api/graph", json={"source": source}))


def get_svg(client: TestClient, source: str) -> object:
    return answered(lambda: client.get("/api/graph.svg", params={"source": source}))


# ── the sandbox's walls: (program, the start of CPython's message, kind, line) ────────────────

TOUCH = f"open('{CANARY}', 'w').write('x')"
NO_FILE = f"FileNotFoundError: [Errno 44] No such file or directory: '{CANARY}'"
WALLS = [
    (TOUCH, NO_FILE, "error", 1),
    (f"a = {TOUCH}", NO_FILE, "error", 1),
    (f'exec("{TOUCH}")', NO_FILE, "error", 1),
    (f'eval("{TOUCH}")', NO_FILE, "error", 1),
    (f"a = (lambda: {TOUCH})()", NO_FILE, "error", 1),
    (f"a = f'{{{TOUCH}}}'", NO_FILE, "error", 1),
    (f"with open('{CANARY}', 'w') as f:\n    f.write('x')", NO_FILE, "error", 1),
    (
        "print(open('/etc/passwd').read())",
        "FileNotFoundError: [Errno 44] No such file or directory: '/etc/passwd'",
        "error",
        1,
    ),
    ("import os\nprint(os.listdir('/'))", "FileNotFoundError: ", "error", 2),
    (
        f"__import__('os').system('touch {CANARY}')",
        "AttributeError: module 'os' has no attribute 'system'",
        "name",
        1,
    ),
    (
        f"import os\nos.system('touch {CANARY}')",
        "AttributeError: module 'os' has no attribute 'system'",
        "name",
        2,
    ),
    (
        f"from os import system\nsystem('touch {CANARY}')",
        "ImportError: cannot import name 'system' from 'os'",
        "name",
        1,
    ),
    (
        "@__import__('os').system\ndef f(): pass",
        "AttributeError: module 'os' has no attribute 'system'",
        "name",
        1,
    ),
    ("import os\nos.fork()", "AttributeError: module 'os' has no attribute 'fork'", "name", 2),
    (
        "import os\nos.execv('/bin/sh', ['sh'])",
        "AttributeError: module 'os' has no attribute 'execv'",
        "name",
        2,
    ),
    *(
        (f"import {module}", f"ModuleNotFoundError: No module named '{module}'", "name", 1)
        for module in ("socket", "subprocess", "ctypes", "threading", "signal", "asyncio")
    ),
    (
        "import urllib.request\nurllib.request.urlopen('http://example.org')",
        "ModuleNotFoundError: No module named 'urllib'",
        "name",
        1,
    ),
    (
        "import _thread\n_thread.start_new_thread(print, ())",
        "RuntimeError: can't start new thread",
        "error",
        2,
    ),
]


@pytest.mark.parametrize(("source", "message", "kind", "line"), WALLS, ids=range(len(WALLS)))
def test_files_processes_network_and_threads_are_not_there(
    client: TestClient, source: str, message: str, kind: str, line: int
) -> None:
    for response in (post(client, source), get_svg(client, source)):
        error = assert_refused(response, {kind})  # type: ignore[arg-type]
        assert response.status_code == 422  # type: ignore[attr-defined]
        assert error["message"].startswith(message), error  # type: ignore[union-attr]
        assert error["line"] == line, error
    assert not CANARY.exists()


def test_the_environment_is_empty_and_sleep_returns_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's environment (its secrets) is not the program's; a sleep of 100 s is answered
    well within ``ANSWER_WITHIN_S`` (a run's time is its fuel: nothing holds a server thread)."""
    monkeypatch.setenv("GRADSTEP_HOSTILE_SECRET", "hunter2")
    source = (
        "import os, time\n"
        "print(sorted(os.environ), os.environ.get('GRADSTEP_HOSTILE_SECRET'))\n"
        "time.sleep(100)\n"
        "print('awake')\n"
        "a = Value(2.0)\n"
        "b = a * a\n"
    )
    response = post(client, source)
    assert response.status_code == 200, response.text  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["console"] == [[2, "[] None"], [4, "awake"]]
    assert "hunter2" not in response.text  # type: ignore[attr-defined]
    assert_healthy(client)


FOREVER = [
    ("while True: pass", "(it was at line 1)"),
    ("for i in range(10**12):\n    a = i", "(it was at line 1)"),
    ("a = 2.0\nb = a ** (10 ** 10 ** 10)", ""),
]


@pytest.mark.parametrize(("source", "where"), FOREVER, ids=range(len(FOREVER)))
def test_a_program_that_runs_forever_ends_at_its_fuel(
    client: TestClient, source: str, where: str
) -> None:
    for response in (post(client, source), get_svg(client, source)):
        error = assert_refused(response, {"limit"})  # type: ignore[arg-type]
        assert response.status_code == 422  # type: ignore[attr-defined]
        message = str(error["message"])
        assert message.startswith("the program ran out of time"), error
        assert f"{HOSTILE_FUEL:,} units of work, gradstep's limit for one run" in message, error
        assert where in message
    assert_healthy(client)


def test_a_program_that_makes_values_forever_stops_itself_at_its_line(client: TestClient) -> None:
    """A run that makes values stops itself a little before its fuel ends (keeping what it
    printed), located at the line it had reached."""
    source = "a = Value(1.0)\nprint('started')\nwhile True:\n    a = a * 1.0\n"
    error = assert_refused(post(client, source), {"limit"})  # type: ignore[arg-type]
    assert "gradstep's limit for one run" in str(error["message"]), error
    assert error["line"] in (3, 4), error
    assert_healthy(client)


@pytest.mark.parametrize(
    ("source", "message", "kind", "line"),
    [
        ("a = [0] * 10**9", "MemoryError: ", "limit", 1),
        ("a = Value(1.0)\nxs = [a] * 10**9", "MemoryError: ", "limit", 2),
        ("x = 'a' * 10**10", "OverflowError: ", "overflow", 1),
    ],
)
def test_a_program_that_grows_without_end_is_a_memory_error(
    client: TestClient, source: str, message: str, kind: str, line: int
) -> None:
    error = assert_refused(post(client, source), {kind})  # type: ignore[arg-type]
    assert str(error["message"]).startswith(message) and error["line"] == line, error
    assert_healthy(client)


DEPTH = [
    ("def f(): return f()\nf()", "RecursionError: maximum recursion depth exceeded", "limit"),
    ("a = 9" * 4000, "SyntaxError: invalid decimal literal", "syntax"),
    ("a = " + "(" * 5000 + "1" + ")" * 5000, "MemoryError: Parser stack overflowed", "syntax"),
    ("a = " + "-" * 10000 + "1", "MemoryError: Parser stack overflowed", "syntax"),
    ("a = " + " + ".join(["1.0"] * 3000), "the program nests too deeply to run", "limit"),
]


@pytest.mark.parametrize(("source", "message", "kind"), DEPTH, ids=range(len(DEPTH)))
def test_programs_too_deep_to_parse_or_run_are_limits_not_crashes(
    client: TestClient, source: str, message: str, kind: str
) -> None:
    error = assert_refused(post(client, source), {kind})  # type: ignore[arg-type]
    assert str(error["message"]).startswith(message), error
    assert_refused(get_svg(client, source), {kind})  # type: ignore[arg-type]
    assert_healthy(client)


INSIDES = [  # the interpreter's insides: reachable, and only inside the sandbox
    "a = ().__class__.__bases__[0].__subclasses__()",
    "a = Value(2.0)\nb = a.__class__.__init__.__globals__",
    "a = globals()['__builtins__']",
    "a = [x for x in ().__class__.__mro__]",
    "class A: pass",
    "breakpoint()",
    "import sys\nsys.exit(3)",
    "raise SystemExit",
    "import micrograd.engine as m\nm.Value.__add__ = print",
    "import builtins\nbuiltins.print = None\nbuiltins.Value = None",
]


@pytest.mark.parametrize("source", INSIDES, ids=range(len(INSIDES)))
def test_the_interpreters_insides_are_the_sandboxs_alone(client: TestClient, source: str) -> None:
    """Each runs: a graph, or nothing to draw (200), or an error in the one shape. The next run
    is untouched by what it changed (a fresh sandbox every run)."""
    response = post(client, source)
    if response.status_code != 200:  # type: ignore[attr-defined]
        assert_refused(response)  # type: ignore[arg-type]
    after = post(client, "a = Value(2.0)\nb = a + a\nprint(b.data, print is not None)")
    assert after.status_code == 200, after.text  # type: ignore[attr-defined]
    assert after.json()["console"] == [[3, "4.0 True"]]  # type: ignore[attr-defined]
    assert not CANARY.exists()


def test_a_values_data_set_to_text_is_the_programs_error_not_the_servers(
    client: TestClient,
) -> None:
    """micrograd lets a program store anything in ``data``; drawing it is the program's error,
    at its line, not the sandbox failing (kind internal asks the user to report it)."""
    for source in (
        "a = Value(2.0)\na.data = __import__('os').getcwd()",
        "a = Value(2.0)\na.data = 'x'",
    ):
        error = assert_refused(post(client, source))  # type: ignore[arg-type]
        assert error["line"] == 2, error


def test_health_after_the_hostile_programs(client: TestClient) -> None:
    assert_healthy(client)
    assert not CANARY.exists()


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
    assert_refused(bigger)  # past the fuel, too long a program, or too complex: refused
    assert_refused(client.get("/api/graph.svg", params={"source": slow_source()}))
    assert client.post("/api/graph", json={"source": "a = 2.0\nb = a * a"}).status_code == 200
    assert_healthy(client)


HOSTILE_LABELS = [INJECT, "</text></g><script>alert(1)</script>", "&lt;", "x\u202ey", "\u2067ok"]
# control characters and those that hide or reorder text, as Python writes them in a string
SHOWN = {"a\x00b\x1b[31m\u202e": "a\\x00b\\x1b[31m\\u202e", "x\u202ey": "x\\u202ey",
         "\u2067ok": "\\u2067ok"}  # fmt: skip


@pytest.mark.parametrize("hostile", [*HOSTILE_LABELS, *SHOWN], ids=range(len(HOSTILE_LABELS) + 3))
def test_any_label_string_is_drawn_as_text(client: TestClient, hostile: str) -> None:
    """A program can set any string as a label (micrograd's ``e.label = ...``), control
    characters and markup included: every character reaches the drawing as text, and those
    that would hide or reorder what is drawn (on the projector, in a question) are written out."""
    source = f"a = Value(2.0)\na.label = {hostile!r}\nb = a * a\nb.label = a.label\n"
    response = client.post("/api/graph", json={"source": source})
    assert response.status_code == 200, response.text
    svg = response.json()["svg"]
    assert_safe_svg(svg)
    labels = [
        t.text
        for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
        if t.get("id", "").endswith("-label")
    ]
    assert labels == [short_label(SHOWN.get(hostile, hostile))] * 2
    names = [node["name"] for node in response.json()["structure"]["nodes"]]
    assert SHOWN.get(hostile, hostile) in names


def test_labels_names_and_operands_past_their_limits_are_refused_at_their_line(
    client: TestClient,
) -> None:
    long_label = (
        "s = 'L' * 99999\ny = Value(1.0, label=s)\nz = y\nfor i in range(200):\n    z = z + y\n"
    )
    error = assert_refused(post(client, long_label), {"limit"})  # type: ignore[arg-type]
    assert "label has 99,999 characters" in error["message"] and error["line"] == 2
    many_parents = (
        "class V:\n"
        "    def __init__(self, data, _children=(), _op=''):\n"
        "        self.data = data; self.grad = 0.0; self._prev = list(_children); self._op = _op\n"
        "    def __add__(self, other):\n"
        "        return V(self.data + other.data, (self, other), '+')\n"
        "a = V(1.0)\nb = a + a\nb._prev = [a] * 99999\n"
    )
    error = assert_refused(post(client, many_parents), {"limit"})  # type: ignore[arg-type]
    assert "99,999 operands" in error["message"]
    long_op = many_parents.replace("[a] * 99999", "[a]\nb._op = '+' * 5000")
    error = assert_refused(post(client, long_op), {"limit"})  # type: ignore[arg-type]
    assert "op has 5,000 characters" in error["message"]


def test_echoed_input_is_cut_to_a_few_dozen_characters(client: TestClient) -> None:
    for source in ("assert False, 'x' * 100000\n", "raise ValueError('y' * 100000)\n"):
        error = assert_refused(post(client, source))  # type: ignore[arg-type]
        assert len(error["message"]) <= 200 and error["line"] == 1, error  # type: ignore[arg-type]
    for name in ("k" * 50_000, "k" * 100):  # too long to be a name; a name that is no input
        sent = {"source": "a = 1.0\nb = a * 2\n", "values": {name: 1.0}}
        error = assert_refused(client.post("/api/graph", json=sent))
        assert "kkkk" in error["message"] and len(error["message"]) <= 200, error  # type: ignore[arg-type]


LEARNER = """
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data; self.grad = 0.0; self._prev = set(_children); self._op = _op
        self._backward = lambda: None
    def __add__(self, other):
        out = V(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad; other.grad += out.grad
        out._backward = _backward
        return out
    def backward(self):
        self.grad = 1.0
        for v in [self] + list(self._prev): v._backward()
a = V(1.0); b = V(2.0); c = V(3.0)
d = a + b
"""
ODD_WRITES = [
    "a.grad = None\nd.backward()\n", "a.grad = 'x'\n", "a.grad = object()\n",
    "d.backward()\na.grad = None\n", "d.backward()\na.grad = [1, 2]\n",
    "d._prev = [[a, b], c]\nd.backward()\n", "d._prev = [[a, b], c]\n", "d._prev = 'ab'\n",
    "d.data = None\n", "d._op = 5\nd.backward()\n",
]  # fmt: skip


@pytest.mark.parametrize("tail", ODD_WRITES, ids=range(len(ODD_WRITES)))
def test_a_learners_engine_with_odd_grads_parents_or_ops_is_answered(
    client: TestClient, tail: str
) -> None:
    """A grad, parent list, data or op of any type: drawn, or CPython's error, or a clear
    refusal; never the server's own failure."""
    response = post(client, LEARNER + tail)
    if response.status_code != 200:  # type: ignore[attr-defined]
        assert_refused(response)  # type: ignore[arg-type]


def test_colliding_hashes_end_within_the_runs_fuel(client: TestClient) -> None:
    """50,000 integers with one hash into a set, a dict and set.update: CPython's own cost,
    bounded by the sandbox's fuel (the same bound as any loop)."""
    for build in ("s = set(xs)", "d = dict(zip(xs, xs))", "s = set()\ns.update(xs)"):
        source = f"P = 2**61 - 1\nxs = [i*P for i in range(50000)]\n{build}\nprint(len(xs))\n"
        response = post(client, source)
        if response.status_code != 200:  # type: ignore[attr-defined]
            assert assert_refused(response, {"limit"})["line"] in (2, 3, 4)  # type: ignore[arg-type]
    assert_healthy(client)


def test_a_slider_moves_what_its_grad_says(client: TestClient) -> None:
    """An input is one leaf for all its uses: a typed example's number is an input wherever
    it is used; in a program that makes values, a plain number stays a number (no slider)."""
    typed = client.post("/api/graph", json={"source": "x = 2.0\nz = x*x + x\n"}).json()
    nodes = typed["structure"]["nodes"]
    x = next(n["id"] for n in nodes if n["name"] == "x")
    assert typed["numbers"]["grad"][x] == 5.0  # d(x² + x)/dx at 2, every use counted
    mixed = "x = 2.0\ny = Value(3.0)\nz = x*y + x**2\nz.backward()\n"
    answer = client.post("/api/graph", json={"source": mixed}).json()
    assert "x" not in [n["name"] for n in answer["structure"]["nodes"] if n["kind"] == "input"]
    moved = client.post("/api/graph", json={"source": mixed, "values": {"x": 3.0}})
    assert moved.status_code == 422  # no slider for x: nothing to move at rate 3 or 7


def test_a_learners_engine_writing_grads_without_end_is_bounded_by_the_runs_fuel(
    client: TestClient,
) -> None:
    """Every write of a learner's engine is recorded inside the run, so its fuel bounds them
    all (the interpreter traced them after its deadline, quadratically: 61 s); a graph past the
    drawing limit is refused from the record, before it is studied."""
    source = (
        "class V:\n"
        "    def __init__(self, data, _children=(), _op=''):\n"
        "        self.data = data; self.grad = 0.0; self._prev = set(_children); self._op = _op\n"
        "    def __add__(self, other):\n"
        "        return V(self.data + other.data, (self, other), '+')\n"
        "a = V(1.0)\nx = V(0.0)\n"
        "for i in range(4500):\n    x = x + a\n"
        + "for i in range(45000):\n    a.grad = 0.0\n" * 3
        + "out = x + a\n"
    )
    error = assert_refused(post(client, source), {"limit"})  # type: ignore[arg-type]
    assert "units of work" in error["message"] or "draws at most" in error["message"]
    assert_healthy(client)
