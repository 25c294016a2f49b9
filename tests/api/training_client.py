"""What the training lab's API tests share: the app (the fixture ``client``, imported), reading
the event stream with each event checked against its schema, a run's job, waiting for its
worker to end, and a run slow enough to be stopped partway."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from app.main import create_app
from app.schemas import (
    ErrorResponse,
    TrainBoundaryEvent,
    TrainDoneEvent,
    TrainEpochEvent,
    TrainStartEvent,
)
from app.training.jobs import Job

MODELS: dict[str, type[BaseModel]] = {
    "start": TrainStartEvent,
    "epoch": TrainEpochEvent,
    "boundary": TrainBoundaryEvent,
    "done": TrainDoneEvent,
    "error": ErrorResponse,
}
ENDED_S = 30.0  # how long a cancelled worker may take to end before the test fails
# ~0.35 s an epoch: 24 epochs keep within MAX_TRAIN_WORK (97.9 M), about 8 s of work
SLOW = {"preset": "micrograd-moons", "epochs": 24, "batch_size": 1}


@pytest.fixture(scope="module", name="client")
def training_client() -> Iterator[TestClient]:
    """``client`` in the modules that import this: the app with its default settings."""
    with TestClient(create_app()) as test_client:
        yield test_client


def events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Parse an SSE stream line by line, validating each event against its schema."""
    name = None
    for line in lines:
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            assert name in MODELS, name
            data = json.loads(line[len("data: ") :])
            MODELS[name].model_validate(data)
            yield name, data
        else:
            assert line == "", line


def job_of(client: TestClient, job_id: str) -> Job:
    job = client.app.state.training.get(job_id)  # type: ignore[attr-defined]
    assert job is not None
    return job


def assert_worker_ended(job: Job) -> None:
    assert job.ended.wait(ENDED_S), "the worker did not end"
    assert not job.process.is_alive()
    assert job.process.exitcode is not None
