"""``gradstep serve --workers N``: a Stop that reaches another worker process than the job's own
still stops it. Two apps in one process stand for two workers (each has its own jobs), sharing
one job board directory as the CLI's workers do."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import job_board
from app.main import create_app


def test_stop_reaching_the_other_worker_stops_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(job_board.ENV, str(tmp_path))
    with TestClient(create_app()) as holder, TestClient(create_app()) as other:
        run = {"preset": "micrograd-moons", "epochs": 500}  # minutes if nobody stops it
        with holder.stream("POST", "/api/train", json=run) as stream:
            job = stream.headers["x-training-job"]
            assert (tmp_path / f"{job}.running").exists()
            kinds: list[str] = []
            last: dict[str, object] = {}
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    kinds.append(line[7:])
                elif line.startswith("data: "):
                    last = json.loads(line[6:])
                    if kinds[-1] == "epoch" and kinds.count("epoch") == 1:
                        assert other.post(f"/api/train/{job}/stop").status_code == 202
        assert kinds[-1] == "done" and last["stopped"] is True
        assert last["epochs_run"] < 500  # type: ignore[operator]
        deadline = time.monotonic() + 30  # the reader thread unpins once the worker is gone
        while list(tmp_path.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(tmp_path.iterdir()) == []  # unpinned, stop request removed
        # a job no worker holds is still a 404, on either
        assert other.post(f"/api/train/{job}/stop").status_code == 404
        assert other.post("/api/train/../../etc/stop").status_code == 404
