"""POST /api/three-ways: the seed's two presets answer with its numbers, the answer is
what /openapi.json promises, and hostile programs (a 200-layer tanh chain, 40 inputs, a symbolic
blow-up, a graph past the limits, a learner's op gradstep does not know) answer with the
result, their work bounded by the budgets, or a clear 422."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from backends import BACKENDS
from fastapi.testclient import TestClient

from app.main import create_app
from app.routes.three_ways import ThreeWaysResponse
from app.schemas import ErrorResponse
from app.settings import Settings
from engine.ways.numerical import SWEEP
from engine.ways.symbolic import CSE_MAX_OPS, MAX_WORK

LEARNERS = Path(__file__).parents[1] / "engine" / "learners"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(layout=BACKENDS[0]))) as test_client:
        yield test_client


def answer(client: TestClient, **body: object) -> ThreeWaysResponse:
    response = client.post("/api/three-ways", json=body)
    assert response.status_code == 200, response.text
    return ThreeWaysResponse.model_validate_json(response.content)  # what the schema promises


def refusal(client: TestClient, **body: object) -> str:
    response = client.post("/api/three-ways", json=body)
    assert response.status_code == 422, response.text
    return ErrorResponse.model_validate_json(response.content).error.message


def test_the_seeds_first_preset_answers_with_its_printed_numbers(client: TestClient) -> None:
    w = answer(client, preset="three-ways")
    (d,) = w.symbolic.derivatives
    (n,) = w.numerical
    assert f"{d.value:.15f}" == "1.972602361114157"
    assert w.h == 1e-7 and f"{n.value:.15f}" == "1.972602359234799"
    assert f"{n.error:.2e}" == "1.88e-09" and n.dominant == "roundoff"
    assert n.sweep is not None and len(n.sweep.error) == len(w.sweep) == len(SWEEP)
    assert d.text == "sin(x)·2·x + x²·cos(x)" and d.simplified == "x·(2·sin(x) + x·cos(x))"
    assert w.numerical_passes == 2 and w.costs.cheap and w.costs.bound == 5


def test_the_second_preset_with_values_as_a_url_writes_them(client: TestClient) -> None:
    w = answer(client, preset="tangent-passes", values="y=3")
    assert [i.name for i in w.inputs] == ["x", "y"]
    assert [f"{i.reverse:.4f}" for i in w.inputs] == ["-1.1714", "0.9093"]
    assert [p.result for p in w.forward_mode.passes] == [i.reverse for i in w.inputs]
    assert w.costs.forward == 3 and w.costs.forward_mode == 2 * w.costs.tangent_pass
    first = w.forward_mode.passes[0].slots
    assert first is not None and len(first) == len(w.forward_mode.kinds)
    cells = [cell.role for step in w.forward_mode.steps for row in step.rows for cell in row]
    assert {"formula", "tangent", "rule", "product", "note"} <= set(cells)
    same = answer(client, source="x = 2.0\ny = 7.0\nf = (x + y) * sin(x)", values={"y": 3.0})
    assert same.inputs == w.inputs


def test_a_200_layer_tanh_chain_answers_with_its_swell(client: TestClient) -> None:
    w = answer(client, source="x = 0.5\nfor i in range(200):\n    x = tanh(x)")
    (d,) = w.symbolic.derivatives
    assert d.written == 20_899 and d.cut and d.cse is None  # past CSE_MAX_OPS
    assert d.written > CSE_MAX_OPS and w.symbolic.notes
    last = w.symbolic.swell[-1]
    assert (last.depth, last.nodes, last.node) == (200, 201, 200)


def test_40_inputs_answer_each_within_the_budgets(client: TestClient) -> None:
    source = "\n".join(f"x{i} = {0.1 * i:.1f}" for i in range(40))
    source += "\ny = " + " + ".join(f"x{i}*x{(i + 1) % 40}" for i in range(40))
    w = answer(client, source=source)
    assert len(w.inputs) == len(w.symbolic.derivatives) == len(w.forward_mode.passes) == 40
    assert w.numerical_passes == 80 and w.costs.numerical == 80 * w.costs.forward
    assert sum(d.simplified is not None for d in w.symbolic.derivatives) <= 2


def test_a_symbolic_blow_up_is_counted_not_written(client: TestClient) -> None:
    w = answer(client, source="x = 0.3\ny = x\nfor i in range(300):\n    y = sin(y) * y + x")
    (d,) = w.symbolic.derivatives
    assert d.written > 10**90 and d.shared < 10_000 and d.cut  # counted as a DAG: bounded work
    assert w.costs.symbolic == d.written
    assert len(w.symbolic.derivatives) * 901 <= MAX_WORK


def test_refusals_say_what_is_wrong(client: TestClient) -> None:
    assert "no value" in refusal(client, source="print(1)")
    assert "5,000" in refusal(client, source="x = 0.5\nfor i in range(6000):\n    x = tanh(x)")
    assert "at most 1,000" in refusal(
        client, source="x = 0.5\nfor i in range(2000):\n    x = tanh(x)"
    )
    unknown = (LEARNERS / "mistakes/order_recursive_right.py").read_text()
    assert "op table" in refusal(client, source=unknown)
    assert "preset" in refusal(client, preset="no-such-preset")
