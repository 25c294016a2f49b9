"""Each app keeps its own state (issue 44): its lifespan makes its pipeline (the runs' gate and
limits, the structures kept) from its settings, and routes are given it by app/deps.py; no
app's start-up changes a module's globals, so two apps alive in one process keep their own."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

SUM = "print(sum(range(300_000)))\n"  # about 250 M units of work, the same in every run


def test_two_apps_in_one_process_keep_their_own_run_limits() -> None:
    tight = Settings(run_fuel=100_000_000, run_slots=1, run_queue=0, cache_mb=64)
    with TestClient(create_app(tight)) as small, TestClient(create_app(Settings())) as roomy:
        refused = small.post("/api/graph", json={"source": SUM})
        ran = roomy.post("/api/graph", json={"source": SUM})
        # after the roomy app started and ran it: the first app's limit holds
        again = small.post("/api/graph", json={"source": SUM + "# again\n"})
        pipelines = small.app.state.pipeline, roomy.app.state.pipeline  # type: ignore[attr-defined]
    assert ran.status_code == 200, ran.text
    for response in (refused, again):
        assert response.status_code == 422
        assert "it did 100,000,000 units of work" in response.json()["error"]["message"]
    assert [p.runs.slots for p in pipelines] == [1, Settings().run_slots]
    assert [p.limits.fuel for p in pipelines] == [100_000_000, Settings().run_fuel]
    assert pipelines[0].structures is not pipelines[1].structures
    assert pipelines[0].structures.max_bytes < pipelines[1].structures.max_bytes
