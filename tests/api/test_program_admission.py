"""Issue 30, item 5: programs are admitted like layouts. 45 concurrent 2-second programs took
every request thread: /healthz waited 79 s and the slowest answer 100 s. Now ``run_slots`` run at
once and ``run_queue`` wait, each for RUN_WAIT_S at most; the rest are told at once to come
back (503 with Retry-After). A run also stops at MAX_RUN_S, a 422 located in the program."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import engine
from app import capacity
from app.main import create_app
from app.settings import Settings
from engine import limits

SMALL = "a = 2.0\nb = a * a + 1\n"
LONG = "x = Value(1.0)\nwhile True:\n    y = sum(j for j in range(20))\n"


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """(running, release): a program whose source begins with "# hold" waits in its run, holding
    its slot, until ``release`` is set; ``running`` is set when it has begun."""
    running, release = threading.Event(), threading.Event()
    parse = engine.parse

    def held_parse(source: str, *args: object, **kwargs: object) -> object:
        if source.startswith("# hold"):
            running.set()
            release.wait(30)
        return parse(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "parse", held_parse)
    yield running, release
    release.set()


def _post(client: TestClient, source: str, out: list[object]) -> threading.Thread:
    thread = threading.Thread(
        target=lambda: out.append(client.post("/api/graph", json={"source": source}))
    )
    thread.start()
    return thread


def test_a_full_program_stage_is_503_with_retry_after_and_health_still_answers(
    held: tuple[threading.Event, threading.Event],
) -> None:
    running, release = held
    with TestClient(create_app(Settings(run_slots=1, run_queue=0))) as client:
        answers: list[object] = []
        holder = _post(client, "# hold\n" + SMALL, answers)
        assert running.wait(30)
        busy = client.post("/api/graph", json={"source": "q = 3.0 * 2.0"})
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
        error = busy.json()["error"]
        assert error["kind"] == "busy"
        assert "1 programs are running and 0 waiting" in error["message"]
        svg = client.get("/api/graph.svg", params={"source": "q = 3.0 * 2.0"})
        assert svg.status_code == 503  # every route that runs a program is admitted alike
        assert client.get("/healthz").status_code == 200
        release.set()
        holder.join(30)
        assert answers[0].status_code == 200  # type: ignore[attr-defined]
        assert client.post("/api/graph", json={"source": "q = 3.0 * 2.0"}).status_code == 200


def test_a_program_that_waits_too_long_for_its_turn_is_told_to_come_back(
    held: tuple[threading.Event, threading.Event], monkeypatch: pytest.MonkeyPatch
) -> None:
    running, release = held
    monkeypatch.setattr(capacity, "RUN_WAIT_S", 0.2)
    with TestClient(create_app(Settings(run_slots=1, run_queue=4))) as client:
        answers: list[object] = []
        holder = _post(client, "# hold\n" + SMALL, answers)
        assert running.wait(30)
        waited = client.post("/api/graph", json={"source": "q = 3.0 * 2.0"})
        assert waited.status_code == 503 and waited.headers["retry-after"] == "2"
        assert "this one waited 0.2 s" in waited.json()["error"]["message"]
        release.set()
        holder.join(30)


def test_a_run_past_its_deadline_is_a_located_limit_error_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_RUN_S", 0.1)
    with TestClient(create_app(Settings())) as client:
        response = client.post("/api/graph", json={"source": LONG})
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["kind"] == "limit" and error["line"] in (2, 3)
        assert error["message"].startswith("the program ran for more than 0.1 s")
        # a run out of time says as much of the server's load as of the program: the same
        # request is run again, not answered from the errors kept
        monkeypatch.setattr(limits, "MAX_RUN_S", 60.0)
        again = client.post("/api/graph", json={"source": LONG})
        assert again.json()["error"]["message"].startswith("the program's loops ran 1,000,001")
