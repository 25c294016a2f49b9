"""Issue 30, item 5: programs are admitted like layouts. 45 concurrent 2-second programs took
every request thread: /healthz waited 79 s and the slowest answer 100 s. Now ``run_slots`` run at
once and ``run_queue`` wait, each for RUN_WAIT_S at most; the rest are told at once to come
back (503 with Retry-After). A run is bounded by the sandbox's limits, which the settings set:
past its fuel (GRADSTEP_RUN_FUEL) a 422 that names it, past its memory (GRADSTEP_RUN_MEMORY_MB)
a MemoryError in the program; the sandbox is loaded from its own directory (GRADSTEP_SANDBOX)."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hostile_client import answered

import engine
from app import capacity
from app.main import create_app
from app.settings import Settings
from engine import runner
from engine.runner.build import digest

SMALL = "a = 2.0\nb = a * a + 1\n"
SUM = "print(sum(range(300_000)))\n"  # about 250 M units of work, the same in every run
BIG = "b = bytearray(100 * 2**20)\nprint(len(b))\n"  # 100 MB


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """(running, release): a program whose source begins with "# hold" waits in its run, holding
    its slot, until ``release`` is set; ``running`` is set when it has begun."""
    running, release = threading.Event(), threading.Event()
    run = engine.run

    def held_run(source: str, *args: object, **kwargs: object) -> object:
        if source.startswith("# hold"):
            running.set()
            release.wait(30)
        return run(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "run", held_run)
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


def test_health_answers_while_every_run_slot_is_busy_with_an_endless_program() -> None:
    """Two endless programs hold both slots until their fuel ends; /healthz is answered
    meanwhile, the next program is told to come back, and each endless one is a 422."""
    settings = Settings(run_slots=2, run_queue=0, run_fuel=1_500_000_000)
    with TestClient(create_app(settings)) as client:
        forever = "while True:\n    pass\n"
        answers: list[object] = []
        threads = [_post(client, forever + f"# {k}\n", answers) for k in range(2)]
        assert answered(lambda: client.get("/healthz")).status_code == 200
        for thread in threads:
            thread.join(120)
            assert not thread.is_alive()
        for response in answers:
            error = response.json()["error"]  # type: ignore[attr-defined]
            assert error["kind"] == "limit" and "1,500,000,000 units of work" in error["message"]


def test_the_fuel_setting_bounds_every_run_and_the_422_names_it() -> None:
    with TestClient(create_app(Settings(run_fuel=100_000_000))) as client:
        refused = answered(lambda: client.post("/api/graph", json={"source": SUM}))
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["kind"] == "limit"
        assert error["message"].startswith(
            "the program ran out of time: it did 100,000,000 units of work, gradstep's limit "
            "for one run"
        )
        again = client.post("/api/graph", json={"source": SUM})  # the same work: the same
        assert again.json() == refused.json()
    with TestClient(create_app(Settings(run_fuel=1_000_000_000))) as client:
        response = answered(lambda: client.post("/api/graph", json={"source": SUM}))
        assert response.status_code == 200, response.text
        assert response.json()["console"] == [[1, str(sum(range(300_000)))]]


def test_the_memory_setting_bounds_every_run() -> None:
    with TestClient(create_app(Settings(run_memory_mb=64))) as client:
        error = client.post("/api/graph", json={"source": BIG}).json()["error"]
        assert error["kind"] == "limit" and error["line"] == 1
        assert error["message"].startswith("MemoryError: ")
    with TestClient(create_app(Settings())) as client:  # 512 MB
        # another text: the process keeps the last runs' records by text, whatever the limits
        response = client.post("/api/graph", json={"source": BIG + "# 512 MB\n"})
        assert response.status_code == 200, response.text
        assert response.json()["console"] == [[2, str(100 * 2**20)]]


def test_the_sandbox_is_loaded_from_its_directory(tmp_path: Path) -> None:
    """The app loads the sandbox from GRADSTEP_SANDBOX (its files copied there from this
    process's, so that nothing is built); a directory that cannot be made stops the start."""
    built = runner.sandbox().folder
    own = tmp_path / "sandbox"
    own.mkdir()
    for made in built.glob(f"runner-{digest()}*"):
        shutil.copyfile(made, own / made.name)
    with TestClient(create_app(Settings(sandbox=own))) as client:
        assert runner.sandbox().folder == own
        response = client.post("/api/graph", json={"source": SMALL + "# its own\n"})
        assert response.status_code == 200, response.text
    assert any(own.glob("runner-*.cwasm"))
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    with pytest.raises(OSError), TestClient(create_app(Settings(sandbox=not_a_directory))):
        pass


def _sum_of(n: int) -> str:
    """A program of 2n values (n leaves, n sums): past BIG_TRACE_VALUES for n > 500."""
    return f"xs = [Value(float(i)) for i in range({n})]\ns = sum(xs)\ns.backward()\n"


def test_a_big_new_graph_is_traced_one_at_a_time_and_small_programs_pass_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 41, item 13: a new structure of thousands of values is seconds of Python holding
    the interpreter's lock; under load several at once starved the small programs. One is
    traced at a time (here with no queue); another is refused, a small one is answered."""
    from app import pipeline

    tracing, release = threading.Event(), threading.Event()
    build = pipeline.build

    def held_build(program: object, shape: object) -> object:
        if len(program.graph.data) > pipeline.BIG_TRACE_VALUES:  # type: ignore[attr-defined]
            tracing.set()
            release.wait(30)
        return build(program, shape)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "build", held_build)
    monkeypatch.setattr(pipeline, "BIG_TRACES_WAITING", 0)  # the app's pipeline: none wait
    with TestClient(create_app(Settings())) as client:
        answers: list[object] = []
        holder = _post(client, _sum_of(600), answers)
        assert tracing.wait(60)
        busy = client.post("/api/graph", json={"source": _sum_of(700)})
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
        assert "1 big-graph traces are running" in busy.json()["error"]["message"]
        assert client.post("/api/graph", json={"source": SMALL}).status_code == 200
        release.set()
        holder.join(60)
        assert answers[0].status_code == 200  # type: ignore[attr-defined]
        assert client.post("/api/graph", json={"source": _sum_of(700)}).status_code == 200
