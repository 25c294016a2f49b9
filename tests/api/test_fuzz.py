"""A fuzzer that keeps finding what the hostile corpus missed: programs generated from a grammar
of what learners write (assignments, def, class, for, lists, comprehensions, micrograd's nn) with
huge and tiny numbers, deep nesting and long or look-alike names, and query strings generated from
the API's own OpenAPI description, sent to a real ``gradstep serve`` whose runs have a fuel of
``FUZZ_FUEL`` (a generated program that would compute for minutes, ``10**10 ** 9...9``, ends in
about two seconds).

The invariant, for every request: a 200 whose JSON holds only finite numbers (the graph answer
validates against its strict model), or a 4xx in the one error shape; never a 5xx, and an answer
within 5 s (the harness's request timeout; nothing else about speed is asserted).

The budget is fixed (``FUZZ_EXAMPLES``, about 40 s on two busy cores). A failure prints the seed;
``GRADSTEP_FUZZ_SEED=<seed>`` replays it, ``GRADSTEP_FUZZ_EXAMPLES=<n>`` runs longer.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from served import gradstep_serve

from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.schemas import ErrorResponse, GraphResponse

pytestmark = pytest.mark.skipif(not dot_available(), reason="no dot on PATH")

FUZZ_EXAMPLES = int(os.environ.get("GRADSTEP_FUZZ_EXAMPLES", "60"))
FUZZ_SEED = int(os.environ.get("GRADSTEP_FUZZ_SEED") or random.randrange(2**32))
REQUEST_TIMEOUT_S = 5.0
FUZZ_FUEL = 5_000_000_000  # about 2 s of work: every run ends well within REQUEST_TIMEOUT_S
ERROR_KEYS = {"message", "kind", "line", "column", "end_column"}  # and console, when it printed

# ── programs, from a grammar of what learners write ───────────────────────────────────────────

POOL = ["a", "b", "x", "w", "h1", "loss", "а", "変数", "x" * 300, "_t"]  # а: Cyrillic
NAMES = st.sampled_from(POOL)
NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),  # 1e308, 5e-324, -0.0...
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(
        [
            "1e308",
            "-1.7976931348623157e308",
            "5e-324",
            "1e-320",
            "0.0",
            "1e400",
            "9" * 400,
            "0x10",
            "1_000",
            "2**1023",
            "10**10",
            "1/3",
            "0.1 + 0.2",
        ]
    ),
)
ATOMS = st.one_of(NUMBERS, NAMES, NUMBERS.map(lambda n: f"Value({n})"))
OPERATORS = st.sampled_from(["+", "-", "*", "/", "**", "//", "%"])
FUNCTIONS = st.sampled_from(["tanh", "exp", "log", "relu", "sigmoid", "sqrt", "sin", "cos"])
METHODS = st.sampled_from(["tanh", "exp", "log", "relu", "sigmoid"])


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, OPERATORS, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(FUNCTIONS, inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, METHODS).map(lambda t: f"({t[0]}).{t[1]}()"),
        inner.map(lambda e: f"-{e}"),
        st.lists(inner, min_size=1, max_size=4).map(lambda xs: f"sum([{', '.join(xs)}])"),
        st.tuples(inner, st.integers(-1, 8)).map(
            lambda t: f"sum([{t[0]} * i for i in range({t[1]})])"
        ),
        st.tuples(inner, st.sampled_from([1, 1, 2, 3, 20, 101])).map(
            lambda t: "(" * t[1] + t[0] + ")" * t[1]  # CPython's parser nests 200 at most
        ),
    )


EXPRESSIONS = st.recursive(ATOMS, _compound, max_leaves=10)
STATEMENTS = st.one_of(
    st.tuples(NAMES, EXPRESSIONS).map(lambda t: f"{t[0]} = {t[1]}"),
    st.tuples(NAMES, st.sampled_from("+-*/"), EXPRESSIONS).map(lambda t: f"{t[0]} {t[1]}= {t[2]}"),
    st.tuples(NAMES, st.integers(-2, 40), EXPRESSIONS).map(
        lambda t: f"for i in range({t[1]}):\n    {t[0]} = {t[0]} + {t[2]} * i"
    ),
    st.tuples(EXPRESSIONS, NAMES, EXPRESSIONS, EXPRESSIONS).map(
        lambda t: (
            f"def f(u, v=2.0):\n    return (u * v + {t[0]}).tanh()\n{t[1]} = f({t[2]}, {t[3]})"
        )
    ),
    st.tuples(NUMBERS, NUMBERS, METHODS, NAMES, EXPRESSIONS).map(
        lambda t: (
            "class Neuron:\n    def __init__(self, w, b):\n        self.w = Value(w)\n"
            "        self.b = Value(b)\n    def __call__(self, x):\n"
            f"        return (self.w * x + self.b).{t[2]}()\n"
            f"{t[3]} = Neuron({t[0]}, {t[1]})({t[4]})"
        )
    ),
    st.tuples(st.integers(0, 5), NAMES, EXPRESSIONS, EXPRESSIONS).map(
        lambda t: (
            f"from micrograd.nn import MLP\nmodel = MLP(2, [{t[0]}, 1])\n"
            f"{t[1]} = model([{t[2]}, {t[3]}])"
        )
    ),
    st.tuples(st.lists(EXPRESSIONS, min_size=1, max_size=4), NAMES).map(
        lambda t: f"xs = [{', '.join(t[0])}]\n{t[1]} = sum(v * v for v in xs)"
    ),
    NAMES.map(lambda n: f"{n}.backward()"),
    EXPRESSIONS.map(lambda e: f"print({e})"),
)
PRELUDE = "from micrograd.engine import Value\n" + "".join(
    f"{name} = Value({k - 4.5})\n" for k, name in enumerate(POOL)
)
TOKENS = ["a", "x1", "=", "+", "*", "**", "(", ")", "1.5", "-2", "\n", ";", ".tanh()", "Value("]
GRAMMAR = st.tuples(
    st.sampled_from([PRELUDE] * 4 + [""]), st.lists(STATEMENTS, min_size=1, max_size=6)
).map(lambda t: t[0] + "\n".join(t[1]))
SOUP = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=30).map(" ".join)
PROGRAMS = st.integers(0, 7).flatmap(  # mostly the grammar: most programs are traced and drawn
    lambda k: GRAMMAR if k < 6 else SOUP if k == 6 else st.text(min_size=1, max_size=60)
)

# ── values and query strings, from the API's description ──────────────────────────────────────

VALUE_NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1e308", "1e400", "-5e-324", "9" * 5000, "nan", "true", '"1"', "[1]", ""]),
)
VALID_VALUES = st.dictionaries(
    st.sampled_from(POOL), st.floats(allow_nan=False, allow_infinity=False), max_size=3
)
VALUES_TEXT = st.one_of(
    VALID_VALUES.map(lambda d: ",".join(f"{k}={v!r}" for k, v in d.items())),
    VALID_VALUES.map(json.dumps),
    st.dictionaries(NAMES, VALUE_NUMBERS, max_size=4).map(
        lambda d: ",".join(f"{k}={v}" for k, v in d.items())
    ),
    st.dictionaries(NAMES, VALUE_NUMBERS, max_size=4).map(
        lambda d: "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in d.items()) + "}"
    ),
    st.integers(1, 3000).map(lambda n: '{"a": ' + "[" * n + "]" * n + "}"),
    st.text(max_size=30),
)
GRAPH_ROUTES = ["/api/graph.svg", "/api/graph.html", "/api/graph.png"]  # ZIP and GIF: seconds
TEXT = st.one_of(st.text(max_size=20), st.sampled_from(["", "0", "-1", "1e999", "NaN", "x" * 999]))


def _from_schema(schema: dict[str, Any], components: dict[str, Any]) -> st.SearchStrategy[str]:
    """A valid query value for a parameter, by its schema (an enum, a number in its range)."""
    if "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:
        schema = next(s for s in schema["anyOf"] if s.get("type") != "null")
    if "enum" in schema:
        return st.sampled_from([str(v) for v in schema["enum"]])
    low, high = schema.get("minimum", -2), schema.get("maximum", 60)  # a step: 0 to a few dozen
    if schema.get("type") == "integer":
        return st.integers(low, high).map(str)
    if schema.get("type") == "number":
        return st.floats(low, high).map(repr)
    if schema.get("type") == "boolean":
        return st.sampled_from(["true", "false"])
    return TEXT


# Past the schema: one parameter of a request may get one of these instead.
HOSTILE = st.one_of(TEXT, st.sampled_from(["-1", "-3", str(10**30), "1e-320", "4.0001", "nan"]))


def _query_strategies() -> dict[str, dict[str, st.SearchStrategy[str]]]:
    document = create_app().openapi()
    paths, components = document["paths"], document["components"]["schemas"]
    routes: dict[str, dict[str, st.SearchStrategy[str]]] = {}
    for route in GRAPH_ROUTES:
        routes[route] = {
            p["name"]: _from_schema(p["schema"], components)
            for p in paths[route]["get"]["parameters"]
            if p["name"] not in ("source", "values", "preset")
        }
    routes["/api/graph.png"]["scale"] = st.floats(0.1, 1.0).map(repr)  # a 4K PNG takes seconds
    return routes


QUERIES = _query_strategies()


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, dict[str, Any] | None, dict[str, str]]:
    """A program, how it is posted, and a GET of one graph route with a generated query."""
    source = draw(PROGRAMS)
    values = draw(st.one_of(st.none(), st.none(), st.none(), VALUES_TEXT))
    posted = {"source": source, **({"values": values} if values is not None else {})}
    route = draw(st.sampled_from(GRAPH_ROUTES))
    params = {"source": source, **({"values": values} if values else {})}
    for name, strategy in QUERIES[route].items():
        if draw(st.booleans()):
            params[name] = draw(strategy)
    hostile = draw(st.one_of(st.none(), st.none(), st.sampled_from(sorted(QUERIES[route]))))
    if hostile is not None:
        params[hostile] = draw(HOSTILE)
    return route, posted, params


# ── the invariant ─────────────────────────────────────────────────────────────────────────────


def _no_constant(name: str) -> float:
    raise AssertionError(f"the JSON holds {name}")


def check(response: httpx.Response) -> None:
    """A 200 with finite numbers, or a 4xx in the error shape; never a 5xx."""
    status, kind = response.status_code, response.headers.get("content-type", "")
    assert status < 500, (status, response.text[:500])
    if status >= 400:
        error = response.json()["error"]
        assert set(error) - {"console"} == ERROR_KEYS and isinstance(error["message"], str), error
        ErrorResponse.model_validate_json(response.text)  # strict: console is (line, text) pairs
        assert error["message"] and "Traceback" not in error["message"], error
        return
    assert status == 200, status
    if kind.startswith("application/json"):
        body = json.loads(response.text, parse_constant=_no_constant)  # NaN, Infinity: refused
        GraphResponse.model_validate_json(response.text)  # strict: every number is a number
        numbers = [n for n in _numbers(body) if not math.isfinite(n)]
        assert not numbers, numbers
    elif kind.startswith("image/svg"):
        assert ">nan<" not in response.text.lower() and ">inf<" not in response.text.lower()


def _numbers(node: object) -> Iterator[float]:
    if isinstance(node, dict):
        for item in node.values():
            yield from _numbers(item)
    elif isinstance(node, list):
        for item in node:
            yield from _numbers(item)
    elif isinstance(node, int | float) and not isinstance(node, bool):
        yield float(node)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    env = {"GRADSTEP_LAYOUT": "dot", "GRADSTEP_LAYOUT_TIMEOUT": "2",
           "GRADSTEP_RUN_FUEL": str(FUZZ_FUEL)}  # fmt: skip
    with gradstep_serve(env) as served:
        yield served


def test_no_generated_program_or_query_gets_a_5xx_or_a_slow_answer(
    server: tuple[subprocess.Popen[bytes], str],
) -> None:
    url = server[1]

    @seed(FUZZ_SEED)
    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests())
    def fuzz(request: tuple[str, dict[str, Any] | None, dict[str, str]]) -> None:
        route, posted, params = request
        with httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT_S) as client:
            check(client.post("/api/graph", json=posted))
            check(client.get(route, params=params))

    try:
        fuzz()
    except BaseException:
        print(f"fuzz seed: {FUZZ_SEED} (replay: GRADSTEP_FUZZ_SEED={FUZZ_SEED})")
        raise
    assert server[0].poll() is None  # the server is still up
