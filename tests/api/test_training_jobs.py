"""The training lab's API, its jobs: the cap on running jobs (503 with Retry-After, the slot
freed by Stop), a worker that dies, a run that diverges, and a client that goes away
cancelling its job."""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from training_client import (
    SLOW,
    assert_worker_ended,
    events,
    job_of,
    training_client,  # noqa: F401  (the fixture client)
)

from app.main import create_app
from app.training.jobs import RETRY_AFTER_S, TrainingJobs


def test_all_slots_busy_is_503_with_retry_after(client: TestClient) -> None:
    app = client.app
    app.state.training = TrainingJobs(max_jobs=1)  # type: ignore[attr-defined]
    try:
        with client.stream("POST", "/api/train", json=SLOW) as first:
            job = job_of(client, first.headers["x-training-job"])
            busy = client.post("/api/train", json={"preset": "xor-tanh"})
            assert busy.status_code == 503
            assert busy.headers["retry-after"] == str(RETRY_AFTER_S)
            assert "busy" in busy.json()["error"]["message"]
        assert_worker_ended(job)  # closing the stream (Stop) ended the job
        again = client.post("/api/train", json={"preset": "xor-tanh", "epochs": 2})
        assert again.status_code == 200  # the slot is free once the worker has ended
    finally:
        app.state.training = TrainingJobs()  # type: ignore[attr-defined]


def test_a_worker_that_dies_ends_the_stream_with_an_error_event(client: TestClient) -> None:
    with client.stream("POST", "/api/train", json=SLOW) as response:
        job = job_of(client, response.headers["x-training-job"])
        seen = []
        for name, data in events(response.iter_lines()):
            seen.append((name, data))
            if name == "epoch" and data["epoch"] == 1:
                os.kill(job.process.pid, signal.SIGKILL)
    name, data = seen[-1]
    assert name == "error"
    assert "ended unexpectedly (exit code -9)" in data["error"]["message"]
    assert_worker_ended(job)


class LiveServer:
    """uvicorn in a thread of this process, so the test can look at the app's jobs directly."""

    def __init__(self) -> None:
        self.app = create_app()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "xor-tanh", "activation": "relu", "lr": 1e6, "epochs": 50},  # an op overflows
        {"preset": "xor-tanh", "loss": "bce", "activation": "linear", "lr": 1e300, "epochs": 20},
    ],
)
def test_a_diverging_run_ends_with_an_error_event(client: TestClient, body: dict[str, Any]) -> None:
    with client.stream("POST", "/api/train", json=body) as response:
        job = job_of(client, response.headers["x-training-job"])
        seen = list(events(response.iter_lines()))
    name, data = seen[-1]
    assert name == "error" and data["error"]["kind"] == "overflow"
    assert "smaller learning rate" in data["error"]["message"]
    assert [n for n, _ in seen].count("done") == 0
    assert_worker_ended(job)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer()
    server.thread.start()
    started = threading.Event()
    while not started.wait(0.01):  # startup is waited for, not timed
        if server.server.started:
            started.set()
        assert server.thread.is_alive(), "uvicorn did not start"
    yield server
    server.server.should_exit = True
    server.thread.join()


def test_a_client_that_goes_away_cancels_the_job(live: LiveServer) -> None:
    with (
        httpx.Client(timeout=60) as http,
        http.stream("POST", f"{live.url}/api/train", json=SLOW) as response,
    ):
        jobs: TrainingJobs = live.app.state.training
        job = jobs.get(response.headers["x-training-job"])
        assert job is not None
        for name, data in events(response.iter_lines()):
            if name == "epoch" and data["epoch"] == 2:
                break  # leaving the block closes the connection mid-stream
    assert_worker_ended(job)
    assert job.reason == "disconnect"
    assert job.epoch < SLOW["epochs"]
    assert jobs.running() == []
