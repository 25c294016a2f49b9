"""Messages that misled, each now saying what happened: a graph too large to draw, noise in the
training lab, a run that diverged because of its L2 strength. (The values grammar's messages,
5,000 digits and JSON arrays among them, are in test_values.py; the command line's in
test_cli.py.)"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.routes.training import MAX_TRAIN_NOISE, sse
from app.training.worker import messages
from engine.lab.config import PRESETS


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as made:
        yield made


def test_a_graph_too_large_to_draw_says_so_and_nothing_else(client: TestClient) -> None:
    """It said "the trace was computed", also for graphs the engine refused before any trace."""
    drawable = "x = 1.0\n" + "".join(f"x = x * 1.0001 + {i}\n" for i in range(700))
    error = client.post("/api/graph", json={"source": drawable}).json()["error"]
    assert error["kind"] == "limit" and "draws at most 2,000" in error["message"]
    assert "trace" not in error["message"]
    too_many = "x = 1.0\nfor i in range(3000):\n    x = x * 1.0001 + 1\n"  # counted, not kept
    error = client.post("/api/graph", json={"source": too_many}).json()["error"]
    assert error["kind"] == "limit", error
    assert error["message"].startswith("this graph has 12,001 values; gradstep keeps at most 5,000")
    assert "trace" not in error["message"]


def test_noise_too_large_is_refused_by_name(client: TestClient) -> None:
    """noise=1e308 made the points infinite, and the lab said "try a smaller learning rate"."""
    for noise in (1e308, MAX_TRAIN_NOISE * 2):
        response = client.post("/api/train", json={"preset": "xor-tanh", "noise": noise})
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["kind"] == "limit" and "MAX_TRAIN_NOISE" in error["message"], error
        assert "learning rate" not in error["message"]


def test_data_that_is_not_finite_is_not_blamed_on_the_learning_rate() -> None:
    event = sse("start", {"points": [[math.inf, 0.0]]})
    assert event.startswith("event: error") and "use less noise" in event
    assert "learning rate" not in event
    diverged = sse("epoch", {"loss": math.nan})
    assert "learning rate" in diverged


def test_a_run_diverging_under_a_huge_l2_names_it() -> None:
    config = replace(PRESETS["xor-tanh"][1], epochs=2, l2=1e308)
    kind, payload = list(messages(config))[-1]
    assert kind == "error" and "L2 strength" in payload["error"]["message"], payload
