"""The training lab's API, what a request gets: the options, the event stream in order, runs
past a limit and bad configs refused, every boundary carrying its model, inspecting a point's
loss as a program, and the OpenAPI description."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from training_client import (
    assert_worker_ended,
    events,
    job_of,
    training_client,  # noqa: F401  (the fixture client)
)

from app.routes.training import STEP_POINTS
from app.schemas import ErrorResponse, TrainInspectResponse
from engine import run


def test_options_list_presets_and_limits(client: TestClient) -> None:
    body = client.get("/api/train/options").json()
    presets = {p["id"]: p for p in body["presets"]}
    demo = presets["micrograd-moons"]["config"]
    assert (demo["dataset"], demo["size"], demo["hidden"], demo["loss"]) == (
        "moons",
        100,
        [16, 16],
        "hinge",
    )
    assert (demo["l2"], demo["lr"], demo["schedule"], demo["epochs"]) == (1e-4, 1.0, "linear", 100)
    assert presets["micrograd-moons"]["parameters"] == 337
    assert presets["xor-tanh"]["parameters"] == 33
    assert body["limits"]["max_epochs"] == 1_000


def test_xor_stream_events_parse_and_arrive_in_order(client: TestClient) -> None:
    with client.stream("POST", "/api/train", json={"preset": "xor-tanh"}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        job = job_of(client, response.headers["x-training-job"])
        seen = list(events(response.iter_lines()))
    names = [name for name, _ in seen]
    assert names[0] == "start" and names[-1] == "done"
    start = seen[0][1]
    assert start["job"] == job.id
    assert start["points"] == [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    assert start["labels"] == [0, 1, 1, 0] and start["parameters"] == 33
    epochs = [data for name, data in seen if name == "epoch"]
    assert [e["epoch"] for e in epochs] == list(range(1, 201))
    assert [e["elapsed"] for e in epochs] == sorted(e["elapsed"] for e in epochs)
    assert epochs[0]["loss"] == pytest.approx(1.372289, abs=5e-7)  # the XOR tutorial's first epoch
    assert epochs[-1]["eta"] == 0.0
    boundaries = [data for name, data in seen if name == "boundary"]
    assert boundaries[-1]["epoch"] == 200
    assert all(len(b["classes"]) == b["n"] ** 2 == 1600 for b in boundaries)
    done = seen[-1][1]
    assert (done["epochs_run"], done["stopped"], done["accuracy"]) == (200, False, 1.0)
    assert_worker_ended(job)
    assert job.process.exitcode == 0 and job.reason is None


@pytest.mark.parametrize(
    ("changes", "limit"),
    [
        ({"epochs": 1_001}, "MAX_TRAIN_EPOCHS"),
        ({"size": 1_001}, "MAX_TRAIN_POINTS"),
        ({"hidden": [64, 64]}, "MAX_TRAIN_PARAMETERS"),
        ({"size": 1_000, "epochs": 1_000}, "MAX_TRAIN_WORK"),
    ],
)
def test_a_run_past_a_limit_is_refused_naming_it(
    client: TestClient, changes: dict[str, Any], limit: str
) -> None:
    response = client.post("/api/train", json={"preset": "micrograd-moons", **changes})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["kind"] == "limit" and limit in error["message"]
    assert client.get("/api/train/jobs").json() == []  # nothing was started


def test_a_runs_batches_count_in_its_work(client: TestClient) -> None:
    """Issue 30, item 15b: 1,000 points × 1,975 parameters × 10 epochs passed MAX_TRAIN_WORK
    (19.75 M) at any batch size, but at batch 1 it is 10,000 steps (an ETA of 466 s where the
    full batch took seconds). A step is charged STEP_POINTS points besides its own."""
    run = {"preset": "micrograd-moons", "size": 1_000, "hidden": [42, 42], "epochs": 10}
    refused = client.post("/api/train", json={**run, "batch_size": 1})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["kind"] == "limit" and "MAX_TRAIN_WORK" in error["message"]
    work = 1_975 * 10 * (1_000 + STEP_POINTS * 1_000)
    assert f"this run is {work:,} units of work" in error["message"]  # the figure, and why:
    assert (
        f"1,975 parameters × 10 epochs × (1,000 points + {STEP_POINTS} × 1,000 steps"
        in (error["message"])
    )
    assert "larger batches" in error["message"]  # and what works instead
    assert client.get("/api/train/jobs").json() == []
    with client.stream("POST", "/api/train", json=run) as full_batch:  # its 10 steps: allowed
        assert full_batch.status_code == 200
        job = job_of(client, full_batch.headers["x-training-job"])
        assert next(events(full_batch.iter_lines()))[0] == "start"
    assert_worker_ended(job)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"dataset": "spiral"}, "spiral has 3 classes"),
        ({"preset": "mnist"}, "unknown preset 'mnist'"),
        ({"loss": "l1"}, "loss"),
        ({"lr": -1}, "lr must be a positive number"),
        ({"hidden": []}, "hidden: give at least one"),
        ({"batch_size": -2}, "batch_size must be"),
        ({"epochs": "many"}, "epochs"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_configs_are_422_with_the_error_shape(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    response = client.post("/api/train", json=body)
    assert response.status_code == 422
    error = ErrorResponse.model_validate(response.json()).error
    assert message in error.message


def test_every_boundary_carries_the_model_it_was_drawn_from(client: TestClient) -> None:
    """Stop closes the stream, so no ``done`` event arrives: the page inspects points with the
    model of the last boundary it drew."""
    with client.stream("POST", "/api/train", json={"preset": "micrograd-moons", "epochs": 3}) as r:
        seen = list(events(r.iter_lines()))
    boundaries = [data for name, data in seen if name == "boundary"]
    assert boundaries and all(len(b["parameters"]) == 337 for b in boundaries)
    done = seen[-1][1]
    assert boundaries[-1]["parameters"] == done["parameters"]  # the last is the final model


def test_inspect_writes_the_points_loss_as_a_program(client: TestClient) -> None:
    request = {"preset": "xor-tanh", "epochs": 20}
    with client.stream("POST", "/api/train", json=request) as response:
        done = next(data for name, data in events(response.iter_lines()) if name == "done")
    body = {"config": request, "parameters": done["parameters"], "point": 2}
    answer = client.post("/api/train/inspect", json=body)
    assert answer.status_code == 200
    inspected = TrainInspectResponse.model_validate(answer.json())
    # the sandbox's tanh (WebAssembly's C library) may differ from the host's in the last bit
    program = run(inspected.source)
    assert program.graph.data[program.graph.output] == pytest.approx(inspected.loss, rel=1e-9)
    assert inspected.url.startswith("/?source=")
    graph = client.post("/api/graph", json={"source": inspected.source}).json()
    structure = graph["structure"]
    output = structure["nodes"][structure["output"]]
    assert graph["numbers"]["data"][output["id"]] == program.graph.data[program.graph.output]
    assert output["name"] == "loss"

    wrong = client.post("/api/train/inspect", json={**body, "parameters": [0.0] * 5})
    assert wrong.status_code == 422 and "this model has 33, not 5" in wrong.text
    outside = client.post("/api/train/inspect", json={**body, "point": 4})
    assert outside.status_code == 422 and "no point 4" in outside.text
    demo = {"config": {"preset": "micrograd-moons"}, "parameters": [0.1] * 337, "point": 0}
    inspected = TrainInspectResponse.model_validate(
        client.post("/api/train/inspect", json=demo).json()
    )
    assert inspected.values == 982  # micrograd's demo model: drawn folded, no size limit
    drawn = client.post("/api/graph", json={"source": inspected.source}).json()
    assert drawn["fold"]["folded"] and len(drawn["structure"]["nodes"]) == 982
    wider = {  # 26,590 characters (of 60,000 a program may have): a program of 3,494 values
        "config": {"preset": "micrograd-moons", "hidden": [32, 32]},
        "parameters": [0.12345678901234568] * 1185,
    }
    inspected = TrainInspectResponse.model_validate(
        client.post("/api/train/inspect", json={**wider, "point": 0}).json()
    )
    assert inspected.values == 3494
    widest = {  # the most parameters the lab trains: more values than a graph keeps
        "config": {"preset": "micrograd-moons", "hidden": [42, 42]},
        "parameters": [0.12345678901234568] * 1975,
    }
    too_large = client.post("/api/train/inspect", json={**widest, "point": 0})
    assert too_large.status_code == 422
    assert too_large.json()["error"]["kind"] == "limit"
    assert "too large to inspect" in too_large.json()["error"]["message"]


def test_openapi_describes_the_training_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/train", "/api/train/inspect"} <= set(spec["paths"])
    stream = spec["paths"]["/api/train"]["post"]["responses"]
    assert "text/event-stream" in stream["200"]["content"]
    assert "503" in stream and "422" in stream
    for name in ("TrainRequest", "TrainEpochEvent", "TrainBoundaryEvent", "TrainDoneEvent"):
        assert name in spec["components"]["schemas"]
