"""Answers kept by their request: the same request again runs nothing, an input's error is given
again without running the program, a graph that ran out of time never takes a layout from others
while they are being laid out, and every cache stays within its bytes."""

from __future__ import annotations

import gc
import gzip
import weakref

import pytest
from fastapi.testclient import TestClient
from programs import dense_source, mlp_source

import engine
from app import pipeline
from app.capacity import Answers, Gate, Unavailable
from app.draw import png
from app.draw.layout import Layout, LayoutSettings
from app.draw.layout.dot_backend import dot_available
from app.main import create_app
from app.presets import PRESETS
from app.settings import Settings
from engine.errors import GradstepError

PROGRAM = "a = 2.0\nb = a * a + 1\nb.backward()\n"
GZIP = {"accept-encoding": "gzip"}  # a client that takes gzip alone (httpx takes brotli too)


def counting_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the pipeline hands to the sandbox (``engine.run``), in order."""
    runs: list[str] = []
    original = engine.run

    def run(source: str, *args: object, **kwargs: object) -> object:
        runs.append(source)
        return original(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "run", run)
    return runs


def test_the_same_request_again_runs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = counting_runs(monkeypatch)
    with TestClient(create_app(Settings(layout="wasm"))) as client:
        first = client.post("/api/graph", json={"source": PROGRAM}, headers=GZIP)
        again = client.post("/api/graph", json={"source": PROGRAM}, headers=GZIP)
        moved = client.post("/api/graph", json={"source": PROGRAM, "values": {"a": 3.0}})
        assert first.status_code == again.status_code == moved.status_code == 200
        assert again.content == first.content and again.headers["content-encoding"] == "gzip"
        assert len(runs) == 2  # the first request and the slider's, not the repeat
        assert moved.json()["numbers"]["data"] != first.json()["numbers"]["data"]
        plain = client.post("/api/graph", json={"source": PROGRAM}, headers={"accept-encoding": ""})
        assert "content-encoding" not in plain.headers and plain.json() == first.json()
        svg = [client.get("/api/graph.svg", params={"source": PROGRAM, "step": 1}) for _ in "ab"]
        assert svg[0].text == svg[1].text and "<svg" in svg[0].text
        assert len(runs) == 3


def test_an_inputs_error_is_given_again_without_running_the_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = counting_runs(monkeypatch)
    with TestClient(create_app(Settings(layout="wasm"))) as client:
        answers = [
            client.post("/api/graph", json={"source": "a = 2.0\nb = a / 0.0\n"}) for _ in "ab"
        ]
        assert [a.status_code for a in answers] == [422, 422]
        assert answers[0].json() == answers[1].json()
        assert answers[1].json()["error"]["line"] == 2
        assert len(runs) == 1


@pytest.mark.skipif(not dot_available(), reason="no dot on PATH")
def test_a_graph_that_ran_out_of_time_waits_while_others_are_laid_out() -> None:
    with TestClient(create_app(Settings(layout="dot", layout_timeout=0.5))) as client:
        layout = client.app.state.layout  # type: ignore[attr-defined]
        slow = {"source": dense_source()}
        assert client.post("/api/graph", json=slow).status_code == 422  # its first try
        starts: list[str] = []
        original = layout.start
        layout.start = lambda source: starts.append(source) or original(source)
        layout.gate.enter()  # another graph is being laid out
        try:
            refused = client.post("/api/graph", json=slow)
            variant = client.post("/api/graph", json={**slow, "values": {"x0": 0.5}})
        finally:
            layout.gate.leave()
        for answer in (refused, variant):  # the same text, and the same graph with other values
            assert answer.status_code == 503 and answer.headers["retry-after"] == "2"
            assert "ran out of time" in answer.json()["error"]["message"]
        assert starts == []  # no layout was started for it
        assert client.post("/api/graph", json=slow).status_code == 422  # free: tried again
        assert len(starts) == 1


def test_answers_stay_within_their_bytes() -> None:
    answers = Answers(max_bytes=64 << 10, busy=lambda: None)
    for i in range(200):
        answers.get(f"k{i}", lambda i=i: bytes([i % 256]) * 5000 + str(i).encode() * 999)
    assert answers.size <= 64 << 10
    assert gzip.decompress(answers.get("k199", lambda: b"not run")).endswith(b"199")
    with pytest.raises(Unavailable):
        failing = Answers(1 << 20, busy=lambda: Unavailable("busy", "busy", 2))

        def too_slow() -> bytes:
            raise GradstepError("this graph is too complex to draw", kind="layout")

        with pytest.raises(GradstepError):
            failing.get("slow", too_slow)
        failing.get("slow", lambda: b"not run while busy")


def test_a_kept_error_keeps_nothing_of_the_run_that_raised_it() -> None:
    """An error is kept by its key, but not the traceback it was raised with: that traceback's
    frames hold the whole program (under load, thousands of failed graphs were kept alive)."""

    class Program:  # stands for a parsed program, its outline and its structure
        pass

    answers = Answers(1 << 20, busy=lambda: None)
    seen: list[weakref.ref[Program]] = []

    def fails() -> bytes:
        program = Program()
        seen.append(weakref.ref(program))
        raise GradstepError("b = a / 0.0: division by zero", span=None)

    with pytest.raises(GradstepError):
        answers.get("bad", fails)
    gc.collect()
    assert seen[0]() is None
    with pytest.raises(GradstepError, match="division by zero"):  # still given again
        answers.get("bad", lambda: b"not run")


def test_layouts_stay_within_their_bytes() -> None:
    layout = Layout(LayoutSettings(backend="wasm", cache_entries=100, cache_bytes=300_000))
    try:
        sources = [f'digraph {{ a{i} -> b; label="{"x" * 40_000}" }}' for i in range(12)]
        for source in sources:
            layout.template(source)
        assert layout._cache.bytes <= 300_000
        assert layout.cached(sources[-1]) is not None and layout.cached(sources[0]) is None
    finally:
        layout.close()


def test_a_big_answer_is_kept_compressed() -> None:
    with TestClient(create_app(Settings(layout="wasm"))) as client:
        source = mlp_source()
        first = client.post("/api/graph", json={"source": source}, headers=GZIP)
        assert first.status_code == 200
        kept = client.app.state.answers.size  # type: ignore[attr-defined]
        assert 0 < kept < len(first.content) / 3  # as sent, gzipped (the client unzipped it)


def test_a_png_the_renderer_has_no_room_for_is_refused_before_its_graph_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = counting_runs(monkeypatch)
    full = Gate("PNG render", slots=1, queue=0, retry_after=2)
    monkeypatch.setattr(png, "_gate", full)
    with TestClient(create_app(Settings(layout="wasm"))) as client:
        with full.slot():  # another PNG is being rendered
            refused = client.get("/api/graph.png", params={"source": PROGRAM})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
        assert runs == []  # nothing was drawn for it
        assert client.get("/api/graph.png", params={"source": PROGRAM}).status_code == 200


def test_the_largest_presets_structure_is_kept_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 979-value demo's structure (about 33 MB, a second to build) fits the default share
    of GRADSTEP_CACHE_MB: another step or view of it builds nothing again."""
    builds: list[object] = []
    original = pipeline.build
    monkeypatch.setattr(pipeline, "build", lambda *a: builds.append(a) or original(*a))
    demo = next(p.source for p in PRESETS if p.id == "micrograd-demo")
    with TestClient(create_app(Settings(layout="wasm"))) as client:
        for rankdir in ("LR", "TB"):
            answer = client.post("/api/graph", json={"source": demo, "rankdir": rankdir})
            assert answer.status_code == 200
        assert len(builds) == 1
